//! `resource_link` content blocks built from registered descriptions.
//!
//! A link carries `"type":"resource_link"`, the `uri` it points at, and
//! those members of the registered description that MCP's `ResourceLink`
//! defines in every supported revision: `name`, `title`, `description`,
//! `mimeType`, `size` (exact-URI descriptions only: a template describes
//! many resources) and `annotations`, each copied byte for byte, in the
//! description's order, and only when it has the type the schema gives it
//! (strings; a non-negative integer `size`; an object `annotations`), so
//! that every link validates. Nothing else is copied: not `_meta` (the
//! application's metadata about the description, not about the linked
//! resource), not `icons` (not in 2025-06-18's `ResourceLink`), and never
//! `uri` / `uriTemplate` themselves.
//!
//! A link for a plan item that is not the requested target has no
//! registered description of its own to draw on: it carries the item URI
//! as both `uri` and `name`.

use crate::definition::ResourceDefinition;
use crate::jsonscan::{self, Kind};
use crate::sizing::write_json_str;

/// The opening of every link block.
const OPEN: &str = "{\"type\":\"resource_link\",\"uri\":";

/// Appends the link block for `uri` described by `definition`.
pub(crate) fn write_link(out: &mut String, uri: &str, definition: &ResourceDefinition) {
    out.push_str(OPEN);
    write_json_str(out, uri);
    let json = definition.json();
    // The stored description is already compact: the scan copies it as it
    // is, so member ranges index `json` itself.
    let mut copy = String::with_capacity(json.len());
    let scanned = match jsonscan::scan(json, &mut copy, "") {
        Ok(s) => s,
        Err(_) => {
            // Never for a registered description; a link must still name
            // what it points at.
            out.push_str(",\"name\":");
            write_json_str(out, definition.name());
            out.push('}');
            return;
        }
    };
    let template = definition.is_template();
    for m in &scanned.members {
        let value = &copy[m.value_bytes.clone()];
        let keep = match (m.key.as_ref(), &m.value) {
            ("name" | "title" | "description" | "mimeType", Kind::Str(_)) => true,
            ("size", Kind::Scalar) => !template && is_unsigned_integer(value),
            ("annotations", Kind::Object) => true,
            _ => false,
        };
        if keep {
            out.push(',');
            out.push_str(&copy[m.bytes.clone()]);
        }
    }
    out.push('}');
}

/// Appends the link block of a plan item with no registered description of
/// its own: its URI is its name.
pub(crate) fn write_item_link(out: &mut String, uri: &str) {
    out.push_str(OPEN);
    write_json_str(out, uri);
    out.push_str(",\"name\":");
    write_json_str(out, uri);
    out.push('}');
}

/// Whether a JSON number's text is a non-negative integer without a
/// fraction or an exponent (what the schema's `"type":"integer"` size is
/// written as).
fn is_unsigned_integer(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(def: &str, uri: &str) -> serde_json::Value {
        // Descriptions of the wrong types no longer register (BEHAVIOUR
        // §1): the link writer's checks still hold for any description.
        let d = ResourceDefinition::from_json(def)
            .or_else(|_| ResourceDefinition::from_json_without_member_rules(def))
            .unwrap();
        let mut out = String::new();
        write_link(&mut out, uri, &d);
        serde_json::from_str(&out).unwrap()
    }

    #[test]
    fn a_link_copies_the_members_resource_link_defines() {
        let v = link(
            r#"{"uri":"doc://a","name":"a","title":"A","description":"d","mimeType":"text/plain","size":12,"annotations":{"priority":0.5},"icons":[{"src":"https://x/i.png"}],"_meta":{"k":1},"extra":true}"#,
            "doc://a",
        );
        assert_eq!(
            v,
            serde_json::json!({"type":"resource_link","uri":"doc://a","name":"a","title":"A","description":"d","mimeType":"text/plain","size":12,"annotations":{"priority":0.5}})
        );
    }

    #[test]
    fn members_of_the_wrong_type_are_left_out() {
        let v = link(
            r#"{"uri":"doc://a","name":"a","title":7,"description":null,"mimeType":["x"],"size":-1,"annotations":[]}"#,
            "doc://a",
        );
        assert_eq!(
            v,
            serde_json::json!({"type":"resource_link","uri":"doc://a","name":"a"})
        );
        // The registry refuses such a description in the first place.
        assert!(
            ResourceDefinition::from_json(r#"{"uri":"doc://a","name":"a","title":7}"#).is_err()
        );
        for size in ["1.5", "1e3", "true", "\"3\""] {
            let v = link(
                &format!(r#"{{"uri":"doc://a","name":"a","size":{size}}}"#),
                "doc://a",
            );
            assert!(v.get("size").is_none(), "{size}");
        }
    }

    #[test]
    fn a_template_link_names_the_uri_and_has_no_size() {
        let v = link(
            r#"{"uriTemplate":"doc://d/{id}","name":"docs","size":3,"mimeType":"text/plain"}"#,
            "doc://d/7\"x",
        );
        assert_eq!(
            v,
            serde_json::json!({"type":"resource_link","uri":"doc://d/7\"x","name":"docs","mimeType":"text/plain"})
        );
    }

    #[test]
    fn values_are_copied_byte_for_byte() {
        let d = ResourceDefinition::from_json(
            r#"{"name":"a\u00e9","uri":"doc://a","annotations":{"priority":1.0,"lastModified":"2025-01-01T00:00:00Z"}}"#,
        )
        .unwrap();
        let mut out = String::new();
        write_link(&mut out, "doc://a", &d);
        assert!(out.contains(r#""annotations":{"priority":1.0,"#), "{out}");
    }

    #[test]
    fn an_item_link_is_named_by_its_uri() {
        let mut out = String::new();
        write_item_link(&mut out, "doc://a/b");
        assert_eq!(
            out,
            r#"{"type":"resource_link","uri":"doc://a/b","name":"doc://a/b"}"#
        );
    }
}
