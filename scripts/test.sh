#!/usr/bin/env bash
# Runs every test suite of the project: the Rust suites (unit, integration,
# property tests, doc tests) and the C/C++ suite through CMake/ctest (header
# check, C tests, their valgrind and ASan/UBSan variants, GoogleTest, the
# static-link test, downstream find_package and pkg-config) and a short
# smoke run of every fuzz target (scripts/fuzz-smoke.sh; skipped with a
# banner when nightly or cargo-fuzz is missing). Exits non-zero when
# anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Rust suites (cargo test)"
cargo test

echo "== C/C++ suites (CMake + ctest)"
bash scripts/c-suite.sh

echo "== fuzz smoke (scripts/fuzz-smoke.sh)"
bash scripts/fuzz-smoke.sh
echo "== all suites passed"
