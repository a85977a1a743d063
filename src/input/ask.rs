//! What a callback asks for when a read needs input first
//! (docs/BEHAVIOUR.md §18): [`InputRequest`] (one `ElicitRequest`,
//! `CreateMessageRequest` or `ListRootsRequest` of MCP 2026-07-28,
//! validated when it is made), [`InputRequests`] (the keyed map the
//! `InputRequiredResult` carries) and [`InputRequired`] (what the callback
//! returns: the requests and optional state of its own, sealed into the
//! `requestState`).
//!
//! A leaf below `error.rs` (which names these types): it uses only the
//! JSON scanner and `shapes.rs`.

use std::fmt;

use serde_json::Value;

use crate::jsonscan;

use super::shapes::{self, Needs};

/// Most input requests one read may ask for at once.
///
/// cbindgen:ignore
pub const MAX_INPUT_REQUESTS: usize = 16;
/// Longest input key, in bytes (keys are 1 to 64 of `A-Z a-z 0-9 _ . -`).
///
/// cbindgen:ignore
pub const MAX_INPUT_KEY_BYTES: usize = 64;
/// Largest input request JSON, in bytes.
///
/// cbindgen:ignore
pub const MAX_INPUT_REQUEST_BYTES: usize = 64 * 1024;
/// Largest state a callback may seal into a `requestState`, in bytes.
///
/// cbindgen:ignore
pub const MAX_INPUT_STATE_BYTES: usize = 1024;

/// Which client feature answers an input request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputKind {
    /// `elicitation/create`: the user fills a form or visits a URL.
    Elicitation = 1,
    /// `sampling/createMessage`: the client's model answers.
    Sampling = 2,
    /// `roots/list`: the client lists its roots.
    Roots = 3,
}

impl InputKind {
    /// The request's MCP method.
    pub fn method(self) -> &'static str {
        match self {
            InputKind::Elicitation => "elicitation/create",
            InputKind::Sampling => "sampling/createMessage",
            InputKind::Roots => "roots/list",
        }
    }

    /// The kind of an MCP method name.
    pub fn of_method(method: &str) -> Option<InputKind> {
        match method {
            "elicitation/create" => Some(InputKind::Elicitation),
            "sampling/createMessage" => Some(InputKind::Sampling),
            "roots/list" => Some(InputKind::Roots),
            _ => None,
        }
    }

    pub(crate) fn from_u8(v: u8) -> Option<InputKind> {
        match v {
            1 => Some(InputKind::Elicitation),
            2 => Some(InputKind::Sampling),
            3 => Some(InputKind::Roots),
            _ => None,
        }
    }
}

/// Why an input request, key or state was refused: a fixed message that
/// names the member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidInput(pub(crate) &'static str);

impl InvalidInput {
    /// The message.
    pub fn message(&self) -> &'static str {
        self.0
    }
}

impl fmt::Display for InvalidInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for InvalidInput {}

/// One request for input, validated against the MCP 2026-07-28 schema
/// when it is made: its JSON is exactly what the `InputRequiredResult`
/// carries under its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRequest {
    kind: InputKind,
    json: String,
    needs: Needs,
}

impl InputRequest {
    /// A request from its JSON object, `{"method":…,"params":…}`, as the
    /// schema's `InputRequest` (members other than these two are refused;
    /// `roots/list` may leave out `params`). Held to the JSON discipline
    /// of definitions (no repeated key, at most 127 deep) and at most
    /// 64 KiB.
    pub fn from_json(json: &str) -> Result<InputRequest, InvalidInput> {
        let (compact, value) = parse(json, MAX_INPUT_REQUEST_BYTES, "input request")?;
        let o = value
            .as_object()
            .ok_or(InvalidInput("an input request must be a JSON object"))?;
        if o.keys().any(|k| k != "method" && k != "params") {
            return Err(InvalidInput(
                "an input request holds only method and params",
            ));
        }
        let kind = o
            .get("method")
            .and_then(Value::as_str)
            .and_then(InputKind::of_method)
            .ok_or(InvalidInput(
                "input request method must be elicitation/create, sampling/createMessage or roots/list",
            ))?;
        let params = o.get("params");
        let needs = match (kind, params) {
            (InputKind::Roots, p) => shapes::roots_params(p),
            (_, None) => Err("an input request needs params"),
            (InputKind::Elicitation, Some(p)) => shapes::elicit_params(p),
            (InputKind::Sampling, Some(p)) => shapes::sampling_params(p),
        }
        .map_err(InvalidInput)?;
        Ok(InputRequest {
            kind,
            json: compact,
            needs,
        })
    }

    /// A form elicitation: `message` shown to the user, `requested_schema`
    /// the JSON of the form's restricted schema (`{"type":"object",
    /// "properties":{…},"required":[…]}`).
    pub fn elicit_form(
        message: &str,
        requested_schema: &str,
    ) -> Result<InputRequest, InvalidInput> {
        let (schema, _) = parse(requested_schema, MAX_INPUT_REQUEST_BYTES, "requestedSchema")?;
        let mut json =
            String::from(r#"{"method":"elicitation/create","params":{"mode":"form","message":"#);
        json_str(&mut json, message);
        json.push_str(r#","requestedSchema":"#);
        json.push_str(&schema);
        json.push_str("}}");
        InputRequest::from_json(&json)
    }

    /// A URL elicitation: `message` explains why, `url` (an absolute
    /// `https:` or `http:` URL) is where the user goes.
    pub fn elicit_url(message: &str, url: &str) -> Result<InputRequest, InvalidInput> {
        let mut json =
            String::from(r#"{"method":"elicitation/create","params":{"mode":"url","message":"#);
        json_str(&mut json, message);
        json.push_str(r#","url":"#);
        json_str(&mut json, url);
        json.push_str("}}");
        InputRequest::from_json(&json)
    }

    /// A sampling request: `params` is the JSON of its
    /// `CreateMessageRequestParams` (`messages`, `maxTokens`, …).
    pub fn sampling(params: &str) -> Result<InputRequest, InvalidInput> {
        let (params, _) = parse(params, MAX_INPUT_REQUEST_BYTES, "sampling params")?;
        InputRequest::from_json(&format!(
            r#"{{"method":"sampling/createMessage","params":{params}}}"#
        ))
    }

    /// A `roots/list` request.
    pub fn roots() -> InputRequest {
        InputRequest {
            kind: InputKind::Roots,
            json: r#"{"method":"roots/list"}"#.to_string(),
            needs: Needs {
                roots: true,
                ..Needs::default()
            },
        }
    }

    /// The client feature that answers it.
    pub fn kind(&self) -> InputKind {
        self.kind
    }

    /// The request object as compact JSON.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// What it needs of the client's capabilities.
    pub(crate) fn needs(&self) -> Needs {
        self.needs
    }
}

/// Appends `s` as a JSON string (serde_json's escaping, as everywhere).
pub(crate) fn json_str(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).expect("a string serialises"));
}

/// Checks `json` with the definitions' JSON discipline and returns its
/// compact form and its parsed value.
pub(crate) fn parse(
    json: &str,
    max: usize,
    what: &'static str,
) -> Result<(String, Value), InvalidInput> {
    let refused = || {
        InvalidInput(match what {
            "input request" => "input request is not valid JSON (or repeats a key)",
            "requestedSchema" => "requestedSchema is not valid JSON (or repeats a key)",
            _ => "sampling params are not valid JSON (or repeat a key)",
        })
    };
    if json.len() > max {
        return Err(InvalidInput("an input request exceeds 64 KiB"));
    }
    let mut compact = String::with_capacity(json.len());
    let scanned = jsonscan::scan(json, &mut compact, "").map_err(|_| refused())?;
    if scanned.duplicate_key {
        return Err(refused());
    }
    let value = serde_json::from_str(&compact).map_err(|_| refused())?;
    Ok((compact, value))
}

/// Whether `key` is a valid input key: 1 to 64 bytes of `A-Z a-z 0-9 _ . -`.
pub fn is_input_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= MAX_INPUT_KEY_BYTES
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// The input requests of one read: keys unique, at most
/// [`MAX_INPUT_REQUESTS`], in the order they were added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputRequests {
    entries: Vec<(String, InputRequest)>,
}

impl InputRequests {
    /// No requests.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `request` under `key` (1 to 64 bytes of `A-Z a-z 0-9 _ . -`,
    /// not used yet), at most 16 requests.
    pub fn insert(&mut self, key: &str, request: InputRequest) -> Result<(), InvalidInput> {
        if !is_input_key(key) {
            return Err(InvalidInput(
                "input key must be 1 to 64 bytes of A-Z a-z 0-9 _ . -",
            ));
        }
        if self.get(key).is_some() {
            return Err(InvalidInput("input key is already used by this read"));
        }
        if self.entries.len() >= MAX_INPUT_REQUESTS {
            return Err(InvalidInput("a read asks for at most 16 inputs"));
        }
        self.entries.push((key.to_string(), request));
        Ok(())
    }

    /// [`insert`](Self::insert), builder style.
    pub fn with(mut self, key: &str, request: InputRequest) -> Result<Self, InvalidInput> {
        self.insert(key, request)?;
        Ok(self)
    }

    /// The request under `key`.
    pub fn get(&self, key: &str) -> Option<&InputRequest> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, r)| r)
    }

    /// The requests with their keys, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &InputRequest)> {
        self.entries.iter().map(|(k, r)| (k.as_str(), r))
    }

    /// How many requests.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Moves `other`'s requests after these (keys must stay unique).
    pub(crate) fn append(&mut self, other: InputRequests) -> Result<(), InvalidInput> {
        for (k, r) in other.entries {
            self.insert(&k, r)?;
        }
        Ok(())
    }

    /// The `InputRequests` object as compact JSON (`{}` when empty).
    pub fn json(&self) -> String {
        let mut out = String::from("{");
        for (i, (k, r)) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json_str(&mut out, k);
            out.push(':');
            out.push_str(&r.json);
        }
        out.push('}');
        out
    }
}

/// What a callback answers when the read needs input first: return it as
/// [`CallbackError::InputRequired`](crate::CallbackError::InputRequired)
/// from the policy's `read` permission (first check) or a body read
/// (docs/BEHAVIOUR.md §18 says where else it counts as a denial).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputRequired {
    requests: InputRequests,
    state: Vec<u8>,
}

impl InputRequired {
    /// Input required with these requests (none is allowed: the client
    /// then retries with the request state alone).
    pub fn new(requests: InputRequests) -> Self {
        InputRequired {
            requests,
            state: Vec::new(),
        }
    }

    /// Adds opaque bytes of the callback's own (at most 1 KiB), sealed into
    /// the `requestState` and handed back on the retry
    /// ([`InputResponses::state`](crate::input::InputResponses::state)).
    pub fn with_state(mut self, state: &[u8]) -> Result<Self, InvalidInput> {
        if state.len() > MAX_INPUT_STATE_BYTES {
            return Err(InvalidInput("input state exceeds 1 KiB"));
        }
        self.state = state.to_vec();
        Ok(self)
    }

    /// The requests.
    pub fn requests(&self) -> &InputRequests {
        &self.requests
    }

    /// The callback's own state.
    pub fn state(&self) -> &[u8] {
        &self.state
    }

    /// The requests and the state, by value.
    pub(crate) fn into_parts(self) -> (InputRequests, Vec<u8>) {
        (self.requests, self.state)
    }
}

/// What a read that needed input the client cannot be asked for carries
/// in its failure ([`crate::FailureKind::InputRequired`]): the requests,
/// and the JSON-RPC error it answers with.
#[derive(Debug, Clone)]
pub(crate) struct InputFailure {
    /// The input requests the read would have sent.
    pub requests: InputRequests,
    /// `data.requiredCapabilities` of a `-32021` error (the client did not
    /// declare a capability a request needs), or `None`: the revision
    /// cannot carry input requests and the host's error answers.
    pub missing: Option<String>,
    /// The JSON-RPC code and message when `missing` is `None`.
    pub code: i32,
    /// See `code`.
    pub message: String,
}
