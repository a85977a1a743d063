#!/usr/bin/env bash
# The header checks of CMakeLists.txt (the C header alone as strict C99 and
# as C++11, the C++ wrapper alone as C++17, every warning an error) with
# clang and clang++, whatever compiler the build uses; clang also checks the
# documentation comments against the declarations (-Wdocumentation: every
# \param names a parameter), and the nullability of the header (see below).
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
# Nullability (the header's MCPR_NULLABLE / assume_nonnull region, which
# only clang sees): the header is complete (every pointer annotated or in
# the region) and every C and C++ test compiles with clang without a NULL
# passed where the header says non-null (the misuse checks pass
# MISUSE_NULL, which clang cannot see) and without a nullable value
# converted to a non-null one.
null=(-Wnullability-completeness -Wnullable-to-nonnull-conversion -Wnonnull)
for t in "$src"/c-tests/test_*.c; do
    "$clang" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror "${null[@]}" -fsyntax-only \
        "${inc[@]}" -I "$src/c-tests" "$t"
done
for t in "$src"/c-tests/test_*.cpp; do
    "$clangxx" -std=c++17 -Wall -Wextra -Werror "${null[@]}" -fsyntax-only "${inc[@]}" "$t"
done
# The annotations take effect: a literal NULL for a non-null parameter is
# an error under -Werror, a NULL where the documentation allows it is not.
probe="$(mktemp "${TMPDIR:-/tmp}/mcpr_nullability.XXXXXX.c")"
trap 'rm -f "$probe"' EXIT
cat >"$probe" <<'PROBE'
#include <mcp_resources.h>
void probe(mcpr_bundle *b);
void probe(mcpr_bundle *b) {
    mcpr_bundle_free(b);
    mcpr_bundle_free(NULL);
    mcpr_error_free(NULL);
    (void)mcpr_read(NULL, (mcpr_str){NULL, 0}, NULL, &b, NULL);
}
PROBE
if out="$("$clang" -std=c99 -Wall -Wextra -Werror "${null[@]}" -fsyntax-only "${inc[@]}" "$probe" 2>&1)"; then
    echo "clang: a NULL registry passed to mcpr_read compiled without -Wnonnull" >&2
    exit 1
fi
if [ "$(grep -c 'error: null passed to a callee that requires a non-null argument' <<<"$out")" != 1 ]; then
    printf 'clang: expected exactly one -Wnonnull error (mcpr_read'"'"'s registry), got:\n%s\n' "$out" >&2
    exit 1
fi
echo "clang: the header compiles clean as C99 and C++11, the wrapper as C++17; the C and C++ tests"
echo "  compile with the header's nullability (a NULL registry for mcpr_read is refused)"
