#!/usr/bin/env bash
# Checks what the library sends against the official MCP clients: writes the
# result of every kind (complete, partial and empty bundles, list pages with
# and without nextCursor, a templates page, a completion; tool results with
# embedded resources and resource links, the resource tools' results and
# errors, their definitions in a tools/list result) and the error objects (not found,
# invalid cursor, invalid params) for each protocol revision (2024-11-05 to
# 2026-07-28; every member a revision does not define refused) through the
# one-call function (examples/protocol_samples.rs), then validates them with
# the official Python SDK's models for that revision and the revision's JSON
# Schema (tests/clients/check_results.py), and with the official TypeScript
# SDK's schemas (tests/clients/check_results.mjs). Then the completion-value
# round trip (docs/BEHAVIOUR.md §13, rule 5): the values a completion sends,
# substituted into their template by each official client's own RFC 6570
# UriTemplate (tests/clients/expand_values.py, expand_values.mjs), make URIs
# the library reads back with the value as the capture
# (examples/completion_values.rs). Then the C stdio server built on
# mcpr_message with the official Python client (scripts/c-stdio-e2e.sh).
# Last, input-required reads with the official Python and TypeScript (v2)
# clients (scripts/input-e2e.sh).
# Exits non-zero on any failure. Sets the clients up first
# (scripts/setup-clients.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
py="$(bash scripts/setup-clients.sh | tail -1)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cargo run --quiet --example protocol_samples -- "$out"
schema_dir="$(cargo metadata --format-version 1 --locked --offline \
  --manifest-path tests/clients/schema/Cargo.toml |
  "$py" -c 'import json, os, sys
m = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"] == "protocol-droid-schema") + "/spec")')"
MCPR_SCHEMA_DIR="$schema_dir" "$py" tests/clients/check_results.py "$out"
node tests/clients/check_results.mjs "$out"
cargo run --quiet --example completion_values -- offer "$out"
"$py" tests/clients/expand_values.py "$out"
node tests/clients/expand_values.mjs "$out"
cargo run --quiet --example completion_values -- read \
  "$out/expanded_python.json" "$out/expanded_ts_v1.json" "$out/expanded_ts_v2.json"
bash scripts/c-stdio-e2e.sh
bash scripts/input-e2e.sh
