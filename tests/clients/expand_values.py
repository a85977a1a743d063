"""The completion-value round trip with the official Python SDK (mcp,
pinned in requirements.txt): parses the library's completion/complete
result with the SDK's model, substitutes each value into the template with
the SDK's own RFC 6570 implementation (mcp.shared.uri_template.UriTemplate),
and writes DIR/expanded_python.json ([{"value", "uri"}]), which
`cargo run --example completion_values -- read` reads back through the
library. Also asserts which of the offered values were sent: the values
the issue named as dead ends (%, %zz, controls, U+202E) never are, a quote
and markup are.

Usage: expand_values.py DIR   (DIR/completion_values.json written by
`cargo run --example completion_values -- offer DIR`)
"""

import json
import os
import sys

from mcp.shared.uri_template import UriTemplate
from mcp_types.methods import parse_server_result

out_dir = sys.argv[1]
with open(os.path.join(out_dir, "completion_values.json"), encoding="utf-8") as f:
    sample = json.load(f)

result = parse_server_result("completion/complete", "2025-11-25", sample["result"])
values = result.completion.values
offered = sample["offered"]


def check(cond, what):
    if not cond:
        raise AssertionError(f"[python expand] {what}")


check(values and all(v in offered for v in values), f"sent values not offered: {values}")
for never in ["%", "%zz", "a\nb", "\t", "gpj.\u202eexe", "zero\u200bwidth", "a?b", "%41"]:
    check(never not in values, f"{never!r} was sent")
for sent in ['"quoted"', "<script>alert(1)", "a b", "é", "é" * 337]:
    check(sent in values, f"{sent!r} was not sent")
# Measured encoded: one more two-byte character would not fit in 2048 bytes.
check("é" * 338 not in values, "a value too long once encoded was sent")

template = UriTemplate.parse(sample["template"])
expanded = []
for v in values:
    uri = template.expand({**sample["context"], "file": v})
    # The SDK's own matcher gives the value back too.
    check(template.match(uri) == {**sample["context"], "file": v}, f"the SDK's match of {uri!r}")
    expanded.append({"value": v, "uri": uri})
with open(os.path.join(out_dir, "expanded_python.json"), "w", encoding="utf-8") as f:
    json.dump(expanded, f)
print(f"python: {len(expanded)} values expanded with mcp.shared.uri_template")
