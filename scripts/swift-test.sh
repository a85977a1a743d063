#!/usr/bin/env bash
# The Swift suites (part of scripts/test.sh): the Swift package at the root
# of the repository (Package.swift: the MCPResources wrapper and its XCTest
# suites) and the Swift example MCP server (examples/swift), built with
# Debian trixie's Swift 6 in a minimal trixie chroot (scripts/swift-chroot.sh:
# debootstrap from the host's own Debian mirror, reused from
# /var/cache/mcp-resources-swift while the package versions hold). Swift 6
# needs glibc 2.38 or later, which the build machines lack, so everything
# Swift runs inside the chroot; the library is built on the host and its
# installation bound in.
#
# Steps: build and install the library (CMake, into build/swift-prefix);
# mount /proc, /dev, /dev/pts and /dev/shm in the chroot and bind the clone
# (at /mcp-resources) and the installation (read-only, at
# /opt/mcp-resources); `swift build` and `swift test` linked against the
# shared library (rpath) and then statically (MCPR_SWIFT_STATIC=1), checking
# with ldd which library each test binary loads; the example server built
# statically (release) and driven from the host by the official Python
# client (tests/clients/swift-example/python_client.py; it starts the server
# as `chroot ROOT SERVER` with a bare environment) on 2025-11-25 and
# 2026-07-28, every response also validated against the revision's JSON
# Schema; the example linked shared (rpath) once more on 2025-11-25; the
# README's 20-line server (mcpr-swift-hello) answering over stdio. Every
# mount is undone on every exit path (success, failure, Ctrl-C, SIGTERM):
# an EXIT trap unmounts whatever lies under the chroot cache, and the script
# fails if anything is left.
#
# Usage: scripts/swift-test.sh [test|bench]   (bench: the small exact read
# through the Swift wrapper against the C ABI figure of build/bench_read,
# printed, not asserted). Without root, debootstrap or a mirror serving
# trixie it prints a SKIPPED banner and succeeds, unless
# MCPR_REQUIRE_SWIFT=1 (set by scripts/test.sh), which makes it fail.
# MCPR_SWIFT_CACHE moves the chroot cache. MCPR_SWIFT_FILTER=PATTERN runs
# only the XCTest cases matching PATTERN (swift test --filter), linked
# shared, and skips every other step (for iterating on one suite).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
mode="${1:-test}"
case "$mode" in test | bench) ;; *) echo "swift-test: unknown mode '$mode' (test, bench)" >&2; exit 2 ;; esac
. scripts/swift-chroot.sh

skip() {
  echo "################################################################"
  echo "## SKIPPED: Swift suites: $1"
  echo "################################################################"
  if [ "${MCPR_REQUIRE_SWIFT:-0}" = 1 ]; then
    echo "swift-test: MCPR_REQUIRE_SWIFT=1, failing" >&2
    exit 1
  fi
  exit 0
}

if [ "$(id -u)" -eq 0 ] && [ -z "$(swift_debootstrap)" ] && command -v apt-get >/dev/null 2>&1; then
  echo "== swift: installing debootstrap"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null || true
fi
why="$(swift_chroot_unavailable)"
[ -z "$why" ] || skip "$why"

# One run at a time per cache (a second one waits): the EXIT trap unmounts
# everything under the cache.
mkdir -p "$MCPR_SWIFT_CACHE"
exec 9>"$MCPR_SWIFT_CACHE/.lock"
flock 9

# Long steps run through swift_run (scripts/swift-chroot.sh): in a process
# group of their own, so that a signal reaches the trap at once and the trap
# can stop them before unmounting.
run() { swift_run "$@"; }
cleanup() {
  local rc=$?
  # A second signal must not cut the cleanup short (default dispositions
  # would end the shell mid-way and leave mounts behind).
  trap - EXIT
  trap '' INT TERM HUP
  swift_stop_child
  if [ -n "${SWIFT_ROOT:-}" ]; then
    swift_stop_chroot_processes "$SWIFT_ROOT"
    swift_stop_chroot_processes "$SWIFT_ROOT.partial"
  fi
  if ! swift_unmount_all; then
    echo "swift-test: mounts left behind under $MCPR_SWIFT_CACHE" >&2
    rc=1
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if ! SWIFT_VERSIONS="$(swift_candidate_versions "$(swift_mirror)")"; then
  # Offline: a chroot made earlier still serves.
  SWIFT_ROOT="$(swift_cached_chroot)" ||
    skip "the mirror $(swift_mirror) does not serve $SWIFT_SUITE (${SWIFT_PACKAGES[*]}) and no chroot is cached"
  echo "== swift: the mirror cannot be read; using the cached chroot $SWIFT_ROOT"
fi
start=$(date +%s)

echo "== swift: building and installing the library (build/swift-prefix)"
prefix="$root/build/swift-prefix"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
run cmake --build build --target mcp_resources_cargo
[ "$mode" != bench ] || run cmake --build build --target bench_read
rm -rf "$prefix"
cmake --install build --prefix "$prefix" >/dev/null

[ -n "${SWIFT_ROOT:-}" ] || swift_chroot_prepare
R="$SWIFT_ROOT"
swift_mount "$R"
swift_bind "$root" "$R" /mcp-resources
swift_bind "$prefix" "$R" /opt/mcp-resources ro

# in_chroot [VAR=value...] COMMAND...: runs in the clone inside the chroot.
in_chroot() {
  run chroot "$R" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 \
    PKG_CONFIG_PATH=/opt/mcp-resources/lib/pkgconfig "$@"
}
scratch=/mcp-resources/build/swift
# SwiftPM does not rebuild the wrapper when only the C header changed (it
# is a system-library target's): a build made against another header
# would hand the library structs of their old size, which it writes past.
# The scratch builds go whenever the header differs from the last one's.
header_sum="$(sha256sum include/mcp_resources.h | cut -d' ' -f1)"
if [ "$(cat "$root/build/swift/header.sha256" 2>/dev/null)" != "$header_sum" ]; then
  rm -rf "$root/build/swift"
  mkdir -p "$root/build/swift"
  echo "$header_sum" >"$root/build/swift/header.sha256"
fi
rpath=(-Xlinker -rpath -Xlinker /opt/mcp-resources/lib)
echo "== swift: $(chroot "$R" swift --version 2>/dev/null | head -1)"

# links_library BINARY: whether BINARY (a path inside the chroot) loads
# libmcp_resources.so at run time.
links_library() {
  local deps
  deps="$(chroot "$R" ldd "$1")"
  grep -q 'libmcp_resources\.so' <<<"$deps"
}

if [ "$mode" = bench ]; then
  echo "== swift: building the benchmark (release, static)"
  in_chroot MCPR_SWIFT_STATIC=1 sh -c "cd /mcp-resources && swift build -c release --scratch-path $scratch/bench --product mcpr-swift-bench"
  c_out="$(./build/bench_read 200000 inline)"
  echo "$c_out"
  c_ns="$(printf '%s\n' "$c_out" | awk '/small_exact_read\/inline/ { print $2; exit }')"
  in_chroot MCPR_SWIFT_STATIC=1 MCPR_C_INLINE_NS="$c_ns" "$scratch/bench/release/mcpr-swift-bench" 200000
  exit 0
fi

if [ -n "${MCPR_SWIFT_FILTER:-}" ]; then
  echo "== swift test --filter $MCPR_SWIFT_FILTER (shared library, rpath; the other steps skipped)"
  in_chroot sh -c "cd /mcp-resources && swift build --build-tests --scratch-path $scratch/shared ${rpath[*]} && swift test --skip-build --disable-swift-testing --scratch-path $scratch/shared --filter '$MCPR_SWIFT_FILTER'"
  exit 0
fi

echo "== swift build / swift test (shared library, rpath)"
in_chroot sh -c "cd /mcp-resources && swift build --build-tests --scratch-path $scratch/shared ${rpath[*]} && swift test --skip-build --disable-swift-testing --scratch-path $scratch/shared"
if ! links_library "$scratch/shared/debug/mcp-resourcesPackageTests.xctest"; then
  echo "swift-test: the shared test binary does not load libmcp_resources.so" >&2
  exit 1
fi

echo "== swift build / swift test (static library, MCPR_SWIFT_STATIC=1)"
in_chroot MCPR_SWIFT_STATIC=1 sh -c "cd /mcp-resources && swift build --build-tests --scratch-path $scratch/static && swift test --skip-build --disable-swift-testing --scratch-path $scratch/static"
if links_library "$scratch/static/debug/mcp-resourcesPackageTests.xctest"; then
  echo "swift-test: the static test binary loads libmcp_resources.so" >&2
  exit 1
fi

echo "== swift: the example server (examples/swift), static and shared"
in_chroot MCPR_SWIFT_STATIC=1 sh -c "cd /mcp-resources/examples/swift && swift build -c release --scratch-path $scratch/example-static"
in_chroot sh -c "cd /mcp-resources/examples/swift && swift build -c release --scratch-path $scratch/example-shared ${rpath[*]}"
server_static="$scratch/example-static/release/mcpr-swift-server"
server_shared="$scratch/example-shared/release/mcpr-swift-server"
if links_library "$server_static" || ! links_library "$server_shared"; then
  echo "swift-test: the example servers link the wrong library" >&2
  exit 1
fi

# The README's 20-line server answers over stdio.
hello="$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"doc://hello"}}' \
  '{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"doc://nope"}}' |
  chroot "$R" "$scratch/example-static/release/mcpr-swift-hello")"
for want in '"id":1,"result":{"protocolVersion":"2025-11-25"' '"id":2,"result":{"contents":[{"uri":"doc://hello","mimeType":"text/plain","text":"hello"}]' \
  '"id":3,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"doc://nope"}}'; do
  if ! grep -qF "$want" <<<"$hello"; then
    printf 'swift-test: the 20-line server answered:\n%s\nwithout: %s\n' "$hello" "$want" >&2
    exit 1
  fi
done
echo "== swift: the 20-line server (mcpr-swift-hello) answers initialize and reads"

py="$(bash scripts/setup-clients.sh | tail -1)"
schema_dir="$(cargo metadata --format-version 1 --locked --offline \
  --manifest-path tests/clients/schema/Cargo.toml |
  "$py" -c 'import json, os, sys
m = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"] == "protocol-droid-schema") + "/spec")')"
chroot_bin="$(command -v chroot)"
client() { # REVISION SERVER
  run env -i HOME="$HOME" PATH="$PATH" MCPR_SCHEMA_DIR="$schema_dir" PYTHONDONTWRITEBYTECODE=1 \
    "$py" tests/clients/swift-example/python_client.py "$1" "$chroot_bin" "$R" "$2"
}
for rev in 2025-11-25 2026-07-28; do
  echo "== end-to-end: official Python client, $rev, Swift server (static)"
  client "$rev" "$server_static"
done
echo "== end-to-end: official Python client, 2025-11-25, Swift server (shared, rpath)"
client 2025-11-25 "$server_shared"
echo "== swift suites passed in $(($(date +%s) - start)) s (chroot $R)"
