//! The asynchronous message (docs/BEHAVIOUR.md §20): the envelope is read
//! on the starting thread (it runs no callback), a request goes to the
//! asynchronous request, and every other reply is handed to the completion
//! by a job of its own, so that the completion runs on an executor thread
//! for every message, as for every asynchronous call.

use std::sync::Arc;

use crate::call::CallOptions;
use crate::error::Failure;
use crate::message::{envelope, options_of, reply_to, Envelope, Reply};
use crate::read::READ_RULES;
use crate::registry::Resources;
use crate::request::{checked_method, RequestError, RequestOptions};

use super::start;
use super::start::{refused_request, start_request, RequestStartError};
use super::OwnedSubject;

impl Resources {
    /// Starts one JSON-RPC message as an asynchronous call (see
    /// [`read_start`](Self::read_start)); `done` receives what
    /// [`message`](Self::message) would return. A list method without a
    /// scope key fails at once, as `message` fails for it; so does a start
    /// without an executor.
    pub fn message_start(
        self: &Arc<Self>,
        text: &[u8],
        options: &RequestOptions,
        done: impl FnOnce(Result<Reply, RequestError>) + Send + 'static,
    ) -> Result<(), RequestStartError> {
        start_message(self.clone(), text, options, done)
    }
}

/// [`Resources::message_start`] for any owner of a registry.
pub(crate) fn start_message<R>(
    registry: Arc<R>,
    text: &[u8],
    options: &RequestOptions,
    then: impl FnOnce(Result<Reply, RequestError>) + Send + 'static,
) -> Result<(), RequestStartError>
where
    R: AsRef<Resources> + Send + Sync + 'static,
{
    let (method, id, params) = match envelope(text) {
        Envelope::Ready(reply) => {
            return start_ready(registry, &options.call, Ok(reply), then)
                .map_err(RequestStartError::Failed)
        }
        Envelope::Request { method, id, params } => (method, id, params),
    };
    // A listen's request id is the message's id, as `message` serves it.
    let options = options_of(&method, id, options);
    let options = options.as_ref();
    match checked_method(method.as_bytes(), options) {
        Ok(_) => {}
        // Handed over to the host, as `message` hands it.
        Err(RequestError::MethodNotHandled) => {
            let reply = reply_to(Err(RequestError::MethodNotHandled), method, id, params);
            return start_ready(registry, &options.call, reply, then)
                .map_err(RequestStartError::Failed);
        }
        Err(e) => {
            let resources = (*registry).as_ref();
            let e = refused_request(resources, method.as_bytes(), options, e);
            return Err(RequestStartError::Request(e));
        }
    }
    let (id_text, kept, name) = (id.to_owned(), params.to_vec(), method.clone());
    start_request(
        registry,
        method.as_bytes(),
        params,
        options,
        move |served| then(reply_to(served, name, &id_text, &kept)),
    )
}

/// An asynchronous call whose outcome `value` is known at its start: its
/// one job hands `value` to `then` on a worker; at its deadline, on
/// cancellation or when the executor refuses it, the watch hands over the
/// same `value` (a message that needs no callback is answered whatever
/// happens to the call, as `Resources::message` answers it).
fn start_ready<R, T>(
    registry: Arc<R>,
    call: &CallOptions,
    value: T,
    then: impl FnOnce(T) + Send + 'static,
) -> Result<(), Failure>
where
    R: AsRef<Resources> + Send + Sync + 'static,
    T: Send + 'static,
{
    let limits = *(*registry).as_ref().limits();
    start(
        registry,
        call,
        &limits,
        None,
        &READ_RULES,
        // A reply that serves no request: no call event (as from
        // `Resources::message`).
        (OwnedSubject::None, false),
        |_: Failure| (),
        move |()| then(value),
        |_: &R, call, _| call.finish(()),
    )
}
