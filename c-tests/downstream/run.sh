#!/usr/bin/env bash
# Installs the built project into a temporary prefix, then builds and runs a
# downstream project against it with find_package (CMake) and with
# pkg-config, and compiles a C++ program against the installed C++ wrapper.
# Usage: run.sh <build dir> <downstream source dir> [generator]
set -euo pipefail
build="$1"
src="$2"
generator="${3:-Ninja}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcpr-downstream.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/mcp_resources.h"
test -f "$prefix/include/module.modulemap"   # the Clang module next to the header
test -f "$prefix/include/mcp_resources.hpp"
for part in base handles callbacks registry; do   # the wrapper's parts
    test -f "$prefix/include/mcp_resources/$part.hpp"
done
test -f "$prefix/lib/cmake/mcp_resources/mcp_resourcesConfig.cmake"
test -f "$prefix/lib/cmake/mcp_resources/mcp_resourcesConfigVersion.cmake"

# On Linux: libmcp_resources.so -> .so.X.Y -> .so.X.Y.Z, SONAME .so.X.Y.
if [ "$(uname -s)" = Linux ]; then
    version="$(grep -m1 '^version' "$src/../../Cargo.toml" | sed 's/.*"\(.*\)"/\1/')"
    soname="libmcp_resources.so.${version%.*}"
    test -L "$prefix/lib/libmcp_resources.so"
    test "$(readlink "$prefix/lib/libmcp_resources.so")" = "$soname"
    test "$(readlink "$prefix/lib/$soname")" = "libmcp_resources.so.$version"
    test -f "$prefix/lib/libmcp_resources.so.$version" && test ! -L "$prefix/lib/libmcp_resources.so.$version"
    if command -v readelf >/dev/null; then
        readelf -d "$prefix/lib/libmcp_resources.so.$version" | grep -q "Library soname: \[$soname\]"
        # Release builds install a stripped library whose debuglink names the
        # separate debug info installed under lib/.debug/.
        if grep -q '^MCPR_SPLIT_DEBUG_INFO:BOOL=ON' "$build/CMakeCache.txt" &&
            ! grep -q '^CMAKE_BUILD_TYPE:STRING=Debug' "$build/CMakeCache.txt"; then
            if readelf -S "$prefix/lib/libmcp_resources.so.$version" | grep -q '\.debug_'; then
                echo "downstream: the installed library has debug sections" >&2
                exit 1
            fi
            readelf -p .gnu_debuglink "$prefix/lib/libmcp_resources.so.$version" | grep -q 'libmcp_resources\.so\.debug'
            readelf -S "$prefix/lib/.debug/libmcp_resources.so.debug" | grep -q '\.debug_line'
        fi
    fi
fi

# CMake: find_package(mcp_resources) through CMAKE_PREFIX_PATH.
cmake -S "$src" -B "$tmp/build" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
"$tmp/build/downstream"
"$tmp/build/downstream_static"
if [ "$(uname -s)" = Linux ] && command -v readelf >/dev/null; then
    # The consumer records the SONAME, not a path or the unversioned name.
    readelf -d "$tmp/build/downstream" | grep -q "Shared library: \[$soname\]"
fi

# pkg-config.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
test "$(pkg-config --modversion mcp_resources)" = "$(grep -m1 '^version' "$src/../../Cargo.toml" | sed 's/.*"\(.*\)"/\1/')"
# shellcheck disable=SC2046
cc -std=c99 -o "$tmp/downstream_pc" "$src/main.c" $(pkg-config --cflags --libs mcp_resources) \
    -Wl,-rpath,"$prefix/lib"
"$tmp/downstream_pc"
if [ "$(uname -s)" = Linux ] && command -v readelf >/dev/null; then
    readelf -d "$tmp/downstream_pc" | grep -q "Shared library: \[$soname\]"
fi
# The C++ wrapper from the installed headers (pkg-config flags): a part
# from each of its headers (handles, registry with the callbacks it needs).
cat >"$tmp/downstream_hpp.cpp" <<'CPP'
#include <mcp_resources.hpp>
int main() {
    mcpr::Cancel c;
    c.cancel();
    mcpr::EmbedOptions o;
    o.form = MCPR_EMBED_LINK;
    bool tools = mcpr::resource_tool_definitions().find("read_resource") != std::string_view::npos;
    return c.is_canceled() && tools && o.form == MCPR_EMBED_LINK ? 0 : 1;
}
CPP
# shellcheck disable=SC2046
c++ -std=c++17 -o "$tmp/downstream_hpp" "$tmp/downstream_hpp.cpp" $(pkg-config --cflags --libs mcp_resources) \
    -Wl,-rpath,"$prefix/lib"
"$tmp/downstream_hpp"

# The SwiftPM pkg-config modules (Package.swift): only flags SwiftPM accepts
# (-I, -L, -l: no archive path, no -D), a header directory without the
# Clang module map, and a static link that needs no shared library.
for m in mcp_resources_swiftpm mcp_resources_swiftpm_static; do
    for flag in $(pkg-config --cflags --libs "$m"); do
        case "$flag" in
            -I* | -L* | -l*) ;;
            *) echo "downstream: $m.pc has a flag SwiftPM prohibits: $flag" >&2; exit 1 ;;
        esac
    done
    incdir="$(pkg-config --cflags-only-I "$m" | sed 's/^-I//; s/ *$//')"
    test -f "$incdir/mcp_resources.h"
    test ! -e "$incdir/module.modulemap"
    cmp -s "$incdir/mcp_resources.h" "$prefix/include/mcp_resources.h"
done
test -L "$prefix/lib/mcp_resources_static/libmcp_resources.a"
test "$(ls "$prefix/lib/mcp_resources_static")" = libmcp_resources.a
# shellcheck disable=SC2046
cc -std=c99 -o "$tmp/downstream_swiftpm_static" "$src/main.c" $(pkg-config --cflags --libs mcp_resources_swiftpm_static)
"$tmp/downstream_swiftpm_static"
if [ "$(uname -s)" = Linux ] && command -v readelf >/dev/null; then
    if readelf -d "$tmp/downstream_swiftpm_static" | grep -q 'libmcp_resources'; then
        echo "downstream: mcp_resources_swiftpm_static.pc linked the shared library" >&2
        exit 1
    fi
fi
echo "downstream: find_package, pkg-config (also the SwiftPM modules) and C++ wrapper consumers built and ran"
