#!/usr/bin/env bash
# Builds the C example (examples/c/example.c) through CMake and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Install what a fresh machine lacks for this (cmake, ninja, a C compiler).
source scripts/setup.sh example
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target mcpr_example
./build/example
