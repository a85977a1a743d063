//! The method table of the one-call request function, and the params of
//! `subscriptions/listen` as the one reader reads them.

use std::borrow::Cow;

use super::members::ListenParams;
use super::*;

#[test]
fn methods_parse_exactly() {
    for m in [
        RequestMethod::ResourcesRead,
        RequestMethod::ResourcesList,
        RequestMethod::ResourcesTemplatesList,
        RequestMethod::CompletionComplete,
        RequestMethod::ResourcesSubscribe,
        RequestMethod::ResourcesUnsubscribe,
        RequestMethod::SubscriptionsListen,
        RequestMethod::ToolsCall,
    ] {
        assert_eq!(RequestMethod::parse(m.as_str().as_bytes()), Some(m));
    }
    for bad in [
        &b"resources/Read"[..],
        b"resources/read ",
        b"completion/Complete",
        b"prompts/get",
        b"tools/Call",
        b"tools/list",
        b"",
    ] {
        assert_eq!(RequestMethod::parse(bad), None);
    }
}

fn p(s: &str) -> Result<ListenParams<'_>, &'static str> {
    ListenParams::parse(s.as_bytes()).map_err(|e| e.message())
}

const NO_FILTER: &str = "listen params need notifications";
const NOT_JSON: &str = "params are not valid JSON";
const NOT_OBJECT: &str = "params must be an object";
const FILTER_NOT_OBJECT: &str = "params notifications must be an object";
const META_NOT_OBJECT: &str = "params _meta must be an object";
const VERSION_NOT_STRING: &str = "params _meta protocolVersion must be a string";
const REPEATED: &str = "params repeat a member";
const META_REPEATED: &str = "params repeat _meta";
const FLAG_NOT_BOOL: &str = "notifications filter flags must be booleans";
const URIS_NOT_STRINGS: &str = "notifications resourceSubscriptions must be an array of strings";
const TOO_MANY_URIS: &str = "notifications resourceSubscriptions lists more than 1000 URIs";
const REPEATED_URI: &str = "notifications resourceSubscriptions repeats a URI";

#[test]
fn the_listen_filter_and_the_revision_are_read_and_others_ignored() {
    let got = p(r#"{"x":[1,{"y":null}],"notifications":{"toolsListChanged":true,"resourcesListChanged":false,"resourceSubscriptions":["a:b","a:\u0063"],"future":{"z":1}},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"n"}}}"#)
        .unwrap();
    assert_eq!(
        got,
        ListenParams {
            tools_list_changed: true,
            prompts_list_changed: false,
            resources_list_changed: false,
            uris: Some(vec![Cow::from("a:b"), Cow::from("a:c")]),
            protocol_version: Some("2026-07-28".into()),
            trace: None,
        }
    );
    assert_eq!(
        p(r#"{"notifications":{}}"#).unwrap(),
        ListenParams::default()
    );
    assert_eq!(
        p(r#"{"notifications":{"resourceSubscriptions":[]}}"#)
            .unwrap()
            .uris,
        Some(vec![])
    );
    // The fast path reads flags and the filter's presence as serde does.
    assert_eq!(
        p(r#"{"notifications":{"promptsListChanged":true,"resourcesListChanged":true}}"#).unwrap(),
        ListenParams {
            prompts_list_changed: true,
            resources_list_changed: true,
            ..ListenParams::default()
        }
    );
}

#[test]
fn malformed_listen_params_have_fixed_messages() {
    let cases = [
        ("", NO_FILTER),
        ("null", NO_FILTER),
        ("{}", NO_FILTER),
        (r#"{"_meta":{}}"#, NO_FILTER),
        ("[]", NOT_OBJECT),
        ("7", NOT_OBJECT),
        (r#""x""#, NOT_OBJECT),
        (r#"{"notifications":[]}"#, FILTER_NOT_OBJECT),
        (r#"{"notifications":null}"#, FILTER_NOT_OBJECT),
        (r#"{"notifications":{},"notifications":{}}"#, REPEATED),
        (r#"{"notifications":{"toolsListChanged":1}}"#, FLAG_NOT_BOOL),
        (
            r#"{"notifications":{"resourcesListChanged":null}}"#,
            FLAG_NOT_BOOL,
        ),
        (
            r#"{"notifications":{"promptsListChanged":"true"}}"#,
            FLAG_NOT_BOOL,
        ),
        (
            r#"{"notifications":{"toolsListChanged":true,"toolsListChanged":false}}"#,
            REPEATED,
        ),
        (
            r#"{"notifications":{"resourceSubscriptions":"a:b"}}"#,
            URIS_NOT_STRINGS,
        ),
        (
            r#"{"notifications":{"resourceSubscriptions":null}}"#,
            URIS_NOT_STRINGS,
        ),
        (
            r#"{"notifications":{"resourceSubscriptions":[1]}}"#,
            URIS_NOT_STRINGS,
        ),
        (
            r#"{"notifications":{"resourceSubscriptions":[["a:b"]]}}"#,
            URIS_NOT_STRINGS,
        ),
        (
            r#"{"notifications":{"resourceSubscriptions":["a:b","a:b"]}}"#,
            REPEATED_URI,
        ),
        (
            r#"{"notifications":{"resourceSubscriptions":["a:b","a:\u0062"]}}"#,
            REPEATED_URI,
        ),
        (
            r#"{"notifications":{"resourceSubscriptions":[],"resourceSubscriptions":[]}}"#,
            REPEATED,
        ),
        (r#"{"notifications":{},"_meta":[]}"#, META_NOT_OBJECT),
        (
            r#"{"notifications":{},"_meta":{"io.modelcontextprotocol/protocolVersion":7}}"#,
            VERSION_NOT_STRING,
        ),
        // `_meta` is every method's (docs/BEHAVIOUR.md §11).
        (
            r#"{"notifications":{},"_meta":{},"_meta":{}}"#,
            META_REPEATED,
        ),
        (r#"{"notifications":{}"#, NOT_JSON),
        (r#"{"notifications":{}} x"#, NOT_JSON),
        (
            "{\"notifications\":{\"resourceSubscriptions\":[\"\\ud800\"]}}",
            NOT_JSON,
        ),
    ];
    for (text, want) in cases {
        assert_eq!(p(text), Err(want), "{text}");
    }
    assert_eq!(
        ListenParams::parse(b"{\"notifications\":{\"resourceSubscriptions\":[\"\xff\"]}}")
            .map_err(|e| e.message()),
        Err(NOT_JSON)
    );
}

#[test]
fn at_most_1000_listen_uris_and_256_kib() {
    let list = |n: usize| {
        let uris: Vec<String> = (0..n).map(|i| format!("\"a:{i}\"")).collect();
        format!(
            r#"{{"notifications":{{"resourceSubscriptions":[{}]}}}}"#,
            uris.join(",")
        )
    };
    assert_eq!(p(&list(MAX_LISTEN_URIS)).unwrap().uris.unwrap().len(), 1000);
    assert_eq!(p(&list(MAX_LISTEN_URIS + 1)), Err(TOO_MANY_URIS));
    assert_eq!(p(&list(10_000)), Err(TOO_MANY_URIS));
    let huge = format!(
        r#"{{"notifications":{{}},"pad":"{}"}}"#,
        "x".repeat(MAX_PARAMS_BYTES)
    );
    assert_eq!(p(&huge), Err("params exceed 256 KiB"));
}
