//! The full path of the params reader (`params.rs`): `serde_json` reads
//! the params by the method's spec and decides every refusal (the fast
//! path, `params/fast.rs`, gives the params it cannot read here).

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::args::{Arg, Args};
use super::{Kind, ListRule, ParamsError, Spec, Values, NOT_JSON};

/// Reads `text` (trimmed, UTF-8) by `spec` into `out` (empty) with
/// `serde_json`: a refusal is the fixed message of the member at fault.
pub(super) fn full_params<'a>(
    text: &'a str,
    spec: Spec,
    out: &mut Values<'a>,
) -> Result<(), ParamsError> {
    let refused = Cell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    ObjectSeed {
        spec,
        out,
        refused: &refused,
        not_object: "params must be an object",
    }
    .deserialize(&mut de)
    .map_err(|e| {
        ParamsError(if e.is_syntax() || e.is_eof() || e.is_io() {
            NOT_JSON
        } else {
            refused.get().unwrap_or("params are invalid")
        })
    })?;
    de.end().map_err(|_| ParamsError(NOT_JSON))
}

/// Records the fixed message of a refusal and makes the serde error.
fn refuse<E: de::Error>(refused: &Cell<Option<&'static str>>, message: &'static str) -> E {
    refused.set(Some(message));
    E::custom(message)
}

/// The index of a member name in a spec (`None`: ignored).
struct KeySeed(Spec);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|m| m.name == v))
    }
}

/// A string; any other JSON type is refused with `message`.
struct StringSeed<'r> {
    message: &'static str,
    refused: &'r Cell<Option<&'static str>>,
}

impl<'de> DeserializeSeed<'de> for StringSeed<'_> {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_any(self)
    }
}

macro_rules! refuse_numbers_and_null {
    ($value:ty) => {
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        fn visit_unit<E: de::Error>(self) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
    };
}

macro_rules! refuse_other_types {
    ($value:ty) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        refuse_numbers_and_null!($value);
        fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<$value, A::Error> {
            Err(refuse(self.refused, self.message()))
        }
    };
}

impl StringSeed<'_> {
    fn message(&self) -> &'static str {
        self.message
    }
}

impl<'de> Visitor<'de> for StringSeed<'_> {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Cow<'de, str>, A::Error> {
        Err(refuse(self.refused, self.message))
    }

    refuse_other_types!(Cow<'de, str>);
}

/// A string, or `None` for any other JSON value (read and left out).
struct LenientStringSeed;

impl<'de> DeserializeSeed<'de> for LenientStringSeed {
    type Value = Option<Cow<'de, str>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for LenientStringSeed {
    type Value = Option<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(v.to_string())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(v)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// An object read by `spec` into `out`; any other JSON type is refused with
/// `not_object`.
pub(super) struct ObjectSeed<'v, 'a, 'r> {
    pub(super) spec: Spec,
    pub(super) out: &'v mut Values<'a>,
    pub(super) refused: &'r Cell<Option<&'static str>>,
    pub(super) not_object: &'static str,
}

impl ObjectSeed<'_, '_, '_> {
    fn message(&self) -> &'static str {
        self.not_object
    }
}

impl<'de> DeserializeSeed<'de> for ObjectSeed<'_, 'de, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ObjectSeed<'_, 'de, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.not_object)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = 0u32;
        while let Some(at) = map.next_key_seed(KeySeed(self.spec))? {
            let Some(i) = at else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let member = &self.spec[i];
            if seen & (1 << i) != 0 {
                return Err(refuse(self.refused, member.repeated));
            }
            seen |= 1 << i;
            match member.kind {
                Kind::Str(slot) => {
                    let v = map.next_value_seed(StringSeed {
                        message: member.wrong_type,
                        refused: self.refused,
                    })?;
                    self.out.set(slot, v);
                }
                Kind::LenientStr(slot) => {
                    if let Some(v) = map.next_value_seed(LenientStringSeed)? {
                        self.out.set(slot, v);
                    }
                }
                Kind::Bool(flag) => {
                    let v = map.next_value_seed(BoolSeed {
                        message: member.wrong_type,
                        refused: self.refused,
                    })?;
                    self.out.set_flag(flag, v);
                }
                Kind::Object(spec) => map.next_value_seed(ObjectSeed {
                    spec,
                    out: &mut *self.out,
                    refused: self.refused,
                    not_object: member.wrong_type,
                })?,
                Kind::Present(flag, spec) => {
                    map.next_value_seed(ObjectSeed {
                        spec,
                        out: &mut *self.out,
                        refused: self.refused,
                        not_object: member.wrong_type,
                    })?;
                    self.out.set_flag(flag, true);
                }
                Kind::StrList(rule) => {
                    let strings = map.next_value_seed(StrListSeed {
                        message: member.wrong_type,
                        rule,
                        refused: self.refused,
                    })?;
                    self.out.list = Some(strings);
                }
                Kind::StrMap => {
                    let entries = map.next_value_seed(StrMapSeed {
                        message: member.wrong_type,
                        repeated: member.repeated,
                        refused: self.refused,
                    })?;
                    self.out.map = Some(entries);
                }
                Kind::RawObject(slot) => {
                    let raw: &'de serde_json::value::RawValue = map.next_value()?;
                    if !raw.get().starts_with('{') {
                        return Err(refuse(self.refused, member.wrong_type));
                    }
                    self.out.set(slot, Cow::Borrowed(raw.get()));
                }
                Kind::Args(repeated_key) => {
                    let entries = map.next_value_seed(ArgsSeed {
                        message: member.wrong_type,
                        repeated: repeated_key,
                        refused: self.refused,
                    })?;
                    self.out.args = Some(entries);
                }
            }
        }
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Err(refuse(self.refused, self.not_object))
    }

    refuse_other_types!(());
}

/// An object of strings whose keys do not repeat.
struct StrMapSeed<'r> {
    message: &'static str,
    repeated: &'static str,
    refused: &'r Cell<Option<&'static str>>,
}

impl StrMapSeed<'_> {
    fn message(&self) -> &'static str {
        self.message
    }
}

type Entries<'de> = Vec<(Cow<'de, str>, Cow<'de, str>)>;

impl<'de> DeserializeSeed<'de> for StrMapSeed<'_> {
    type Value = Entries<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Entries<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrMapSeed<'_> {
    type Value = Entries<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<'de>, A::Error> {
        let string = || StringSeed {
            message: self.message,
            refused: self.refused,
        };
        let mut entries: Entries<'de> = Vec::new();
        // Linear: one hash lookup per key (the keys are a client's: a
        // comparison with every earlier key made 256 KiB of short names
        // cost seconds).
        let mut seen: HashSet<Key<'de>> = HashSet::new();
        while let Some(k) = map.next_key_seed(string())? {
            let v = map.next_value_seed(string())?;
            if !seen.insert(Key(k.clone())) {
                return Err(refuse(self.refused, self.repeated));
            }
            entries.push((k, v));
        }
        Ok(entries)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Entries<'de>, E> {
        Err(refuse(self.refused, self.message))
    }

    refuse_other_types!(Entries<'de>);
}

/// A boolean; any other JSON type is refused with `message`.
struct BoolSeed<'r> {
    message: &'static str,
    refused: &'r Cell<Option<&'static str>>,
}

impl BoolSeed<'_> {
    fn message(&self) -> &'static str {
        self.message
    }
}

impl<'de> DeserializeSeed<'de> for BoolSeed<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BoolSeed<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
        Err(refuse(self.refused, self.message))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<bool, A::Error> {
        Err(refuse(self.refused, self.message))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<bool, A::Error> {
        Err(refuse(self.refused, self.message))
    }

    refuse_numbers_and_null!(bool);
}

/// An array of distinct strings, at most `rule.max` (each element is read
/// before the count is checked).
struct StrListSeed<'r> {
    message: &'static str,
    rule: &'static ListRule,
    refused: &'r Cell<Option<&'static str>>,
}

impl StrListSeed<'_> {
    fn message(&self) -> &'static str {
        self.message
    }
}

type Strings<'de> = Vec<Cow<'de, str>>;

impl<'de> DeserializeSeed<'de> for StrListSeed<'_> {
    type Value = Strings<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Strings<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrListSeed<'_> {
    type Value = Strings<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strings<'de>, A::Error> {
        let mut out: Strings<'de> = Vec::new();
        // Linear, as for the keys of an object of strings.
        let mut seen: HashSet<Key<'de>> = HashSet::new();
        while let Some(s) = seq.next_element_seed(StringSeed {
            message: self.message,
            refused: self.refused,
        })? {
            if out.len() == self.rule.max {
                return Err(refuse(self.refused, self.rule.too_many));
            }
            if !seen.insert(Key(s.clone())) {
                return Err(refuse(self.refused, self.rule.repeated));
            }
            out.push(s);
        }
        Ok(out)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Strings<'de>, E> {
        Err(refuse(self.refused, self.message))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Strings<'de>, E> {
        Err(refuse(self.refused, self.message))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Strings<'de>, A::Error> {
        Err(refuse(self.refused, self.message))
    }

    refuse_numbers_and_null!(Strings<'de>);
}

/// A key of an object of strings, hashed and compared as its text (the
/// tests count the comparisons: linear, not quadratic).
#[derive(Hash)]
struct Key<'a>(Cow<'a, str>);

impl PartialEq for Key<'_> {
    fn eq(&self, other: &Self) -> bool {
        #[cfg(test)]
        super::tests::COMPARISONS.with(|c| c.set(c.get() + 1));
        self.0 == other.0
    }
}

impl Eq for Key<'_> {}

// ------------------------------------------------------------ tool arguments

/// The arguments on the `serde_json` path: `message` when they are no
/// object, `repeated` when a key repeats.
struct ArgsSeed<'r> {
    message: &'static str,
    repeated: &'static str,
    refused: &'r Cell<Option<&'static str>>,
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
