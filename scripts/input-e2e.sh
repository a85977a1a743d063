#!/usr/bin/env bash
# End-to-end: input-required reads (docs/BEHAVIOUR.md §18) with the official
# clients on 2026-07-28. Builds the stdio server examples/input_stdio.rs (on
# Resources::message) and drives it with the official Python client
# (tests/clients/input-example/python_client.py: its multi-round-trip driver
# and elicitation and roots callbacks; every response line validated against
# the 2026-07-28 JSON Schema, the InputRequiredResult included) and the
# official TypeScript client, v2 line (tests/clients/input-example/
# node_v2_client.mjs). The v1 TypeScript line pinned here
# (@modelcontextprotocol/sdk 1.32.2) has no 2026-07-28 and no
# InputRequiredResult, so it is not run. The clients run with an empty
# environment apart from HOME and PATH. Run by scripts/client-checks.sh.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
py="$(bash scripts/setup-clients.sh | tail -1)"
cargo build --quiet --example input_stdio
server="$root/target/debug/examples/input_stdio"
schema_dir="$(cargo metadata --format-version 1 --locked --offline \
  --manifest-path tests/clients/schema/Cargo.toml |
  "$py" -c 'import json, os, sys
m = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"] == "protocol-droid-schema") + "/spec")')"
echo "== end-to-end: input-required reads, official Python client, 2026-07-28"
env -i HOME="$HOME" PATH="$PATH" MCPR_SCHEMA_DIR="$schema_dir" \
  "$py" tests/clients/input-example/python_client.py "$server"
echo "== end-to-end: input-required reads, official TypeScript client (v2), 2026-07-28"
(cd tests/clients && env -i HOME="$HOME" PATH="$PATH" node input-example/node_v2_client.mjs "$server")
