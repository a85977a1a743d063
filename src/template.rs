//! URI templates restricted to whole-path-segment variables, and capture
//! decoding.
//!
//! A template such as `asset://project/{id}/thumbnail` has literal bytes and
//! `{name}` expressions, each of which must be a whole path segment. Every
//! other RFC 6570 feature (authority/query/fragment variables, partial
//! segments, explosion, prefixes, lists, operators) is a construction error.
//! Static query and fragment text stays literal and is compared byte for byte.

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

/// A parsed, validated template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    text: String,
    /// Everything before the path: `scheme:` plus `//authority` if present.
    prefix: String,
    /// Path segments (split on `/`; a leading `/` gives an empty first segment).
    segments: Vec<Segment>,
    /// Literal query and/or fragment, starting with `?` or `#`, or empty.
    suffix: String,
    names: Vec<String>,
}

/// A template with its variable names forgotten: its prefix, its segments
/// (a variable is known by its position in template order, which names do
/// not change) and its suffix. Two templates with equal shapes match
/// exactly the same URIs, so a registry holds at most one of each shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape<'t> {
    prefix: &'t str,
    segments: &'t [Segment],
    suffix: &'t str,
}

/// Where a template's query/fragment starts, and the path range.
struct Layout {
    prefix_end: usize,
    path_end: usize,
}

fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
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
        let b = text.as_bytes();
        // Locate the structural parts on a copy where every expression is
        // replaced by a same-length run of `x`, so that characters inside
        // braces cannot be taken for delimiters.
        let mut masked = Vec::with_capacity(b.len());
        let mut depth_start: Option<usize> = None;
        for (i, &c) in b.iter().enumerate() {
            match (c, depth_start) {
                (b'{', None) => {
                    depth_start = Some(i);
                    masked.push(b'x');
                }
                (b'{', Some(_)) => return Err(template_error(i, "nested '{'")),
                (b'}', Some(_)) => {
                    depth_start = None;
                    masked.push(b'x');
                }
                (b'}', None) => return Err(template_error(i, "unmatched '}'")),
                (_, Some(_)) => masked.push(b'x'),
                (c, None) => masked.push(c),
            }
        }
        if let Some(at) = depth_start {
            return Err(template_error(at, "unterminated '{'"));
        }
        let masked = String::from_utf8(masked).expect("ASCII substitution keeps UTF-8");
        // The literal text must be a valid identifier on its own.
        let parts = validate_uri_str(&masked).map_err(|e| match e {
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
        let layout = Layout {
            prefix_end: parts.path_start,
            path_end: parts.path_end,
        };
        // Segment boundaries come from the masked text: a `/` inside an
        // expression (`{/x}`) is not a separator.
        let masked_path = &masked[layout.prefix_end..layout.path_end];
        let mut segments = Vec::new();
        let mut names: Vec<String> = Vec::new();
        let mut offset = layout.prefix_end;
        for masked_seg in masked_path.split('/') {
            let seg = &text[offset..offset + masked_seg.len()];
            if let Some(brace) = seg.find(['{', '}']) {
                let whole = seg.starts_with('{') && seg.ends_with('}') && seg.len() >= 2;
                let body = if whole { &seg[1..seg.len() - 1] } else { "" };
                if !whole || body.contains(['{', '}']) {
                    return Err(template_error(
                        offset + brace,
                        "a variable must be a whole path segment",
                    ));
                }
                if !is_name(body) {
                    return Err(template_error(offset, unsupported_expression(body)));
                }
                if names.iter().any(|n| n == body) {
                    return Err(template_error(offset, "repeated variable name"));
                }
                names.push(body.to_string());
                segments.push(Segment::Variable(names.len() - 1));
            } else {
                segments.push(Segment::Literal(seg.to_string()));
            }
            offset += seg.len() + 1;
        }
        Ok(Template {
            text: text.to_string(),
            prefix: text[..layout.prefix_end].to_string(),
            segments,
            suffix: text[layout.path_end..].to_string(),
            names,
        })
    }

    /// The template text exactly as registered.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The template's shape: equal for templates that differ only in
    /// their variable names (`a://x/{id}` and `a://x/{name}`).
    pub fn shape(&self) -> Shape<'_> {
        Shape {
            prefix: &self.prefix,
            segments: &self.segments,
            suffix: &self.suffix,
        }
    }

    /// Bytes of the template that are literal (its text without the
    /// `{name}` expressions): the least any URI it matches adds to its
    /// captures.
    pub fn literal_len(&self) -> usize {
        self.text.len() - self.names.iter().map(|n| n.len() + 2).sum::<usize>()
    }

    /// Variable names in template order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Scheme and authority part (everything before the path).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Literal query/fragment suffix.
    pub fn suffix(&self) -> &str {
        &self.suffix
    }

    /// The path segments.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The raw captures of a request path already known to match this
    /// template's structure (as found by the registry index), in template order.
    pub fn captures_in_path<'u>(&self, path: &'u str) -> Vec<&'u str> {
        let mut raw = vec![""; self.names.len()];
        for (seg, got) in self.segments.iter().zip(path.split('/')) {
            if let Segment::Variable(i) = seg {
                raw[*i] = got;
            }
        }
        raw
    }

    /// Matches a validated request URI structurally, returning the raw
    /// (still percent-encoded) capture per variable in template order.
    pub fn match_raw<'u>(&self, uri: &'u str) -> Option<Vec<&'u str>> {
        let req = RequestShape::of(uri)?;
        if req.prefix != self.prefix || req.suffix != self.suffix {
            return None;
        }
        let mut raw = vec![""; self.names.len()];
        let mut segs = req.segments();
        for seg in &self.segments {
            let got = segs.next()?;
            match seg {
                Segment::Literal(l) if l == got => {}
                Segment::Literal(_) => return None,
                Segment::Variable(i) if !got.is_empty() => raw[*i] = got,
                Segment::Variable(_) => return None,
            }
        }
        if segs.next().is_some() {
            return None;
        }
        Some(raw)
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
    pub fn segments(&self) -> std::str::Split<'u, char> {
        self.path.split('/')
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
