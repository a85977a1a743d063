//! `CallToolResult` objects: the host's own (around embedded blocks) and
//! the resource tools' (results and tool execution errors).

use crate::protocol::ProtocolRevision;
use crate::sizing::write_json_str;

/// Writes a whole MCP `CallToolResult`: `content` is a JSON array of
/// content blocks and `structured_content` a JSON value, both placed as
/// given (they are not parsed again: pass JSON this library or the host
/// made); `isError` is written only when true; on 2026-07-28 the result
/// ends with `"resultType":"complete"`, which that revision requires.
///
/// Before 2026-07-28 `structuredContent` must be a JSON object to
/// validate; from 2026-07-28 any JSON value is allowed.
pub fn call_tool_result(
    revision: ProtocolRevision,
    content: &str,
    structured_content: Option<&str>,
    is_error: bool,
) -> String {
    let mut out =
        String::with_capacity(content.len() + structured_content.map_or(0, str::len) + 80);
    out.push_str("{\"content\":");
    out.push_str(content);
    if let Some(s) = structured_content {
        out.push_str(",\"structuredContent\":");
        out.push_str(s);
    }
    if is_error {
        out.push_str(",\"isError\":true");
    }
    if revision.has_result_fields() {
        out.push_str(",\"resultType\":\"complete\"");
    }
    out.push('}');
    out
}

/// A `text` content block holding `text`.
pub fn text_block(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    out.push_str("{\"type\":\"text\",\"text\":");
    write_json_str(&mut out, text);
    out.push('}');
    out
}

/// A tool execution error: one text block with `message`, `isError: true`.
pub(crate) fn tool_error(revision: ProtocolRevision, message: &str) -> String {
    let mut content = String::from("[");
    content.push_str(&text_block(message));
    content.push(']');
    call_tool_result(revision, &content, None, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_type_only_on_2026() {
        assert_eq!(
            call_tool_result(ProtocolRevision::V2025_11_25, "[]", None, false),
            r#"{"content":[]}"#
        );
        assert_eq!(
            call_tool_result(ProtocolRevision::V2026_07_28, "[]", Some("{}"), true),
            r#"{"content":[],"structuredContent":{},"isError":true,"resultType":"complete"}"#
        );
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(text_block("a\"b\n"), r#"{"type":"text","text":"a\"b\n"}"#);
        assert_eq!(
            tool_error(ProtocolRevision::V2025_06_18, "no"),
            r#"{"content":[{"type":"text","text":"no"}],"isError":true}"#
        );
    }
}
