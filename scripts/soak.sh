#!/usr/bin/env bash
# Soak run (not part of the test command; takes a few minutes): builds
# examples/soak.rs in release mode and runs 1,000,000 mixed reads (complete,
# partial, failing, hung readers on an executor) and 100,000 list pages on
# 8 threads, sampling RSS and the thread count every second. Prints the
# samples, the outcome counts and a verdict on growth; exits non-zero on a
# wrong outcome, growing RSS or unbounded threads. The environment variables
# SOAK_READS, SOAK_PAGES, SOAK_THREADS, SOAK_SAMPLE_MS and SOAK_HANG_EVERY
# change the run (see examples/soak.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --example soak
exec target/release/examples/soak
