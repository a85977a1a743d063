//! What the retry of an input-required read hands its callbacks
//! (docs/BEHAVIOUR.md §18): the client's `inputResponses`, checked against
//! the kinds the sealed `requestState` says were asked for, and the state
//! the asking callback sealed.

use serde_json::Value;

use super::ask::{parse, InputKind, InvalidInput};
use super::shapes::{self, ElicitAction};

/// The client's response to one input request of the previous round,
/// checked against the request's kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputResponse {
    kind: InputKind,
    json: String,
    action: Option<ElicitAction>,
    content: Vec<(String, String)>,
}

impl InputResponse {
    /// The kind of the request it answers.
    pub fn kind(&self) -> InputKind {
        self.kind
    }

    /// The response object as compact JSON (an `ElicitResult`,
    /// `CreateMessageResult` or `ListRootsResult`).
    pub fn json(&self) -> &str {
        &self.json
    }

    /// For an elicitation: the user's action.
    pub fn action(&self) -> Option<ElicitAction> {
        self.action
    }

    /// For an elicitation: the compact JSON of one field of the submitted
    /// `content` (a string, number, boolean or list of strings), if sent.
    pub fn content(&self, field: &str) -> Option<&str> {
        self.content
            .iter()
            .find(|(k, _)| k == field)
            .map(|(_, v)| v.as_str())
    }

    /// The submitted `content` fields, in the order sent, with their
    /// compact JSON.
    pub fn content_fields(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.content.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// What every callback of a retried read sees
/// ([`CallContext::input`](crate::CallContext::input)): the keys and kinds
/// the previous round asked for, the client's response to each (when it
/// sent one), and the state the asking callback sealed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputResponses {
    asked: Vec<(String, InputKind, Option<InputResponse>)>,
    state: Vec<u8>,
}

impl InputResponses {
    /// The response under `key`, when the previous round asked for it and
    /// the client answered.
    pub fn get(&self, key: &str) -> Option<&InputResponse> {
        self.asked
            .iter()
            .find(|(k, _, _)| k == key)
            .and_then(|(_, _, r)| r.as_ref())
    }

    /// The keys the previous round asked for, with their kinds, in order.
    pub fn asked(&self) -> impl ExactSizeIterator<Item = (&str, InputKind)> {
        self.asked.iter().map(|(k, kind, _)| (k.as_str(), *kind))
    }

    /// How many of the asked inputs the client answered.
    pub fn answered(&self) -> usize {
        self.asked.iter().filter(|(_, _, r)| r.is_some()).count()
    }

    /// The bytes the asking callback sealed with
    /// [`InputRequired::with_state`](crate::input::InputRequired::with_state)
    /// (empty when none).
    pub fn state(&self) -> &[u8] {
        &self.state
    }

    /// Reads the client's `inputResponses` (`None`: absent) for the keys
    /// and kinds the sealed state names. Each response to an asked key must
    /// have its kind's shape; responses under other keys are ignored (MCP:
    /// what the server does not recognise); a key not answered has no
    /// response. The object is held to the JSON discipline of definitions.
    pub(crate) fn parse(
        raw: Option<&str>,
        asked: Vec<(String, InputKind)>,
        state: Vec<u8>,
    ) -> Result<InputResponses, InvalidInput> {
        const BAD: InvalidInput =
            InvalidInput("inputResponses must be an object of response objects");
        let value = match raw {
            None => None,
            Some(raw) => Some(
                parse(raw, usize::MAX, "input responses")
                    .map_err(|_| BAD)?
                    .1,
            ),
        };
        let given = match &value {
            None => None,
            Some(Value::Object(o)) => Some(o),
            Some(_) => return Err(BAD),
        };
        let mut out = InputResponses {
            asked: Vec::with_capacity(asked.len()),
            state,
        };
        for (key, kind) in asked {
            let response = match given.and_then(|o| o.get(&key)) {
                None => None,
                Some(v) => Some(response(kind, v)?),
            };
            out.asked.push((key, kind, response));
        }
        Ok(out)
    }
}

/// One response, checked against its request's kind.
fn response(kind: InputKind, v: &Value) -> Result<InputResponse, InvalidInput> {
    let mut action = None;
    let mut content = Vec::new();
    match kind {
        InputKind::Elicitation => {
            action = Some(shapes::elicit_result(v).map_err(InvalidInput)?);
            if let Some(c) = v.get("content").and_then(Value::as_object) {
                for (k, field) in c {
                    content.push((k.clone(), field.to_string()));
                }
            }
        }
        InputKind::Sampling => shapes::sampling_result(v).map_err(InvalidInput)?,
        InputKind::Roots => shapes::roots_result(v).map_err(InvalidInput)?,
    }
    Ok(InputResponse {
        kind,
        json: v.to_string(),
        action,
        content,
    })
}
