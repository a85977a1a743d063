#!/usr/bin/env bash
# Installs the official MCP clients that the client checks (and any other
# end-to-end suite) use, all pinned and all under tests/clients/:
# - tests/clients/.venv: a Python venv with requirements.txt (the official
#   Python SDK mcp 2.3.0 with mcp-types, pydantic and jsonschema, every
#   package pinned);
# - tests/clients/node_modules: `npm ci` of package.json + package-lock.json
#   (the official TypeScript SDK @modelcontextprotocol/sdk 1.32.2, the v1
#   line, and the official TypeScript client @modelcontextprotocol/client
#   2.4.0, the v2 line);
# - tests/clients/legacy/.venv and tests/clients/legacy/node_modules: older
#   official clients still in use, side by side with the current ones
#   (tests/clients/legacy/requirements.txt: the Python SDK mcp 1.9.4;
#   tests/clients/legacy/package.json + package-lock.json: the TypeScript
#   SDK @modelcontextprotocol/sdk 1.12.3), both negotiating 2025-03-26;
# - `cargo fetch` of tests/clients/schema/Cargo.toml: the crates.io crate
#   protocol-droid-schema, which vendors the official schema.json of each
#   protocol revision (no MCP SDK package on PyPI or npm ships it).
# Needs python3 with venv, node, npm and cargo. Idempotent: reinstalls only
# when a requirements.txt or package-lock.json changed. Prints the venv's
# Python, for callers: PY="$(bash scripts/setup-clients.sh | tail -1)".
set -euo pipefail
cd "$(dirname "$0")/../tests/clients"

if [ ! -x .venv/bin/python ] || ! cmp -s requirements.txt .venv/.installed-requirements; then
  echo "== setup-clients: Python venv (tests/clients/.venv)" >&2
  rm -rf .venv
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r requirements.txt >&2
  cp requirements.txt .venv/.installed-requirements
fi
if [ ! -d node_modules ] || ! cmp -s package-lock.json node_modules/.installed-package-lock.json; then
  echo "== setup-clients: npm ci (tests/clients/node_modules)" >&2
  npm ci --no-audit --no-fund --silent >&2
  cp package-lock.json node_modules/.installed-package-lock.json
fi
if [ ! -x legacy/.venv/bin/python ] || ! cmp -s legacy/requirements.txt legacy/.venv/.installed-requirements; then
  echo "== setup-clients: Python venv of the older client (tests/clients/legacy/.venv)" >&2
  rm -rf legacy/.venv
  python3 -m venv legacy/.venv
  legacy/.venv/bin/pip install --quiet --disable-pip-version-check -r legacy/requirements.txt >&2
  cp legacy/requirements.txt legacy/.venv/.installed-requirements
fi
if [ ! -d legacy/node_modules ] || ! cmp -s legacy/package-lock.json legacy/node_modules/.installed-package-lock.json; then
  echo "== setup-clients: npm ci of the older client (tests/clients/legacy/node_modules)" >&2
  (cd legacy && npm ci --no-audit --no-fund --silent >&2)
  cp legacy/package-lock.json legacy/node_modules/.installed-package-lock.json
fi
cargo fetch --locked --quiet --manifest-path schema/Cargo.toml >&2
echo "$PWD/.venv/bin/python"
