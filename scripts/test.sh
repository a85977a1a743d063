#!/usr/bin/env bash
# Runs every test suite of the project: the Rust suites (unit, integration,
# property tests, doc tests) and, when the C harness is present, the C/C++
# suite through CMake/ctest (header check, C tests, GoogleTest, valgrind,
# downstream find_package). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Rust suites (cargo test)"
cargo test

if [ -f scripts/c-suite.sh ]; then
  echo "== C/C++ suites (CMake + ctest)"
  bash scripts/c-suite.sh
fi
echo "== all suites passed"
