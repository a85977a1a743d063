//! The shapes of MCP 2026-07-28 input requests and input responses
//! (`ElicitRequest`, `CreateMessageRequest`, `ListRootsRequest` and their
//! results), checked on parsed JSON (docs/BEHAVIOUR.md §18).
//!
//! The checks are at least as strict as the schema: every member the
//! schema names is checked for its type and values when present, required
//! members must be present, and other members are left alone (the schema
//! leaves these objects open). What passes here validates against the
//! revision's `schema.json` (the client checks hold the library to it).
//!
//! A leaf: it uses nothing of the crate.

use serde_json::{Map, Value};

/// What an input request needs from the client's capabilities beyond the
/// feature itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// Form-mode elicitation.
    pub elicitation_form: bool,
    /// URL-mode elicitation.
    pub elicitation_url: bool,
    /// Sampling.
    pub sampling: bool,
    /// Sampling with `tools` or `toolChoice`.
    pub sampling_tools: bool,
    /// Sampling with `includeContext` `thisServer` or `allServers`.
    pub sampling_context: bool,
    /// Roots.
    pub roots: bool,
}

/// A refusal: a fixed message naming the member.
pub(crate) type Refused = &'static str;

fn object(v: &Value, what: Refused) -> Result<&Map<String, Value>, Refused> {
    v.as_object().ok_or(what)
}

fn opt_str(o: &Map<String, Value>, key: &str, what: Refused) -> Result<Option<String>, Refused> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(what),
    }
}

fn req_str<'v>(o: &'v Map<String, Value>, key: &str, what: Refused) -> Result<&'v str, Refused> {
    o.get(key).and_then(Value::as_str).ok_or(what)
}

fn opt_kind(
    o: &Map<String, Value>,
    key: &str,
    is: fn(&Value) -> bool,
    what: Refused,
) -> Result<(), Refused> {
    match o.get(key) {
        Some(v) if !is(v) => Err(what),
        _ => Ok(()),
    }
}

fn is_count(v: &Value) -> bool {
    v.as_u64().is_some()
}

fn is_strings(v: &Value) -> bool {
    v.as_array()
        .is_some_and(|a| a.iter().all(|s| s.is_string()))
}

fn is_titled_options(v: &Value) -> bool {
    v.as_array().is_some_and(|a| {
        !a.is_empty()
            && a.iter().all(|o| {
                o.as_object().is_some_and(|o| {
                    o.get("const").is_some_and(Value::is_string)
                        && o.get("title").is_some_and(Value::is_string)
                })
            })
    })
}

/// `params` of an `elicitation/create` request (form or URL mode).
pub(crate) fn elicit_params(params: &Value) -> Result<Needs, Refused> {
    let p = object(params, "elicitation params must be an object")?;
    req_str(p, "message", "elicitation params need a message string")?;
    match opt_str(p, "mode", "elicitation mode must be \"form\" or \"url\"")?.as_deref() {
        None | Some("form") => {
            let schema = p
                .get("requestedSchema")
                .ok_or("form elicitation needs a requestedSchema")?;
            requested_schema(schema)?;
            Ok(Needs {
                elicitation_form: true,
                ..Needs::default()
            })
        }
        Some("url") => {
            let url = req_str(p, "url", "url elicitation needs a url string")?;
            if !is_web_url(url) {
                return Err("url elicitation url must be an absolute https or http URL");
            }
            Ok(Needs {
                elicitation_url: true,
                ..Needs::default()
            })
        }
        Some(_) => Err("elicitation mode must be \"form\" or \"url\""),
    }
}

/// An absolute `https:` or `http:` URL with an authority, at most 2048
/// bytes, without userinfo, whitespace, controls or characters URIs never
/// hold.
pub(crate) fn is_web_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let Some(rest) = rest else { return false };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    url.len() <= 2048
        && !authority.is_empty()
        && !authority.contains('@')
        && url
            .bytes()
            .all(|b| b > b' ' && b != 0x7f && !b"\"<>\\^`{|}".contains(&b))
}

/// The restricted JSON Schema of a form elicitation: an object of
/// primitive properties, `required` naming some of them.
fn requested_schema(v: &Value) -> Result<(), Refused> {
    let s = object(v, "requestedSchema must be an object")?;
    if s.get("type").and_then(Value::as_str) != Some("object") {
        return Err("requestedSchema type must be \"object\"");
    }
    opt_kind(
        s,
        "$schema",
        Value::is_string,
        "requestedSchema $schema must be a string",
    )?;
    let props = s
        .get("properties")
        .and_then(Value::as_object)
        .ok_or("requestedSchema needs a properties object")?;
    for p in props.values() {
        primitive(p)?;
    }
    if let Some(r) = s.get("required") {
        let names = r
            .as_array()
            .ok_or("requestedSchema required must be an array of property names")?;
        for n in names {
            match n.as_str() {
                Some(n) if props.contains_key(n) => {}
                _ => return Err("requestedSchema required must be an array of property names"),
            }
        }
    }
    Ok(())
}

/// One property of a form: a string, number, boolean or enumeration
/// schema (`PrimitiveSchemaDefinition`).
fn primitive(v: &Value) -> Result<(), Refused> {
    const BAD: Refused = "a requestedSchema property is not a primitive schema";
    let p = object(v, BAD)?;
    opt_kind(p, "title", Value::is_string, BAD)?;
    opt_kind(p, "description", Value::is_string, BAD)?;
    match p.get("type").and_then(Value::as_str) {
        Some("string") => {
            opt_kind(p, "minLength", is_count, BAD)?;
            opt_kind(p, "maxLength", is_count, BAD)?;
            opt_kind(p, "default", Value::is_string, BAD)?;
            if let Some(f) = p.get("format") {
                if !matches!(f.as_str(), Some("email" | "uri" | "date" | "date-time")) {
                    return Err(BAD);
                }
            }
            let has_enum = p.contains_key("enum");
            opt_kind(
                p,
                "enum",
                |v| is_strings(v) && v.as_array().is_some_and(|a| !a.is_empty()),
                BAD,
            )?;
            opt_kind(p, "oneOf", is_titled_options, BAD)?;
            if has_enum && p.contains_key("oneOf") {
                return Err(BAD);
            }
            if let Some(names) = p.get("enumNames") {
                let same_len = names.as_array().map(Vec::len)
                    == p.get("enum").and_then(Value::as_array).map(Vec::len);
                if !is_strings(names) || !has_enum || !same_len {
                    return Err(BAD);
                }
            }
            Ok(())
        }
        Some("number" | "integer") => {
            opt_kind(p, "minimum", Value::is_number, BAD)?;
            opt_kind(p, "maximum", Value::is_number, BAD)?;
            opt_kind(p, "default", Value::is_number, BAD)
        }
        Some("boolean") => opt_kind(p, "default", Value::is_boolean, BAD),
        Some("array") => {
            opt_kind(p, "minItems", is_count, BAD)?;
            opt_kind(p, "maxItems", is_count, BAD)?;
            opt_kind(p, "default", is_strings, BAD)?;
            let items = p.get("items").and_then(Value::as_object).ok_or(BAD)?;
            let untitled = items.get("type").and_then(Value::as_str) == Some("string")
                && items
                    .get("enum")
                    .is_some_and(|e| is_strings(e) && e.as_array().is_some_and(|a| !a.is_empty()));
            let titled = items.get("anyOf").is_some_and(is_titled_options);
            if untitled || titled {
                Ok(())
            } else {
                Err(BAD)
            }
        }
        _ => Err(BAD),
    }
}

/// One content block of a sampling message.
fn sampling_block(v: &Value) -> Result<(), Refused> {
    const BAD: Refused = "a sampling message content block is malformed";
    let b = object(v, BAD)?;
    match b.get("type").and_then(Value::as_str) {
        Some("text") => req_str(b, "text", BAD).map(drop),
        Some("image" | "audio") => {
            req_str(b, "data", BAD)?;
            req_str(b, "mimeType", BAD).map(drop)
        }
        Some("tool_use") => {
            req_str(b, "id", BAD)?;
            req_str(b, "name", BAD)?;
            b.get("input")
                .and_then(Value::as_object)
                .ok_or(BAD)
                .map(drop)
        }
        Some("tool_result") => {
            req_str(b, "toolUseId", BAD)?;
            b.get("content")
                .and_then(Value::as_array)
                .ok_or(BAD)
                .map(drop)
        }
        _ => Err(BAD),
    }
}

/// A sampling message (`SamplingMessage`, also the body of a
/// `CreateMessageResult`): a role and one block or a non-empty list.
fn sampling_message(m: &Map<String, Value>) -> Result<(), Refused> {
    const BAD: Refused = "a sampling message needs a role (user or assistant) and content";
    if !matches!(
        m.get("role").and_then(Value::as_str),
        Some("user" | "assistant")
    ) {
        return Err(BAD);
    }
    match m.get("content") {
        Some(Value::Array(blocks)) if !blocks.is_empty() => {
            blocks.iter().try_for_each(sampling_block)
        }
        Some(block @ Value::Object(_)) => sampling_block(block),
        _ => Err(BAD),
    }
}

/// `params` of a `sampling/createMessage` request.
pub(crate) fn sampling_params(params: &Value) -> Result<Needs, Refused> {
    let p = object(params, "sampling params must be an object")?;
    let messages = p
        .get("messages")
        .and_then(Value::as_array)
        .filter(|m| !m.is_empty())
        .ok_or("sampling params need a non-empty messages array")?;
    for m in messages {
        sampling_message(object(m, "a sampling message must be an object")?)?;
    }
    if p.get("maxTokens")
        .and_then(Value::as_u64)
        .is_none_or(|n| n < 1)
    {
        return Err("sampling params need maxTokens, a positive integer");
    }
    opt_kind(
        p,
        "systemPrompt",
        Value::is_string,
        "sampling systemPrompt must be a string",
    )?;
    opt_kind(
        p,
        "temperature",
        Value::is_number,
        "sampling temperature must be a number",
    )?;
    opt_kind(
        p,
        "stopSequences",
        is_strings,
        "sampling stopSequences must be strings",
    )?;
    opt_kind(
        p,
        "metadata",
        Value::is_object,
        "sampling metadata must be an object",
    )?;
    if let Some(prefs) = p.get("modelPreferences") {
        model_preferences(prefs)?;
    }
    let context = match p.get("includeContext").map(Value::as_str) {
        None | Some(Some("none")) => false,
        Some(Some("thisServer" | "allServers")) => true,
        Some(_) => return Err("sampling includeContext must be none, thisServer or allServers"),
    };
    if let Some(tools) = p.get("tools") {
        let ok = tools.as_array().is_some_and(|t| {
            t.iter().all(|t| {
                t.get("name").is_some_and(Value::is_string)
                    && t.get("inputSchema").is_some_and(Value::is_object)
            })
        });
        if !ok {
            return Err("sampling tools must be tools with a name and an inputSchema");
        }
    }
    if let Some(choice) = p.get("toolChoice") {
        let c = object(choice, "sampling toolChoice must be an object")?;
        if let Some(m) = c.get("mode") {
            if !matches!(m.as_str(), Some("auto" | "required" | "none")) {
                return Err("sampling toolChoice mode must be auto, required or none");
            }
        }
    }
    Ok(Needs {
        sampling: true,
        sampling_tools: p.contains_key("tools") || p.contains_key("toolChoice"),
        sampling_context: context,
        ..Needs::default()
    })
}

fn model_preferences(v: &Value) -> Result<(), Refused> {
    const BAD: Refused = "sampling modelPreferences is malformed";
    let p = object(v, BAD)?;
    for key in ["costPriority", "speedPriority", "intelligencePriority"] {
        if let Some(x) = p.get(key) {
            if !x.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x)) {
                return Err(BAD);
            }
        }
    }
    if let Some(hints) = p.get("hints") {
        let ok = hints.as_array().is_some_and(|h| {
            h.iter().all(|h| {
                h.as_object()
                    .is_some_and(|h| h.get("name").is_none_or(Value::is_string))
            })
        });
        if !ok {
            return Err(BAD);
        }
    }
    Ok(())
}

/// `params` of a `roots/list` request: absent, or an object whose `_meta`
/// (if any) is an object.
pub(crate) fn roots_params(params: Option<&Value>) -> Result<Needs, Refused> {
    if let Some(p) = params {
        let p = object(p, "roots params must be an object")?;
        opt_kind(
            p,
            "_meta",
            Value::is_object,
            "roots params _meta must be an object",
        )?;
    }
    Ok(Needs {
        roots: true,
        ..Needs::default()
    })
}

/// The user's action in an `ElicitResult`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElicitAction {
    /// The user submitted the form or confirmed the action.
    Accept,
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request without a choice.
    Cancel,
}

impl ElicitAction {
    /// The action's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ElicitAction::Accept => "accept",
            ElicitAction::Decline => "decline",
            ElicitAction::Cancel => "cancel",
        }
    }
}

/// An `ElicitResult`: the action, and for an accepted form the content
/// values (strings, numbers, booleans or lists of strings).
pub(crate) fn elicit_result(v: &Value) -> Result<ElicitAction, Refused> {
    const BAD: Refused = "an elicitation response needs an action (accept, decline or cancel)";
    let r = object(v, BAD)?;
    let action = match r.get("action").and_then(Value::as_str) {
        Some("accept") => ElicitAction::Accept,
        Some("decline") => ElicitAction::Decline,
        Some("cancel") => ElicitAction::Cancel,
        _ => return Err(BAD),
    };
    if let Some(content) = r.get("content") {
        let c = object(content, "elicitation response content must be an object")?;
        let ok = c
            .values()
            .all(|v| v.is_string() || v.is_number() || v.is_boolean() || is_strings(v));
        if !ok {
            return Err("elicitation response content values must be strings, numbers, booleans or lists of strings");
        }
    }
    Ok(action)
}

/// A `CreateMessageResult`: a sampling message with the model's name.
pub(crate) fn sampling_result(v: &Value) -> Result<(), Refused> {
    let r = object(v, "a sampling response must be an object")?;
    sampling_message(r)?;
    req_str(r, "model", "a sampling response needs a model string")?;
    opt_kind(
        r,
        "stopReason",
        Value::is_string,
        "a sampling response stopReason must be a string",
    )
}

/// A `ListRootsResult`: roots with `file://` URIs.
pub(crate) fn roots_result(v: &Value) -> Result<(), Refused> {
    const BAD: Refused = "a roots response needs roots, each with a file:// uri";
    let r = object(v, BAD)?;
    let roots = r.get("roots").and_then(Value::as_array).ok_or(BAD)?;
    for root in roots {
        let root = object(root, BAD)?;
        if !req_str(root, "uri", BAD)?.starts_with("file://") {
            return Err(BAD);
        }
        opt_kind(root, "name", Value::is_string, BAD)?;
    }
    Ok(())
}
