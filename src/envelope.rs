//! The JSON-RPC 2.0 envelope of one message, read without building a
//! value: one pass checks the text's JSON syntax (iteratively, to a bounded
//! depth) and keeps the raw text of the top-level members JSON-RPC defines
//! (`jsonrpc`, `id`, `method`, `params`, `result`, `error`), so that the
//! message entry point ([`crate::message`]) can echo the id byte for byte
//! and hand the params text, untouched, to the one-call request.
//!
//! What the scan checks is what a JSON-RPC transport checks before it
//! looks at a message (the official Go SDK's line reader does the same):
//! structure, escapes, no raw control characters in strings, nesting at
//! most [`MAX_DEPTH`] deep, nothing after the value. It does not check
//! that string contents are UTF-8 nor that `\u` escapes pair their
//! surrogates: the members this library acts on are decoded strictly
//! where they are used (the id and method here, the params by the
//! one-call request's params parser), and members it does not act on are
//! none of its business.

/// Containers may nest at most this deep (the official Go SDK's decoder
/// refuses deeper documents as well).
///
/// cbindgen:ignore
pub const MAX_DEPTH: usize = 10_000;

/// The raw text of the members of a top-level object that JSON-RPC
/// defines (`None`: absent), and whether one of them was repeated.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Members<'a> {
    pub(crate) jsonrpc: Option<&'a [u8]>,
    pub(crate) id: Option<&'a [u8]>,
    pub(crate) method: Option<&'a [u8]>,
    pub(crate) params: Option<&'a [u8]>,
    pub(crate) result: Option<&'a [u8]>,
    pub(crate) error: Option<&'a [u8]>,
    pub(crate) repeated: bool,
}

/// What one message's text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scan<'a> {
    /// Nothing but JSON whitespace.
    Blank,
    /// Not one JSON text (a syntax error, nesting too deep, trailing data).
    Malformed,
    /// A JSON text that is no object (an array is a batch).
    NotObject,
    /// An object and the members JSON-RPC defines.
    Object(Members<'a>),
}

/// Whether `b` is JSON whitespace (space, tab, line feed, carriage return).
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Scans one message (see the module documentation).
pub(crate) fn scan(text: &[u8]) -> Scan<'_> {
    let mut s = Scanner { b: text, i: 0 };
    s.ws();
    if s.i == text.len() {
        return Scan::Blank;
    }
    let object = text[s.i] == b'{';
    let mut members = Members::default();
    let ok = if object {
        s.object(&mut members)
    } else {
        s.value(0)
    };
    s.ws();
    if ok.is_none() || s.i != text.len() {
        return Scan::Malformed;
    }
    if object {
        Scan::Object(members)
    } else {
        Scan::NotObject
    }
}

/// A cursor over the message bytes.
struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scanner<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && is_ws(self.b[self.i]) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// The top-level object: each member's value is scanned by
    /// [`value`](Self::value) and, for the members JSON-RPC defines, its
    /// raw text kept.
    fn object(&mut self, members: &mut Members<'a>) -> Option<()> {
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
            let start = self.i;
            self.value(1)?;
            let raw = &self.b[start..self.i];
            let slot = match member_name(key).as_deref() {
                Some(b"jsonrpc") => Some(&mut members.jsonrpc),
                Some(b"id") => Some(&mut members.id),
                Some(b"method") => Some(&mut members.method),
                Some(b"params") => Some(&mut members.params),
                Some(b"result") => Some(&mut members.result),
                Some(b"error") => Some(&mut members.error),
                _ => None,
            };
            if let Some(slot) = slot {
                members.repeated |= slot.is_some();
                *slot = Some(raw);
            }
            self.ws();
            if self.eat(b',').is_some() {
                self.ws();
            } else {
                return self.eat(b'}');
            }
        }
    }

    /// One value at nesting `depth` (the containers around it), scanned
    /// iteratively: `stack` holds whether each open container is an object.
    fn value(&mut self, depth: usize) -> Option<()> {
        let mut stack: Vec<bool> = Vec::new();
        loop {
            // A value.
            match *self.b.get(self.i)? {
                b'"' => self.string().map(drop)?,
                c @ (b'{' | b'[') => {
                    if depth + stack.len() >= MAX_DEPTH {
                        return None;
                    }
                    self.i += 1;
                    self.ws();
                    let close = if c == b'{' { b'}' } else { b']' };
                    if self.eat(close).is_none() {
                        stack.push(c == b'{');
                        if c == b'{' {
                            self.key()?;
                        }
                        continue;
                    }
                }
                b't' => self.word(b"true")?,
                b'f' => self.word(b"false")?,
                b'n' => self.word(b"null")?,
                _ => self.number()?,
            }
            // After a value: a separator or the ends of containers.
            loop {
                let Some(&object) = stack.last() else {
                    return Some(());
                };
                self.ws();
                if self.eat(b',').is_some() {
                    self.ws();
                    if object {
                        self.key()?;
                    }
                    break;
                }
                self.eat(if object { b'}' } else { b']' })?;
                stack.pop();
            }
        }
    }

    /// A member name and its colon, up to the value.
    fn key(&mut self) -> Option<()> {
        self.string()?;
        self.ws();
        self.eat(b':')?;
        self.ws();
        Some(())
    }

    fn word(&mut self, w: &[u8]) -> Option<()> {
        self.b[self.i..].starts_with(w).then(|| self.i += w.len())
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() {
            self.i += 1;
        }
        self.i - start
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Option<()> {
        let _ = self.eat(b'-');
        match self.b.get(self.i)? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.eat(b'.').is_some() && self.digits() == 0 {
            return None;
        }
        if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        Some(())
    }

    /// A string (at its opening quote): returns its contents, raw. Escapes
    /// must be JSON's; raw bytes below 0x20 are refused; other bytes pass.
    fn string(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    return Some(&self.b[start..self.i - 1]);
                }
                b'\\' => match *self.b.get(self.i + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 2,
                    b'u' => {
                        let hex = self.b.get(self.i + 2..self.i + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        self.i += 6;
                    }
                    _ => return None,
                },
                c if c < 0x20 => return None,
                _ => self.i += 1,
            }
        }
    }
}

/// A member name as text: the raw contents when they hold no escape, else
/// decoded (`None` when they do not decode to UTF-8 text: then no member
/// JSON-RPC defines).
fn member_name(raw: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    if !raw.contains(&b'\\') {
        return Some(std::borrow::Cow::Borrowed(raw));
    }
    let mut quoted = Vec::with_capacity(raw.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(raw);
    quoted.push(b'"');
    serde_json::from_slice::<String>(&quoted)
        .ok()
        .map(|s| std::borrow::Cow::Owned(s.into_bytes()))
}

/// A string member's text (`raw` is the member's raw value): `None` when it
/// is no string, or one that does not decode to UTF-8 text.
pub(crate) fn string_value(raw: &[u8]) -> Option<String> {
    if raw.first() != Some(&b'"') {
        return None;
    }
    serde_json::from_slice::<String>(raw).ok()
}

/// Whether a raw value is an integer written without fraction or exponent
/// (`-?(0|[1-9][0-9]*)`), the number form an MCP request id takes.
pub(crate) fn is_integer(raw: &[u8]) -> bool {
    let digits = raw.strip_prefix(b"-").unwrap_or(raw);
    !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
        && (digits[0] != b'0' || digits.len() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(text: &str) -> Members<'_> {
        match scan(text.as_bytes()) {
            Scan::Object(m) => m,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn keeps_the_raw_text_of_the_members_json_rpc_defines() {
        let m = members(
            r#" {"jsonrpc":"2.0","id":"a\u0062","method":"resources/read","params":{"uri":"x:y","n":[1,{"a":null}]},"x":[true,false],"result":1e5,"error":{}} "#,
        );
        assert_eq!(m.jsonrpc, Some(&br#""2.0""#[..]));
        assert_eq!(m.id, Some(&br#""a\u0062""#[..]));
        assert_eq!(m.method, Some(&br#""resources/read""#[..]));
        assert_eq!(m.params, Some(&br#"{"uri":"x:y","n":[1,{"a":null}]}"#[..]));
        assert_eq!(m.result, Some(&b"1e5"[..]));
        assert_eq!(m.error, Some(&b"{}"[..]));
        assert!(!m.repeated);
        // Escaped member names are the names they decode to.
        let m = members(r#"{"\u0069d":7,"i\u0064":8}"#);
        assert_eq!((m.id, m.repeated), (Some(&b"8"[..]), true));
        assert!(members(r#"{"params":1,"params":2}"#).repeated);
        assert!(
            !members(r#"{"x":1,"x":2}"#).repeated,
            "other members may repeat"
        );
    }

    #[test]
    fn classifies_what_is_no_object() {
        for blank in ["", " ", "\n\r\t "] {
            assert_eq!(scan(blank.as_bytes()), Scan::Blank, "{blank:?}");
        }
        for not_object in [
            "[]",
            "[{\"id\":1}]",
            "42",
            "\"x\"",
            "null",
            "true",
            " -0.5e+3 ",
        ] {
            assert_eq!(scan(not_object.as_bytes()), Scan::NotObject, "{not_object}");
        }
        for malformed in [
            "garbage",
            "\0",
            "{",
            "}",
            "{\"a\":1",
            "{\"a\":1}}",
            "{\"a\":1} x",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "[1,]",
            "[1 2]",
            "{a:1}",
            "{'a':1}",
            "01",
            "1.",
            "1e",
            "-",
            "+1",
            ".5",
            "tru",
            "nul",
            "\"a",
            "\"\\x\"",
            "\"\\u12g4\"",
            "\"a\nb\"",
            "\"\u{1}\"",
            "\u{c}{}",
            "{}{}",
            "\u{feff}{}",
            "[\"a\",]",
            "{\"a\":[}]}",
        ] {
            assert_eq!(scan(malformed.as_bytes()), Scan::Malformed, "{malformed:?}");
        }
    }

    #[test]
    fn string_contents_are_not_checked_for_utf8_or_surrogates() {
        let raw = "{\"id\":1,\"params\":{\"uri\":\"\u{e9}\\ud800\"}}";
        assert_eq!(members(raw).id, Some(&b"1"[..]));
        let raw = b"{\"params\":\"\xff\xfe\"}";
        assert!(matches!(scan(raw), Scan::Object(m) if m.params == Some(&b"\"\xff\xfe\""[..])));
    }

    #[test]
    fn nesting_is_bounded_at_ten_thousand_levels_without_recursion() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(scan(deep(MAX_DEPTH).as_bytes()), Scan::NotObject);
        assert_eq!(scan(deep(MAX_DEPTH + 1).as_bytes()), Scan::Malformed);
        // The top-level object counts as one level.
        let in_object = |n: usize| format!("{{\"params\":{}}}", deep(n));
        assert!(matches!(
            scan(in_object(MAX_DEPTH - 1).as_bytes()),
            Scan::Object(_)
        ));
        assert_eq!(scan(in_object(MAX_DEPTH).as_bytes()), Scan::Malformed);
        let objects = format!("{}1{}", "{\"a\":".repeat(1000), "}".repeat(1000));
        assert!(matches!(scan(objects.as_bytes()), Scan::Object(_)));
        assert_eq!(
            scan(format!("{}1", "{\"a\":".repeat(5)).as_bytes()),
            Scan::Malformed
        );
    }

    #[test]
    fn integers_and_strings() {
        for i in ["0", "7", "-1", "12345678901234567890123"] {
            assert!(is_integer(i.as_bytes()), "{i}");
        }
        for n in ["", "-", "01", "1.0", "1e2", "-0.5", "\"1\"", "null", "--1"] {
            assert!(!is_integer(n.as_bytes()), "{n}");
        }
        assert_eq!(string_value(br#""a\u0062""#).as_deref(), Some("ab"));
        assert_eq!(string_value(br#""\ud800""#), None);
        assert_eq!(string_value(b"\"\xff\""), None);
        assert_eq!(string_value(b"1"), None);
    }

    proptest::proptest! {
        /// The scan accepts exactly what serde_json accepts, on text that
        /// is UTF-8 without lone surrogate escapes and shallow (where the
        /// two definitions of JSON agree).
        #[test]
        fn agrees_with_serde_json_on_shallow_utf8(
            text in "[ \\[\\]{}:,\"\\\\a-z0-9.eE+\\-]{0,24}",
        ) {
            // serde_json refuses lone surrogate escapes, which the scan
            // leaves to whoever decodes the string.
            proptest::prop_assume!(!text.contains("\\u"));
            let serde_ok = serde_json::from_str::<serde_json::Value>(&text).is_ok();
            let scan_ok = !matches!(scan(text.as_bytes()), Scan::Malformed | Scan::Blank);
            proptest::prop_assert_eq!(scan_ok, serde_ok, "{:?}", text);
        }

        /// It never panics, whatever the bytes.
        #[test]
        fn never_panics(bytes in proptest::collection::vec(proptest::arbitrary::any::<u8>(), 0..64)) {
            let _ = scan(&bytes);
        }
    }
}
