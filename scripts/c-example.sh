#!/usr/bin/env bash
# Builds the C example (examples/c/example.c) through CMake and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target mcpr_example
./build/example
