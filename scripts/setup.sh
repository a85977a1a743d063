#!/usr/bin/env bash
# Installs what this project's builds and tests need and a fresh machine may
# lack, then exports PATH for it. Sourced (`source scripts/setup.sh [WHAT]`)
# by scripts/c-example.sh, scripts/test.sh and .ci/run; idempotent and quick
# when everything is there. WHAT is `example` (the C example: cargo, cmake,
# ninja, a C compiler) or `all` (default: every suite).
#
# Installs with apt-get (as root, or through sudo): cmake, ninja-build,
# valgrind, pkg-config, libgtest-dev, g++, clang, doxygen, python3-venv, nodejs,
# npm, debootstrap (the Swift suites' trixie chroot, scripts/swift-test.sh), and
# golang-go when no Go is found; with cargo: cbindgen 0.29.4 (pinned: the
# committed header is its output) and cargo-fuzz; with rustup: the nightly
# toolchain and its rust-src component (Rust-side sanitizers, fuzzing). The
# official MCP clients used by the tests are installed into tests/clients/
# by scripts/setup-clients.sh, which the test scripts call.

mcpr_setup_what="${1:-all}"
export PATH="$HOME/.cargo/bin:/usr/local/go/bin:$PATH"

mcpr_apt_install() {
  [ $# -gt 0 ] || return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "== setup: installing $*"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"
}

mcpr_need_apt=()
command -v cargo >/dev/null 2>&1 || {
  echo "setup: cargo (Rust, installed with rustup) is required and was not found" >&2
  return 1 2>/dev/null || exit 1
}
command -v cmake >/dev/null 2>&1 || mcpr_need_apt+=(cmake)
command -v ninja >/dev/null 2>&1 || mcpr_need_apt+=(ninja-build)
command -v cc >/dev/null 2>&1 || mcpr_need_apt+=(gcc)
if [ "$mcpr_setup_what" = all ]; then
  command -v g++ >/dev/null 2>&1 || mcpr_need_apt+=(g++)
  command -v valgrind >/dev/null 2>&1 || mcpr_need_apt+=(valgrind)
  # The Clang module check of the header (include/module.modulemap) and
  # the clang header check.
  command -v clang >/dev/null 2>&1 || mcpr_need_apt+=(clang)
  # The header's Doxygen pages and their check (doxygen_header).
  command -v doxygen >/dev/null 2>&1 || mcpr_need_apt+=(doxygen)
  command -v pkg-config >/dev/null 2>&1 || mcpr_need_apt+=(pkg-config)
  [ -f /usr/include/gtest/gtest.h ] || mcpr_need_apt+=(libgtest-dev)
  # The client checks and end-to-end tests: a Python venv, node and npm.
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || mcpr_need_apt+=(python3-venv)
  command -v node >/dev/null 2>&1 || mcpr_need_apt+=(nodejs)
  command -v npm >/dev/null 2>&1 || mcpr_need_apt+=(npm)
  command -v go >/dev/null 2>&1 || mcpr_need_apt+=(golang-go)
  # The Swift suites make a Debian trixie chroot (scripts/swift-test.sh).
  command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || mcpr_need_apt+=(debootstrap)
fi
mcpr_apt_install "${mcpr_need_apt[@]}"

if [ "$mcpr_setup_what" = all ]; then
  mcpr_cbindgen_version=0.29.4
  if ! cbindgen --version 2>/dev/null | grep -qx "cbindgen $mcpr_cbindgen_version"; then
    echo "== setup: installing cbindgen $mcpr_cbindgen_version"
    cargo install --locked --version "$mcpr_cbindgen_version" cbindgen
  fi

  # Go 1.24 or later for bindings/go. A distribution's golang-go may be
  # older; from Go 1.21 on, the go command fetches the toolchain pinned
  # below itself (GOTOOLCHAIN, through the Go module proxy).
  if ! go version 2>/dev/null | grep -qE 'go1\.(2[4-9]|[3-9][0-9])'; then
    if go version 2>/dev/null | grep -qE 'go1\.(2[1-9]|[3-9][0-9])'; then
      export GOTOOLCHAIN=go1.26.8
    else
      echo "setup: Go 1.21 or later is required for the Go suites (found: $(go version 2>/dev/null || echo none))" >&2
    fi
  fi

  # Nightly Rust with rust-src: scripts/rust-sanitizers.sh (-Zsanitizer,
  # -Zbuild-std) and the fuzz targets (cargo-fuzz, libFuzzer).
  if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "== setup: installing the nightly toolchain"
    rustup toolchain install nightly --profile minimal
  fi
  if ! rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'; then
    echo "== setup: installing rust-src for nightly"
    rustup component add rust-src --toolchain nightly
  fi
  if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "== setup: installing cargo-fuzz"
    cargo install cargo-fuzz --locked
  fi
fi
unset mcpr_setup_what mcpr_need_apt mcpr_cbindgen_version
