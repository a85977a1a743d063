#!/usr/bin/env bash
# Regenerates include/mcp_resources.h from the Rust sources with cbindgen
# (pinned: 0.29.4, `cargo install --locked cbindgen --version 0.29.4`).
# With --check, generates into a temporary file and fails when the
# committed header differs.
#
# cbindgen runs on the whole crate, as a plain `cbindgen` in the crate root
# would: the core's public items it could export are marked
# `cbindgen:ignore` (see cbindgen.toml), so the header is exactly the C ABI.
#
# Then scripts/header-nullability.py (python3) writes the nullability the
# documentation states into the declarations (MCPR_NULLABLE, MCPR_NONNULL;
# cbindgen cannot tell which raw pointers may be NULL) and closes the
# assume_nonnull region that cbindgen.toml opens; it fails when cbindgen's
# output is not what it expects (see its own comment).
set -euo pipefail
cd "$(dirname "$0")/.."
want="0.29.4"
have="$(cbindgen --version | awk '{print $2}')"
if [ "$have" != "$want" ]; then
    echo "gen-header: cbindgen $want required, found $have" >&2
    exit 1
fi
raw="$(mktemp "${TMPDIR:-/tmp}/mcp_resources.raw.XXXXXX.h")"
tmp="$(mktemp "${TMPDIR:-/tmp}/mcp_resources.XXXXXX.h")"
trap 'rm -f "$raw" "$tmp"' EXIT
cbindgen --quiet --config cbindgen.toml --output "$raw"
python3 scripts/header-nullability.py "$raw" "$tmp"
if [ "${1:-}" = "--check" ]; then
    if ! cmp -s "$tmp" include/mcp_resources.h; then
        echo "gen-header: include/mcp_resources.h is stale; run scripts/gen-header.sh" >&2
        diff -u include/mcp_resources.h "$tmp" | head -50 >&2 || true
        exit 1
    fi
    echo "gen-header: include/mcp_resources.h is up to date"
else
    cp "$tmp" include/mcp_resources.h
    echo "gen-header: wrote include/mcp_resources.h"
fi
