#!/usr/bin/env bash
# Runs every test suite of the project: the Rust suites (unit, integration,
# property tests, doc tests) and the C/C++ suite through CMake/ctest (header
# check, C tests, their valgrind and ASan/UBSan variants, GoogleTest, the
# static-link test, downstream find_package and pkg-config), the C stress
# and lifetime tests against the library built with Rust's ASan and TSan,
# the client checks (results and errors of every protocol revision validated
# by the official Python and TypeScript MCP SDKs and the JSON Schemas), the
# Go suites (scripts/go-test.sh), the Swift suites (scripts/swift-test.sh:
# the Swift package and the Swift example server, in a Debian trixie chroot)
# and a short smoke run of every fuzz target
# (scripts/fuzz-smoke.sh). Installs what a fresh machine lacks first
# (scripts/setup.sh). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# Install whatever is missing (scripts/setup.sh); with everything installed,
# no suite may skip itself.
source scripts/setup.sh all
export MCPR_REQUIRE_RUST_SANITIZERS=1 MCPR_REQUIRE_FUZZ=1 MCPR_REQUIRE_SWIFT=1

echo "== Rust suites (cargo test)"
cargo test

echo "== C/C++ suites (CMake + ctest)"
bash scripts/c-suite.sh

echo "== C stress and lifetime tests against the library built with Rust's ASan and TSan"
bash scripts/rust-sanitizers.sh

echo "== MCP client checks (official Python and TypeScript SDKs, JSON Schema)"
bash scripts/client-checks.sh

echo "== Go suites (scripts/go-test.sh)"
bash scripts/go-test.sh

echo "== Swift suites (scripts/swift-test.sh)"
bash scripts/swift-test.sh

echo "== fuzz smoke (scripts/fuzz-smoke.sh)"
bash scripts/fuzz-smoke.sh
echo "== all suites passed"
