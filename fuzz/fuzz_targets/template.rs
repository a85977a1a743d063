//! Template parsing and matching.
//!
//! Input: lines. The first byte says how many leading lines (1 to 4) are
//! templates; the other lines are request URIs and capture values. Checks
//! that parsing never panics; that a parsed template reassembles into its
//! text from its prefix, segments and suffix, with unique valid names;
//! that instantiating it with percent-encoded values gives a valid URI it
//! matches, capturing exactly those values, which decode back; and that a
//! registry of the parsed templates selects what matching each template
//! alone predicts (none: `unavailable`, two or more: ambiguous, one: that
//! template with its decoded captures, or `invalid_request` for a capture
//! that does not decode).
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use mcp_resources::identity::validate_uri_str;
use mcp_resources::template::{decode_capture, Segment, Template};
use mcp_resources::{AllowAll, FailureKind, ResourceBinding, Resources};
use mcp_resources_fuzz::{Input, NoBodies};

/// Percent-encodes every byte outside RFC 3986's unreserved set.
fn encode(value: &str) -> String {
    let mut out = String::new();
    for &b in value.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The template's text rebuilt from its parts, with `fill(i)` for variable `i`.
fn render(t: &Template, fill: impl Fn(usize) -> String) -> String {
    let segments: Vec<String> = t
        .segments()
        .iter()
        .map(|s| match s {
            Segment::Literal(l) => l.clone(),
            Segment::Variable(i) => fill(*i),
        })
        .collect();
    format!("{}{}{}", t.prefix(), segments.join("/"), t.suffix())
}

fn is_name(n: &str) -> bool {
    let mut c = n.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|f| f.is_ascii_alphanumeric() || f == '_')
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let count = 1 + input.below(4);
    let Ok(text) = std::str::from_utf8(input.rest()) else {
        return;
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let (template_lines, others) = lines.split_at(count.min(lines.len()));

    let mut templates: Vec<Template> = Vec::new();
    for line in template_lines {
        let Ok(t) = Template::parse(line) else {
            continue;
        };
        assert_eq!(t.as_str(), *line);
        let names = t.names();
        assert!(names.iter().all(|n| is_name(n)), "{line:?}");
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "repeated name in {line:?}");
        }
        let mut vars: Vec<usize> = t
            .segments()
            .iter()
            .filter_map(|s| match s {
                Segment::Variable(i) => Some(*i),
                Segment::Literal(l) => {
                    assert!(!l.contains(['/', '{', '}', '?', '#']), "{line:?}");
                    None
                }
            })
            .collect();
        assert!(vars.windows(2).all(|w| w[0] < w[1]), "names out of order");
        vars.dedup();
        assert_eq!(vars, (0..names.len()).collect::<Vec<_>>());
        assert_eq!(render(&t, |i| format!("{{{}}}", names[i])), *line);

        // Instantiate with values taken from the other lines.
        let values: Vec<String> = (0..names.len())
            .map(|i| match others.get(i).copied() {
                Some(v) if !v.is_empty() => v.to_string(),
                _ => format!("v{i}"),
            })
            .collect();
        let encoded: Vec<String> = values.iter().map(|v| encode(v)).collect();
        let uri = render(&t, |i| encoded[i].clone());
        assert!(
            validate_uri_str(&uri).is_ok(),
            "instance {uri:?} of {line:?} is not a valid identifier"
        );
        let raw = t.match_raw(&uri);
        let expected: Vec<&str> = encoded.iter().map(String::as_str).collect();
        assert_eq!(raw, Some(expected), "{line:?} does not match {uri:?}");
        for (v, e) in values.iter().zip(&encoded) {
            let bad = v.contains(['/', '\\', '\0']) || v == "." || v == "..";
            match decode_capture(e) {
                Ok(d) => assert!(!bad && d == *v, "{v:?} decoded as {d:?}"),
                Err(_) => assert!(bad, "{v:?} refused"),
            }
        }
        // Templates equal up to their variable names are duplicates (the
        // build refuses them): keep the first of each shape.
        if !templates.iter().any(|o| o.shape() == t.shape()) {
            templates.push(t);
        }
    }
    if templates.is_empty() {
        return;
    }

    let mut builder = Resources::builder().policy(Arc::new(AllowAll));
    for (i, t) in templates.iter().enumerate() {
        let json = serde_json::json!({ "uriTemplate": t.as_str(), "name": format!("t{i}") });
        let binding = ResourceBinding::new(&json.to_string(), Arc::new(NoBodies))
            .unwrap_or_else(|e| panic!("parsed template {:?} refused: {e}", t.as_str()));
        builder.push(binding);
    }
    let Ok(registry) = builder.build() else {
        // Only an over-long template may fail the build.
        assert!(templates.iter().any(|t| t.as_str().len() > 2048));
        return;
    };

    let mut requests: Vec<String> = others.iter().map(|s| s.to_string()).collect();
    for t in &templates {
        let encoded: Vec<String> = (0..t.names().len())
            .map(|i| encode(others.get(i).copied().unwrap_or("v")))
            .collect();
        requests.push(render(t, |i| encoded[i].clone()));
    }
    for uri in requests {
        let selected = registry.select(uri.as_bytes());
        if uri.is_empty() || uri.len() > 2048 || validate_uri_str(&uri).is_err() {
            assert_eq!(selected.unwrap_err().kind(), FailureKind::InvalidRequest);
            continue;
        }
        let matches: Vec<(usize, Vec<&str>)> = templates
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.match_raw(&uri).map(|raw| (i, raw)))
            .collect();
        match matches.as_slice() {
            [] => assert_eq!(
                selected.unwrap_err().kind(),
                FailureKind::Unavailable,
                "{uri:?}"
            ),
            [(i, raw)] => {
                let t = &templates[*i];
                let decoded: Result<Vec<String>, _> =
                    raw.iter().map(|r| decode_capture(r)).collect();
                match (decoded, selected) {
                    (Ok(values), Ok(sel)) => {
                        assert_eq!(sel.binding.definition().uri_or_template(), t.as_str());
                        let expected: Vec<(String, String)> = t
                            .names()
                            .iter()
                            .map(|n| n.to_string())
                            .zip(values)
                            .collect();
                        assert_eq!(sel.matched.captures(), expected.as_slice());
                        assert_eq!(sel.matched.uri(), uri);
                    }
                    (Err(_), Err(e)) => assert_eq!(e.kind(), FailureKind::InvalidRequest),
                    (d, s) => panic!("{uri:?}: captures {d:?} but selection {s:?}"),
                }
            }
            _ => assert_eq!(
                selected.unwrap_err().kind(),
                FailureKind::InvalidRequest,
                "{uri:?} matches several templates"
            ),
        }
    }
});
