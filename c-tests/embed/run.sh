#!/usr/bin/env bash
# Embeds the project with add_subdirectory() (c-tests/embed/CMakeLists.txt):
# a Release host builds and runs a program against mcp_resources::mcp_resources
# and registers none of the project's tests; the library it links is stripped
# with a GNU debuglink to separate debug info (Linux). A Debug host makes
# cargo build its dev profile (checked in the generated build files, without
# building it).
# Usage: run.sh <source dir> [generator]
set -euo pipefail
src="$1"
generator="${2:-Ninja}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcpr-embed.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

cmake -S "$src/c-tests/embed" -B "$tmp/release" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
    -DMCPR_SOURCE_DIR="$src" >/dev/null
cmake --build "$tmp/release" >/dev/null
"$tmp/release/embedded"
tests="$(ctest --test-dir "$tmp/release" -N | awk '/Total Tests:/ { print $3 }')"
if [ "$tests" != 0 ]; then
    echo "embed: the host registered $tests of the project's tests" >&2
    exit 1
fi
if [ "$(uname -s)" = Linux ] && command -v readelf >/dev/null; then
    lib="$tmp/release/mcp_resources/lib/libmcp_resources.so"
    if readelf -S "$lib" | grep -q '\.debug_'; then
        echo "embed: $lib still has debug sections" >&2
        exit 1
    fi
    readelf -S "$lib" | grep -q '\.gnu_debuglink'
    readelf -S "$lib.debug" | grep -q '\.debug_line'
    # The program links the build tree's library by its SONAME.
    readelf -d "$tmp/release/embedded" | grep -q 'Shared library: \[libmcp_resources\.so\.'
fi

cmake -S "$src/c-tests/embed" -B "$tmp/debug" -G "$generator" -DCMAKE_BUILD_TYPE=Debug \
    -DMCPR_SOURCE_DIR="$src" >/dev/null
if [ "$generator" = Ninja ]; then
    rules="$tmp/debug/build.ninja"
    grep -q 'cargo rustc --lib' "$rules" || grep -q 'rustc --lib' "$rules"
    if grep -q 'rustc --release' "$rules"; then
        echo "embed: a Debug host builds cargo's release profile" >&2
        exit 1
    fi
fi
echo "embed: add_subdirectory host built and ran; no tests registered; library stripped with debuglink; Debug maps to cargo's dev profile"
