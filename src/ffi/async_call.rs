//! Asynchronous calls over the C ABI (`mcpr_*_start`): the completion
//! callback types and the start functions of read, list, list templates,
//! request, complete and message (docs/BEHAVIOUR.md §20). Each converts its inputs
//! as its blocking export does (the same option readers), and hands the
//! core's outcome to the host's done callback as the blocking export would
//! have returned it.

use std::os::raw::c_void;

use crate::asynccall::{
    start_complete, start_list, start_message, start_read, start_request, Inline,
};
use crate::completion::{not_found, CompleteOptions};
use crate::error::Failure;
use crate::registry::Resources;
use crate::RequestStartError;

use super::boundary::mcpr_str;
use super::bundle::mcpr_bundle;
use super::complete::{mcpr_complete_params, params_of};
use super::completion::mcpr_completion;
use super::error::{guard_status, mcpr_error};
use super::handle::{new_handle, Boxed, Handle};
use super::host::{HostPtr, Required};
use super::list::{list_options_of, mcpr_list_options};
use super::message::{message_error, reply_of};
use super::page::mcpr_page;
use super::read::{mcpr_read_options, read_options_of};
use super::reply::mcpr_reply;
use super::request::{mcpr_request_options, request_error, request_options_of, response_of};
use super::resources::{mcpr_resources, resources};
use super::response::mcpr_response;
use super::status::{mcpr_status, Error};

/// Receives the outcome of `mcpr_read_start`, exactly once.
///
/// \param done_data The `done_data` given to `mcpr_read_start`.
/// \param status `MCPR_OK` with a bundle (also for a partial one), or the
///   read's failure (the status `mcpr_read` would have returned).
/// \param bundle On `MCPR_OK` the bundle, owned by the callee: free it with
///   `mcpr_bundle_free`, on any thread, now or later; NULL otherwise.
/// \param error On failure the error object, owned by the callee: free it
///   with `mcpr_error_free`; NULL on `MCPR_OK`.
/// \note Runs on an executor thread (a worker, or the executor's watch
///   thread at the deadline, on cancellation or when the executor is
///   saturated), never inside `mcpr_read_start`, possibly before it
///   returns. Return promptly: the watch thread looks after every
///   asynchronous call of its executor (signal an event loop, resume a
///   continuation, and return). The registry and executor the call holds
///   are let go after it returns.
///
/// \ingroup async
pub type mcpr_read_done_fn = Option<
    unsafe extern "C-unwind" fn(
        done_data: *mut c_void,
        status: mcpr_status,
        bundle: *mut mcpr_bundle,
        error: *mut mcpr_error,
    ),
>;

/// Receives the outcome of `mcpr_list_start` or `mcpr_list_templates_start`,
/// exactly once (as `mcpr_read_done_fn`).
///
/// \param done_data The `done_data` given to the start function.
/// \param status `MCPR_OK` with a page, or the listing's failure.
/// \param page On `MCPR_OK` the page, owned by the callee (free it with
///   `mcpr_page_free`); NULL otherwise.
/// \param error On failure the error object, owned by the callee (free it
///   with `mcpr_error_free`); NULL on `MCPR_OK`.
/// \note Threads and timing as for `mcpr_read_done_fn`.
///
/// \ingroup async
pub type mcpr_list_done_fn = Option<
    unsafe extern "C-unwind" fn(
        done_data: *mut c_void,
        status: mcpr_status,
        page: *mut mcpr_page,
        error: *mut mcpr_error,
    ),
>;

/// Receives the outcome of `mcpr_complete_start`, exactly once (as
/// `mcpr_read_done_fn`).
///
/// \param done_data The `done_data` given to `mcpr_complete_start`.
/// \param status `MCPR_OK` with a completion, or the completion's failure.
/// \param completion On `MCPR_OK` the completion, owned by the callee (free
///   it with `mcpr_completion_free`); NULL otherwise.
/// \param error On failure the error object, owned by the callee (free it
///   with `mcpr_error_free`); NULL on `MCPR_OK`.
/// \note Threads and timing as for `mcpr_read_done_fn`.
///
/// \ingroup async
pub type mcpr_complete_done_fn = Option<
    unsafe extern "C-unwind" fn(
        done_data: *mut c_void,
        status: mcpr_status,
        completion: *mut mcpr_completion,
        error: *mut mcpr_error,
    ),
>;

/// Receives the outcome of `mcpr_request_start`, exactly once (as
/// `mcpr_read_done_fn`).
///
/// \param done_data The `done_data` given to `mcpr_request_start`.
/// \param status `MCPR_OK` with a response to send (a result or an error
///   object, as from `mcpr_request`, including a deadline, a cancellation
///   or a saturated executor), or `MCPR_METHOD_NOT_HANDLED` for a
///   `completion/complete` with a `ref/prompt` reference (no response:
///   answer it with your prompts).
/// \param response On `MCPR_OK` the response, owned by the callee (free it
///   with `mcpr_response_free`); NULL otherwise.
/// \param error Otherwise the error object, owned by the callee (free it
///   with `mcpr_error_free`); NULL on `MCPR_OK`.
/// \note Threads and timing as for `mcpr_read_done_fn`.
///
/// \ingroup async
pub type mcpr_request_done_fn = Option<
    unsafe extern "C-unwind" fn(
        done_data: *mut c_void,
        status: mcpr_status,
        response: *mut mcpr_response,
        error: *mut mcpr_error,
    ),
>;

/// Receives the outcome of `mcpr_message_start`, exactly once (as
/// `mcpr_read_done_fn`).
///
/// \param done_data The `done_data` given to `mcpr_message_start`.
/// \param status `MCPR_OK` with the reply `mcpr_message` would have given
///   (send its `mcpr_reply_json` when it is not empty; route the message
///   yourself when `mcpr_reply_handled` is false).
/// \param reply On `MCPR_OK` the reply, owned by the callee (free it with
///   `mcpr_reply_free`); NULL otherwise.
/// \param error Otherwise the error object, owned by the callee (free it
///   with `mcpr_error_free`); NULL on `MCPR_OK`.
/// \note Threads and timing as for `mcpr_read_done_fn`.
///
/// \ingroup async
pub type mcpr_message_done_fn = Option<
    unsafe extern "C-unwind" fn(
        done_data: *mut c_void,
        status: mcpr_status,
        reply: *mut mcpr_reply,
        error: *mut mcpr_error,
    ),
>;

/// The registry handle owns a registry: an asynchronous call holds the
/// handle's reference until its completion returned.
impl AsRef<Resources> for mcpr_resources {
    fn as_ref(&self) -> &Resources {
        &self.inner
    }
}

/// The three pointers a done callback receives for `outcome`: the status,
/// the result handle (owned by the callee) or NULL, the error object (owned
/// by the callee) or NULL.
fn handed<R: Handle<Kind = Boxed>>(
    outcome: Result<R, Error>,
) -> (mcpr_status, *mut R, *mut mcpr_error) {
    match outcome {
        Ok(r) => (mcpr_status::MCPR_OK, new_handle(r), std::ptr::null_mut()),
        Err(e) => (
            e.status,
            std::ptr::null_mut(),
            new_handle(mcpr_error::from(e)),
        ),
    }
}

/// The error of a start that failed (no executor, the watch thread).
fn start_error(f: Failure) -> Error {
    Error::from(f)
}

/// The done callback, checked: NULL is `MCPR_INVALID_ARGUMENT`.
fn required<F: Copy>(done: Option<F>) -> Result<F, Error> {
    done.ok_or_else(|| Error::argument("the done callback is NULL"))
}

/// Starts `resources/read` of a URI as an asynchronous call: the call
/// returns at once, and `done` runs exactly once with the outcome
/// `mcpr_read` would have returned, on an executor thread, never inside
/// this call.
///
/// An executor is required (`options->executor`): the read runs there as
/// `mcpr_read` runs with one, and every guarantee of that call holds
/// without a waiting thread (the executor's watch thread looks after the
/// deadline and cancellation): `done` runs by the read deadline, and at
/// once on cancellation through `options->cancel`, whatever any callback
/// does; a body read past its item deadline becomes a `timeout` item and
/// the read goes on with the other items. The deadline counts from this
/// call. Every failure of the read (not found, a cancelled token, a
/// saturated executor, ...) is the outcome `done` receives; this call fails
/// only for host mistakes, and then `done` never runs. docs/C-API.md shows
/// how an event loop receives the outcome (a pipe or eventfd written in
/// `done`).
///
/// \param resources A registry reference.
/// \param uri The raw bytes of the request's `params.uri` (copied).
/// \param options The read options (copied; `executor` required).
/// \param done The completion callback (required).
/// \param done_data Handed to `done`, never dereferenced.
/// \param err Receives an error object when the call fails (caller owns
///   it; free with `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` when the read started (`done` will run);
///   `MCPR_INVALID_ARGUMENT` for a NULL `resources` or `done`, no executor,
///   a `(NULL, n > 0)` string, an unknown protocol revision, or options
///   with a bad `struct_size` or unknown set fields; `MCPR_READ_FAILED`
///   when the executor's watch thread could not start. `done` never runs
///   on failure.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made (as for `mcpr_read`); `uri` follows the `mcpr_str` rules;
///   `options` is NULL or points at options of `struct_size` readable bytes
///   whose `cancel` and `executor` are NULL or not yet freed and whose
///   `protocol_revision` follows the `mcpr_str` rules; `err` is NULL or
///   points at writable storage for one `mcpr_error *`.
/// \post The call holds its own registry and executor references until
///   `done` has returned: the host may free the registry, the executor and
///   the token as soon as this call returns, with calls in flight; the
///   `release` callbacks then run after `done` returned (or when an
///   abandoned callback returns).
/// \note Thread-safe: any thread may start calls, also concurrently.
///
/// \ingroup async
#[no_mangle]
pub unsafe extern "C" fn mcpr_read_start(
    resources: *const mcpr_resources,
    uri: mcpr_str,
    options: *const mcpr_read_options,
    done: mcpr_read_done_fn,
    done_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { self::resources(resources) }?;
        let done: Required<mcpr_read_done_fn> = required(done)?;
        // SAFETY: `uri` follows the `mcpr_str` rules.
        let uri = unsafe { uri.bytes() }?;
        // SAFETY: `options` is NULL or points at options (caller's guarantee).
        let options = unsafe { read_options_of(options) }?;
        let revision = options.call.protocol_revision;
        // Inline (the call is one allocation): for a not-found error's URI.
        let named = Inline::from_slice(uri);
        let data = HostPtr(done_data);
        let then = move |read: Result<_, Failure>| {
            let outcome = read
                .map(|inner| mcpr_bundle { inner })
                .map_err(|f| Error::of_request(f, revision, std::str::from_utf8(&named).ok()));
            let (status, bundle, error) = handed(outcome);
            let data = data;
            // SAFETY: the host's callback with its `done_data` and handles
            // the library made, each handed over once.
            unsafe { done(data.0, status, bundle, error) }
        };
        start_read(r, uri, &options, then).map_err(start_error)
    };
    unsafe { guard_status(err, body) }
}

/// # Safety
/// As for `mcpr_list_start`.
unsafe fn list_start_with(
    resources: *const mcpr_resources,
    options: *const mcpr_list_options,
    done: mcpr_list_done_fn,
    done_data: *mut c_void,
    err: *mut *mut mcpr_error,
    templates: bool,
) -> mcpr_status {
    let body = || {
        let r = unsafe { self::resources(resources) }?;
        let done: Required<mcpr_list_done_fn> = required(done)?;
        // SAFETY: as for `mcpr_list_start` (caller's guarantee).
        let options = unsafe { list_options_of(options) }?;
        let revision = options.call.protocol_revision;
        let data = HostPtr(done_data);
        let then = move |page: Result<_, Failure>| {
            let outcome = page
                .map(|inner| mcpr_page { inner })
                .map_err(|f| Error::of_request(f, revision, None));
            let (status, page, error) = handed(outcome);
            let data = data;
            // SAFETY: the host's callback with its `done_data` and handles
            // the library made, each handed over once.
            unsafe { done(data.0, status, page, error) }
        };
        start_list(r, templates, &options, then).map_err(start_error)
    };
    unsafe { guard_status(err, body) }
}

/// Starts one page of `resources/list` as an asynchronous call: returns at
/// once, and `done` runs exactly once with the outcome `mcpr_list` would
/// have returned (same rules as `mcpr_read_start`: an executor is
/// required, `done` runs on an executor thread by the deadline and at once
/// on cancellation, and only host mistakes fail this call).
///
/// \param resources A registry reference.
/// \param options The list options (required, copied; `executor` required,
///   non-empty `scope_key`).
/// \param done The completion callback (required).
/// \param done_data Handed to `done`, never dereferenced.
/// \param err Receives an error object when the call fails (caller owns
///   it; free with `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` when the listing started; `MCPR_INVALID_ARGUMENT` for
///   a NULL `resources`, `options` or `done`, no executor, an empty scope
///   key, a bad string, an unknown protocol revision or bad options;
///   `MCPR_POLICY` when the executor's watch thread could not start. `done`
///   never runs on failure.
/// \pre As for `mcpr_list`, without `out`.
/// \post As for `mcpr_read_start`.
/// \note Thread-safe, as `mcpr_read_start`.
///
/// \ingroup async
#[no_mangle]
pub unsafe extern "C" fn mcpr_list_start(
    resources: *const mcpr_resources,
    options: *const mcpr_list_options,
    done: mcpr_list_done_fn,
    done_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    unsafe { list_start_with(resources, options, done, done_data, err, false) }
}

/// Starts one page of `resources/templates/list` as an asynchronous call
/// (as `mcpr_list_start`; `done` receives what `mcpr_list_templates` would
/// have returned).
///
/// \param resources A registry reference.
/// \param options The list options (required, copied).
/// \param done The completion callback (required).
/// \param done_data Handed to `done`, never dereferenced.
/// \param err Receives an error object when the call fails; may be NULL.
/// \return As for `mcpr_list_start`.
/// \pre As for `mcpr_list_start`.
/// \post As for `mcpr_read_start`.
/// \note Thread-safe, as `mcpr_read_start`.
///
/// \ingroup async
#[no_mangle]
pub unsafe extern "C" fn mcpr_list_templates_start(
    resources: *const mcpr_resources,
    options: *const mcpr_list_options,
    done: mcpr_list_done_fn,
    done_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    unsafe { list_start_with(resources, options, done, done_data, err, true) }
}

/// Starts `completion/complete` (`ref/resource`) as an asynchronous call:
/// returns at once, and `done` runs exactly once with the outcome
/// `mcpr_complete` would have returned (same rules as `mcpr_read_start`).
///
/// \param resources A registry reference.
/// \param params The client's completion input (copied).
/// \param options Read options (copied; `executor` required).
/// \param done The completion callback (required).
/// \param done_data Handed to `done`, never dereferenced.
/// \param err Receives an error object when the call fails (caller owns
///   it; free with `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` when the completion started; `MCPR_INVALID_ARGUMENT`
///   for a NULL `resources`, `params` or `done`, no executor, a bad string,
///   a NULL `context` with a non-zero `context_len`, an unknown protocol
///   revision or bad options; `MCPR_INVALID_REQUEST` for an argument or
///   context that is not UTF-8 (as from `mcpr_complete`); `MCPR_READ_FAILED`
///   when the executor's watch thread could not start. `done` never runs on
///   failure.
/// \pre As for `mcpr_complete`, without `out`.
/// \post As for `mcpr_read_start`.
/// \note Thread-safe, as `mcpr_read_start`.
///
/// \ingroup async
#[no_mangle]
pub unsafe extern "C" fn mcpr_complete_start(
    resources: *const mcpr_resources,
    params: *const mcpr_complete_params,
    options: *const mcpr_read_options,
    done: mcpr_complete_done_fn,
    done_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { self::resources(resources) }?;
        let done: Required<mcpr_complete_done_fn> = required(done)?;
        // SAFETY: `params` is NULL or points at params (caller's guarantee).
        let (params, utf8) = unsafe { params_of(params) }?;
        // SAFETY: `options` is NULL or points at options (caller's guarantee).
        let options = CompleteOptions {
            call: unsafe { read_options_of(options) }?.call,
        };
        let revision = options.call.protocol_revision;
        // A template that is not UTF-8 is left empty (never registered):
        // not found, and not echoed in `data.uri`.
        let named = utf8.then(|| params.template.clone());
        let data = HostPtr(done_data);
        let then = move |result: Result<_, Failure>| {
            let outcome = result
                .map(|inner| mcpr_completion { inner })
                .map_err(|f| match &named {
                    Some(t) => Error::of_request(f, revision, Some(t)),
                    None => Error::of_request(not_found(), revision, None),
                });
            let (status, completion, error) = handed(outcome);
            let data = data;
            // SAFETY: the host's callback with its `done_data` and handles
            // the library made, each handed over once.
            unsafe { done(data.0, status, completion, error) }
        };
        start_complete(r, &params, &options, then).map_err(start_error)
    };
    unsafe { guard_status(err, body) }
}

/// Starts one MCP request by method name as an asynchronous call: returns
/// at once, and `done` runs exactly once with the response `mcpr_request`
/// would have returned (same rules as `mcpr_read_start`). A method this
/// library does not serve is known from its name and fails this call with
/// `MCPR_METHOD_NOT_HANDLED`; a `completion/complete` with a `ref/prompt`
/// reference (known once its params are read) reaches `done` as
/// `MCPR_METHOD_NOT_HANDLED`. A deadline, a cancellation or a saturated
/// executor is an error response, as from `mcpr_request`.
///
/// \param resources A registry reference.
/// \param method The JSON-RPC method name (copied).
/// \param params_json The raw text of the request's `params` (copied);
///   `{NULL, 0}` when the request had none.
/// \param options The request options (copied; `executor` required).
/// \param done The completion callback (required).
/// \param done_data Handed to `done`, never dereferenced.
/// \param err Receives an error object when the call fails (caller owns
///   it; free with `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` when the request started; `MCPR_METHOD_NOT_HANDLED`
///   for a method name this library does not serve; `MCPR_INVALID_ARGUMENT`
///   for a NULL `resources` or `done`, no executor, bad strings, an unknown
///   `protocol_revision` option, an empty scope key for a list method, or
///   bad options; the method's saturation status (`MCPR_READ_FAILED`,
///   `MCPR_POLICY`) when the executor's watch thread could not start.
///   `done` never runs on failure.
/// \pre As for `mcpr_request`, without `out`.
/// \post As for `mcpr_read_start`.
/// \note Thread-safe, as `mcpr_read_start`.
///
/// \ingroup async
#[no_mangle]
pub unsafe extern "C" fn mcpr_request_start(
    resources: *const mcpr_resources,
    method: mcpr_str,
    params_json: mcpr_str,
    options: *const mcpr_request_options,
    done: mcpr_request_done_fn,
    done_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { self::resources(resources) }?;
        let done: Required<mcpr_request_done_fn> = required(done)?;
        // SAFETY: both strings follow the `mcpr_str` rules.
        let (method, params) = unsafe { (method.bytes()?, params_json.bytes()?) };
        // SAFETY: as for `mcpr_request_start` (caller's guarantee).
        let options = unsafe { request_options_of(options) }?;
        let data = HostPtr(done_data);
        let then = move |outcome: Result<_, _>| {
            let outcome = outcome.map(response_of).map_err(request_error);
            let (status, response, error) = handed(outcome);
            let data = data;
            // SAFETY: the host's callback with its `done_data` and handles
            // the library made, each handed over once.
            unsafe { done(data.0, status, response, error) }
        };
        start_request(r, method, params, &options, then).map_err(|e| match e {
            RequestStartError::Request(e) => request_error(e),
            RequestStartError::Failed(f) => start_error(f),
        })
    };
    unsafe { guard_status(err, body) }
}

/// Starts one whole JSON-RPC message as an asynchronous call: returns at
/// once, and `done` runs exactly once with the reply `mcpr_message` would
/// have given (same rules as `mcpr_read_start`). The envelope is read
/// during this call (it runs no callback); a request the library serves
/// then runs as `mcpr_request_start` runs it, and every other message
/// (invalid, a notification, a client's response, a method the library
/// does not serve: `mcpr_reply_handled` false) is answered through `done`
/// as well, on an executor thread, whatever the deadline or cancellation
/// (as `mcpr_message` answers it). A request the call cancelled gets a
/// reply with nothing to send.
///
/// \param resources A registry reference.
/// \param message The whole message text (copied as far as needed).
/// \param options The options of `mcpr_request` (copied; `executor`
///   required).
/// \param done The completion callback (required).
/// \param done_data Handed to `done`, never dereferenced.
/// \param err Receives an error object when the call fails (caller owns
///   it; free with `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` when the message started; `MCPR_INVALID_ARGUMENT` for
///   a NULL `resources` or `done`, no executor, a bad string, bad options,
///   or a list method without a scope key (as `mcpr_message`); the
///   method's saturation status when the executor's watch thread could not
///   start. `done` never runs on failure.
/// \pre As for `mcpr_message`, without `out`.
/// \post As for `mcpr_read_start`.
/// \note Thread-safe, as `mcpr_read_start`.
///
/// \ingroup async
#[no_mangle]
pub unsafe extern "C" fn mcpr_message_start(
    resources: *const mcpr_resources,
    message: mcpr_str,
    options: *const mcpr_request_options,
    done: mcpr_message_done_fn,
    done_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { self::resources(resources) }?;
        let done: Required<mcpr_message_done_fn> = required(done)?;
        // SAFETY: the string follows the `mcpr_str` rules.
        let text = unsafe { message.bytes() }?;
        // SAFETY: as for `mcpr_message` (caller's guarantee).
        let options = unsafe { request_options_of(options) }?;
        let data = HostPtr(done_data);
        let then = move |outcome: Result<_, _>| {
            let outcome = outcome.map(reply_of).map_err(message_error);
            let (status, reply, error) = handed(outcome);
            let data = data;
            // SAFETY: the host's callback with its `done_data` and handles
            // the library made, each handed over once.
            unsafe { done(data.0, status, reply, error) }
        };
        start_message(r, text, &options, then).map_err(|e| match e {
            RequestStartError::Request(e) => message_error(e),
            RequestStartError::Failed(f) => start_error(f),
        })
    };
    unsafe { guard_status(err, body) }
}
