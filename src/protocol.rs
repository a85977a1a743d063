//! MCP protocol revisions: which revision a result is shaped for.
//!
//! The host negotiates a protocol revision with its client (at
//! initialisation, or per request from 2026-07-28 on, in
//! `params._meta["io.modelcontextprotocol/protocolVersion"]`) and passes it
//! to every read, listing and request. Results and error objects are shaped
//! for that revision:
//!
//! | revision | results carry `resultType`, `ttlMs`, `cacheScope` | descriptions carry | resource contents carry `_meta` | resource not found |
//! |---|---|---|---|---|
//! | `2024-11-05` | no | no `title`, `icons`, `_meta`, `annotations.lastModified` | no | `-32002` with `data.uri` |
//! | `2025-03-26` | no | no `title`, `icons`, `_meta`, `annotations.lastModified` | no | `-32002` with `data.uri` |
//! | `2025-06-18` | no | no `icons` | yes | `-32002` with `data.uri` |
//! | `2025-11-25` | no | every member | yes | `-32002` with `data.uri` |
//! | `2026-07-28` | yes (`"complete"`, the derived hints) | every member | yes | `-32602` with `data.uri` |
//!
//! A member a revision does not define is left out of what is sent on it
//! (descriptions are precomputed per revision at build, see
//! [`crate::definition`]; content `_meta` and the warning item's marks are
//! not written), so that every result validates against the negotiated
//! revision's schema.
//!
//! An unknown revision is refused, never guessed (the C ABI answers
//! `MCPR_INVALID_ARGUMENT`; a per-request revision in request params is an
//! `UnsupportedProtocolVersion` error response, see [`crate::request`]).

use std::fmt;

/// A protocol revision this library shapes results for.
///
/// cbindgen:ignore
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum ProtocolRevision {
    /// MCP `2024-11-05`.
    V2024_11_05,
    /// MCP `2025-03-26`.
    V2025_03_26,
    /// MCP `2025-06-18`.
    V2025_06_18,
    /// MCP `2025-11-25`.
    V2025_11_25,
    /// MCP `2026-07-28` (the newest this library knows, and the default).
    #[default]
    V2026_07_28,
}

/// A revision string this library does not know (the private detail of the
/// refusal; the string itself is not kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownRevision;

impl fmt::Display for UnknownRevision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown MCP protocol revision (known: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28; empty = newest)",
        )
    }
}

impl std::error::Error for UnknownRevision {}

/// cbindgen:ignore
impl ProtocolRevision {
    /// The newest revision this library knows (what an empty string means).
    pub const LATEST: ProtocolRevision = ProtocolRevision::V2026_07_28;

    /// Every known revision, oldest first.
    pub const ALL: [ProtocolRevision; 5] = [
        ProtocolRevision::V2024_11_05,
        ProtocolRevision::V2025_03_26,
        ProtocolRevision::V2025_06_18,
        ProtocolRevision::V2025_11_25,
        ProtocolRevision::V2026_07_28,
    ];

    /// Parses a revision string exactly (`"2024-11-05"`, `"2025-03-26"`,
    /// `"2025-06-18"`, `"2025-11-25"`, `"2026-07-28"`); the empty string means [`LATEST`](Self::LATEST).
    /// Anything else is [`UnknownRevision`]: a revision is never guessed.
    pub fn parse(s: &[u8]) -> Result<ProtocolRevision, UnknownRevision> {
        match s {
            b"" => Ok(Self::LATEST),
            b"2024-11-05" => Ok(ProtocolRevision::V2024_11_05),
            b"2025-03-26" => Ok(ProtocolRevision::V2025_03_26),
            b"2025-06-18" => Ok(ProtocolRevision::V2025_06_18),
            b"2025-11-25" => Ok(ProtocolRevision::V2025_11_25),
            b"2026-07-28" => Ok(ProtocolRevision::V2026_07_28),
            _ => Err(UnknownRevision),
        }
    }

    /// The revision string.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolRevision::V2024_11_05 => "2024-11-05",
            ProtocolRevision::V2025_03_26 => "2025-03-26",
            ProtocolRevision::V2025_06_18 => "2025-06-18",
            ProtocolRevision::V2025_11_25 => "2025-11-25",
            ProtocolRevision::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether results of `resources/read`, `resources/list` and
    /// `resources/templates/list` carry `resultType`, `ttlMs` and
    /// `cacheScope` (2026-07-28 on).
    pub fn has_result_fields(self) -> bool {
        self >= ProtocolRevision::V2026_07_28
    }

    /// Whether resource contents (read items) and descriptions carry
    /// `_meta`, and descriptions `title` and `annotations.lastModified`
    /// (2025-06-18 on). Before it the warning item of a partial bundle
    /// carries no `_meta` marks either: it is known by its `mcp-warning:`
    /// URI and the result `_meta` report, which every revision carries.
    pub fn has_item_meta(self) -> bool {
        self >= ProtocolRevision::V2025_06_18
    }

    /// Whether tool results and tool definitions carry what 2025-06-18
    /// added to them: `structuredContent`, `resource_link` content blocks,
    /// a tool's `outputSchema` and `title`. Before it an embedding has no
    /// link form and a tool result no structured content.
    pub fn has_tool_output(self) -> bool {
        self >= ProtocolRevision::V2025_06_18
    }

    /// Whether tool definitions carry `annotations` (2025-03-26 on).
    pub fn has_tool_annotations(self) -> bool {
        self >= ProtocolRevision::V2025_03_26
    }

    /// Whether descriptions carry `icons` (2025-11-25 on).
    pub fn has_icons(self) -> bool {
        self >= ProtocolRevision::V2025_11_25
    }

    /// The JSON-RPC code of "resource not found": `-32602` from 2026-07-28
    /// on (which forbids `-32002`), `-32002` before.
    pub fn not_found_code(self) -> i32 {
        if self >= ProtocolRevision::V2026_07_28 {
            -32602
        } else {
            -32002
        }
    }
}

impl fmt::Display for ProtocolRevision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ProtocolRevision {
    type Err = UnknownRevision;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_revision_round_trips_and_empty_is_the_newest() {
        for r in ProtocolRevision::ALL {
            assert_eq!(ProtocolRevision::parse(r.as_str().as_bytes()), Ok(r));
        }
        assert_eq!(
            ProtocolRevision::parse(b""),
            Ok(ProtocolRevision::V2026_07_28)
        );
        assert_eq!(ProtocolRevision::default(), ProtocolRevision::LATEST);
    }

    #[test]
    fn unknown_revisions_are_refused_never_guessed() {
        for bad in [
            &b"2024-11-04"[..],
            b"2025-03-25",
            b"2024-11-05 ",
            b"2025-01-01",
            b"2026-07-29",
            b"2026-07-28 ",
            b" 2026-07-28",
            b"2026-7-28",
            b"latest",
            b"2026-07-28\0",
            b"\xff",
        ] {
            assert_eq!(
                ProtocolRevision::parse(bad),
                Err(UnknownRevision),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn result_fields_and_not_found_code_follow_the_revision() {
        for old in [ProtocolRevision::V2024_11_05, ProtocolRevision::V2025_03_26] {
            assert!(!old.has_result_fields());
            assert!(!old.has_item_meta() && !old.has_icons());
            assert_eq!(old.not_found_code(), -32002);
        }
        assert!(ProtocolRevision::V2025_06_18.has_item_meta());
        assert!(!ProtocolRevision::V2025_06_18.has_icons());
        assert!(ProtocolRevision::V2025_11_25.has_icons());
        assert!(!ProtocolRevision::V2025_06_18.has_result_fields());
        assert!(!ProtocolRevision::V2025_11_25.has_result_fields());
        assert!(ProtocolRevision::V2026_07_28.has_result_fields());
        assert_eq!(ProtocolRevision::V2025_06_18.not_found_code(), -32002);
        assert_eq!(ProtocolRevision::V2025_11_25.not_found_code(), -32002);
        assert_eq!(ProtocolRevision::V2026_07_28.not_found_code(), -32602);
    }
}
