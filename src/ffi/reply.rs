//! The reply handle of `mcpr_message` (`mcpr_reply_*`) and the kinds of
//! message.

use crate::message::{MessageKind, Reply};

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref, Boxed, Handle};
use super::status::mcpr_status;

/// What a message was (`mcpr_reply_kind`). A `uint32_t` with `#define`d
/// values: later versions may add kinds, so treat an unknown one like
/// `MCPR_MESSAGE_INVALID`.
///
/// \ingroup request
pub type mcpr_message_kind = u32;

/// No message: JSON whitespace only (ignored), or a NULL reply.
///
/// \ingroup request
pub const MCPR_MESSAGE_NONE: mcpr_message_kind = 0u32;
/// A request: a method and an id.
///
/// \ingroup request
pub const MCPR_MESSAGE_REQUEST: mcpr_message_kind = 1u32;
/// A notification: a method and no id; never answered.
///
/// \ingroup request
pub const MCPR_MESSAGE_NOTIFICATION: mcpr_message_kind = 2u32;
/// A response: an id and `result` or `error`, no method (the client
/// answering a request of the host's).
///
/// \ingroup request
pub const MCPR_MESSAGE_RESPONSE: mcpr_message_kind = 3u32;
/// Not a JSON-RPC message: answered `-32700` (not JSON) or `-32600`.
///
/// \ingroup request
pub const MCPR_MESSAGE_INVALID: mcpr_message_kind = 4u32;

/// The C value of a kind.
fn kind_value(kind: MessageKind) -> mcpr_message_kind {
    match kind {
        MessageKind::Blank => MCPR_MESSAGE_NONE,
        MessageKind::Request => MCPR_MESSAGE_REQUEST,
        MessageKind::Notification => MCPR_MESSAGE_NOTIFICATION,
        MessageKind::Response => MCPR_MESSAGE_RESPONSE,
        MessageKind::Invalid => MCPR_MESSAGE_INVALID,
    }
}

/// What to do about one message: the response message to send (or none)
/// and, for a message the library did not handle, its method, id and
/// params. Owned by the caller; free with `mcpr_reply_free`. Immutable:
/// safe to read from any thread.
///
/// \ingroup request
pub struct mcpr_reply {
    pub(super) inner: Reply,
    pub(super) cause: String,
}

impl Handle for mcpr_reply {
    type Kind = Boxed;
}

/// The whole JSON-RPC response message to send, as one line of compact
/// JSON without a newline (`{"jsonrpc":"2.0","id":…,"result":…}` or
/// `…"error":…}`), or empty when nothing is to be sent: a notification, a
/// response, a blank message, a cancelled request, and every message not
/// handled (`mcpr_reply_handled` false: answer it yourself).
///
/// \param reply The reply, or NULL.
/// \return The message, borrowed from `reply` (valid until
///   `mcpr_reply_free(reply)`); empty when `reply` is NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe: a reply is immutable; any thread may read it, also
///   concurrently.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_json(reply: *const mcpr_reply) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(reply) }
            .map_or(mcpr_str::empty(), |r| mcpr_str::from_str(r.inner.json()))
    })
}

/// Whether the library dealt with the message: it answered it in
/// `mcpr_reply_json`, or there is nothing to answer (a notification of a
/// method it serves, a cancelled request, a blank or invalid message).
///
/// \param reply The reply, or NULL.
/// \return False when the host must deal with the message: a request or
///   notification of a method the library does not serve (answer a request
///   with its `mcpr_reply_id`, `-32601` when you serve it neither), or a
///   response from the client; false also when `reply` is NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_handled(reply: *const mcpr_reply) -> bool {
    guard(|| unsafe { handle_ref(reply) }.is_some_and(|r| r.inner.is_handled()))
}

/// What the message was.
///
/// \param reply The reply, or NULL.
/// \return `MCPR_MESSAGE_REQUEST`, `MCPR_MESSAGE_NOTIFICATION`,
///   `MCPR_MESSAGE_RESPONSE`, `MCPR_MESSAGE_INVALID`, or `MCPR_MESSAGE_NONE`
///   for a blank message and when `reply` is NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_kind(reply: *const mcpr_reply) -> mcpr_message_kind {
    guard(|| unsafe { handle_ref(reply) }.map_or(MCPR_MESSAGE_NONE, |r| kind_value(r.inner.kind())))
}

/// The method of a request or notification, decoded from its JSON string
/// (`"tools/list"`): compare it byte for byte to route the message.
///
/// \param reply The reply, or NULL.
/// \return The method, borrowed from `reply` (valid until
///   `mcpr_reply_free(reply)`); empty for other messages and when `reply`
///   is NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_method(reply: *const mcpr_reply) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(reply) }
            .map_or(mcpr_str::empty(), |r| mcpr_str::from_str(r.inner.method()))
    })
}

/// The raw JSON text of the message's id, exactly as the client sent it (a
/// string with its quotes and escapes, or an integer): write it as is into
/// your own response (`{"jsonrpc":"2.0","id":<this>,…}`).
///
/// \param reply The reply, or NULL.
/// \return The id text, borrowed from `reply` (valid until
///   `mcpr_reply_free(reply)`); empty for a notification, a message without
///   a valid id, and when `reply` is NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_id(reply: *const mcpr_reply) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(reply) }.map_or(mcpr_str::empty(), |r| mcpr_str::from_str(r.inner.id()))
    })
}

/// The raw text of the `params` of a message the library did not handle,
/// exactly as sent (not necessarily UTF-8: the library did not read it).
///
/// \param reply The reply, or NULL.
/// \return The params text, borrowed from `reply` (valid until
///   `mcpr_reply_free(reply)`); empty when the message had none, for
///   handled messages, and when `reply` is NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_params(reply: *const mcpr_reply) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(reply) }.map_or(mcpr_str::empty(), |r| {
            mcpr_str::from_bytes(r.inner.params())
        })
    })
}

/// The status behind the reply: the failure of an error response (as
/// `mcpr_response_status`), `MCPR_CANCELED` for a cancelled request (which
/// gets no response), `MCPR_INVALID_REQUEST` for an invalid message.
///
/// \param reply The reply, or NULL.
/// \return The status; `MCPR_OK` for a result and for messages without a
///   failure; `MCPR_INVALID_ARGUMENT` when `reply` is NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_status(reply: *const mcpr_reply) -> mcpr_status {
    guard(|| match unsafe { handle_ref(reply) } {
        None => mcpr_status::MCPR_INVALID_ARGUMENT,
        Some(r) => r
            .inner
            .failure()
            .map_or(mcpr_status::MCPR_OK, |f| mcpr_status::of_kind(f.kind())),
    })
}

/// Whether `mcpr_reply_json` is an error response.
///
/// \param reply The reply, or NULL.
/// \return True for an error response; false otherwise (a result, nothing
///   to send) and when `reply` is NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_is_error(reply: *const mcpr_reply) -> bool {
    guard(|| unsafe { handle_ref(reply) }.is_some_and(|r| r.inner.is_error()))
}

/// The private cause behind the reply's failure, for the host's logs only:
/// never send it.
///
/// \param reply The reply, or NULL.
/// \return The cause, borrowed from `reply` (valid until
///   `mcpr_reply_free(reply)`); empty without a failure and when `reply` is
///   NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_cause(reply: *const mcpr_reply) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(reply) }.map_or(mcpr_str::empty(), |r| mcpr_str::from_str(&r.cause))
    })
}

/// Whether the response is a partial `resources/read` bundle.
///
/// \param reply The reply, or NULL.
/// \return True for a partial bundle; false otherwise and when `reply` is
///   NULL.
/// \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
/// \note Thread-safe (see `mcpr_reply_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_is_partial(reply: *const mcpr_reply) -> bool {
    guard(|| unsafe { handle_ref(reply) }.is_some_and(|r| r.inner.is_partial()))
}

/// Frees a reply.
///
/// \param reply The reply to free, or NULL (then nothing happens).
/// \pre `reply` is NULL or a reply from `mcpr_message`, freed only once; no
///   thread uses it (or a string borrowed from it) afterwards.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_reply_free(reply: *mut mcpr_reply) {
    guard(|| unsafe { free_handle(reply) })
}
