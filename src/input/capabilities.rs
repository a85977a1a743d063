//! The client capabilities input requests need (docs/BEHAVIOUR.md §18):
//! the part of MCP's `ClientCapabilities` the library reads, and what a
//! set of input requests lacks (the `requiredCapabilities` of a `-32021`
//! `MissingRequiredClientCapability` error).

use serde_json::{Map, Value};

use super::ask::{parse, InputRequests, InvalidInput};
use super::shapes::Needs;

/// What the client declared it can answer: the input-related part of MCP
/// `ClientCapabilities` (`elicitation`, `sampling`, `roots`). The default
/// declares nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClientCapabilities {
    /// `elicitation` in form mode (`elicitation: {}` or with `form`).
    pub elicitation_form: bool,
    /// `elicitation.url`.
    pub elicitation_url: bool,
    /// `sampling`.
    pub sampling: bool,
    /// `sampling.tools` (sampling requests with `tools` or `toolChoice`).
    pub sampling_tools: bool,
    /// `sampling.context` (`includeContext` other than `none`).
    pub sampling_context: bool,
    /// `roots`.
    pub roots: bool,
}

impl ClientCapabilities {
    /// Every capability an input request can need.
    pub fn all() -> Self {
        ClientCapabilities {
            elicitation_form: true,
            elicitation_url: true,
            sampling: true,
            sampling_tools: true,
            sampling_context: true,
            roots: true,
        }
    }

    /// Reads a `ClientCapabilities` JSON object: `elicitation`,
    /// `sampling`, `roots` and their members `form`, `url`, `tools` and
    /// `context` must be objects when present (an `elicitation` with
    /// neither `form` nor `url` declares form mode, as MCP says); other
    /// members are ignored. Held to the JSON discipline of definitions.
    pub fn from_json(json: &str) -> Result<ClientCapabilities, InvalidInput> {
        const BAD: InvalidInput = InvalidInput(
            "client capabilities must be an object whose elicitation, sampling and roots are objects",
        );
        let (_, value) = parse(json, 64 * 1024, "client capabilities").map_err(|_| BAD)?;
        let caps = value.as_object().ok_or(BAD)?;
        let member =
            |o: &Map<String, Value>, k: &str| -> Result<Option<Map<String, Value>>, InvalidInput> {
                match o.get(k) {
                    None => Ok(None),
                    Some(Value::Object(m)) => Ok(Some(m.clone())),
                    Some(_) => Err(BAD),
                }
            };
        let mut out = ClientCapabilities::default();
        if let Some(e) = member(caps, "elicitation")? {
            let form = member(&e, "form")?.is_some();
            out.elicitation_url = member(&e, "url")?.is_some();
            out.elicitation_form = form || !out.elicitation_url;
        }
        if let Some(s) = member(caps, "sampling")? {
            out.sampling = true;
            out.sampling_tools = member(&s, "tools")?.is_some();
            out.sampling_context = member(&s, "context")?.is_some();
        }
        out.roots = member(caps, "roots")?.is_some();
        Ok(out)
    }

    /// The `requiredCapabilities` object naming what `requests` need and
    /// these capabilities lack, or `None` when nothing is missing.
    pub(crate) fn missing(&self, requests: &InputRequests) -> Option<String> {
        let mut need = Needs::default();
        for (_, r) in requests.iter() {
            let n = r.needs();
            need.elicitation_form |= n.elicitation_form;
            need.elicitation_url |= n.elicitation_url;
            need.sampling |= n.sampling;
            need.sampling_tools |= n.sampling_tools;
            need.sampling_context |= n.sampling_context;
            need.roots |= n.roots;
        }
        let mut parts = Vec::new();
        let mut elicitation = Vec::new();
        if need.elicitation_form && !self.elicitation_form {
            elicitation.push(r#""form":{}"#);
        }
        if need.elicitation_url && !self.elicitation_url {
            elicitation.push(r#""url":{}"#);
        }
        if !elicitation.is_empty() {
            parts.push(format!(r#""elicitation":{{{}}}"#, elicitation.join(",")));
        }
        let mut sampling = Vec::new();
        if need.sampling_tools && !self.sampling_tools {
            sampling.push(r#""tools":{}"#);
        }
        if need.sampling_context && !self.sampling_context {
            sampling.push(r#""context":{}"#);
        }
        if (need.sampling && !self.sampling) || !sampling.is_empty() {
            parts.push(format!(r#""sampling":{{{}}}"#, sampling.join(",")));
        }
        if need.roots && !self.roots {
            parts.push(r#""roots":{}"#.to_string());
        }
        (!parts.is_empty()).then(|| format!("{{{}}}", parts.join(",")))
    }
}
