//! `CallToolResult` objects: the host's own (around embedded blocks) and
//! the resource tools' (results and tool execution errors).

use crate::protocol::ProtocolRevision;
use crate::result_meta::{self, ResultMeta};
use crate::sizing::write_json_str;

/// Writes a whole MCP `CallToolResult`: `content` is a JSON array of
/// content blocks and `structured_content` a JSON value, both placed as
/// given (they are not parsed again: pass JSON this library or the host
/// made); `isError` is written only when true; on 2026-07-28 the result
/// ends with `"resultType":"complete"`, which that revision requires.
///
/// Before 2025-06-18 (which added it) `structuredContent` is left out;
/// from 2025-06-18 to 2025-11-25 it must be a JSON object to validate;
/// from 2026-07-28 any JSON value is allowed.
pub fn call_tool_result(
    revision: ProtocolRevision,
    content: &str,
    structured_content: Option<&str>,
    is_error: bool,
) -> String {
    tool_result_with_meta(revision, content, structured_content, is_error, None)
}

/// [`call_tool_result`] with the host's result `_meta` members, when
/// given, as the result's `_meta` (docs/BEHAVIOUR.md §14).
pub(crate) fn tool_result_with_meta(
    revision: ProtocolRevision,
    content: &str,
    structured_content: Option<&str>,
    is_error: bool,
    result_meta: Option<&ResultMeta>,
) -> String {
    let structured_content = structured_content.filter(|_| revision.has_tool_output());
    let mut out = String::with_capacity(
        content.len()
            + structured_content.map_or(0, str::len)
            + result_meta::member_len(result_meta)
            + 80,
    );
    out.push_str("{\"content\":");
    out.push_str(content);
    if let Some(s) = structured_content {
        out.push_str(",\"structuredContent\":");
        out.push_str(s);
    }
    if is_error {
        out.push_str(",\"isError\":true");
    }
    if let Some(m) = result_meta {
        m.write_member(&mut out);
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

/// A tool execution error: one text block with `message`, `isError: true`
/// (a result: it carries the host's result `_meta` members, the same for
/// every reason).
pub(crate) fn tool_error(
    revision: ProtocolRevision,
    message: &str,
    result_meta: Option<&ResultMeta>,
) -> String {
    let mut content = String::from("[");
    content.push_str(&text_block(message));
    content.push(']');
    tool_result_with_meta(revision, &content, None, true, result_meta)
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
    fn structured_content_only_from_2025_06_18() {
        for r in [ProtocolRevision::V2024_11_05, ProtocolRevision::V2025_03_26] {
            assert_eq!(
                call_tool_result(r, "[]", Some("{}"), false),
                r#"{"content":[]}"#
            );
        }
        assert_eq!(
            call_tool_result(ProtocolRevision::V2025_06_18, "[]", Some("{}"), false),
            r#"{"content":[],"structuredContent":{}}"#
        );
    }

    #[test]
    fn the_host_result_meta_is_the_result_meta_before_result_type() {
        let meta = ResultMeta::from_json(r#"{"a/b":1}"#).unwrap();
        assert_eq!(
            tool_result_with_meta(ProtocolRevision::V2026_07_28, "[]", None, true, Some(&meta)),
            r#"{"content":[],"isError":true,"_meta":{"a/b":1},"resultType":"complete"}"#
        );
        assert_eq!(
            tool_error(ProtocolRevision::V2024_11_05, "no", Some(&meta)),
            r#"{"content":[{"type":"text","text":"no"}],"isError":true,"_meta":{"a/b":1}}"#
        );
        let empty = ResultMeta::from_json("{}").unwrap();
        assert_eq!(
            tool_result_with_meta(
                ProtocolRevision::V2025_06_18,
                "[]",
                None,
                false,
                Some(&empty)
            ),
            call_tool_result(ProtocolRevision::V2025_06_18, "[]", None, false)
        );
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(text_block("a\"b\n"), r#"{"type":"text","text":"a\"b\n"}"#);
        assert_eq!(
            tool_error(ProtocolRevision::V2025_06_18, "no", None),
            r#"{"content":[{"type":"text","text":"no"}],"isError":true}"#
        );
    }
}
