//! The rules every completion value and every context value is held to
//! (BEHAVIOUR §13.5), and their proof: every value a completion sends,
//! substituted into its template by RFC 6570 simple expansion (what the
//! official Python and TypeScript clients do; `scripts/client-checks.sh`
//! checks with their own `UriTemplate`), makes a URI the library reads and
//! whose capture is the value itself; substituted without encoding it
//! makes either that URI or one the library refuses, never another
//! resource's.

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use mcp_resources::*;

const TEMPLATE: &str = "file:///projects/{project}/files/{file}";

/// Adds `values`, in order, and records what each `add` answered.
struct Offer(Vec<String>);

impl ResourceCompleter for Offer {
    fn complete(
        &self,
        _: &CallContext,
        _: &CompletionRequest,
        out: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        for v in &self.0 {
            let _ = out.add(v);
        }
        Ok(())
    }
}

/// Completes with a closure.
struct Check(Box<dyn Fn(&mut CompletionSink) + Send + Sync>);

impl ResourceCompleter for Check {
    fn complete(
        &self,
        _: &CallContext,
        _: &CompletionRequest,
        out: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        (self.0)(out);
        Ok(())
    }
}

/// Resolves like `mcpr_resolve_single` and records the captures it saw.
#[derive(Default)]
struct Captures(Mutex<Vec<Vec<(String, String)>>>);

impl ResourceHandler for Captures {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        self.0.lock().unwrap().push(m.captures().to_vec());
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

/// `TEMPLATE` with `completer`, read by `handler`; plus a template with a
/// literal query that substitution without encoding could reach.
fn registry(completer: Arc<dyn ResourceCompleter>, handler: Arc<Captures>) -> Resources {
    let def = format!(r#"{{"uriTemplate":"{TEMPLATE}","name":"t"}}"#);
    Resources::builder()
        .policy(FnPolicy::allow())
        .binding(
            ResourceBinding::new(&def, handler.clone())
                .unwrap()
                .with_completer(completer),
        )
        .binding(
            ResourceBinding::new(
                r#"{"uriTemplate":"file:///projects/{project}/files/{file}?raw","name":"raw"}"#,
                handler,
            )
            .unwrap(),
        )
        .build()
        .unwrap()
}

fn offer(values: &[&str]) -> (Resources, Arc<Captures>) {
    let handler = Arc::new(Captures::default());
    let offer = Offer(values.iter().map(|v| v.to_string()).collect());
    (registry(Arc::new(offer), handler.clone()), handler)
}

fn params(argument: &str) -> CompleteParams {
    CompleteParams {
        template: TEMPLATE.to_string(),
        argument: argument.to_string(),
        value: String::new(),
        context: Vec::new(),
    }
}

fn sent(r: &Resources, argument: &str) -> Vec<String> {
    r.complete(&params(argument), &CompleteOptions::default())
        .unwrap()
        .values()
        .to_vec()
}

/// RFC 6570 simple expansion of one value as the official Python SDK does
/// it (`urllib.parse.quote(value, safe="")`: every byte but ALPHA, DIGIT,
/// `-._~` as `%XX`).
fn encode_python(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// As the official TypeScript SDK does it (`encodeURIComponent`, which
/// also leaves `!*'()` as they are).
fn encode_typescript(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn uri_with(file: &str) -> String {
    TEMPLATE.replace("{project}", "p").replace("{file}", file)
}

/// Reads `uri`: the captures the resolver saw, or the failure.
fn read_captures(
    r: &Resources,
    handler: &Captures,
    uri: &str,
) -> Result<Vec<(String, String)>, Failure> {
    handler.0.lock().unwrap().clear();
    r.read(uri.as_bytes(), &ReadOptions::default())?;
    Ok(handler.0.lock().unwrap().pop().expect("resolved"))
}

/// The round trip of one sent value, both ways.
fn assert_round_trip(r: &Resources, handler: &Captures, value: &str) {
    let want = vec![
        ("project".to_string(), "p".to_string()),
        ("file".to_string(), value.to_string()),
    ];
    for encoded in [encode_python(value), encode_typescript(value)] {
        let got = read_captures(r, handler, &uri_with(&encoded));
        assert_eq!(
            got.as_ref().ok(),
            Some(&want),
            "{value:?} expanded as {encoded:?}"
        );
    }
    // Without encoding: the same capture or a refusal, never another one.
    if let Ok(got) = read_captures(r, handler, &uri_with(value)) {
        assert_eq!(got, want, "{value:?} substituted without encoding");
    }
}

#[test]
fn context_values_are_held_to_the_rules_of_completion_values() {
    // Whatever a completer may send is a context value a client may send
    // back, and nothing else.
    let (r, _) = offer(&[]);
    let mut p = params("file");
    let literal = TEMPLATE.len() - "{project}".len() - "{file}".len();
    let longest = "é".repeat((2048 - literal - 1) / 6);
    for good in GOOD_VALUES.iter().copied().chain([longest.as_str()]) {
        p.context = vec![("project".into(), good.to_string())];
        assert!(
            r.complete(&p, &CompleteOptions::default()).is_ok(),
            "{good:?}"
        );
    }
    for bad in BAD_VALUES.iter().filter(|v| !v.is_empty()) {
        p.context = vec![("project".into(), bad.to_string())];
        assert!(
            r.complete(&p, &CompleteOptions::default()).is_err(),
            "{bad:?}"
        );
    }
    p.context = vec![("project".into(), format!("{longest}é"))];
    assert!(
        r.complete(&p, &CompleteOptions::default()).is_err(),
        "one more encoded character"
    );
}

/// Values no completion sends: each breaks one rule of BEHAVIOUR §13.5.
const BAD_VALUES: &[&str] = &[
    // not a capture as it stands
    "",
    "/",
    "a/b",
    "\\",
    "a\\b",
    "\0",
    "a\0",
    ".",
    "..",
    // %, ? and #: substituted without encoding they name another value
    "%",
    "%zz",
    "%41",
    "%2F",
    "a%2fb",
    "%5C",
    "%00",
    "%2E",
    "%2e%2E",
    "%FF",
    "%C3",
    "50%",
    "a?b",
    "?",
    "a#b",
    "#",
    // controls, format characters, line and paragraph separators
    "a\nb",
    "\t",
    "\r",
    "\u{1b}[31m",
    "\u{7f}",
    "\u{85}",
    "\u{9f}",
    "txt.\u{202e}exe",
    "\u{202a}",
    "\u{202d}",
    "\u{2066}x",
    "\u{2069}",
    "\u{200e}",
    "\u{200f}",
    "\u{61c}",
    "zero\u{200b}width",
    "\u{200d}",
    "\u{2060}",
    "\u{feff}a",
    "soft\u{ad}hyphen",
    "\u{e0041}tag",
    "\u{2028}",
    "\u{2029}",
];

/// Values a completion sends: RFC 6570 expansion makes each a URI whose
/// capture is the value itself.
const GOOD_VALUES: &[&str] = &[
    "ok",
    "...",
    "a b",
    "\"quoted\"",
    "<script>alert(1)",
    "a&b=c",
    "a+b",
    "é",
    "日本語",
    "emoji 😀",
    "[x]",
    "{x}",
    "a|b^c`d",
    "a;b,c:d@e!f$g'h(i)j*k",
    "~tilde_-.",
];

#[test]
fn values_that_are_no_valid_completion_value_are_dropped() {
    let mut all: Vec<&str> = vec!["ok-1"];
    all.extend(BAD_VALUES);
    all.push("ok-2");
    all.extend(GOOD_VALUES);
    let (r, _) = offer(&all);
    let result = r
        .complete(&params("file"), &CompleteOptions::default())
        .unwrap();
    let mut want = vec!["ok-1", "ok-2"];
    want.extend(GOOD_VALUES);
    assert_eq!(result.values(), want);
    assert!(!result.has_more());
    let json: serde_json::Value = serde_json::from_str(result.json()).unwrap();
    assert_eq!(
        json["completion"]["values"].as_array().unwrap().len(),
        want.len()
    );
}

#[test]
fn the_sink_says_which_values_it_dropped_and_why() {
    let check = Check(Box::new(|out| {
        use completion::DroppedValue::*;
        use template::CaptureError;
        assert_eq!(out.add("a/b"), Err(Capture(CaptureError::Slash)));
        assert_eq!(out.add("a\\b"), Err(Capture(CaptureError::Backslash)));
        assert_eq!(out.add("a\0"), Err(Capture(CaptureError::Nul)));
        assert_eq!(out.add(".."), Err(Capture(CaptureError::DotSegment)));
        assert_eq!(out.add(""), Err(Capture(CaptureError::Empty)));
        // Checked as the capture it becomes, never decoded: %2e%2e is no
        // dot segment, it is a value that holds %.
        assert_eq!(out.add("%2e%2e"), Err(Unencoded));
        assert_eq!(out.add("%FF"), Err(Unencoded));
        assert_eq!(out.add("a?b"), Err(Unencoded));
        assert_eq!(out.add("a#b"), Err(Unencoded));
        assert_eq!(out.add("gpj.\u{202e}exe"), Err(Invisible));
        assert_eq!(out.add("a\nb"), Err(Invisible));
        assert_eq!(out.add("fine"), Ok(true));
        for e in [Unencoded, Invisible, TooLong] {
            assert!(!e.message().is_empty());
        }
    }));
    let r = registry(Arc::new(check), Arc::default());
    assert_eq!(sent(&r, "file"), ["fine"]);
}

#[test]
fn values_too_long_for_max_uri_bytes_once_encoded_are_dropped() {
    // TEMPLATE's literal text is 31 bytes, and the other variable needs
    // at least one: 2048 - 32 bytes is the longest encoded value that can
    // fit. Unreserved ASCII takes one byte encoded, anything else three
    // per byte.
    let literal = TEMPLATE.len() - "{project}".len() - "{file}".len();
    let longest = 2048 - literal - 1;
    let fits = "a".repeat(longest);
    let too_long = "b".repeat(longest + 1);
    let spaces_fit = " ".repeat(longest / 3);
    let spaces_too_long = " ".repeat(longest / 3 + 1);
    let e_fits = "é".repeat(longest / 6);
    let e_too_long = "é".repeat(longest / 6 + 1);
    let check = Check(Box::new(move |out| {
        assert_eq!(out.add(&too_long), Err(completion::DroppedValue::TooLong));
        assert_eq!(out.add(&fits), Ok(true));
        assert_eq!(
            out.add(&spaces_too_long),
            Err(completion::DroppedValue::TooLong)
        );
        assert_eq!(out.add(&spaces_fit), Ok(true));
        assert_eq!(out.add(&e_too_long), Err(completion::DroppedValue::TooLong));
        assert_eq!(out.add(&e_fits), Ok(true));
    }));
    let handler = Arc::new(Captures::default());
    let r = registry(Arc::new(check), handler.clone());
    let values = sent(&r, "file");
    assert_eq!(values.len(), 3);
    assert_eq!(values[0].len(), longest);
    assert_eq!(completion::encoded_len(&values[2]), longest / 6 * 6);
    // Each fits once encoded, the longest too: it reads back as itself.
    for v in &values {
        assert_round_trip(&r, &handler, v);
    }
}

#[test]
fn every_value_sent_reads_back_as_itself_through_rfc6570_expansion() {
    let mut all: Vec<&str> = BAD_VALUES.to_vec();
    all.extend(GOOD_VALUES);
    let (r, handler) = offer(&all);
    let values = sent(&r, "file");
    assert_eq!(values, GOOD_VALUES);
    for v in &values {
        assert_round_trip(&r, &handler, v);
    }
}

#[test]
fn dropped_values_would_have_reached_another_resource_or_been_disguised() {
    // Why each family of BAD_VALUES is dropped: "%41" substituted without
    // encoding reads the capture "A", "a?b" reaches the template with the
    // literal query, a bidi override reads back but displays reversed.
    let (r, handler) = offer(&[]);
    assert_eq!(
        read_captures(&r, &handler, &uri_with("%41")).unwrap()[1].1,
        "A"
    );
    assert_eq!(
        read_captures(&r, &handler, &uri_with("a?raw")).unwrap()[1].1,
        "a"
    );
    assert_eq!(
        read_captures(&r, &handler, &uri_with(&encode_python("\u{202e}x"))).unwrap()[1].1,
        "\u{202e}x"
    );
}

proptest::proptest! {
    /// Any string a completer offers is either dropped or makes, RFC
    /// 6570-expanded, a URI whose capture is the string itself (and,
    /// substituted without encoding, that capture or a refusal).
    #[test]
    fn whatever_a_completer_offers_is_dropped_or_reads_back_as_itself(
        value in proptest::prop_oneof![
            proptest::arbitrary::any::<String>(),
            "[a-z%?#/\\\\. \"<>{}|^`\u{202e}\u{e9}\u{1}-]{0,8}",
        ]
    ) {
        let (r, handler) = offer(&[value.as_str()]);
        for v in sent(&r, "file") {
            proptest::prop_assert_eq!(&v, &value);
            assert_round_trip(&r, &handler, &v);
        }
    }
}
