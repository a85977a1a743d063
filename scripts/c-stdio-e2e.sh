#!/usr/bin/env bash
# End-to-end: builds the C stdio MCP server (examples/c/stdio_server.c, on
# mcpr_message: no JSON parser in the host) through CMake and drives it over
# stdio with the official Python client (tests/clients/c-example/
# python_client.py) on 2025-11-25 and 2026-07-28: reads, not found, the list
# with pagination, templates, completion, and a method the host answers
# -32601; every response line is validated against the revision's JSON
# Schema. Then feeds it the malformed stdio lines the Go servers get
# (tests/clients/go-example/malformed_input.py). The client runs with an
# empty environment apart from HOME and PATH. Run by scripts/client-checks.sh;
# the byte comparison with the Go adapter's server is in scripts/go-e2e.sh.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
py="$(bash scripts/setup-clients.sh | tail -1)"
source scripts/setup.sh example
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target mcpr_stdio_server >/dev/null
server="$root/build/stdio_server"
schema_dir="$(cargo metadata --format-version 1 --locked --offline \
  --manifest-path tests/clients/schema/Cargo.toml |
  "$py" -c 'import json, os, sys
m = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"] == "protocol-droid-schema") + "/spec")')"
for rev in 2025-11-25 2026-07-28; do
  echo "== end-to-end: official Python client, C stdio server, $rev"
  env -i HOME="$HOME" PATH="$PATH" MCPR_SCHEMA_DIR="$schema_dir" \
    "$py" tests/clients/c-example/python_client.py "$server" "$rev"
done
echo "== end-to-end: malformed stdio input, C stdio server"
env -i HOME="$HOME" PATH="$PATH" "$py" tests/clients/go-example/malformed_input.py "$server" doc://item/001 "item 1"
