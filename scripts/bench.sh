#!/usr/bin/env bash
# Benchmarks: the Rust benches (cargo bench; benches/read.rs measures the
# Rust API's small exact read) and the C ABI read benchmark
# (c-tests/bench_read.c, built by CMake), printing ns/read for both, and
# for each the one-call request path against the read with its ratio.
# Usage: scripts/bench.sh [C iterations]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target bench_read
./build/bench_read "${1:-200000}"
