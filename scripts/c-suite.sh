#!/usr/bin/env bash
# The C suite, from a clean tree: configures CMake (Ninja, build dir build/),
# builds the Rust library (cargo rustc --release --lib), the C tests, the C++
# GoogleTest test, the example and the benchmark, then runs ctest: header
# check, C tests, their valgrind memcheck and ASan/UBSan variants, the
# static-library test, the C++ test, the downstream find_package/pkg-config
# test and, when clang is found, the Clang module import of the header.
# Requires cargo, cmake, ninja, gcc, g++, GoogleTest, valgrind and cbindgen
# 0.29.4 on PATH (the asan_* tests are skipped when gcc cannot build and run
# a sanitized program). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${MCPR_JOBS:-$(nproc 2>/dev/null || echo 2)}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel "$jobs"
ctest --test-dir build --output-on-failure --parallel "$jobs" "$@"
