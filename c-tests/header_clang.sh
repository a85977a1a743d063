#!/usr/bin/env bash
# The header checks of CMakeLists.txt (the C header alone as strict C99 and
# as C++11, the C++ wrapper alone as C++17, every warning an error) with
# clang and clang++, whatever compiler the build uses; clang also checks the
# documentation comments against the declarations (-Wdocumentation: every
# \param names a parameter).
# Usage: header_clang.sh CLANG CLANGXX SOURCE_DIR
set -euo pipefail
clang="$1" clangxx="$2" src="$3"
inc=(-I "$src/include")
"$clang" -std=c99 -pedantic -Wall -Wextra -Werror -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
    -Wcast-qual -Wdocumentation -fsyntax-only "${inc[@]}" "$src/c-tests/header_c99.c"
"$clangxx" -std=c++11 -pedantic -Wall -Wextra -Werror -Wold-style-cast -Wzero-as-null-pointer-constant -Wshadow \
    -Wmissing-declarations -Wdocumentation -fsyntax-only "${inc[@]}" "$src/c-tests/header_cxx.cpp"
"$clangxx" -std=c++17 -Wall -Wextra -Wpedantic -Werror -Wold-style-cast -Wzero-as-null-pointer-constant -Wshadow \
    -Wmissing-declarations -fsyntax-only "${inc[@]}" "$src/c-tests/header_hpp.cpp"
echo "clang: the header compiles clean as C99 and C++11, the wrapper as C++17"
