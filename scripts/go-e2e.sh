#!/usr/bin/env bash
# End-to-end: builds the Go example MCP server (bindings/go/mcpsdk/example)
# and the README's server (bindings/go/mcpsdk/hello), the library linked
# statically, and drives them over stdio with the official clients
# installed (pinned) by scripts/setup-clients.sh into tests/clients/:
# - the Python client (mcp) and the TypeScript client v1 line
#   (@modelcontextprotocol/sdk) on 2025-11-25 and 2026-07-28 (the only 2025
#   revision either offers is 2025-11-25);
# - the TypeScript client v2 line (@modelcontextprotocol/client) on
#   2025-06-18, 2025-11-25 and 2026-07-28;
# - older official clients still in use (tests/clients/legacy/: the Python
#   SDK mcp 1.9.4 and the TypeScript SDK 1.12.3) on 2025-03-26, the
#   revision they negotiate, and 2024-11-05, which both support (offered
#   in their initialize request by the scripts);
# - malformed stdio input (garbage, a NUL byte, deep nesting, a batch) fed
#   to both servers, which must answer each line and go on serving;
# - the same hostile requests sent to the example server and to the C stdio
#   server on mcpr_message (examples/c/stdio_server.c): byte-identical error
#   and result objects (tests/clients/c-example/compare_servers.py).
# The clients run with an empty environment apart from HOME and PATH, and
# start the server with their own default environment: no LD_LIBRARY_PATH
# reaches it. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
[ -n "${MCPR_GO_PREFIX:-}" ] || . scripts/go-env.sh
bash scripts/setup-clients.sh

server="$root/build/go-example-server"
hello="$root/build/go-hello-server"
(cd bindings/go/mcpsdk && go build -o "$server" ./example && go build -o "$hello" ./hello)
for bin in "$server" "$hello"; do
  if ldd "$bin" 2>/dev/null | grep -q libmcp_resources; then
    echo "$bin links the shared library" >&2
    exit 1
  fi
done

py="$root/tests/clients/.venv/bin/python"
cd tests/clients/go-example
for rev in 2025-11-25 2026-07-28; do
  echo "== end-to-end: official Python client, $rev"
  env -i HOME="$HOME" PATH="$PATH" "$py" python_client.py "$server" "$rev"
  echo "== end-to-end: official TypeScript client (v1, @modelcontextprotocol/sdk), $rev"
  env -i HOME="$HOME" PATH="$PATH" node node_client.mjs "$server" "$rev"
done
for rev in 2025-06-18 2025-11-25 2026-07-28; do
  echo "== end-to-end: official TypeScript client (v2, @modelcontextprotocol/client), $rev"
  env -i HOME="$HOME" PATH="$PATH" node node_v2_client.mjs "$server" "$rev"
done
legacy_py="$root/tests/clients/legacy/.venv/bin/python"
for rev in 2025-03-26 2024-11-05; do
  echo "== end-to-end: older official Python client (mcp 1.9.4), $rev"
  env -i HOME="$HOME" PATH="$PATH" "$legacy_py" ../legacy/python_client.py "$server" "$rev"
  echo "== end-to-end: older official TypeScript client (@modelcontextprotocol/sdk 1.12.3), $rev"
  env -i HOME="$HOME" PATH="$PATH" node ../legacy/node_client.mjs "$server" "$rev"
done
echo "== end-to-end: malformed stdio input"
env -i HOME="$HOME" PATH="$PATH" "$py" malformed_input.py "$hello" doc://hello hello
env -i HOME="$HOME" PATH="$PATH" "$py" malformed_input.py "$server" doc://item/001 "item 1"
echo "== the Go adapter's server and the C stdio server: the same hostile requests, the same bytes"
cmake --build "$root/build" --target mcpr_stdio_server >/dev/null
env -i HOME="$HOME" PATH="$PATH" "$py" "$root/tests/clients/c-example/compare_servers.py" \
  "$root/build/stdio_server" "$server"
