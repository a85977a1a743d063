//! The standard members of a registered description: the rules they are
//! held to at build (docs/BEHAVIOUR.md §1), and the forms a description
//! takes on protocol revisions that do not define some of them.
//!
//! Rules (each refusal names the member): `title`, `description` and
//! `mimeType` are strings; `size` is a non-negative integer of at most
//! 2^53 − 1 and only on a resource (templates have no `size`);
//! `annotations` is an object whose `audience` is an array of `"user"` /
//! `"assistant"`, whose `priority` is a number from 0 to 1 and whose
//! `lastModified` is an RFC 3339 date-time (see [`is_date_time`]); `icons`
//! is an array of objects, each with a `src` that is an absolute RFC 3986
//! URI, an optional string `mimeType`, an optional array of strings
//! `sizes` and an optional `theme` of `"light"` or `"dark"`. Members no
//! revision defines are the host's and are left as given.
//!
//! Forms: 2025-11-25 and 2026-07-28 define every member and get the
//! description as registered; 2025-06-18 has no `icons`; 2024-11-05 and
//! 2025-03-26 have no `title`, `icons`, `_meta` or
//! `annotations.lastModified`. The older forms are written once, at build,
//! and only for a description holding such a member: listing on any
//! revision copies a ready text.

use crate::error::Failure;
use crate::jsonscan::{Kind, Member};
use crate::protocol::ProtocolRevision;

/// The largest `size` a client can hold exactly (2^53 − 1, as JSON
/// numbers in JavaScript).
const MAX_SIZE: u64 = (1 << 53) - 1;

/// What [`check`] found that decides the older forms.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Found {
    title: bool,
    icons: bool,
    meta: bool,
    last_modified: bool,
}

impl Found {
    /// Whether some revision lists the description without a member.
    pub(crate) fn needs_forms(self) -> bool {
        self.title || self.icons || self.meta || self.last_modified
    }
}

/// The text to list on `revision`, `full` being the description as
/// registered and `region` what [`write_forms`] appended (empty: none).
///
/// The region is a marker byte, then the forms: `i` the 2025-06-18 form
/// (without `icons`) alone, the older revisions listing it too; `l` the
/// 2024-11-05 / 2025-03-26 form alone, 2025-06-18 listing the full text;
/// `b` both, the first one's length in decimal and `:` before them.
pub(crate) fn form_for<'a>(full: &'a str, region: &'a str, revision: ProtocolRevision) -> &'a str {
    if revision.has_icons() || region.is_empty() {
        return full;
    }
    let (marker, rest) = region.split_at(1);
    let (without_icons, legacy) = match marker {
        "i" => (rest, rest),
        "l" => (full, rest),
        _ => {
            let colon = rest.find(':').unwrap_or(0);
            let first = rest[..colon].parse::<usize>().unwrap_or(0);
            let forms = &rest[colon + 1..];
            (&forms[..first], &forms[first..])
        }
    };
    if revision.has_item_meta() {
        without_icons
    } else {
        legacy
    }
}

fn refused(message: &'static str) -> Failure {
    Failure::config(message)
}

/// Checks the standard members of a description (`members` of its compact
/// JSON `compact`; `template`: a `uriTemplate` definition). `name`,
/// `uri`, `uriTemplate` and `_meta` are checked by the caller.
pub(crate) fn check(
    members: &[Member<'_>],
    compact: &str,
    template: bool,
) -> Result<Found, Failure> {
    let mut found = Found::default();
    for m in members {
        match m.key.as_ref() {
            "title" => {
                string(m, "definition title must be a string")?;
                found.title = true;
            }
            "description" => string(m, "definition description must be a string")?,
            "mimeType" => string(m, "definition mimeType must be a string")?,
            "size" if template => {
                return Err(refused(
                    "definition size is not allowed on a template (templates have no size)",
                ))
            }
            "size" => size(&compact[m.value_bytes.clone()])?,
            "annotations" => {
                if m.value != Kind::Object {
                    return Err(refused("definition annotations must be an object"));
                }
                found.last_modified = annotations(value_of(compact, m)?)?;
            }
            "icons" => {
                if m.value != Kind::Array {
                    return Err(refused("definition icons must be an array"));
                }
                icons(value_of(compact, m)?)?;
                found.icons = true;
            }
            "_meta" => found.meta = true,
            _ => {}
        }
    }
    Ok(found)
}

fn string(m: &Member<'_>, message: &'static str) -> Result<(), Failure> {
    match m.value {
        Kind::Str(_) => Ok(()),
        _ => Err(refused(message)),
    }
}

/// `size`: digits only in the compact form (which writes every integer
/// that way and any other number with a fraction or an exponent).
fn size(text: &str) -> Result<(), Failure> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(n) if digits && n <= MAX_SIZE => Ok(()),
        _ => Err(refused(
            "definition size must be a non-negative integer of at most 2^53 - 1",
        )),
    }
}

/// The parsed value of a member (only annotations and icons are parsed,
/// and only when present).
fn value_of(compact: &str, m: &Member<'_>) -> Result<serde_json::Value, Failure> {
    serde_json::from_str(&compact[m.value_bytes.clone()])
        .map_err(|e| refused("definition is not valid JSON").caused_by(e))
}

/// Checks `annotations`; returns whether it has `lastModified`.
fn annotations(value: serde_json::Value) -> Result<bool, Failure> {
    let serde_json::Value::Object(a) = value else {
        return Err(refused("definition annotations must be an object"));
    };
    if let Some(audience) = a.get("audience") {
        let ok = audience.as_array().is_some_and(|roles| {
            roles
                .iter()
                .all(|r| matches!(r.as_str(), Some("user" | "assistant")))
        });
        if !ok {
            return Err(refused(
                "definition annotations.audience must be an array of \"user\" or \"assistant\"",
            ));
        }
    }
    if let Some(priority) = a.get("priority") {
        if !priority.as_f64().is_some_and(|p| (0.0..=1.0).contains(&p)) {
            return Err(refused(
                "definition annotations.priority must be a number from 0 to 1",
            ));
        }
    }
    match a.get("lastModified") {
        None => Ok(false),
        Some(serde_json::Value::String(s)) if is_date_time(s) => Ok(true),
        Some(_) => Err(refused(
            "definition annotations.lastModified must be an RFC 3339 date-time such as 2025-01-12T15:00:58Z",
        )),
    }
}

fn icons(value: serde_json::Value) -> Result<(), Failure> {
    let serde_json::Value::Array(icons) = value else {
        return Err(refused("definition icons must be an array"));
    };
    for icon in &icons {
        let Some(icon) = icon.as_object() else {
            return Err(refused("definition icons must be an array of objects"));
        };
        match icon.get("src").and_then(|s| s.as_str()) {
            Some(src) if is_uri(src) => {}
            _ => {
                return Err(refused(
                    "definition icons[].src must be an absolute URI (https: or data: is what clients expect)",
                ))
            }
        }
        if icon.get("mimeType").is_some_and(|m| !m.is_string()) {
            return Err(refused("definition icons[].mimeType must be a string"));
        }
        if let Some(sizes) = icon.get("sizes") {
            if !sizes
                .as_array()
                .is_some_and(|s| s.iter().all(serde_json::Value::is_string))
            {
                return Err(refused(
                    "definition icons[].sizes must be an array of strings",
                ));
            }
        }
        if let Some(theme) = icon.get("theme") {
            if !matches!(theme.as_str(), Some("light" | "dark")) {
                return Err(refused(
                    "definition icons[].theme must be \"light\" or \"dark\"",
                ));
            }
        }
    }
    Ok(())
}

/// Whether `s` is an absolute URI by RFC 3986 (a scheme, then what the
/// grammar allows; no relative reference, no non-ASCII character).
pub(crate) fn is_uri(s: &str) -> bool {
    fluent_uri::Uri::parse(s).is_ok()
}

/// Whether `s` is a date-time as this library accepts for
/// `annotations.lastModified`: the RFC 3339 profile of ISO 8601 that every
/// official client accepts, `YYYY-MM-DDTHH:MM:SS`, optionally a fraction
/// of a second (`.` and one or more digits), then `Z` or an offset
/// `+HH:MM` / `-HH:MM`; upper-case `T` and `Z`, no leap second (`:60`),
/// a real calendar date (checked by the `time` crate). Other ISO 8601
/// forms (a date alone, week dates, `+0100` offsets, no offset) are
/// refused: the TypeScript SDK's schema rejects them.
pub(crate) fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b.get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let two = |at: usize| (b[at] - b'0') * 10 + (b[at + 1] - b'0');
    // YYYY-MM-DDTHH:MM:SS
    let shape = b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !shape || two(11) > 23 || two(14) > 59 || two(17) > 59 {
        return false;
    }
    let mut i = 19;
    if b[i] == b'.' {
        let fraction = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
        if fraction == 0 {
            return false;
        }
        i += 1 + fraction;
    }
    let zone = &b[i..];
    let zone_ok = zone == b"Z"
        || (zone.len() == 6
            && matches!(zone[0], b'+' | b'-')
            && digits(i + 1..i + 3)
            && zone[3] == b':'
            && digits(i + 4..i + 6)
            && two(i + 1) <= 23
            && two(i + 4) <= 59);
    zone_ok
        && time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).is_ok()
}

/// Appends the older forms of a description to `out` (its text, after
/// everything else it holds), when it has members some revision does not
/// define (`compact`: its compact JSON, `members` its top-level members);
/// [`form_for`] reads them back.
pub(crate) fn write_forms(out: &mut String, members: &[Member<'_>], compact: &str, found: Found) {
    if !found.needs_forms() {
        return;
    }
    let without_icons = found
        .icons
        .then(|| write(members, compact, |k| k != "icons", false));
    let legacy = (found.title || found.meta || found.last_modified).then(|| {
        write(
            members,
            compact,
            |k| !matches!(k, "icons" | "title" | "_meta"),
            found.last_modified,
        )
    });
    match (without_icons, legacy) {
        (Some(w), None) => {
            out.push('i');
            out.push_str(&w);
        }
        (None, Some(l)) => {
            out.push('l');
            out.push_str(&l);
        }
        (Some(w), Some(l)) => {
            out.push('b');
            out.push_str(&w.len().to_string());
            out.push(':');
            out.push_str(&w);
            out.push_str(&l);
        }
        (None, None) => {}
    }
}

/// `{` + the members `keep` keeps, in order, + `}`; `annotations` without
/// `lastModified` when `strip_last_modified`.
fn write(
    members: &[Member<'_>],
    compact: &str,
    keep: impl Fn(&str) -> bool,
    strip_last_modified: bool,
) -> String {
    let mut out = String::with_capacity(compact.len());
    out.push('{');
    for m in members.iter().filter(|m| keep(m.key.as_ref())) {
        if out.len() > 1 {
            out.push(',');
        }
        if strip_last_modified && m.key == "annotations" {
            out.push_str(&compact[m.bytes.start..m.value_bytes.start]);
            let mut a: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&compact[m.value_bytes.clone()])
                    .expect("annotations were checked to be an object");
            a.shift_remove("lastModified");
            out.push_str(&serde_json::to_string(&a).expect("a JSON object serialises"));
        } else {
            out.push_str(&compact[m.bytes.clone()]);
        }
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_times_follow_the_rfc_3339_profile_clients_accept() {
        for good in [
            "2025-01-12T15:00:58Z",
            "2025-01-12T15:00:58.123456789Z",
            "2025-01-12T15:00:58.1+01:00",
            "2025-01-12T15:00:58-00:00",
            "2024-02-29T23:59:59+23:59",
            "0001-01-01T00:00:00Z",
        ] {
            assert!(is_date_time(good), "{good}");
        }
        for bad in [
            "",
            "2025-01-12",
            "2025-01-12T15:00:58",
            "2025-01-12t15:00:58z",
            "2025-01-12T15:00:58z",
            "2025-01-12 15:00:58Z",
            "2025-01-12T15:00Z",
            "2025-01-12T15:00:58+0100",
            "2025-01-12T15:00:58+01",
            "2025-01-12T23:59:60Z",
            "2025-01-12T24:00:00Z",
            "2025-02-30T15:00:58Z",
            "2023-02-29T15:00:58Z",
            "2025-13-01T15:00:58Z",
            "2025-01-12T15:00:58.Z",
            "2025-01-12T15:00:58+24:00",
            "2025-01-12T15:00:58Z ",
            "2025-W02-1T15:00:58Z",
            "+2025-01-12T15:00:58Z",
            "２025-01-12T15:00:58Z",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
    }

    #[test]
    fn icon_sources_must_be_absolute_uris() {
        for good in [
            "https://example.com/icon.png",
            "data:image/png;base64,iVBORw0KGgo=",
            "http://localhost:8080/i.svg",
        ] {
            assert!(is_uri(good), "{good}");
        }
        for bad in [
            "",
            "/static/icon.png",
            "icon.png",
            "//example.com/icon.png",
            "https://example.com/a b.png",
            "https://example.com/%zz",
            "https://example.com/é.png",
            "https://exa mple.com/",
        ] {
            assert!(!is_uri(bad), "{bad}");
        }
    }

    #[test]
    fn sizes_are_non_negative_integers_within_2_pow_53() {
        for good in ["0", "1", "9007199254740991"] {
            assert!(size(good).is_ok(), "{good}");
        }
        for bad in [
            "-1",
            "1.0",
            "1e3",
            "9007199254740992",
            "true",
            "null",
            "\"1\"",
        ] {
            assert!(size(bad).is_err(), "{bad}");
        }
    }
}
