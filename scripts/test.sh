#!/usr/bin/env bash
# Runs every test suite of the project: the Rust suites (unit, integration,
# property tests, doc tests) and the C/C++ suite through CMake/ctest (header
# check, C tests, their valgrind and ASan/UBSan variants, GoogleTest, the
# static-link test, downstream find_package and pkg-config), and the client
# checks (results and errors of every protocol revision validated by the
# official Python and TypeScript MCP SDKs and the JSON Schemas). Exits
# non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Rust suites (cargo test)"
cargo test

echo "== C/C++ suites (CMake + ctest)"
bash scripts/c-suite.sh

echo "== C stress and lifetime tests against the library built with Rust's ASan and TSan"
bash scripts/rust-sanitizers.sh

echo "== MCP client checks (official Python and TypeScript SDKs, JSON Schema)"
bash scripts/client-checks.sh
echo "== all suites passed"
