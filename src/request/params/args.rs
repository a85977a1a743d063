//! A tool's `arguments` ([`Kind::Args`](super::Kind::Args)): an object of
//! any values whose keys do not repeat, kept as given for the tool to
//! judge, a string as itself and any other value as [`Arg::Other`]. A
//! wrong argument is the tool's execution error (MCP's tools page), not
//! malformed params; `arguments` that are no object, or repeat a key, are
//! malformed params. Read by the fast path when they are few and plain
//! (`fast.rs`), else by `serde_json` (`full.rs`), like every member: this
//! file holds only what both read into.

use std::borrow::Cow;

/// One argument value as the tool sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg<'a> {
    /// A string.
    Str(Cow<'a, str>),
    /// Any other JSON value.
    Other,
}

/// The arguments, in document order.
pub(crate) type Args<'a> = Vec<(Cow<'a, str>, Arg<'a>)>;

#[cfg(test)]
mod tests;
