//! The host's result `_meta` members (docs/BEHAVIOUR.md §14): members such
//! as `io.modelcontextprotocol/serverInfo` that every result of a call
//! carries, validated once and merged by the library into the result
//! `_meta` of every result kind.
//!
//! Validated once: a JSON object held to the discipline definitions are
//! held to (no repeated key at any depth, no lone surrogate, no non-finite
//! number, nesting at most 127 deep), at most 63 KiB compact (the result
//! `_meta` location holds 64 KiB, and the library's own members need room:
//! a read's report always fits beside them, shrunk if need be), and without
//! the library's reserved key `go.phpboyscout.uk/mcp.resourceRead` at any
//! depth (the only key the library writes into a result `_meta`). Kept as
//! its compact members (without the braces), ready to be copied after the
//! library's own members: the library's key always comes first and is
//! never replaced.

use std::sync::Arc;

use crate::error::Failure;
use crate::jsonscan::{self, Kind};
use crate::limits::MAX_META_BYTES;
use crate::plan::RESERVED_META_KEY;

/// Result `_meta` members a host adds to every result of a call, validated
/// once ([`ResultMeta::from_json`]) and cheap to clone (shared).
///
/// cbindgen:ignore
#[derive(Clone, PartialEq, Eq)]
pub struct ResultMeta {
    /// The compact members, `"k":v,"k2":v2` (empty for `{}`).
    members: Arc<str>,
}

impl std::fmt::Debug for ResultMeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResultMeta")
            .field("bytes", &self.members.len())
            .finish()
    }
}

fn refused(message: &'static str) -> Failure {
    Failure::config(message)
}

impl ResultMeta {
    /// Validates a JSON object of result `_meta` members (see the module
    /// documentation). A refusal is `invalid_configuration` saying why.
    pub fn from_json(json: &str) -> Result<ResultMeta, Failure> {
        if json.len() > 4 * MAX_META_BYTES {
            // Whitespace may shrink, but not by this much.
            return Err(refused("result _meta exceeds 63 KiB"));
        }
        let mut compact = String::with_capacity(json.len());
        let scanned = jsonscan::scan(json, &mut compact, RESERVED_META_KEY)
            .map_err(|e| refused("result _meta is not valid JSON").caused_by(e))?;
        if scanned.root != Kind::Object {
            return Err(refused("result _meta must be a JSON object"));
        }
        if scanned.duplicate_key {
            return Err(refused("result _meta repeats an object key"));
        }
        if scanned.has_key {
            return Err(refused(
                "result _meta uses the library's reserved key go.phpboyscout.uk/mcp.resourceRead",
            ));
        }
        if compact.len() > MAX_RESULT_META_BYTES {
            return Err(refused("result _meta exceeds 63 KiB"));
        }
        let members = &compact[1..compact.len() - 1];
        Ok(ResultMeta {
            members: Arc::from(members),
        })
    }

    /// The compact members without the braces (`""` for `{}`).
    pub fn members(&self) -> &str {
        &self.members
    }

    /// Whether there is no member to merge.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The bytes merging these members adds to a result `_meta` that
    /// already holds `own` members: a separating comma when both have
    /// members.
    pub(crate) fn merged_len(&self, own: bool) -> usize {
        match (self.members.len(), own) {
            (0, _) => 0,
            (n, true) => n + 1,
            (n, false) => n,
        }
    }

    /// The bytes a whole `,"_meta":{…}` member adds to a result that has
    /// none of its own (0 when there is nothing to merge).
    pub(crate) fn member_len(&self) -> usize {
        if self.members.is_empty() {
            0
        } else {
            META_MEMBER.len() + self.members.len()
        }
    }

    /// Appends `,"_meta":{…}` to a result that has no `_meta` of its own
    /// (nothing when there is nothing to merge).
    pub(crate) fn write_member(&self, out: &mut String) {
        if !self.members.is_empty() {
            out.push_str(",\"_meta\":{");
            out.push_str(&self.members);
            out.push('}');
        }
    }

    /// Appends the members to a `_meta` object being written, after `own`
    /// members of the library when there are any.
    pub(crate) fn write_merged(&self, out: &mut String, own: bool) {
        if !self.members.is_empty() {
            if own {
                out.push(',');
            }
            out.push_str(&self.members);
        }
    }
}

/// The largest host result `_meta` object, compact: 64 KiB less 1 KiB for
/// the library's members at the same location.
///
/// cbindgen:ignore
pub const MAX_RESULT_META_BYTES: usize = MAX_META_BYTES - 1024;

/// `,"_meta":{` + `}` around the members.
const META_MEMBER: &str = ",\"_meta\":{}";

/// What a call's result `_meta` adds to each result, when the host gave
/// any (`None` costs nothing).
pub(crate) fn member_len(meta: Option<&ResultMeta>) -> usize {
    meta.map_or(0, ResultMeta::member_len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::FailureKind;

    fn refused_with(json: &str) -> String {
        let e = ResultMeta::from_json(json).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidConfiguration, "{json}");
        e.message().to_string()
    }

    #[test]
    fn result_meta_is_a_compact_object_of_members() {
        let m = ResultMeta::from_json(
            r#" { "io.modelcontextprotocol/serverInfo" : {"name":"s","version":"1"} , "x":[1, 2.5] } "#,
        )
        .unwrap();
        assert_eq!(
            m.members(),
            r#""io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"x":[1,2.5]"#
        );
        assert!(ResultMeta::from_json("{}").unwrap().is_empty());
    }

    #[test]
    fn result_meta_is_held_to_the_definition_discipline() {
        assert!(refused_with("[]").contains("object"));
        assert!(refused_with("\"x\"").contains("object"));
        assert!(refused_with("{").contains("JSON"));
        assert!(refused_with(r#"{"a":1,"a":2}"#).contains("repeats"));
        assert!(refused_with(r#"{"a":{"b":1,"b":1}}"#).contains("repeats"));
        assert!(refused_with(r#"{"a":"\ud800"}"#).contains("JSON"));
        assert!(refused_with(r#"{"a":1e999}"#).contains("JSON"));
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(127), "]".repeat(127));
        assert!(refused_with(&deep).contains("JSON"));
    }

    #[test]
    fn result_meta_never_holds_the_reserved_key() {
        for json in [
            r#"{"go.phpboyscout.uk/mcp.resourceRead":{}}"#,
            r#"{"a":{"go.phpboyscout.uk/mcp.resourceRead":1}}"#,
            r#"{"a":[{"go.phpboyscout.uk/mcp.resourceRead":1}]}"#,
            r#"{"go.phpboyscout.uk\/mcp.resourceRead":1}"#,
        ] {
            assert!(refused_with(json).contains("reserved"), "{json}");
        }
    }

    #[test]
    fn result_meta_is_at_most_63_kib_compact() {
        let fits = format!(r#"{{"a":"{}"}}"#, "x".repeat(MAX_RESULT_META_BYTES - 8));
        assert_eq!(fits.len(), MAX_RESULT_META_BYTES);
        assert!(ResultMeta::from_json(&fits).is_ok());
        let over = format!(r#"{{"a":"{}"}}"#, "x".repeat(MAX_RESULT_META_BYTES - 7));
        assert!(refused_with(&over).contains("63 KiB"));
    }

    #[test]
    fn merging_writes_after_the_librarys_members() {
        let m = ResultMeta::from_json(r#"{"k":1}"#).unwrap();
        let mut out = String::from("{\"own\":2");
        m.write_merged(&mut out, true);
        out.push('}');
        assert_eq!(out, r#"{"own":2,"k":1}"#);
        assert_eq!(m.merged_len(true), ",\"k\":1".len());
        let mut out = String::from("{\"resources\":[]");
        m.write_member(&mut out);
        assert_eq!(out.len() - "{\"resources\":[]".len(), m.member_len());
        assert_eq!(out, r#"{"resources":[],"_meta":{"k":1}"#);
        let empty = ResultMeta::from_json("{}").unwrap();
        let mut out = String::new();
        empty.write_member(&mut out);
        empty.write_merged(&mut out, true);
        assert!(out.is_empty());
        assert_eq!(empty.member_len() + empty.merged_len(true), 0);
    }
}
