#!/usr/bin/env bash
# The header as a Clang module: compiles use_module.c (#include turned into
# a module import) and use_module.m (`@import MCPResources;`) with
# -fmodules against include/module.modulemap, then checks that the module
# MCPResources was really built (not a textual include).
# Usage: run.sh CLANG SOURCE_DIR WORK_DIR
set -euo pipefail
clang="$1" src="$2" work="$3"
rm -rf "$work"
mkdir -p "$work/cache"
flags=(-fmodules "-fmodules-cache-path=$work/cache" -Wall -Wextra -Werror -I "$src/include")
"$clang" "${flags[@]}" -std=c99 -c "$src/c-tests/modules/use_module.c" -o "$work/use_module_c.o"
"$clang" "${flags[@]}" -x objective-c -c "$src/c-tests/modules/use_module.m" -o "$work/use_module_m.o"
if ! find "$work/cache" -name 'MCPResources-*.pcm' | grep -q .; then
    echo "module MCPResources was not built: the header was included textually" >&2
    exit 1
fi
echo "module MCPResources: C and Objective-C imports compile"
