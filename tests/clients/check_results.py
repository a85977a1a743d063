"""Checks the library's results and error objects with the official Python
MCP SDK (mcp / mcp-types, pinned in requirements.txt) for the matching
protocol revision, and, when MCPR_SCHEMA_DIR names a folder holding
<revision>/schema.json, with that revision's JSON Schema.

Usage: check_results.py SAMPLES_DIR   (written by `cargo run --example
protocol_samples -- SAMPLES_DIR`). Prints "N passed, M failed" and exits
non-zero when anything failed.
"""

import json
import os
import sys

import jsonschema
import pydantic
from mcp_types import jsonrpc
from mcp_types.methods import parse_server_result

FIELDS = ("resultType", "ttlMs", "cacheScope")
SCHEMA_NAMES = {
    "resources/read": "ReadResourceResult",
    "resources/list": "ListResourcesResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "completion/complete": "CompleteResult",
}

passed = 0
failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}", file=sys.stderr)


def schema_validator(schema_dir, revision, name):
    """A validator of the named definition of the revision's schema.json."""
    with open(os.path.join(schema_dir, revision, "schema.json"), encoding="utf-8") as f:
        root = json.load(f)
    defs = "$defs" if "$defs" in root else "definitions"
    if name not in root[defs] and name == "JSONRPCErrorResponse":
        name = "JSONRPCError"  # 2025-06-18 calls it so
    sub = {defs: root[defs], "$ref": f"#/{defs}/{name}"}
    if "$schema" in root:
        sub["$schema"] = root["$schema"]
    cls = jsonschema.validators.validator_for(sub)
    return cls(sub)


def schema_defs(schema_dir, revision):
    with open(os.path.join(schema_dir, revision, "schema.json"), encoding="utf-8") as f:
        root = json.load(f)
    return root["$defs" if "$defs" in root else "definitions"]


def properties(defs, node):
    """The property names a schema node defines (following one $ref)."""
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[1]]
    return node.get("properties", {})


# Members the current upstream text of a revision's schema defines although
# the release-tag schema.json vendored by protocol-droid-schema does not:
# upstream added `size` to Resource of 2024-11-05 and 2025-03-26 later (the
# upstream schema.ts of both revisions has `size?: number`), and the library
# lists it on every revision.
LATER_UPSTREAM = {("2024-11-05", "Resource"): {"size"}, ("2025-03-26", "Resource"): {"size"}}


def undefined_members(defs, name, value, path, revision):
    """Members of value (and of the objects inside it that the schema
    describes) that the named definition does not define: a revision's
    result must carry only what that revision defines. `_meta` objects
    are free-form and not descended into."""
    props = properties(defs, {"$ref": f"#/x/{name}"})
    later = LATER_UPSTREAM.get((revision, name), set())
    found = [f"{path}.{k}" for k in value if k not in props and k not in later]
    for k, v in value.items():
        if k == "_meta":
            continue
        sub = props.get(k, {})
        if "$ref" in sub and isinstance(v, dict):
            found += undefined_members(defs, sub["$ref"].rsplit("/", 1)[1], v, f"{path}.{k}", revision)
        elif isinstance(v, dict) and "properties" in sub:
            found += [f"{path}.{k}.{kk}" for kk in v if kk not in sub["properties"]]
        elif isinstance(v, list) and isinstance(sub.get("items"), dict):
            items = sub["items"]
            for i, item in enumerate(v):
                if not isinstance(item, dict):
                    continue
                if "$ref" in items:
                    ref = items["$ref"].rsplit("/", 1)[1]
                    if ref == "ResourceContents" or ref.endswith("ResourceContents"):
                        ref = "BlobResourceContents" if "blob" in item else "TextResourceContents"
                    found += undefined_members(defs, ref, item, f"{path}.{k}[{i}]", revision)
                elif "anyOf" in items:
                    ref = "BlobResourceContents" if "blob" in item else "TextResourceContents"
                    found += undefined_members(defs, ref, item, f"{path}.{k}[{i}]", revision)
    return found


def check_result(entry, data, label):
    revision, method, expect = entry["revision"], entry["method"], entry["expect"]
    modern = revision == "2026-07-28"
    try:
        result = parse_server_result(method, revision, data)
    except pydantic.ValidationError as e:
        check(False, f"{label}: rejected by mcp-types: {e}")
        return
    check(True, f"{label}: accepted")
    # The host's result _meta (serverInfo) is in every result.
    check((data.get("_meta") or {}).get("io.modelcontextprotocol/serverInfo", {}).get("name") == "protocol-samples",
          f"{label}: serverInfo in the result _meta")
    if method == "completion/complete":
        # resultType exactly on 2026-07-28; completions never carry cache hints.
        check(("resultType" in data) == modern, f"{label}: resultType present iff 2026")
        check("ttlMs" not in data and "cacheScope" not in data, f"{label}: no cache hints")
        c = result.completion
        check(c.values == expect["values"], f"{label}: values {c.values}")
        check(c.total == expect["total"], f"{label}: total {c.total}")
        check(c.has_more == expect["hasMore"], f"{label}: hasMore {c.has_more}")
        return
    # The 2026 members appear exactly on 2026-07-28.
    check(all((k in data) == modern for k in FIELDS), f"{label}: 2026 members present iff 2026")
    cache = expect.get("cache")
    if modern:
        check(data["resultType"] == "complete" and result.result_type == "complete", f"{label}: resultType")
        check(result.ttl_ms == cache["ttlMs"], f"{label}: ttlMs {result.ttl_ms} != {cache['ttlMs']}")
        check(result.cache_scope == cache["cacheScope"], f"{label}: cacheScope {result.cache_scope}")
        # Negative control: the 2026 client rejects a result without them.
        stripped = {k: v for k, v in data.items() if k not in FIELDS}
        try:
            parse_server_result(method, revision, stripped)
            check(False, f"{label}: the 2026 client accepted a result without its members")
        except pydantic.ValidationError:
            check(True, f"{label}: negative control")
    if method == "resources/read":
        contents = result.contents
        if "contents" in expect:
            check(len(contents) == len(expect["contents"]), f"{label}: item count")
            for got, want in zip(contents, expect["contents"]):
                check(str(got.uri) == want["uri"], f"{label}: uri {got.uri}")
                check(got.mime_type == want["mimeType"], f"{label}: mimeType")
                if "text" in want:
                    check(getattr(got, "text", None) == want["text"], f"{label}: text of {want['uri']}")
                if "blob" in want:
                    check(getattr(got, "blob", None) == want["blob"], f"{label}: blob of {want['uri']}")
                if "meta" in want:
                    check(got.meta == want["meta"], f"{label}: _meta of {want['uri']}")
        if expect.get("partial"):
            check(len(contents) == expect["items"], f"{label}: partial item count")
            check(str(contents[0].uri).startswith("mcp-warning://read/"), f"{label}: warning first")
            check(getattr(contents[0], "text", "").startswith("Incomplete bundle.\n"), f"{label}: warning text")
    else:
        items = result.resources if method == "resources/list" else result.resource_templates
        if method == "resources/list":
            check([str(r.uri) for r in items] == expect["uris"], f"{label}: uris")
        else:
            check([t.uri_template for t in items] == expect["templates"], f"{label}: templates")
        check((result.next_cursor is not None) == expect["nextCursor"], f"{label}: nextCursor")


def check_error(entry, data, label):
    revision, expect = entry["revision"], entry["expect"]
    try:
        response = jsonrpc.JSONRPCError.model_validate({"jsonrpc": "2.0", "id": 1, "error": data})
    except pydantic.ValidationError as e:
        check(False, f"{label}: error rejected: {e}")
        return
    err = response.error
    check(err.code == expect["code"], f"{label}: code {err.code}")
    if "message" in expect:
        check(err.message == expect["message"], f"{label}: message")
    if "uri" in expect:
        check(isinstance(err.data, dict) and err.data.get("uri") == expect["uri"], f"{label}: data.uri")
    if revision == "2026-07-28":
        check(err.code != -32002, f"{label}: -32002 is forbidden on 2026-07-28")


def main():
    samples = sys.argv[1]
    schema_dir = os.environ.get("MCPR_SCHEMA_DIR")
    with open(os.path.join(samples, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    check(len(manifest) >= 60, "manifest lists every sample of every revision")
    check({e["revision"] for e in manifest} >= {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"},
          "samples of every revision")
    for entry in manifest:
        label = entry["file"]
        with open(os.path.join(samples, entry["file"]), encoding="utf-8") as f:
            data = json.load(f)
        if entry["error"]:
            check_error(entry, data, label)
        else:
            check_result(entry, data, label)
        if schema_dir:
            name = "JSONRPCErrorResponse" if entry["error"] else SCHEMA_NAMES[entry["method"]]
            instance = {"jsonrpc": "2.0", "id": 1, "error": data} if entry["error"] else data
            errors = list(schema_validator(schema_dir, entry["revision"], name).iter_errors(instance))
            check(not errors, f"{label}: JSON Schema {name}: {[e.message for e in errors]}")
            # Only members the revision defines (the schemas allow others;
            # this library sends none).
            if entry["error"]:
                extra = [f"error.{k}" for k in data if k not in ("code", "message", "data")]
            else:
                extra = undefined_members(schema_defs(schema_dir, entry["revision"]), name, data, "result", entry["revision"])
            check(not extra, f"{label}: members {entry['revision']} does not define: {extra}")
    if schema_dir:
        # Negative controls: members a revision does not define are found.
        for revision, name, value, member in [
            ("2025-03-26", "ListResourcesResult", {"resources": [{"uri": "a:b", "name": "n", "title": "t"}]}, "title"),
            ("2024-11-05", "ListResourceTemplatesResult",
             {"resourceTemplates": [{"uriTemplate": "a:{b}", "name": "n", "_meta": {}}]}, "_meta"),
            ("2025-03-26", "ListResourcesResult",
             {"resources": [{"uri": "a:b", "name": "n", "annotations": {"lastModified": "x"}}]}, "lastModified"),
            ("2025-06-18", "ListResourcesResult", {"resources": [{"uri": "a:b", "name": "n", "icons": []}]}, "icons"),
            ("2025-03-26", "ReadResourceResult", {"contents": [{"uri": "a:b", "text": "", "_meta": {}}]}, "_meta"),
            ("2025-11-25", "ReadResourceResult", {"contents": [], "ttlMs": 0}, "ttlMs"),
        ]:
            extra = undefined_members(schema_defs(schema_dir, revision), name, value, "result", revision)
            check(any(e.endswith(member) for e in extra), f"members negative control: {member} on {revision}: {extra}")
        # Negative control: the 2026 schema refuses a result without resultType.
        v = schema_validator(schema_dir, "2026-07-28", "ReadResourceResult")
        check(not v.is_valid({"contents": [], "ttlMs": 0, "cacheScope": "private"}), "schema negative control")
        # And a completion of 101 values (the library sends at most 100).
        v = schema_validator(schema_dir, "2026-07-28", "CompleteResult")
        check(v.is_valid({"completion": {"values": ["x"] * 100}, "resultType": "complete"}), "schema 100 values")
        check(not v.is_valid({"completion": {"values": ["x"] * 101}, "resultType": "complete"}),
              "schema negative control: 101 completion values")
    print(f"python client checks: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
