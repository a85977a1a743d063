//! One call per message: the whole JSON-RPC message text in, the whole
//! response message out, for hosts that parse no JSON themselves.
//!
//! [`Resources::message`] reads the message's envelope ([`crate::envelope`])
//! and hands its method and the raw text of its `params` to the one-call
//! request ([`Resources::request`]), so that a message is answered exactly
//! as `request` answers its method and params; it serves whatever methods
//! `request` serves and knows none of its own. Around that it keeps
//! JSON-RPC 2.0 and MCP:
//!
//! - the response carries the request's `id` byte for byte as sent (a
//!   string, escapes included, or an integer, every digit);
//! - a message that is not JSON (a syntax error, nesting deeper than
//!   [`crate::envelope::MAX_DEPTH`], trailing data) is answered `-32700`
//!   "Parse error", with id null;
//! - JSON that is no JSON-RPC message is answered `-32600` "Invalid
//!   Request": a batch (an array; MCP dropped batches in 2025-06-18 and the
//!   library refuses them whole, with one error), any other non-object, a
//!   repeated `jsonrpc`, `id`, `method`, `params`, `result` or `error`
//!   member, an id that is neither a string nor an integer (MCP forbids
//!   null), a `jsonrpc` other than `"2.0"`, a method that is no string,
//!   and a message with neither a method nor an id with exactly one of
//!   `result` and `error` (an object); with the message's id when it has a valid one and nothing
//!   was repeated, else id null; so is a message over
//!   [`MAX_MESSAGE_BYTES`], unread;
//! - a request for a method `request` does not serve (and a `ref/prompt`
//!   completion) is not handled: the reply carries its method, raw id and
//!   raw params, and nothing to send, so that the host routes it;
//! - a notification (a method, no id) is never answered: one for a method
//!   the library serves is ignored, any other is handed to the host like
//!   an unhandled request (`notifications/cancelled`,
//!   `notifications/initialized`, ...);
//! - a response (an id and `result` or `error`, no method: the client
//!   answering the host's own request) is handed to the host;
//! - a request whose call was cancelled gets no response (MCP), only its
//!   status;
//! - a message of JSON whitespace only is ignored.
//!
//! Members other than the six JSON-RPC defines are ignored, as are `params`
//! of notifications the library ignores.

use crate::envelope::{self, is_integer, string_value, Scan};
use crate::error::{CauseText, Failure, FailureKind};
use crate::registry::Resources;
use crate::request::{RequestError, RequestMethod, RequestOptions, Response};

/// The largest message read (16 MiB, the official SDKs' line bound); a
/// longer one is answered `-32600` without being read.
///
/// cbindgen:ignore
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// JSON-RPC's code for a message that is not JSON.
///
/// cbindgen:ignore
pub const PARSE_ERROR: i32 = -32700;

/// JSON-RPC's code for JSON that is no valid request.
///
/// cbindgen:ignore
pub const INVALID_REQUEST: i32 = -32600;

/// What a message was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// JSON whitespace only: ignored.
    Blank,
    /// A request (a method and an id).
    Request,
    /// A notification (a method, no id): never answered.
    Notification,
    /// A response (an id and `result` or `error`, no method).
    Response,
    /// Not a JSON-RPC message: answered `-32700` or `-32600`.
    Invalid,
}

/// What to do about one message: the response message to send (or none),
/// and, when the library did not handle the message, what the host needs to
/// route it.
#[derive(Debug)]
pub struct Reply {
    kind: MessageKind,
    handled: bool,
    json: String,
    method: String,
    id: String,
    params: Vec<u8>,
    failure: Option<Failure>,
    partial: bool,
}

impl Reply {
    fn new(kind: MessageKind, handled: bool) -> Reply {
        Reply {
            kind,
            handled,
            json: String::new(),
            method: String::new(),
            id: String::new(),
            params: Vec::new(),
            failure: None,
            partial: false,
        }
    }

    /// The whole JSON-RPC response message to send (one line of compact
    /// JSON, no newline), or empty when nothing is to be sent: a
    /// notification, a response, a blank message, a cancelled request, and
    /// every message not handled (then the host answers it).
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The response message, by value.
    pub fn into_json(self) -> String {
        self.json
    }

    /// What the message was.
    pub fn kind(&self) -> MessageKind {
        self.kind
    }

    /// Whether the library dealt with the message: answered it in
    /// [`json`](Self::json), or found nothing to answer (a notification of
    /// a method it serves, a cancelled request, a blank or invalid
    /// message). False when the host must: a request or notification of a
    /// method the library does not serve, or a response.
    pub fn is_handled(&self) -> bool {
        self.handled
    }

    /// The method of a request or notification (decoded from its JSON
    /// string); empty for other messages.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The raw text of the message's id, exactly as sent (a JSON string
    /// with its quotes, or an integer), to put in the host's own response;
    /// empty for a notification and for a message without a valid id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The raw text of the params of a message the library did not handle,
    /// exactly as sent (empty when it had none); empty for handled messages.
    pub fn params(&self) -> &[u8] {
        &self.params
    }

    /// The failure behind an error response (its kind, safe message and
    /// private cause), a cancelled call, or an invalid message.
    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    /// Whether [`json`](Self::json) is an error response.
    pub fn is_error(&self) -> bool {
        self.failure.is_some() && !self.json.is_empty()
    }

    /// Whether the response is a partial `resources/read` bundle.
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// An invalid message's reply: the `-32700` / `-32600` error with `id`
    /// (`None`: null).
    fn invalid(code: i32, id: Option<&str>, cause: &'static str) -> Reply {
        let message = if code == PARSE_ERROR {
            "Parse error"
        } else {
            "Invalid Request"
        };
        let mut reply = Reply::new(MessageKind::Invalid, true);
        reply.json = response_message(
            id.unwrap_or("null"),
            "error",
            &format!("{{\"code\":{code},\"message\":\"{message}\"}}"),
        );
        reply.id = id.unwrap_or_default().to_string();
        reply.failure = Some(
            Failure::with_message(FailureKind::InvalidRequest, message)
                .caused_by(CauseText(cause.into())),
        );
        reply
    }

    /// A message the host routes.
    fn handed_over(kind: MessageKind, method: String, id: &str, params: &[u8]) -> Reply {
        let mut reply = Reply::new(kind, false);
        reply.method = method;
        reply.id = id.to_string();
        reply.params = params.to_vec();
        reply
    }
}

/// `{"jsonrpc":"2.0","id":<id>,"<member>":<object>}`.
fn response_message(id: &str, member: &str, object: &str) -> String {
    let mut json = String::with_capacity(id.len() + member.len() + object.len() + 26);
    json.push_str("{\"jsonrpc\":\"2.0\",\"id\":");
    json.push_str(id);
    json.push_str(",\"");
    json.push_str(member);
    json.push_str("\":");
    json.push_str(object);
    json.push('}');
    json
}

/// The id's raw text when it is one MCP allows (a string of UTF-8 text, or
/// an integer); `Err` for any other value.
fn valid_id(raw: &[u8]) -> Result<&str, ()> {
    if is_integer(raw) || string_value(raw).is_some() {
        // A decoded string's raw text is UTF-8 (serde_json checked it).
        std::str::from_utf8(raw).map_err(drop)
    } else {
        Err(())
    }
}

/// What a message's envelope asks for: a reply made without the registry
/// (an invalid message, a notification, a response, a blank message), or
/// a request for the one-call request to serve.
pub(crate) enum Envelope<'t> {
    /// The reply, ready.
    Ready(Reply),
    /// A request: its method (decoded), raw id and raw params.
    Request {
        method: String,
        id: &'t str,
        params: &'t [u8],
    },
}

/// Reads the envelope of the message `text` (see the module
/// documentation); callbacks never run here.
pub(crate) fn envelope(text: &[u8]) -> Envelope<'_> {
    use Envelope::Ready;
    if text.len() > MAX_MESSAGE_BYTES {
        return Ready(Reply::invalid(
            INVALID_REQUEST,
            None,
            "the message exceeds 16 MiB",
        ));
    }
    let m = match envelope::scan(text) {
        Scan::Blank => return Ready(Reply::new(MessageKind::Blank, true)),
        Scan::Malformed => {
            return Ready(Reply::invalid(PARSE_ERROR, None, "the message is not JSON"))
        }
        Scan::NotObject => {
            return Ready(Reply::invalid(
                INVALID_REQUEST,
                None,
                "the message is no object (a batch, or another value)",
            ))
        }
        Scan::Object(m) => m,
    };
    if m.repeated {
        return Ready(Reply::invalid(
            INVALID_REQUEST,
            None,
            "the message repeats a JSON-RPC member",
        ));
    }
    let id = match m.id.map(valid_id) {
        None => None,
        Some(Ok(id)) => Some(id),
        Some(Err(())) => {
            return Ready(Reply::invalid(
                INVALID_REQUEST,
                None,
                "the id is neither a string nor an integer",
            ))
        }
    };
    if m.jsonrpc.and_then(string_value).as_deref() != Some("2.0") {
        return Ready(Reply::invalid(
            INVALID_REQUEST,
            id,
            "jsonrpc is not \"2.0\"",
        ));
    }
    let Some(raw_method) = m.method else {
        return Ready(match id {
            // Exactly one of result and error, an object.
            Some(id)
                if m.result.is_some() != m.error.is_some()
                    && m.error.is_none_or(|e| e.first() == Some(&b'{')) =>
            {
                Reply::handed_over(MessageKind::Response, String::new(), id, b"")
            }
            _ => Reply::invalid(INVALID_REQUEST, id, "neither a request nor a response"),
        });
    };
    let Some(method) = string_value(raw_method) else {
        return Ready(Reply::invalid(
            INVALID_REQUEST,
            id,
            "the method is not a string",
        ));
    };
    let params = m.params.unwrap_or_default();
    let Some(id) = id else {
        // A notification: never answered.
        return Ready(match RequestMethod::parse(method.as_bytes()) {
            Some(_) => {
                let mut reply = Reply::new(MessageKind::Notification, true);
                reply.method = method;
                reply
            }
            None => Reply::handed_over(MessageKind::Notification, method, "", params),
        });
    };
    Envelope::Request { method, id, params }
}

/// The reply to the request `method` with `id` and `params`, from what the
/// one-call request made of it.
pub(crate) fn reply_to(
    served: Result<Response, RequestError>,
    method: String,
    id: &str,
    params: &[u8],
) -> Result<Reply, RequestError> {
    let response = match served {
        Ok(response) => response,
        Err(RequestError::MethodNotHandled) => {
            return Ok(Reply::handed_over(MessageKind::Request, method, id, params))
        }
        Err(e) => return Err(e),
    };
    let mut reply = Reply::new(MessageKind::Request, true);
    reply.method = method;
    reply.id = id.to_string();
    reply.partial = response.is_partial();
    let canceled = response
        .failure()
        .is_some_and(|f| f.kind() == FailureKind::Canceled);
    if !canceled {
        let member = if response.is_error() {
            "error"
        } else {
            "result"
        };
        reply.json = response_message(id, member, response.json());
    }
    reply.failure = response.failure().map(|f| {
        // The reply keeps the kind, the safe message and the private
        // cause's text (failures are not Clone: a cause is any error).
        Failure::with_message(f.kind(), f.message().to_string())
            .caused_by(CauseText(f.cause_text()))
    });
    Ok(reply)
}

impl Resources {
    /// Serves one JSON-RPC message (see the module documentation for the
    /// rules). `options` are those of [`Resources::request`]; the
    /// message's params may name a per-request revision in `_meta`, as for
    /// `request`.
    ///
    /// Returns the [`Reply`] (send its [`json`](Reply::json) when it is not
    /// empty; route the message yourself when it is not
    /// [`handled`](Reply::is_handled)), or
    /// [`RequestError::InvalidArgument`] for a host programming error that
    /// `request` reports (a list method without a scope key): then nothing
    /// is to be sent as if it were the client's fault.
    pub fn message(&self, text: &[u8], options: &RequestOptions) -> Result<Reply, RequestError> {
        match envelope(text) {
            Envelope::Ready(reply) => Ok(reply),
            Envelope::Request { method, id, params } => {
                let served = self.request(method.as_bytes(), params, options);
                reply_to(served, method, id, params)
            }
        }
    }
}
