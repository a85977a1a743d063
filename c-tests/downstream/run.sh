#!/usr/bin/env bash
# Installs the built project into a temporary prefix, then builds and runs a
# downstream project against it with find_package (CMake) and with
# pkg-config. Usage: run.sh <build dir> <downstream source dir> [generator]
set -euo pipefail
build="$1"
src="$2"
generator="${3:-Ninja}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcpr-downstream.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/mcp_resources.h"
test -f "$prefix/lib/cmake/mcp_resources/mcp_resourcesConfig.cmake"
test -f "$prefix/lib/cmake/mcp_resources/mcp_resourcesConfigVersion.cmake"

# CMake: find_package(mcp_resources) through CMAKE_PREFIX_PATH.
cmake -S "$src" -B "$tmp/build" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
"$tmp/build/downstream"
"$tmp/build/downstream_static"

# pkg-config.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
test "$(pkg-config --modversion mcp_resources)" = "$(grep -m1 '^version' "$src/../../Cargo.toml" | sed 's/.*"\(.*\)"/\1/')"
# shellcheck disable=SC2046
cc -std=c99 -o "$tmp/downstream_pc" "$src/main.c" $(pkg-config --cflags --libs mcp_resources) \
    -Wl,-rpath,"$prefix/lib"
"$tmp/downstream_pc"
echo "downstream: find_package and pkg-config consumers built and ran"
