//! One pass over a JSON document that checks it, writes its compact
//! serialisation (byte for byte what `serde_json` writes for the parsed
//! value, keys in document order) and summarises what registering a
//! definition needs: the top-level members, whether any object repeats a
//! key, whether a given key appears at any depth, and whether the keys are
//! already in canonical (sorted) order.
//!
//! Registering a definition used to build a `serde_json::Value` (and later
//! a `serde` visitor tree); both cost several allocations per definition and
//! were the main cost of registering many resources. This scanner validates
//! the structure itself and copies the input through unchanged where it is
//! already compact, which is the usual case. Everything with a serialised
//! form that `serde_json` would change is handed to `serde_json` itself: a
//! string with an escape sequence is decoded and re-escaped by it, and a
//! number that is not a short plain integer is parsed and written by it, so
//! escaping, surrogate handling and float formatting are `serde_json`'s
//! own. Differential tests hold it to `serde_json` on arbitrary input:
//! both accept the same documents and write the same bytes.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// Containers may nest at most this deep (the 128th nested array or object
/// fails), as `serde_json`'s default recursion limit does.
const MAX_DEPTH: u32 = 127;

/// Objects with more keys than this are checked for repeats by sorting;
/// smaller ones compare pairwise.
const PAIRWISE_KEYS: usize = 16;

/// Why a document was refused, with the byte offset where it was noticed.
#[derive(Debug)]
pub(crate) struct ScanError {
    message: &'static str,
    offset: usize,
    source: Option<serde_json::Error>,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)?;
        if let Some(e) = &self.source {
            write!(f, " ({e})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScanError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// What a scanned value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind<'a> {
    /// A string, with its decoded text.
    Str(Cow<'a, str>),
    /// A number, boolean or null.
    Scalar,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// A member of the top-level object.
#[derive(Debug)]
pub(crate) struct Member<'a> {
    /// The decoded key.
    pub key: Cow<'a, str>,
    /// The member's bytes (`"key":value`) in the compact output.
    pub bytes: Range<usize>,
    /// The value's bytes in the compact output.
    pub value_bytes: Range<usize>,
    /// What the value is.
    pub value: Kind<'a>,
}

/// What a scan found.
#[derive(Debug)]
pub(crate) struct Scanned<'a> {
    /// The document scanned.
    pub source: &'a str,
    /// What the whole document is.
    pub root: Kind<'a>,
    /// The top-level object's members in document order (empty unless the
    /// document is an object).
    pub members: Vec<Member<'a>>,
    /// Some object at some depth repeats a key.
    pub duplicate_key: bool,
    /// The key looked for appears in some object at some depth.
    pub has_key: bool,
    /// The top-level object lists its keys in sorted order.
    pub top_sorted: bool,
    /// Every object below the top level lists its keys in sorted order.
    pub nested_sorted: bool,
}

impl Scanned<'_> {
    /// Whether the compact form is also the canonical one (keys sorted at
    /// every depth).
    pub fn is_canonical(&self) -> bool {
        self.top_sorted && self.nested_sorted
    }

    /// The canonical form (keys sorted at every depth) of a document
    /// without repeated keys whose compact form is `compact`. `None` only
    /// if `serde_json` refused a document the scanner accepted (the
    /// differential tests hold that it never does).
    pub fn canonical(&self, compact: &str) -> Option<String> {
        if self.is_canonical() {
            return Some(compact.to_owned());
        }
        // `serde_json` sorts and writes exactly the same bytes for every
        // string and number. It parses the source, not the compact form:
        // its float parsing does not always read back the shortest form it
        // wrote. (Registering a definition whose top level alone is out of
        // order, the usual case, keeps a reordering of its members instead.)
        let mut value: serde_json::Value = serde_json::from_str(self.source).ok()?;
        value.sort_all_objects();
        serde_json::to_string(&value).ok()
    }
}

/// Scans `json`, appending its compact serialisation to `out` and noting
/// whether an object key equal to `find_key` appears at any depth.
pub(crate) fn scan<'a>(
    json: &'a str,
    out: &mut String,
    find_key: &str,
) -> Result<Scanned<'a>, ScanError> {
    if let Some(flat) = flat_strings(json, out, find_key) {
        return Ok(flat);
    }
    scan_any(json, out, find_key)
}

/// The common shape of a definition: one object of string members, keys
/// and values without escape sequences, no whitespace. Scanned in one
/// tight pass; anything else (or anything wrong) is `None`, with `out`
/// untouched, and [`scan_any`] decides. Whatever this accepts,
/// [`scan_any`] accepts with the same result (a test holds them to it).
fn flat_strings<'a>(json: &'a str, out: &mut String, find_key: &str) -> Option<Scanned<'a>> {
    let b = json.as_bytes();
    if b.len() < 2 || b[0] != b'{' || b[1] != b'"' {
        return None;
    }
    // Offsets in `out` once the input is appended.
    let base = out.len();
    let mut members: Vec<Member<'a>> = Vec::with_capacity(4);
    let mut has_key = false;
    let mut sorted = true;
    let mut i = 1;
    loop {
        // A key, then `:`, then a string value, then `,` or `}`.
        let key_start = i;
        let key_end = plain_string_end(b, i)?;
        let key = &json[key_start + 1..key_end - 1];
        if b.get(key_end) != Some(&b':') || b.get(key_end + 1) != Some(&b'"') {
            return None;
        }
        let value_start = key_end + 1;
        let value_end = plain_string_end(b, value_start)?;
        if key == find_key {
            has_key = true;
        }
        if members.last().is_some_and(|m| *m.key >= *key) {
            sorted = false;
        }
        members.push(Member {
            key: Cow::Borrowed(key),
            bytes: base + key_start..base + value_end,
            value_bytes: base + value_start..base + value_end,
            value: Kind::Str(Cow::Borrowed(&json[value_start + 1..value_end - 1])),
        });
        match b.get(value_end) {
            Some(b',') if b.get(value_end + 1) == Some(&b'"') => i = value_end + 1,
            Some(b'}') if value_end + 1 == b.len() => break,
            _ => return None,
        }
    }
    let duplicate_key = !sorted && repeats(members.iter().map(|m| m.key.as_ref()));
    out.push_str(json);
    Some(Scanned {
        source: json,
        root: Kind::Object,
        members,
        duplicate_key,
        has_key,
        top_sorted: sorted,
        nested_sorted: true,
    })
}

/// The end (after its closing quote) of the string opening at `i` when it
/// holds neither an escape sequence nor a control character.
#[inline(always)]
fn plain_string_end(b: &[u8], i: usize) -> Option<usize> {
    let stop = string_stop(b, i + 1);
    (b.get(stop) == Some(&b'"')).then_some(stop + 1)
}

/// [`scan`] for any document.
fn scan_any<'a>(json: &'a str, out: &mut String, find_key: &str) -> Result<Scanned<'a>, ScanError> {
    let mut s = Scanner {
        src: json,
        bytes: json.as_bytes(),
        pos: 0,
        out,
        copied: 0,
        depth: 0,
        find_key,
        keys: Vec::new(),
        members: Vec::new(),
        duplicate_key: false,
        has_key: false,
        top_sorted: true,
        nested_sorted: true,
    };
    s.skip_ws();
    let root = s.value().map_err(|e| *e)?;
    s.skip_ws();
    if s.pos != s.bytes.len() {
        return Err(*s.error("trailing characters"));
    }
    s.flush(s.pos);
    let members = std::mem::take(&mut s.members);
    Ok(Scanned {
        source: json,
        root,
        members,
        duplicate_key: s.duplicate_key,
        has_key: s.has_key,
        top_sorted: s.top_sorted,
        nested_sorted: s.nested_sorted,
    })
}

/// Why [`check`] refused a document.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// Not a JSON document by the scanner's rules: a syntax error, nesting
    /// deeper than 127, a lone surrogate escape, a number out of range
    /// (such as `1e999`, which has no finite value).
    Invalid(ScanError),
    /// Some object at some depth repeats a key (JSON leaves the meaning
    /// open; parsers disagree on which value wins).
    DuplicateKey,
    /// The reserved key is an object key at some depth.
    ReservedKey,
}

/// Holds host-supplied JSON other than definitions (authorization data,
/// payload `_meta`) to the rules registered definitions are held to: the
/// same scan (so the same syntax, depth limit, string and number rules),
/// no repeated key in any object, and, when `reserved_key` is given, that
/// key in no object at any depth. Returns what the whole document is.
pub(crate) fn check<'a>(json: &'a str, reserved_key: Option<&str>) -> Result<Kind<'a>, Refusal> {
    let mut scratch = String::with_capacity(json.len());
    let scanned = scan(json, &mut scratch, reserved_key.unwrap_or("")).map_err(Refusal::Invalid)?;
    if scanned.duplicate_key {
        return Err(Refusal::DuplicateKey);
    }
    if reserved_key.is_some() && scanned.has_key {
        return Err(Refusal::ReservedKey);
    }
    Ok(scanned.root)
}

struct Scanner<'a, 'o> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// The compact output; input before `copied` is already in it (or was
    /// dropped or replaced), input from `copied` to `pos` is not yet.
    out: &'o mut String,
    copied: usize,
    depth: u32,
    find_key: &'o str,
    /// Keys of the objects being scanned, innermost last.
    keys: Vec<Cow<'a, str>>,
    members: Vec<Member<'a>>,
    duplicate_key: bool,
    has_key: bool,
    top_sorted: bool,
    nested_sorted: bool,
}

impl<'a> Scanner<'a, '_> {
    // Errors are boxed: results stay small on the hot path.
    #[cold]
    fn error(&self, message: &'static str) -> Box<ScanError> {
        Box::new(ScanError {
            message,
            offset: self.pos,
            source: None,
        })
    }

    #[cold]
    fn serde_error(
        &self,
        message: &'static str,
        at: usize,
        e: serde_json::Error,
    ) -> Box<ScanError> {
        Box::new(ScanError {
            message,
            offset: at,
            source: Some(e),
        })
    }

    /// The compact-output offset that input offset `at` (>= `copied`) will
    /// have once copied.
    fn compact_at(&self, at: usize) -> usize {
        self.out.len() + (at - self.copied)
    }

    /// Copies the pending input up to `at`.
    fn flush(&mut self, at: usize) {
        if at > self.copied {
            self.out.push_str(&self.src[self.copied..at]);
        }
        self.copied = at;
    }

    /// Replaces input `range` with `text` in the output.
    fn replace(&mut self, range: Range<usize>, text: &str) -> Range<usize> {
        self.flush(range.start);
        let start = self.out.len();
        self.out.push_str(text);
        self.copied = range.end;
        start..self.out.len()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        let start = self.pos;
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
        if self.pos > start {
            self.flush(start);
            self.copied = self.pos;
        }
    }

    fn value(&mut self) -> Result<Kind<'a>, Box<ScanError>> {
        match self.peek() {
            None => Err(self.error("unexpected end of JSON")),
            Some(b'{') => self.object().map(|()| Kind::Object),
            Some(b'[') => self.array().map(|()| Kind::Array),
            Some(b'"') => self.string().map(|(s, _)| Kind::Str(s)),
            Some(b'-' | b'0'..=b'9') => self.number().map(|()| Kind::Scalar),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(_) => Err(self.error("expected a JSON value")),
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<Kind<'a>, Box<ScanError>> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(Kind::Scalar)
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    /// A string at `pos` (on its opening quote): its decoded text and its
    /// bytes in the compact output.
    #[inline(always)]
    fn string(&mut self) -> Result<(Cow<'a, str>, Range<usize>), Box<ScanError>> {
        let start = self.pos;
        let i = string_stop(self.bytes, start + 1);
        match self.bytes.get(i) {
            Some(b'"') => {
                self.pos = i + 1;
                let range = self.compact_at(start)..self.compact_at(self.pos);
                Ok((Cow::Borrowed(&self.src[start + 1..i]), range))
            }
            Some(b'\\') => self.escaped_string(start, i),
            Some(_) => {
                self.pos = i;
                Err(self.error("control character in a string"))
            }
            None => {
                self.pos = i;
                Err(self.error("unterminated string"))
            }
        }
    }

    /// The string opening at `start` whose first escape sequence is at
    /// `i`: `serde_json` decodes it and writes it again.
    fn escaped_string(
        &mut self,
        start: usize,
        mut i: usize,
    ) -> Result<(Cow<'a, str>, Range<usize>), Box<ScanError>> {
        loop {
            match self.bytes.get(i) {
                None => {
                    self.pos = i;
                    return Err(self.error("unterminated string"));
                }
                Some(b'\\') => i += 2,
                Some(b'"') => break,
                Some(_) => i += 1,
            }
        }
        let end = i + 1;
        let decoded: String = serde_json::from_str(&self.src[start..end])
            .map_err(|e| self.serde_error("invalid string", start, e))?;
        let encoded = serde_json::to_string(&decoded).expect("a string serialises");
        self.pos = end;
        let range = self.replace(start..end, &encoded);
        Ok((Cow::Owned(decoded), range))
    }

    fn number(&mut self) -> Result<(), Box<ScanError>> {
        let start = self.pos;
        let mut i = start;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.bytes.get(i) {
            i += 1;
        }
        self.pos = i;
        let text = &self.bytes[start..i];
        let digits = text.strip_prefix(b"-").unwrap_or(text);
        // A plain integer of at most 18 digits fits both u64 and i64 and is
        // written back unchanged, except `-0`, which serde_json reads as a
        // float (`-0.0`).
        let plain = !digits.is_empty()
            && digits.len() <= 18
            && digits.iter().all(u8::is_ascii_digit)
            && (digits[0] != b'0' || (digits.len() == 1 && text.len() == 1));
        if plain {
            return Ok(());
        }
        let value: serde_json::Value = serde_json::from_str(&self.src[start..i])
            .map_err(|e| self.serde_error("invalid number", start, e))?;
        if !value.is_number() {
            return Err(self.error("invalid number"));
        }
        let written = serde_json::to_string(&value).expect("a number serialises");
        self.replace(start..i, &written);
        Ok(())
    }

    fn enter(&mut self) -> Result<(), Box<ScanError>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.pos += 1;
        self.skip_ws();
        Ok(())
    }

    fn array(&mut self) -> Result<(), Box<ScanError>> {
        self.enter()?;
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            self.value()?;
            if self.next_or_close(b']', "expected `,` or `]`")? {
                self.depth -= 1;
                return Ok(());
            }
        }
    }

    /// After a container's element: skips a `,` and returns `false`, or
    /// skips the closing byte `close` and returns `true`.
    fn next_or_close(&mut self, close: u8, expected: &'static str) -> Result<bool, Box<ScanError>> {
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                self.skip_ws();
                Ok(false)
            }
            Some(c) if c == close => {
                self.pos += 1;
                Ok(true)
            }
            Some(_) => Err(self.error(expected)),
            None => Err(self.error("unexpected end of JSON")),
        }
    }

    fn object(&mut self) -> Result<(), Box<ScanError>> {
        self.enter()?;
        // The top level's keys live in its members; nested objects' keys on
        // the key stack.
        let top = self.depth == 1;
        if top {
            self.members.reserve(8);
        }
        let first_key = self.keys.len();
        let mut sorted = true;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            match self.peek() {
                Some(b'"') => {}
                Some(_) => return Err(self.error("expected a string key")),
                None => return Err(self.error("unexpected end of JSON")),
            }
            let (key, key_range) = self.string()?;
            if key == self.find_key {
                self.has_key = true;
            }
            let previous = if top {
                self.members.last().map(|m| &m.key)
            } else {
                self.keys[first_key..].last()
            };
            if previous.is_some_and(|p| *p >= key) {
                sorted = false;
            }
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.error("expected `:`"));
            }
            self.pos += 1;
            self.skip_ws();
            let value_start = self.compact_at(self.pos);
            let value = self.value()?;
            let value_bytes = value_start..self.compact_at(self.pos);
            if top {
                self.members.push(Member {
                    key,
                    bytes: key_range.start..value_bytes.end,
                    value_bytes,
                    value,
                });
            } else {
                self.keys.push(key);
            }
            if self.next_or_close(b'}', "expected `,` or `}`")? {
                break;
            }
        }
        // Strictly increasing keys are sorted and distinct.
        if !sorted {
            let repeated = if top {
                self.top_sorted = false;
                repeats(self.members.iter().map(|m| m.key.as_ref()))
            } else {
                self.nested_sorted = false;
                repeats(self.keys[first_key..].iter().map(AsRef::as_ref))
            };
            self.duplicate_key |= repeated;
        }
        self.keys.truncate(first_key);
        self.depth -= 1;
        Ok(())
    }
}

/// Whether some key occurs twice.
fn repeats<'k>(keys: impl ExactSizeIterator<Item = &'k str> + Clone) -> bool {
    if keys.len() <= PAIRWISE_KEYS {
        keys.clone()
            .enumerate()
            .any(|(i, k)| keys.clone().take(i).any(|p| p == k))
    } else {
        let mut sorted: Vec<&str> = keys.collect();
        sorted.sort_unstable();
        sorted.windows(2).any(|w| w[0] == w[1])
    }
}

/// Index of the first byte at or after `i` that ends a string's plain run
/// (`"`, `\` or a control character), or `bytes.len()` (the one scan of
/// `jsonbytes`).
#[inline(always)]
fn string_stop(bytes: &[u8], i: usize) -> usize {
    crate::jsonbytes::next_special(bytes, i).unwrap_or(bytes.len())
}

/// Bytes of `n` written as a JSON integer (decimal digits).
pub fn decimal_len(mut n: u64) -> usize {
    let mut len = 1;
    while n >= 10 {
        n /= 10;
        len += 1;
    }
    len
}

#[cfg(test)]
mod tests;
