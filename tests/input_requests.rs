//! docs/BEHAVIOUR.md §18: input requests are validated against the MCP
//! 2026-07-28 schema when they are made (keys, counts, state), client
//! capabilities are read as MCP defines them, and the retry members of
//! `resources/read` are read by the one strict params reader.

mod input_support;

use input_support::*;
use mcp_resources::*;

#[test]
fn input_requests_of_every_kind_are_made_from_their_schema_shapes() {
    let form = InputRequest::elicit_form("Name?", r#"{"type":"object","properties":{"n":{"type":"string","minLength":1,"format":"email"},"age":{"type":"integer","minimum":0},"ok":{"type":"boolean","default":false},"color":{"type":"string","enum":["r","g"],"enumNames":["Red","Green"]},"size":{"type":"string","oneOf":[{"const":"s","title":"Small"}]},"tags":{"type":"array","items":{"type":"string","enum":["a"]},"maxItems":2},"more":{"type":"array","items":{"anyOf":[{"const":"x","title":"X"}]}}},"required":["n"]}"#).unwrap();
    assert_eq!(form.kind(), InputKind::Elicitation);
    assert!(form.json().starts_with(r#"{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object""#));
    let url = InputRequest::elicit_url("Sign in", "https://auth.example.com/step-up?x=1").unwrap();
    assert_eq!(
        url.json(),
        r#"{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://auth.example.com/step-up?x=1"}}"#
    );
    let sampling = InputRequest::sampling(r#"{"messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","data":"AA==","mimeType":"image/png"}]}],"maxTokens":10,"includeContext":"none","modelPreferences":{"hints":[{"name":"m"}],"speedPriority":0.5},"tools":[{"name":"t","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"auto"}}"#).unwrap();
    assert_eq!(sampling.kind(), InputKind::Sampling);
    assert_eq!(InputRequest::roots().json(), r#"{"method":"roots/list"}"#);
    // From the whole object, compacted, members kept in order.
    let r = InputRequest::from_json(r#"{ "method" : "roots/list", "params" : { "_meta" : { } } }"#)
        .unwrap();
    assert_eq!(r.json(), r#"{"method":"roots/list","params":{"_meta":{}}}"#);
    let e = InputRequest::from_json(r#"{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}"#).unwrap();
    assert_eq!(e.kind(), InputKind::Elicitation);
}

#[test]
fn malformed_input_requests_are_refused_naming_the_member() {
    let bad_json = [
        (
            r#"{"method":"roots/list","method":"roots/list"}"#,
            "repeats a key",
        ),
        (r#"{"method":"roots/list""#, "not valid JSON"),
        (r#"[]"#, "must be a JSON object"),
        (
            r#"{"method":"tools/call","params":{}}"#,
            "method must be elicitation/create",
        ),
        (
            r#"{"method":"roots/list","id":1}"#,
            "only method and params",
        ),
        (r#"{"method":"elicitation/create"}"#, "needs params"),
        (
            r#"{"method":"elicitation/create","params":{"requestedSchema":{"type":"object","properties":{}}}}"#,
            "message string",
        ),
        (
            r#"{"method":"elicitation/create","params":{"message":"m"}}"#,
            "requestedSchema",
        ),
        (
            r#"{"method":"elicitation/create","params":{"message":"m","mode":"popup"}}"#,
            "mode must be",
        ),
        (
            r#"{"method":"elicitation/create","params":{"message":"m","mode":"url","url":"javascript:alert(1)"}}"#,
            "https or http",
        ),
        (
            r#"{"method":"elicitation/create","params":{"message":"m","mode":"url","url":"https://user@host/"}}"#,
            "https or http",
        ),
        (
            r#"{"method":"elicitation/create","params":{"message":"m","mode":"url","url":"https:// x"}}"#,
            "https or http",
        ),
        (
            r#"{"method":"elicitation/create","params":{"message":"m","mode":"url"}}"#,
            "needs a url",
        ),
        (
            r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}"#,
            "non-empty messages",
        ),
        (
            r#"{"method":"sampling/createMessage","params":{"messages":[{"role":"system","content":{"type":"text","text":"x"}}],"maxTokens":1}}"#,
            "role",
        ),
        (
            r#"{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text"}}],"maxTokens":1}}"#,
            "content block",
        ),
        (
            r#"{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"maxTokens":0}}"#,
            "maxTokens",
        ),
        (
            r#"{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"maxTokens":1,"includeContext":"everything"}}"#,
            "includeContext",
        ),
        (
            r#"{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"maxTokens":1,"modelPreferences":{"speedPriority":2}}}"#,
            "modelPreferences",
        ),
        (r#"{"method":"roots/list","params":[]}"#, "roots params"),
    ];
    for (json, message) in bad_json {
        let e = InputRequest::from_json(json).unwrap_err();
        assert!(e.message().contains(message), "{json}: {}", e.message());
    }
    let schema = |s: &str| InputRequest::elicit_form("m", s).unwrap_err().message();
    for bad in [
        r#"{"type":"array","properties":{}}"#,
        r#"{"type":"object"}"#,
        r#"{"type":"object","properties":{"a":{"type":"object"}}}"#,
        r#"{"type":"object","properties":{"a":{"type":"string","format":"phone"}}}"#,
        r#"{"type":"object","properties":{"a":{"type":"string","enum":[]}}}"#,
        r#"{"type":"object","properties":{"a":{"type":"string","enum":["x"],"enumNames":["X","Y"]}}}"#,
        r#"{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}"#,
        r#"{"type":"object","properties":{"a":{"type":"array","items":{"type":"number"}}}}"#,
        r#"{"type":"object","properties":{"a":{"type":"boolean","default":"yes"}}}"#,
        r#"{"type":"object","properties":{"a":{"type":"boolean"}},"required":["b"]}"#,
    ] {
        let m = schema(bad);
        assert!(m.contains("requestedSchema"), "{bad}: {m}");
    }
    assert!(InputRequest::elicit_form("m", "{").is_err());
    assert!(InputRequest::sampling("[]").is_err());
    let big = format!(
        r#"{{"method":"roots/list","params":{{"_meta":{{"x":"{}"}}}}}}"#,
        "x".repeat(64 * 1024)
    );
    assert!(InputRequest::from_json(&big)
        .unwrap_err()
        .message()
        .contains("64 KiB"));
}

#[test]
fn input_keys_are_short_plain_and_unique() {
    let mut r = InputRequests::new();
    for key in ["a", "consent", "github_login", "step-2.b", &"k".repeat(64)] {
        r.insert(key, InputRequest::roots()).unwrap();
    }
    for bad in ["", " ", "a b", "ä", "a/b", "a\"b", &"k".repeat(65)] {
        let e = r.insert(bad, InputRequest::roots()).unwrap_err();
        assert!(e.message().contains("1 to 64 bytes"), "{bad:?}");
    }
    let e = r.insert("consent", InputRequest::roots()).unwrap_err();
    assert!(e.message().contains("already used"));
    assert_eq!(r.len(), 5);
    assert_eq!(r.iter().next().unwrap().0, "a");
}

#[test]
fn a_read_asks_for_at_most_16_inputs() {
    let mut r = InputRequests::new();
    for i in 0..16 {
        r.insert(&format!("k{i}"), InputRequest::roots()).unwrap();
    }
    assert!(r
        .insert("k16", InputRequest::roots())
        .unwrap_err()
        .message()
        .contains("at most 16"));
}

#[test]
fn input_state_is_at_most_1_kib() {
    assert!(InputRequired::new(InputRequests::new())
        .with_state(&[7; 1024])
        .is_ok());
    assert!(InputRequired::new(InputRequests::new())
        .with_state(&[7; 1025])
        .unwrap_err()
        .message()
        .contains("1 KiB"));
}

#[test]
fn client_capabilities_are_read_as_mcp_defines_them() {
    let caps = |j: &str| ClientCapabilities::from_json(j).unwrap();
    assert_eq!(caps("{}"), ClientCapabilities::default());
    // `elicitation: {}` is form mode (implicit); url only when declared.
    let e = caps(r#"{"elicitation":{}}"#);
    assert!(e.elicitation_form && !e.elicitation_url);
    let u = caps(r#"{"elicitation":{"url":{}}}"#);
    assert!(!u.elicitation_form && u.elicitation_url);
    let both = caps(
        r#"{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{},"context":{}},"roots":{"listChanged":true},"experimental":{"x":{}}}"#,
    );
    assert_eq!(both, ClientCapabilities::all());
    for bad in [
        r#"[]"#,
        r#"{"elicitation":true}"#,
        r#"{"elicitation":{"form":true}}"#,
        r#"{"sampling":{"context":[]}}"#,
        r#"{"roots":null}"#,
        r#"{"roots":{},"roots":{}}"#,
    ] {
        assert!(ClientCapabilities::from_json(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_sampling_request_with_tools_or_context_needs_those_capabilities() {
    // Tools and context need their sub-capability of sampling.
    let with_tools = InputRequest::sampling(r#"{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"maxTokens":1,"tools":[]}"#).unwrap();
    let with_context = InputRequest::sampling(r#"{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"maxTokens":1,"includeContext":"thisServer"}"#).unwrap();
    let requests = InputRequests::new()
        .with("t", with_tools)
        .unwrap()
        .with("c", with_context)
        .unwrap();
    let r = Resources::builder()
        .policy(std::sync::Arc::new(AskWith(requests)))
        .binding(
            ResourceBinding::new(
                r#"{"uri":"doc://x","name":"x"}"#,
                std::sync::Arc::new(AskingReader {
                    log: Log::default(),
                }),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    let p = |caps: &str| {
        format!(
            r#"{{"uri":"doc://x","_meta":{{"io.modelcontextprotocol/clientCapabilities":{caps}}}}}"#
        )
    };
    let resp = read(&r, &p(r#"{"sampling":{}}"#), SCOPE);
    assert_eq!(
        resp.json(),
        r#"{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"sampling":{"tools":{},"context":{}}}}}"#
    );
    let resp = read(&r, &p(r#"{"sampling":{"tools":{}}}"#), SCOPE);
    assert!(resp
        .json()
        .contains(r#""requiredCapabilities":{"sampling":{"context":{}}}"#));
    assert!(read(&r, &p(r#"{"sampling":{"tools":{},"context":{}}}"#), SCOPE).is_input_required());
}

/// A policy whose read permission always asks for `requests`.
struct AskWith(InputRequests);

impl ResourcePolicy for AskWith {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Err(CallbackError::input_required(InputRequired::new(
            self.0.clone(),
        )))
    }
}

#[test]
fn the_retry_members_are_read_by_the_one_strict_params_reader() {
    let h = host();
    let refused = |params: &str, message: &str| {
        let resp = read(&h.resources, params, SCOPE);
        assert_eq!(
            resp.json(),
            format!(r#"{{"code":-32602,"message":"{message}"}}"#),
            "{params}"
        );
    };
    refused(
        r#"{"uri":"doc://plain","requestState":1}"#,
        "params requestState must be a string",
    );
    refused(
        r#"{"uri":"doc://plain","requestState":null}"#,
        "params requestState must be a string",
    );
    refused(
        r#"{"uri":"doc://plain","requestState":"a","requestState":"a"}"#,
        "params repeat requestState",
    );
    refused(
        r#"{"uri":"doc://plain","inputResponses":"x"}"#,
        "params inputResponses must be an object",
    );
    refused(
        r#"{"uri":"doc://plain","inputResponses":{},"inputResponses":{}}"#,
        "params repeat inputResponses",
    );
    refused(
        r#"{"uri":"doc://plain","_meta":{"io.modelcontextprotocol/clientCapabilities":[]}}"#,
        "params _meta clientCapabilities must be an object",
    );
    refused(
        r#"{"uri":"doc://plain","_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientCapabilities":{}}}"#,
        "params _meta repeat clientCapabilities",
    );
    // Before 2026-07-28 (here named by the request itself) they are not
    // defined: ignored whatever they hold.
    for params in [
        r#"{"uri":"doc://plain","requestState":1,"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}"#,
        r#"{"uri":"doc://plain","inputResponses":"x","requestState":"a","requestState":"b","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":[]}}"#,
    ] {
        let resp = read(&h.resources, params, SCOPE);
        assert!(
            !resp.is_error() && !resp.is_input_required(),
            "{}",
            resp.json()
        );
    }
    // But a uri of the wrong type is refused on every revision.
    refused(
        r#"{"uri":5,"requestState":1,"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}"#,
        "params uri must be a string",
    );
    // The slow path (escapes, numbers) reads them the same way.
    let resp = read(
        &h.resources,
        r#"{"uri":"doc:\/\/plain","n":1.5,"inputResponses":{"k":{"v":1e3}},"requestState":"\u0041"}"#,
        SCOPE,
    );
    assert_eq!(
        resp.json(),
        r#"{"code":-32602,"message":"Invalid request state"}"#
    );
    // On older revisions the members are read (typed) but not acted on.
    let resp = read(
        &h.resources,
        r#"{"uri":"doc://plain","requestState":"forged","inputResponses":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}"#,
        SCOPE,
    );
    assert!(!resp.is_error(), "{}", resp.json());
    // RequestParams exposes them raw.
    let p = RequestParams::parse(
        RequestMethod::ResourcesRead,
        br#"{"uri":"u","requestState":"s","inputResponses":{ "k" : {} },"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}"#,
    )
    .unwrap();
    assert_eq!(p.request_state.as_deref(), Some("s"));
    assert_eq!(p.input_responses.as_deref(), Some(r#"{ "k" : {} }"#));
    assert_eq!(p.client_capabilities.as_deref(), Some(r#"{"roots":{}}"#));
}
