//! One call per message: `mcpr_message`.

use crate::message::Reply;
use crate::request::RequestError;

use super::boundary::mcpr_str;
use super::error::{guard_status, mcpr_error};
use super::handle::{need_out, write_handle};
use super::reply::mcpr_reply;
use super::request::{mcpr_request_options, request_options_of};
use super::resources::mcpr_resources;
use super::status::{mcpr_status, Error};

/// Serves one whole JSON-RPC message, for hosts that parse no JSON: the
/// message text in (one line of a stdio transport, one HTTP body), the
/// whole response message out, with the request's id byte for byte.
///
/// The method and the raw text of `params` go to `mcpr_request`, so a
/// message is answered exactly as `mcpr_request` answers its method and
/// params, and serves whatever `mcpr_request` serves. Around it
/// (docs/BEHAVIOUR.md §17): a message that is not JSON is answered
/// `-32700` "Parse error" with id null; JSON that is no JSON-RPC message
/// (a batch: refused whole; another non-object; a repeated JSON-RPC member;
/// an id that is neither a string nor an integer; `jsonrpc` other than
/// `"2.0"`; a method that is no string; neither a method nor a response;
/// over 16 MiB) is answered `-32600` "Invalid Request", with the id when it
/// is valid; a notification is never answered (one of a method the library
/// serves is ignored); a request the call cancelled gets no response; a
/// message of whitespace only is ignored. A request of a method the library
/// does not serve, any other notification and a client's response are not
/// handled (`mcpr_reply_handled` false): answer them yourself, with
/// `mcpr_reply_method`, `mcpr_reply_id` and `mcpr_reply_params`.
///
/// \param resources A registry reference.
/// \param message The whole message text (UTF-8 JSON; a trailing newline
///   is fine).
/// \param options The options of `mcpr_request` (protocol revision, scope
///   key of the list methods, page size, deadline, cancellation, request
///   data, executor), or NULL for all defaults; read during the call only.
/// \param out Receives the reply on `MCPR_OK`; the caller owns it: free it
///   with `mcpr_reply_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` with a reply (send `mcpr_reply_json` when it is not
///   empty); `MCPR_INVALID_ARGUMENT` for programming errors (NULL
///   `resources` or `out`, a bad string, bad options, a list method without
///   a scope key: nothing is to be sent as if the client were at fault);
///   `MCPR_INTERNAL` for a library failure (answer `-32603`).
/// \pre `resources` is NULL or a live registry reference when the call is
///   made (as for `mcpr_request`).
/// \pre `message` follows the `mcpr_str` rules; `options` is NULL or points
///   at options of `struct_size` readable bytes whose strings follow the
///   `mcpr_str` rules and whose `cancel` and `executor` are NULL or not yet
///   freed; `out` is NULL or points at writable storage for one
///   `mcpr_reply *`; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: many threads may serve one registry at once (one
///   message each); the call holds its own registry reference from entry to
///   return, and with `options->executor` it returns by its deadline
///   whatever a callback does, as `mcpr_request` does.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_message(
    resources: *const mcpr_resources,
    message: mcpr_str,
    options: *const mcpr_request_options,
    out: *mut *mut mcpr_reply,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        let text = unsafe { message.bytes() }?;
        let options = unsafe { request_options_of(options) }?;
        let reply = r.inner.message(text, &options).map_err(message_error)?;
        unsafe { write_handle(out, reply_of(reply)) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// The status of a message that made no reply (a host mistake).
pub(super) fn message_error(e: RequestError) -> Error {
    match e {
        RequestError::InvalidArgument(m) => Error::argument(m),
        // The message entry points hand unserved methods over in their
        // reply; this is never returned.
        RequestError::MethodNotHandled => Error::argument("method not handled"),
    }
}

/// The reply handle of a reply (with its failure's private cause).
pub(super) fn reply_of(reply: Reply) -> mcpr_reply {
    let cause = reply.failure().map(|f| f.cause_text()).unwrap_or_default();
    mcpr_reply {
        inner: reply,
        cause,
    }
}
