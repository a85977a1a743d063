#!/usr/bin/env bash
# End-to-end: builds the Go example MCP server (bindings/go/mcpsdk/example,
# the library linked statically) and drives it over stdio with the official
# Python client (mcp, pinned) and the official TypeScript client
# (@modelcontextprotocol/sdk, pinned), installed by scripts/setup-clients.sh
# into tests/clients/, on protocol revisions 2025-11-25 and 2026-07-28. The
# clients run with an empty environment apart from HOME and PATH, and start
# the server with their own default environment: no LD_LIBRARY_PATH reaches
# it. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
[ -n "${MCPR_GO_PREFIX:-}" ] || . scripts/go-env.sh
bash scripts/setup-clients.sh

server="$root/build/go-example-server"
(cd bindings/go/mcpsdk && go build -o "$server" ./example)
if ldd "$server" 2>/dev/null | grep -q libmcp_resources; then
  echo "the example server links the shared library" >&2
  exit 1
fi

cd tests/clients/go-example
for rev in 2025-11-25 2026-07-28; do
  echo "== end-to-end: official Python client, $rev"
  env -i HOME="$HOME" PATH="$PATH" "$root/tests/clients/.venv/bin/python" python_client.py "$server" "$rev"
  echo "== end-to-end: official TypeScript client, $rev"
  env -i HOME="$HOME" PATH="$PATH" node node_client.mjs "$server" "$rev"
done
