//! The fast path of the params reader (`params.rs`): the usual params
//! (strings without escapes, nested objects, arrays, `true`, `false`,
//! `null`) read without `serde_json`. It reads what the serde path reads
//! or gives up (`None`), never decides a refusal: the serde path decides.

use std::borrow::Cow;

use super::args::{Arg, Args};
use super::{is_json_whitespace, Kind, Spec, Values};

/// How deep the fast path follows nested values before leaving the params
/// to serde_json.
const FLAT_MAX_DEPTH: u32 = 16;

/// The fast path of [`read`](super::read) for the usual params: an object whose
/// strings have no escape sequence or control character, with nested
/// objects, arrays, `true`, `false` and `null` (what MCP clients send,
/// `_meta` included). Anything else (an escape, a number, a repeated member
/// that is acted on, a wrong type, an object of strings, nesting deeper
/// than 16, an array the method acts on, a syntax error) is `None` and
/// goes to the serde_json parser, which decides.
pub(super) fn flat_params<'a>(text: &'a str, spec: Spec, out: &mut Values<'a>) -> Option<()> {
    let mut p = Flat {
        text,
        b: text.as_bytes(),
        i: 0,
    };
    flat_object(&mut p, spec, out, 1)?;
    (p.i == p.b.len()).then_some(())
}

/// An object read by `spec` (at its opening brace).
fn flat_object<'a>(p: &mut Flat<'a>, spec: Spec, out: &mut Values<'a>, depth: u32) -> Option<()> {
    let mut seen = 0u32;
    p.object(&mut |p, key| {
        let Some(i) = spec.iter().position(|m| m.name == key) else {
            return p.skip_value(depth);
        };
        if seen & (1 << i) != 0 {
            return None;
        }
        seen |= 1 << i;
        match spec[i].kind {
            Kind::Str(slot) => {
                out.set(slot, Cow::Borrowed(p.string()?));
                Some(())
            }
            Kind::Bool(flag) => {
                out.set_flag(flag, p.boolean()?);
                Some(())
            }
            Kind::LenientStr(slot) if p.b.get(p.i) == Some(&b'"') => {
                out.set(slot, Cow::Borrowed(p.string()?));
                Some(())
            }
            Kind::LenientStr(_) => p.skip_value(depth),
            Kind::Object(sub) if p.b.get(p.i) == Some(&b'{') => flat_object(p, sub, out, depth + 1),
            Kind::Present(flag, sub) if p.b.get(p.i) == Some(&b'{') => {
                flat_object(p, sub, out, depth + 1)?;
                out.set_flag(flag, true);
                Some(())
            }
            Kind::RawObject(slot) if p.b.get(p.i) == Some(&b'{') => {
                let start = p.i;
                p.skip_value(depth + 1)?;
                out.set(slot, Cow::Borrowed(&p.text[start..p.i]));
                Some(())
            }
            Kind::Args(_) if p.b.get(p.i) == Some(&b'{') => {
                out.args = Some(flat_args(p, depth + 1)?);
                Some(())
            }
            Kind::Object(_)
            | Kind::Present(..)
            | Kind::StrMap
            | Kind::StrList(_)
            | Kind::RawObject(_)
            | Kind::Args(_) => None,
        }
    })
}

/// The fast path's cursor over UTF-8 params text.
struct Flat<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Flat<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && is_json_whitespace(self.b[self.i]) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// A string without escapes or controls (at its opening quote). The
    /// text is UTF-8 and quotes are ASCII, so the slice is on character
    /// boundaries.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let end = crate::jsonbytes::next_special(self.b, start)?;
        if self.b[end] != b'"' {
            return None;
        }
        self.i = end + 1;
        Some(&self.text[start..end])
    }

    /// `true` or `false`.
    fn boolean(&mut self) -> Option<bool> {
        for (word, v) in [(&b"true"[..], true), (b"false", false)] {
            if self.b[self.i..].starts_with(word) {
                self.i += word.len();
                return Some(v);
            }
        }
        None
    }

    /// An object (at its opening brace), calling `member` with each key
    /// once the cursor is on the member's value; `member` consumes it.
    fn object(
        &mut self,
        member: &mut dyn FnMut(&mut Flat<'a>, &'a str) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        self.ws();
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            let key = self.string()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            member(self, key)?;
            self.ws();
            if self.eat(b',').is_some() {
                self.ws();
            } else {
                return self.eat(b'}');
            }
        }
    }

    /// Any value the fast path can check: a string, an object, an array,
    /// `true`, `false` or `null`.
    fn skip_value(&mut self, depth: u32) -> Option<()> {
        if depth > FLAT_MAX_DEPTH {
            return None;
        }
        match self.b.get(self.i)? {
            b'"' => self.string().map(drop),
            b'{' => self.object(&mut |p, _| p.skip_value(depth + 1)),
            b'[' => {
                self.i += 1;
                self.ws();
                if self.eat(b']').is_some() {
                    return Some(());
                }
                loop {
                    self.skip_value(depth + 1)?;
                    self.ws();
                    if self.eat(b',').is_some() {
                        self.ws();
                    } else {
                        return self.eat(b']');
                    }
                }
            }
            _ => {
                for word in [&b"true"[..], b"false", b"null"] {
                    if self.b[self.i..].starts_with(word) {
                        self.i += word.len();
                        return Some(());
                    }
                }
                None
            }
        }
    }
}

// ------------------------------------------------------------ tool arguments

/// The fast path reads at most this many arguments (it compares each key
/// with the earlier ones); more go to `serde_json`, whose repetition check
/// hashes the keys (linear, whatever their number).
const FLAT_MAX_ARGS: usize = 16;

/// The fast path's arguments (at their opening brace), at nesting `depth`:
/// `None` (to `serde_json`, which decides) for a repeated key, more than
/// [`FLAT_MAX_ARGS`] keys, or any value the fast path cannot check.
fn flat_args<'a>(p: &mut Flat<'a>, depth: u32) -> Option<Args<'a>> {
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
