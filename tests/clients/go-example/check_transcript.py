"""Validates every message a server sent (a transcript written by the Go
example with -transcript: tenant, tab, one JSON-RPC message per line)
against the JSON Schema of the protocol revision, and the subscription
notifications also with the official Python SDK's models.

Usage: MCPR_SCHEMA_DIR=... check_transcript.py TRANSCRIPT REVISION
Exits non-zero when a message fails, or when the transcript holds none of
the notifications the subscription checks expect.
"""

import json
import os
import sys

import jsonschema
import pydantic
from mcp_types.methods import parse_server_notification

NOTIFICATIONS = {
    "notifications/resources/updated": "ResourceUpdatedNotification",
    "notifications/resources/list_changed": "ResourceListChangedNotification",
    "notifications/subscriptions/acknowledged": "SubscriptionsAcknowledgedNotification",
}


def validator(schema_dir, revision, name):
    with open(os.path.join(schema_dir, revision, "schema.json"), encoding="utf-8") as f:
        root = json.load(f)
    defs = "$defs" if "$defs" in root else "definitions"
    sub = {defs: root[defs], "$ref": f"#/{defs}/{name}"}
    if "$schema" in root:
        sub["$schema"] = root["$schema"]
    return jsonschema.validators.validator_for(sub)(sub)


def main():
    path, revision = sys.argv[1], sys.argv[2]
    schema_dir = os.environ["MCPR_SCHEMA_DIR"]
    any_message = validator(schema_dir, revision, "JSONRPCMessage")
    specific = {m: validator(schema_dir, revision, n) for m, n in NOTIFICATIONS.items()
                if revision >= "2026-07-28" or m != "notifications/subscriptions/acknowledged"}
    failures, seen = [], {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            tenant, _, text = line.rstrip("\n").partition("\t")
            msg = json.loads(text)
            result = msg.get("result")
            if isinstance(result, dict) and "protocolVersion" in result and "serverInfo" in result:
                # an initialize result is of the revision it negotiates (the
                # TypeScript v1 client initializes on 2025-11-25, then sends
                # 2026-07-28 requests with their per-request _meta)
                own = validator(schema_dir, result["protocolVersion"], "JSONRPCMessage")
                errors = [e.message for e in own.iter_errors(msg)]
            else:
                errors = [e.message for e in any_message.iter_errors(msg)]
            method = msg.get("method")
            if method in specific and "id" not in msg:
                seen[method] = seen.get(method, 0) + 1
                errors += [e.message for e in specific[method].iter_errors(msg)]
                try:
                    parse_server_notification(method, revision, msg.get("params"))
                except (pydantic.ValidationError, KeyError) as e:
                    errors.append(f"mcp-types: {e}")
                meta = (msg.get("params") or {}).get("_meta") or {}
                stamped = "io.modelcontextprotocol/subscriptionId" in meta
                if stamped != (revision >= "2026-07-28"):
                    errors.append("the subscription id is on every stream message from 2026-07-28 on, never before")
            if errors:
                failures.append(f"line {n} ({tenant}): {text[:200]}: {errors}")
    for m in ("notifications/resources/updated", "notifications/resources/list_changed"):
        if not seen.get(m):
            failures.append(f"no {m} in the transcript")
    if revision >= "2026-07-28" and not seen.get("notifications/subscriptions/acknowledged"):
        failures.append("no acknowledgement in the transcript")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    print(f"transcript {os.path.basename(path)}: {sum(seen.values())} notifications, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
