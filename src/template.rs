//! URI templates restricted to whole-path-segment variables, and capture
//! decoding.
//!
//! A template such as `asset://project/{id}/thumbnail` has literal bytes and
//! `{name}` expressions, each of which must be a whole path segment. Every
//! other RFC 6570 feature (authority/query/fragment variables, partial
//! segments, explosion, prefixes, lists, operators) is a construction error.
//! Static query and fragment text stays literal and is compared byte for byte.

use std::num::NonZeroU32;

use crate::error::Failure;
use crate::identity::{split_parts, validate_uri_str, UriError, UriParts};

/// One path segment of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// Literal bytes that must match exactly.
    Literal(String),
    /// The variable with this index into [`Template::names`].
    Variable(usize),
}

/// A parsed, validated template, owning its text (see [`TemplateRef`]
/// for the same template borrowing it).
///
/// Held compactly: the text and the ends of its prefix and path. Segments,
/// literals and names are slices of the text: once validated, every `/` of
/// the path separates segments (a variable name holds none) and a segment
/// is a variable exactly when it starts with `{`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    text: Box<str>,
    layout: TemplateLayout,
}

/// A parsed, validated template borrowing its text: what a registered
/// definition gives (its template is a span of its own text, so
/// registering one allocates nothing for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemplateRef<'a> {
    text: &'a str,
    layout: TemplateLayout,
}

/// Where the parts of a validated template's text end (16 bytes; an
/// `Option` of it is no larger).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TemplateLayout {
    /// End of everything before the path: `scheme:` plus `//authority` if
    /// present (at least 2: a scheme and its colon).
    prefix_end: NonZeroU32,
    /// End of the path; a literal query and/or fragment follows.
    path_end: u32,
    /// How many path segments there are.
    segment_count: u32,
    /// How many segments are variables.
    variables: u32,
}

/// A template with its variable names forgotten: its prefix, its segments
/// (a variable is known by its position in template order, which names do
/// not change) and its suffix. Two templates with equal shapes match
/// exactly the same URIs, so a registry holds at most one of each shape.
#[derive(Debug, Clone, Copy)]
pub struct Shape<'t> {
    template: TemplateRef<'t>,
}

/// A path segment of a template as its text shows it: a variable segment
/// (`{name}`) matches any non-empty segment, whatever its name.
fn same_segment(a: &str, b: &str) -> bool {
    match (is_variable(a), is_variable(b)) {
        (true, true) => true,
        (false, false) => a == b,
        _ => false,
    }
}

/// Whether a segment of a validated template is a variable.
#[inline]
fn is_variable(segment: &str) -> bool {
    segment.as_bytes().first() == Some(&b'{')
}

impl PartialEq for Shape<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.template, other.template);
        a.prefix() == b.prefix()
            && a.suffix() == b.suffix()
            && a.layout.segment_count == b.layout.segment_count
            && a.path_segments()
                .zip(b.path_segments())
                .all(|(x, y)| same_segment(x, y))
    }
}

impl Eq for Shape<'_> {}

impl std::hash::Hash for Shape<'_> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let t = self.template;
        t.prefix().hash(h);
        t.suffix().hash(h);
        for seg in t.path_segments() {
            if is_variable(seg) {
                h.write_u8(0);
            } else {
                h.write_u8(1);
                seg.hash(h);
            }
        }
    }
}

/// Where a template's query/fragment starts, and the path range.
struct Layout {
    prefix_end: usize,
    path_end: usize,
}

fn is_name(name: &str) -> bool {
    match name.as_bytes() {
        [first, rest @ ..] if first.is_ascii_alphabetic() || *first == b'_' => {
            rest.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        }
        _ => false,
    }
}

/// Describes why an expression `{…}` whose body is `body` is unsupported.
fn unsupported_expression(body: &str) -> &'static str {
    match body.chars().next() {
        Some('+') | Some('#') => "reserved-operator expressions are not supported",
        Some('.') | Some('/') | Some(';') | Some('?') | Some('&') | Some('=') | Some(',')
        | Some('!') | Some('@') | Some('|') => "operator expressions are not supported",
        _ if body.ends_with('*') => "exploded variables are not supported",
        _ if body.contains(':') => "prefix variables are not supported",
        _ if body.contains(',') => "list expressions are not supported",
        _ => "invalid variable name",
    }
}

fn template_error(at: usize, what: &str) -> Failure {
    Failure::config(format!("invalid uriTemplate at byte {at}: {what}"))
}

impl Template {
    /// Parses and validates a template.
    pub fn parse(text: &str) -> Result<Template, Failure> {
        Ok(Template {
            layout: TemplateLayout::parse(text)?,
            text: text.into(),
        })
    }

    /// The template borrowing this one's text.
    pub fn view(&self) -> TemplateRef<'_> {
        TemplateRef {
            text: &self.text,
            layout: self.layout,
        }
    }

    /// The template text exactly as registered.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The template's shape: equal for templates that differ only in
    /// their variable names (`a://x/{id}` and `a://x/{name}`).
    pub fn shape(&self) -> Shape<'_> {
        self.view().shape()
    }

    /// Bytes of the template that are literal (its text without the
    /// `{name}` expressions): the least any URI it matches adds to its
    /// captures.
    pub fn literal_len(&self) -> usize {
        self.view().literal_len()
    }

    /// Variable names in template order.
    pub fn names(&self) -> Vec<&str> {
        self.view().names()
    }

    /// Variable names in template order, without collecting them.
    pub fn name_iter(&self) -> impl Iterator<Item = &str> + Clone + '_ {
        self.view().name_iter()
    }

    /// How many variables the template has.
    pub fn variable_count(&self) -> usize {
        self.view().variable_count()
    }

    /// Scheme and authority part (everything before the path).
    pub fn prefix(&self) -> &str {
        self.view().prefix()
    }

    /// Literal query/fragment suffix.
    pub fn suffix(&self) -> &str {
        self.view().suffix()
    }

    /// The path segments (made on demand; the template holds its text only).
    pub fn segments(&self) -> Vec<Segment> {
        self.view().segments()
    }

    /// How many path segments the template has.
    pub fn segment_count(&self) -> usize {
        self.view().segment_count()
    }

    /// The raw captures of a request path already known to match this
    /// template's structure (as found by the registry index), in template order.
    pub fn captures_in_path<'u>(&self, path: &'u str) -> Vec<&'u str> {
        self.view().captures_in_path(path)
    }

    /// Matches a validated request URI structurally, returning the raw
    /// (still percent-encoded) capture per variable in template order.
    pub fn match_raw<'u>(&self, uri: &'u str) -> Option<Vec<&'u str>> {
        self.view().match_raw(uri)
    }
}

impl<'a> TemplateRef<'a> {
    /// The template of `text`, whose layout [`TemplateLayout::parse`] gave.
    pub(crate) fn new(text: &'a str, layout: TemplateLayout) -> Self {
        TemplateRef { text, layout }
    }
}

impl TemplateLayout {
    /// Parses and validates a template, returning where its parts end: the
    /// expressions are found and masked, the literal text is checked as an
    /// identifier with every expression in the path, then each path
    /// segment holding an expression must be one whole, named, new
    /// variable.
    pub(crate) fn parse(text: &str) -> Result<TemplateLayout, Failure> {
        let b = text.as_bytes();
        // Locate the structural parts on a copy where every expression is
        // replaced by a same-length run of `x`, so that characters inside
        // braces cannot be taken for delimiters.
        // Most templates are short: their copy stays on the stack.
        let mut on_stack = [0u8; 256];
        let mut on_heap = Vec::new();
        let masked: &mut [u8] = if b.len() <= on_stack.len() {
            on_stack[..b.len()].copy_from_slice(b);
            &mut on_stack[..b.len()]
        } else {
            on_heap.extend_from_slice(b);
            &mut on_heap
        };
        let expressions = mask_expressions(masked)?;
        let masked = std::str::from_utf8(masked).expect("ASCII substitution keeps UTF-8");
        let layout = literal_layout(b, masked)?;
        let (segment_count, variables) =
            whole_segment_variables(text, masked.as_bytes(), &layout, &expressions)?;
        let prefix_end = u32::try_from(layout.prefix_end)
            .ok()
            .and_then(NonZeroU32::new)
            .ok_or_else(|| Failure::config("invalid uriTemplate: too long"))?;
        let path_end = u32::try_from(layout.path_end)
            .map_err(|_| Failure::config("invalid uriTemplate: too long"))?;
        Ok(TemplateLayout {
            prefix_end,
            path_end,
            segment_count,
            variables,
        })
    }
}

/// Finds every expression (`{` to `}`, not nested) and replaces it in
/// `masked` by a same-length run of `x`.
fn mask_expressions(masked: &mut [u8]) -> Result<Expressions, Failure> {
    let mut depth_start: Option<usize> = None;
    // Where each expression starts (`{`) and ends (`}`), in order.
    let mut expressions = Expressions::default();
    for (i, c) in masked.iter_mut().enumerate() {
        match (*c, depth_start) {
            (b'{', None) => depth_start = Some(i),
            (b'{', Some(_)) => return Err(template_error(i, "nested '{'")),
            (b'}', Some(start)) => {
                expressions.push(start, i);
                depth_start = None;
            }
            (b'}', None) => return Err(template_error(i, "unmatched '}'")),
            (_, None) => continue,
            (_, Some(_)) => {}
        }
        *c = b'x';
    }
    if let Some(at) = depth_start {
        return Err(template_error(at, "unterminated '{'"));
    }
    Ok(expressions)
}

/// The literal text (`masked`) must be a valid identifier on its own, and
/// the template (`b`) may have expressions in its path only.
fn literal_layout(b: &[u8], masked: &str) -> Result<Layout, Failure> {
    let parts = validate_uri_str(masked).map_err(|e| match e {
        UriError::BadCharacter(at) => template_error(at, "forbidden character"),
        other => Failure::config(format!("invalid uriTemplate: {other}")),
    })?;
    if b[..parts.scheme_end].contains(&b'{') {
        return Err(template_error(
            0,
            "variables in the scheme are not supported",
        ));
    }
    if let Some((a, e)) = parts.authority {
        if let Some(p) = b[a..e].iter().position(|&c| c == b'{') {
            return Err(template_error(
                a + p,
                "authority variables are not supported",
            ));
        }
    }
    if let Some(p) = b[parts.path_end..].iter().position(|&c| c == b'{') {
        let at = parts.path_end + p;
        let what = if b[parts.path_end..at].contains(&b'#') || b[parts.path_end] == b'#' {
            "fragment variables are not supported"
        } else {
            "query variables are not supported"
        };
        return Err(template_error(at, what));
    }
    Ok(Layout {
        prefix_end: parts.path_start,
        path_end: parts.path_end,
    })
}

/// Counts the path segments and checks the variables: a segment holding an
/// expression must be exactly one `{name}`, with a valid name not used
/// before. Segment boundaries come from the masked text: a `/` inside an
/// expression (`{/x}`) is not a separator. Every expression is in the path
/// ([`literal_layout`] refuses the others), and none spans a separator: a
/// segment holds the next expression when that starts before the segment
/// ends. Returns the segment and variable counts.
fn whole_segment_variables(
    text: &str,
    masked: &[u8],
    layout: &Layout,
    expressions: &Expressions,
) -> Result<(u32, u32), Failure> {
    let (mut segment_count, mut variables) = (0u32, 0u32);
    let mut offset = layout.prefix_end;
    let mut next = 0;
    loop {
        let end = masked[offset..layout.path_end]
            .iter()
            .position(|&c| c == b'/')
            .map_or(layout.path_end, |p| offset + p);
        segment_count += 1;
        if next < expressions.len() && expressions.get(next).0 < end {
            // The segment's first brace is its first expression's `{` (an
            // unmatched `}` was refused before).
            let (start, close) = expressions.get(next);
            if start != offset || close + 1 != end {
                return Err(template_error(
                    start,
                    "a variable must be a whole path segment",
                ));
            }
            let body = &text[start + 1..close];
            if !is_name(body) {
                return Err(template_error(offset, unsupported_expression(body)));
            }
            let repeated = (0..next).any(|k| {
                let (s, c) = expressions.get(k);
                &text[s + 1..c] == body
            });
            if repeated {
                return Err(template_error(offset, "repeated variable name"));
            }
            variables += 1;
            next += 1;
        }
        if end == layout.path_end {
            break;
        }
        offset = end + 1;
    }
    Ok((segment_count, variables))
}

impl<'a> TemplateRef<'a> {
    fn prefix_end(self) -> usize {
        self.layout.prefix_end.get() as usize
    }

    fn path_end(self) -> usize {
        self.layout.path_end as usize
    }

    /// The path's segments as text (`{name}` for a variable).
    pub(crate) fn path_segments(self) -> PathSegments<'a> {
        PathSegments::new(&self.text[self.prefix_end()..self.path_end()])
    }

    /// The template text exactly as registered.
    pub fn as_str(self) -> &'a str {
        self.text
    }

    /// The template's shape: equal for templates that differ only in
    /// their variable names (`a://x/{id}` and `a://x/{name}`).
    pub fn shape(self) -> Shape<'a> {
        Shape { template: self }
    }

    /// Bytes of the template that are literal (its text without the
    /// `{name}` expressions): the least any URI it matches adds to its
    /// captures.
    pub fn literal_len(self) -> usize {
        let expressions: usize = self
            .path_segments()
            .filter(|s| is_variable(s))
            .map(str::len)
            .sum();
        self.text.len() - expressions
    }

    /// Variable names in template order.
    pub fn names(self) -> Vec<&'a str> {
        self.name_iter().collect()
    }

    /// Variable names in template order, without collecting them.
    pub fn name_iter(self) -> impl Iterator<Item = &'a str> + Clone + 'a {
        self.path_segments()
            .filter(|s| is_variable(s))
            .map(|s| &s[1..s.len() - 1])
    }

    /// How many variables the template has.
    pub fn variable_count(self) -> usize {
        self.layout.variables as usize
    }

    /// Scheme and authority part (everything before the path).
    pub fn prefix(self) -> &'a str {
        &self.text[..self.prefix_end()]
    }

    /// Literal query/fragment suffix.
    pub fn suffix(self) -> &'a str {
        &self.text[self.path_end()..]
    }

    /// The path segments (made on demand; the template holds its text only).
    pub fn segments(self) -> Vec<Segment> {
        let mut variable = 0;
        self.path_segments()
            .map(|s| {
                if is_variable(s) {
                    variable += 1;
                    Segment::Variable(variable - 1)
                } else {
                    Segment::Literal(s.to_string())
                }
            })
            .collect()
    }

    /// How many path segments the template has.
    pub fn segment_count(self) -> usize {
        self.layout.segment_count as usize
    }

    /// The raw captures of a request path already known to match this
    /// template's structure (as found by the registry index), in template order.
    pub fn captures_in_path(self, path: &str) -> Vec<&str> {
        let mut raw = Vec::with_capacity(self.layout.variables as usize);
        for (seg, got) in self.path_segments().zip(PathSegments::new(path)) {
            if is_variable(seg) {
                raw.push(got);
            }
        }
        raw
    }

    /// Matches a validated request URI structurally, returning the raw
    /// (still percent-encoded) capture per variable in template order.
    pub fn match_raw(self, uri: &str) -> Option<Vec<&str>> {
        let req = RequestShape::of(uri)?;
        if req.prefix != self.prefix() || req.suffix != self.suffix() {
            return None;
        }
        let mut raw = Vec::with_capacity(self.layout.variables as usize);
        let mut segs = req.segments();
        for seg in self.path_segments() {
            let got = segs.next()?;
            if is_variable(seg) {
                if got.is_empty() {
                    return None;
                }
                raw.push(got);
            } else if seg != got {
                return None;
            }
        }
        if segs.next().is_some() {
            return None;
        }
        Some(raw)
    }
}

/// Expression spans (`{` and `}` positions) found while masking a
/// template: a few inline, more on the heap.
#[derive(Default)]
struct Expressions {
    inline: [(u32, u32); 8],
    len: usize,
    spilled: Vec<(usize, usize)>,
}

impl Expressions {
    fn push(&mut self, start: usize, end: usize) {
        if self.len < self.inline.len() {
            self.inline[self.len] = (start as u32, end as u32);
        } else {
            self.spilled.push((start, end));
        }
        self.len += 1;
    }

    fn len(&self) -> usize {
        self.len
    }

    fn get(&self, k: usize) -> (usize, usize) {
        match self.inline.get(k) {
            Some(&(s, e)) if k < self.len => (s as usize, e as usize),
            _ => self.spilled[k - self.inline.len()],
        }
    }
}

/// The segments of a path split on `/`, as `str::split('/')` gives them
/// (an empty path is one empty segment), found with a plain byte scan:
/// segments are short, so this is faster than a searcher.
#[derive(Debug, Clone)]
pub struct PathSegments<'a> {
    rest: Option<&'a str>,
}

impl<'a> PathSegments<'a> {
    /// The segments of `path`.
    pub fn new(path: &'a str) -> Self {
        PathSegments { rest: Some(path) }
    }
}

impl<'a> Iterator for PathSegments<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.bytes().position(|c| c == b'/') {
            Some(i) => {
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// A validated request URI split the way templates are.
#[derive(Debug, Clone, Copy)]
pub struct RequestShape<'u> {
    /// Scheme and authority.
    pub prefix: &'u str,
    /// The path.
    pub path: &'u str,
    /// Query and fragment, starting with `?` or `#`, or empty.
    pub suffix: &'u str,
}

impl<'u> RequestShape<'u> {
    /// Splits a URI; `None` when it has no scheme.
    pub fn of(uri: &'u str) -> Option<Self> {
        Some(Self::from_parts(uri, split_parts(uri)?))
    }

    /// Splits a URI whose parts are already known.
    pub fn from_parts(uri: &'u str, p: UriParts) -> Self {
        RequestShape {
            prefix: &uri[..p.path_start],
            path: &uri[p.path_start..p.path_end],
            suffix: &uri[p.path_end..],
        }
    }

    /// The path segments.
    pub fn segments(&self) -> PathSegments<'u> {
        PathSegments::new(self.path)
    }

    /// Number of path segments.
    pub fn segment_count(&self) -> usize {
        self.path.bytes().filter(|&c| c == b'/').count() + 1
    }
}

/// Why a capture was refused. Every variant is an `invalid_request`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureError {
    /// The decoded bytes are not UTF-8.
    InvalidUtf8,
    /// The decoded value contains `/`.
    Slash,
    /// The decoded value contains `\`.
    Backslash,
    /// The decoded value contains NUL.
    Nul,
    /// The decoded value is `.` or `..`.
    DotSegment,
    /// The raw value is empty.
    Empty,
}

impl CaptureError {
    /// A fixed safe message.
    pub fn message(&self) -> &'static str {
        match self {
            CaptureError::InvalidUtf8 => "template capture is not valid UTF-8",
            CaptureError::Slash => "template capture decodes to a slash",
            CaptureError::Backslash => "template capture decodes to a backslash",
            CaptureError::Nul => "template capture decodes to NUL",
            CaptureError::DotSegment => "template capture is a dot segment",
            CaptureError::Empty => "template capture is empty",
        }
    }
}

/// Decodes one raw capture exactly once (`%252F` becomes the text `%2F`).
///
/// The raw value must already be part of a validated URI (well-formed escapes).
pub fn decode_capture(raw: &str) -> Result<String, CaptureError> {
    if raw.is_empty() {
        return Err(CaptureError::Empty);
    }
    let value = if raw.contains('%') {
        let bytes: Vec<u8> = percent_encoding::percent_decode_str(raw).collect();
        String::from_utf8(bytes).map_err(|_| CaptureError::InvalidUtf8)?
    } else {
        raw.to_string()
    };
    if value.contains('/') {
        return Err(CaptureError::Slash);
    }
    if value.contains('\\') {
        return Err(CaptureError::Backslash);
    }
    if value.contains('\0') {
        return Err(CaptureError::Nul);
    }
    if value == "." || value == ".." {
        return Err(CaptureError::DotSegment);
    }
    Ok(value)
}
