//! A tool's `arguments` ([`Kind::Args`](super::Kind::Args)): an object of
//! any values whose keys do not repeat, kept as given for the tool to
//! judge, a string as itself and any other value as [`Arg::Other`]. A
//! wrong argument is the tool's execution error (MCP's tools page), not
//! malformed params; `arguments` that are no object, or repeat a key, are
//! malformed params. Read by the fast path when they are few and plain,
//! else by `serde_json`, like every member (`params.rs`).

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::{refuse, Flat, Key, StringSeed};

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

/// The fast path reads at most this many arguments (it compares each key
/// with the earlier ones); more go to `serde_json`, whose repetition check
/// hashes the keys (linear, whatever their number).
const FLAT_MAX_ARGS: usize = 16;

/// The fast path's arguments (at their opening brace), at nesting `depth`:
/// `None` (to `serde_json`, which decides) for a repeated key, more than
/// [`FLAT_MAX_ARGS`] keys, or any value the fast path cannot check.
pub(super) fn flat_args<'a>(p: &mut Flat<'a>, depth: u32) -> Option<Args<'a>> {
    let mut out: Args<'a> = Vec::new();
    p.object(&mut |p, key| {
        if out.len() == FLAT_MAX_ARGS || out.iter().any(|(k, _)| *k == key) {
            return None;
        }
        let arg = if p.b.get(p.i) == Some(&b'"') {
            Arg::Str(Cow::Borrowed(p.string()?))
        } else {
            p.skip_value(depth)?;
            Arg::Other
        };
        out.push((Cow::Borrowed(key), arg));
        Some(())
    })?;
    Some(out)
}

/// The arguments on the `serde_json` path: `message` when they are no
/// object, `repeated` when a key repeats.
pub(super) struct ArgsSeed<'r> {
    pub message: &'static str,
    pub repeated: &'static str,
    pub refused: &'r Cell<Option<&'static str>>,
}

impl ArgsSeed<'_> {
    fn message(&self) -> &'static str {
        self.message
    }
}

impl<'de> DeserializeSeed<'de> for ArgsSeed<'_> {
    type Value = Args<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Args<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ArgsSeed<'_> {
    type Value = Args<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Args<'de>, A::Error> {
        let key = || StringSeed {
            message: self.message,
            refused: self.refused,
        };
        let mut out: Args<'de> = Vec::new();
        // Linear: one hash lookup per key (the keys are a client's).
        let mut seen: HashSet<Key<'de>> = HashSet::new();
        while let Some(k) = map.next_key_seed(key())? {
            if !seen.insert(Key(k.clone())) {
                return Err(refuse(self.refused, self.repeated));
            }
            let v = map.next_value_seed(ArgSeed)?;
            out.push((k, v));
        }
        Ok(out)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Args<'de>, E> {
        Err(refuse(self.refused, self.message))
    }

    refuse_other_types!(Args<'de>);
}

/// One argument: a string is kept, anything else is skipped as
/// [`Arg::Other`].
struct ArgSeed;

impl<'de> DeserializeSeed<'de> for ArgSeed {
    type Value = Arg<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Arg<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ArgSeed {
    type Value = Arg<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Arg<'de>, E> {
        Ok(Arg::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Arg<'de>, E> {
        Ok(Arg::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Arg<'de>, E> {
        Ok(Arg::Str(Cow::Owned(v)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Arg<'de>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Arg::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Arg<'de>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Arg::Other)
    }
}

#[cfg(test)]
mod tests;
