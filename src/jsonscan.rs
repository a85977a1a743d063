//! One pass over a JSON document that writes its compact serialisation
//! (exactly as `serde_json` would write the parsed value, keys in document
//! order) and records a light tree of it, from which the canonical form
//! (keys sorted at every depth) is written without parsing again.
//!
//! Registering a definition parses it once with this instead of building a
//! `serde_json::Value`, which is several times slower and was the main cost
//! of registering many resources.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A scanned JSON value; ranges index the compact output.
#[derive(Debug)]
pub(crate) enum Node<'a> {
    /// A string: its decoded text and its serialised bytes.
    Str(Cow<'a, str>, Range<usize>),
    /// A number, boolean or null: its serialised bytes.
    Scalar(Range<usize>),
    /// An array: its elements, and its serialised bytes.
    Array(Vec<Node<'a>>, Range<usize>),
    /// An object: `(decoded key, serialised key bytes, value)` in document
    /// order, and its serialised bytes.
    Object(Vec<Entry<'a>>, Range<usize>),
}

/// One member of a scanned object.
#[derive(Debug)]
pub(crate) struct Entry<'a> {
    /// The decoded key.
    pub key: Cow<'a, str>,
    /// The key's serialised bytes (with quotes) in the compact output.
    pub key_bytes: Range<usize>,
    /// The value.
    pub value: Node<'a>,
}

impl Node<'_> {
    /// The node's bytes in the compact output.
    pub fn range(&self) -> Range<usize> {
        match self {
            Node::Str(_, r) | Node::Scalar(r) | Node::Array(_, r) | Node::Object(_, r) => r.clone(),
        }
    }

    /// Whether some object key at any depth equals `key`.
    pub fn has_key(&self, key: &str) -> bool {
        match self {
            Node::Object(entries, _) => {
                entries.iter().any(|e| e.key == key || e.value.has_key(key))
            }
            Node::Array(items, _) => items.iter().any(|n| n.has_key(key)),
            _ => false,
        }
    }

    /// Whether any object at any depth repeats a key.
    pub fn has_duplicate_keys(&self) -> bool {
        match self {
            Node::Object(entries, _) => {
                let mut keys: Vec<&str> = entries.iter().map(|e| e.key.as_ref()).collect();
                keys.sort_unstable();
                keys.windows(2).any(|w| w[0] == w[1])
                    || entries.iter().any(|e| e.value.has_duplicate_keys())
            }
            Node::Array(items, _) => items.iter().any(Node::has_duplicate_keys),
            _ => false,
        }
    }

    /// Whether every object at any depth already lists its keys in sorted
    /// order (then the compact form is also the canonical form).
    pub fn is_canonical(&self) -> bool {
        match self {
            Node::Object(entries, _) => {
                entries.windows(2).all(|w| w[0].key < w[1].key)
                    && entries.iter().all(|e| e.value.is_canonical())
            }
            Node::Array(items, _) => items.iter().all(Node::is_canonical),
            _ => true,
        }
    }

    /// Appends the canonical form (keys sorted at every depth) to `out`,
    /// copying serialised pieces from `compact`.
    pub fn write_canonical(&self, compact: &[u8], out: &mut Vec<u8>) {
        match self {
            Node::Str(_, r) | Node::Scalar(r) => out.extend_from_slice(&compact[r.clone()]),
            Node::Array(items, _) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write_canonical(compact, out);
                }
                out.push(b']');
            }
            Node::Object(entries, _) => {
                // Small objects (the usual description) sort on the stack.
                let mut small = [0usize; 16];
                let mut large = Vec::new();
                let order: &mut [usize] = if entries.len() <= small.len() {
                    &mut small[..entries.len()]
                } else {
                    large.resize(entries.len(), 0);
                    &mut large
                };
                for (i, slot) in order.iter_mut().enumerate() {
                    *slot = i;
                }
                order.sort_unstable_by(|&a, &b| entries[a].key.cmp(&entries[b].key));
                let ordered = order.iter().map(|&i| &entries[i]);
                out.push(b'{');
                for (i, e) in ordered.enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(&compact[e.key_bytes.clone()]);
                    out.push(b':');
                    e.value.write_canonical(compact, out);
                }
                out.push(b'}');
            }
        }
    }
}

/// Scans `json`, appending its compact serialisation to `out`.
pub(crate) fn scan<'a>(json: &'a str, out: &mut Vec<u8>) -> Result<Node<'a>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(json);
    let node = NodeSeed { out }.deserialize(&mut de)?;
    de.end()?;
    Ok(node)
}

struct NodeSeed<'o> {
    out: &'o mut Vec<u8>,
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_> {
    type Value = Node<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node<'de>, D::Error> {
        d.deserialize_any(NodeVisitor { out: self.out })
    }
}

struct NodeVisitor<'o> {
    out: &'o mut Vec<u8>,
}

fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) -> Range<usize> {
    let start = out.len();
    serde_json::to_writer(&mut *out, v).expect("writing to a Vec cannot fail");
    start..out.len()
}

/// Writes a string that `serde_json` lent from the input unchanged: it had
/// no escape sequence, so it holds no quote, backslash or control character
/// (JSON forbids them raw) and `serde_json` would write it back verbatim.
fn write_unescaped(out: &mut Vec<u8>, v: &str) -> Range<usize> {
    let start = out.len();
    out.reserve(v.len() + 2);
    out.push(b'"');
    out.extend_from_slice(v.as_bytes());
    out.push(b'"');
    start..out.len()
}

impl<'de> Visitor<'de> for NodeVisitor<'_> {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node<'de>, E> {
        Ok(Node::Scalar(write_json(self.out, &v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node<'de>, E> {
        Ok(Node::Scalar(write_json(self.out, &v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node<'de>, E> {
        Ok(Node::Scalar(write_json(self.out, &v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Node<'de>, E> {
        // Exactly what serializing a parsed `serde_json::Value` writes.
        let n = serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into);
        Ok(Node::Scalar(write_json(self.out, &n)))
    }

    fn visit_unit<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Scalar(write_json(self.out, &())))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Node<'de>, E> {
        let r = write_unescaped(self.out, v);
        Ok(Node::Str(Cow::Borrowed(v), r))
    }

    fn visit_str<E>(self, v: &str) -> Result<Node<'de>, E> {
        let r = write_json(self.out, v);
        Ok(Node::Str(Cow::Owned(v.to_owned()), r))
    }

    fn visit_string<E>(self, v: String) -> Result<Node<'de>, E> {
        let r = write_json(self.out, &v);
        Ok(Node::Str(Cow::Owned(v), r))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        let start = self.out.len();
        self.out.push(b'[');
        let mut items = Vec::new();
        loop {
            let mark = self.out.len();
            if !items.is_empty() {
                self.out.push(b',');
            }
            match seq.next_element_seed(NodeSeed { out: self.out })? {
                Some(n) => items.push(n),
                None => {
                    self.out.truncate(mark);
                    break;
                }
            }
        }
        self.out.push(b']');
        Ok(Node::Array(items, start..self.out.len()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let start = self.out.len();
        self.out.push(b'{');
        let mut entries: Vec<Entry<'de>> = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            if !entries.is_empty() {
                self.out.push(b',');
            }
            let key_bytes = match &key {
                Cow::Borrowed(k) => write_unescaped(self.out, k),
                Cow::Owned(k) => write_json(self.out, k.as_str()),
            };
            self.out.push(b':');
            let value = map.next_value_seed(NodeSeed { out: self.out })?;
            entries.push(Entry {
                key,
                key_bytes,
                value,
            });
        }
        self.out.push(b'}');
        Ok(Node::Object(entries, start..self.out.len()))
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compact_and_canonical(json: &str) -> (String, String) {
        let mut out = Vec::new();
        let node = scan(json, &mut out).unwrap();
        let mut canon = Vec::new();
        node.write_canonical(&out, &mut canon);
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(canon).unwrap(),
        )
    }

    #[test]
    fn compact_form_equals_serde_json_reserialisation() {
        for json in [
            r#" { "b" : [1, -2, 3.5, 1e300, 18446744073709551615, true, null, "\u00e9\n\/"] , "a" : {} } "#,
            r#"{"k":"\"q\" \\ \u0001 \ud83d\ude00","n":-0.0,"e":[],"o":{"z":1,"y":[{}]}}"#,
            "[]",
            "\"s\"",
            "12",
        ] {
            let value: serde_json::Value = serde_json::from_str(json).unwrap();
            let (compact, _) = compact_and_canonical(json);
            assert_eq!(compact, serde_json::to_string(&value).unwrap(), "{json}");
        }
    }

    #[test]
    fn canonical_form_sorts_keys_at_every_depth() {
        let (_, canon) = compact_and_canonical(r#"{"b":{"d":1,"c":[{"f":0,"e":1}]},"a":"x"}"#);
        assert_eq!(canon, r#"{"a":"x","b":{"c":[{"e":1,"f":0}],"d":1}}"#);
    }

    #[test]
    fn keys_are_decoded_for_checks() {
        let mut out = Vec::new();
        let node = scan(r#"{"a":{"\u0078y":1}}"#, &mut out).unwrap();
        assert!(node.has_key("xy"));
        assert!(!node.has_key("a\\u0078y"));
        let node = scan(r#"{"a":1,"\u0061":2}"#, &mut Vec::new()).unwrap();
        assert!(node.has_duplicate_keys());
    }

    #[test]
    fn invalid_json_is_refused() {
        for bad in ["{", "{\"a\":}", "[1,]", "{} x", ""] {
            assert!(scan(bad, &mut Vec::new()).is_err(), "{bad}");
        }
    }
}
