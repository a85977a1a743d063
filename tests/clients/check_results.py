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
    "tools/call": "CallToolResult",
    "tools/list": "ListToolsResult",
}
TOOL_DEFINITIONS = {}

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


def resolve(defs, node, value):
    """The schema node that describes value: one $ref followed, and of a
    union (anyOf / oneOf) the variant whose `type` constant is value's
    `type` (content blocks), else the resource contents variant that has
    value's `text` / `blob`; returns (node, definition name)."""
    name = None
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        if name.endswith("ResourceContents") and isinstance(value, dict):
            name = "BlobResourceContents" if "blob" in value else "TextResourceContents"
        node = defs[name]
    union = node.get("anyOf") or node.get("oneOf")
    if not union or not isinstance(value, dict):
        return node, name
    variants = [resolve(defs, v, value) for v in union]
    for v, n in variants:
        t = v.get("properties", {}).get("type", {})
        if "type" in value and (t.get("const") == value["type"] or value["type"] in t.get("enum", [])):
            return v, n
    for v, n in variants:
        props = v.get("properties", {})
        if ("blob" in value) == ("blob" in props) and ("text" in value) == ("text" in props):
            return v, n
    return node, name


def properties(defs, node):
    """The property names a schema node defines (following one $ref)."""
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[1]]
    return node.get("properties", {})


# Members whose values are JSON Schemas or free-form data, not MCP
# structures: not descended into.
FREE_FORM = {"_meta", "inputSchema", "outputSchema", "structuredContent"}


# Members the current upstream text of a revision's schema defines although
# the release-tag schema.json vendored by protocol-droid-schema does not:
# upstream added `size` to Resource of 2024-11-05 and 2025-03-26 later (the
# upstream schema.ts of both revisions has `size?: number`), and the library
# lists it on every revision.
LATER_UPSTREAM = {("2024-11-05", "Resource"): {"size"}, ("2025-03-26", "Resource"): {"size"}}


def undefined_members(defs, name, value, path, revision, node=None):
    """Members of value (and of the objects inside it that the schema
    describes) that the named definition does not define: a revision's
    result must carry only what that revision defines. `_meta` objects,
    JSON Schemas and structured content are free-form and not descended
    into; a union (content blocks, resource contents) is resolved by the
    value's `type` or its `text` / `blob`."""
    node, found_name = resolve(defs, node if node is not None else {"$ref": f"#/x/{name}"}, value)
    name = found_name or name
    props = node.get("properties", {})
    later = LATER_UPSTREAM.get((revision, name), set())
    found = [f"{path}.{k}" for k in value if k not in props and k not in later]
    for k, v in value.items():
        if k in FREE_FORM or k not in props:
            continue
        sub = props[k]
        if isinstance(v, dict) and ("$ref" in sub or "anyOf" in sub or "oneOf" in sub):
            found += undefined_members(defs, name, v, f"{path}.{k}", revision, node=sub)
        elif isinstance(v, dict) and "properties" in sub:
            found += [f"{path}.{k}.{kk}" for kk in v if kk not in sub["properties"]]
        elif isinstance(v, list) and isinstance(sub.get("items"), dict):
            items = sub["items"]
            for i, item in enumerate(v):
                if isinstance(item, dict):
                    found += undefined_members(defs, name, item, f"{path}.{k}[{i}]", revision, node=items)
    return found


def check_tool_result(entry, data, result, label):
    """A CallToolResult: its blocks in order (type and URI, or text), isError,
    resultType exactly on 2026-07-28, and structured content that the tool's
    output schema accepts (as the Python client validates it)."""
    revision, expect = entry["revision"], entry["expect"]
    check(("resultType" in data) == (revision == "2026-07-28"), f"{label}: resultType present iff 2026")
    check("ttlMs" not in data and "cacheScope" not in data, f"{label}: no cache hints")
    check(bool(result.is_error) == expect["isError"], f"{label}: isError {result.is_error}")
    check(len(result.content) == len(expect["content"]), f"{label}: block count {len(result.content)}")
    for got, (kind, what) in zip(result.content, expect["content"]):
        check(got.type == kind, f"{label}: block type {got.type} != {kind}")
        if kind == "resource":
            check(str(got.resource.uri).startswith(what), f"{label}: embedded {got.resource.uri}")
        elif kind == "resource_link":
            check(str(got.uri) == what, f"{label}: link {got.uri}")
        elif what is not None:
            check(got.text == what, f"{label}: text {got.text!r}")
    if "names" in expect:
        check([b.name for b in result.content] == expect["names"], f"{label}: link names")
    tool = expect.get("structured")
    if tool:
        schema = TOOL_DEFINITIONS[(revision, tool)]["outputSchema"]
        errors = list(jsonschema.validators.validator_for(schema)(schema).iter_errors(result.structured_content))
        check(not errors, f"{label}: outputSchema of {tool}: {[e.message for e in errors]}")
        if tool == "list_resources":
            sc = result.structured_content
            check([r["uri"] for r in sc["resources"]] == expect["resources"], f"{label}: listed resources")
            check([t["uriTemplate"] for t in sc["resourceTemplates"]] == expect["templates"], f"{label}: listed templates")
            check(("nextCursor" in sc) == expect["nextCursor"], f"{label}: nextCursor")
            check(json.loads(result.content[0].text) == sc, f"{label}: the text block holds the structured content")
        else:
            contents = result.structured_content["contents"]
            check([c.resource.model_dump(by_alias=True, exclude_none=True, mode="json") for c in result.content]
                  == contents, f"{label}: structured contents are the embedded resources")
    else:
        check(result.structured_content is None, f"{label}: no structured content")
        check("structuredContent" not in data, f"{label}: no structuredContent member")
        if "resources" in expect:
            # Before 2025-06-18: the one text block alone holds the page.
            page = json.loads(result.content[0].text)
            check([r["uri"] for r in page["resources"]] == expect["resources"], f"{label}: listed resources (text)")
            check([t["uriTemplate"] for t in page["resourceTemplates"]] == expect["templates"],
                  f"{label}: listed templates (text)")
            check(("nextCursor" in page) == expect["nextCursor"], f"{label}: nextCursor (text)")


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
    if method == "tools/list":
        check([t.name for t in result.tools] == expect["tools"], f"{label}: tool names")
        for t in data["tools"]:
            TOOL_DEFINITIONS[(revision, t["name"])] = t
            # outputSchema from 2025-06-18 on (undefined_members below refuses
            # it before).
            for key in ("inputSchema", "outputSchema"):
                if key not in t:
                    check(key != "inputSchema" and revision in ("2024-11-05", "2025-03-26"),
                          f"{label}: {t['name']} has {key}")
                    continue
                schema = t[key]
                try:
                    jsonschema.validators.validator_for(schema).check_schema(schema)
                    check(True, f"{label}: {t['name']} {key} is a valid JSON Schema")
                except jsonschema.exceptions.SchemaError as e:
                    check(False, f"{label}: {t['name']} {key}: {e.message}")
        return
    if method == "tools/call":
        check_tool_result(entry, data, result, label)
        return
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
    # Tool definitions first: the tool results' structured content is
    # validated against their output schemas.
    manifest.sort(key=lambda e: e["method"] != "tools/list")
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
            ("2025-03-26", "CallToolResult", {"content": [], "structuredContent": {}}, "structuredContent"),
            ("2024-11-05", "ListToolsResult",
             {"tools": [{"name": "t", "inputSchema": {"type": "object"}, "annotations": {}}]}, "annotations"),
            ("2025-03-26", "ListToolsResult",
             {"tools": [{"name": "t", "inputSchema": {"type": "object"}, "title": "T"}]}, "title"),
            ("2025-03-26", "CallToolResult",
             {"content": [{"type": "resource", "resource": {"uri": "a:b", "text": "", "_meta": {}}}]}, "_meta"),
            ("2025-06-18", "CallToolResult", {"content": [{"type": "text", "text": "", "bogus": 1}]}, "bogus"),
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
        # Tool results: 2026 requires resultType; a link requires its name.
        v = schema_validator(schema_dir, "2026-07-28", "CallToolResult")
        check(not v.is_valid({"content": []}), "schema negative control: CallToolResult without resultType")
        for revision in ("2025-06-18", "2025-11-25", "2026-07-28"):
            v = schema_validator(schema_dir, revision, "ResourceLink")
            check(not v.is_valid({"type": "resource_link", "uri": "doc://a"}),
                  f"schema negative control: {revision} link without a name")
    print(f"python client checks: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
