//! Borrowed views callbacks receive: definitions, matches, targets
//! (`mcpr_definition_*`, `mcpr_match_*`, `mcpr_target_*`) and completion
//! requests (`mcpr_completion_request_*`).

use crate::completion::CompletionRequest;
use crate::plan::{ResourceMatch, ResourceTarget};
use crate::registry::ResourceDefinition;

use super::boundary::{guard, mcpr_str};
use super::handle::{view_ptr, view_ref, View};

/// A registered definition (borrowed view, valid until the callback returns;
/// its accessors may be called from any thread while the callback runs).
///
/// \ingroup views
pub struct mcpr_definition {
    _private: [u8; 0],
}

/// The outcome of selection handed to `resolve` (borrowed view, valid until
/// the callback returns; its accessors may be called from any thread while
/// the callback runs).
///
/// \ingroup views
pub struct mcpr_match {
    _private: [u8; 0],
}

/// A target (URI, representation, private authorization JSON) handed to
/// policy and body-read callbacks (borrowed view, valid until the callback
/// returns; its accessors may be called from any thread while the callback
/// runs).
///
/// \ingroup views
pub struct mcpr_target {
    _private: [u8; 0],
}

// SAFETY: `mcpr_definition` pointers are only made by `view_ptr`.
unsafe impl View for mcpr_definition {
    type Core = ResourceDefinition;
}
// SAFETY: `mcpr_match` pointers are only made by `view_ptr`.
unsafe impl View for mcpr_match {
    type Core = ResourceMatch;
}
// SAFETY: `mcpr_target` pointers are only made by `view_ptr`.
unsafe impl View for mcpr_target {
    type Core = ResourceTarget;
}
// SAFETY: `mcpr_completion_request` pointers are only made by `view_ptr`.
unsafe impl View for mcpr_completion_request {
    type Core = CompletionRequest;
}

/// The definition's description object as compact JSON (the MCP `Resource`
/// or `ResourceTemplate`).
///
/// \param definition The definition view, or NULL.
/// \return The JSON, borrowed from `definition` (valid until the callback
///   returns); empty when `definition` is NULL.
/// \pre `definition` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_json(definition: *const mcpr_definition) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(definition) }.map_or(mcpr_str::empty(), |definition| {
            mcpr_str::from_str(definition.json())
        })
    })
}

/// The definition's `uri` or `uriTemplate`, exactly as registered.
///
/// \param definition The definition view, or NULL.
/// \return The URI or template, borrowed from `definition` (valid until the
///   callback returns); empty when `definition` is NULL.
/// \pre `definition` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_uri(definition: *const mcpr_definition) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(definition) }.map_or(mcpr_str::empty(), |definition| {
            mcpr_str::from_str(definition.uri_or_template())
        })
    })
}

/// The definition's `name`.
///
/// \param definition The definition view, or NULL.
/// \return The name, borrowed from `definition` (valid until the callback
///   returns); empty when `definition` is NULL.
/// \pre `definition` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_name(definition: *const mcpr_definition) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(definition) }.map_or(mcpr_str::empty(), |definition| {
            mcpr_str::from_str(definition.name())
        })
    })
}

/// Whether the definition is a template (`uriTemplate`) rather than an exact
/// URI.
///
/// \param definition The definition view, or NULL.
/// \return True for a template; false for an exact URI and when `definition`
///   is NULL.
/// \pre `definition` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_is_template(definition: *const mcpr_definition) -> bool {
    guard(|| unsafe { view_ref(definition) }.is_some_and(|definition| definition.is_template()))
}

/// The definition the requested URI matched.
///
/// \param match The match view, or NULL.
/// \return The definition view, borrowed from `match` (valid until the
///   callback returns); NULL when `match` is NULL.
/// \pre `match` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_definition(
    r#match: *const mcpr_match,
) -> *const mcpr_definition {
    guard(|| unsafe { view_ref(r#match) }.map_or(std::ptr::null(), |m| view_ptr(m.definition())))
}

/// The requested URI, exactly as received.
///
/// \param match The match view, or NULL.
/// \return The URI, borrowed from `match` (valid until the callback returns);
///   empty when `match` is NULL.
/// \pre `match` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_uri(r#match: *const mcpr_match) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(r#match) }.map_or(mcpr_str::empty(), |m| mcpr_str::from_str(m.uri()))
    })
}

/// The number of template captures.
///
/// \param match The match view, or NULL.
/// \return The count; 0 for an exact-URI match and when `match` is NULL.
/// \pre `match` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_count(r#match: *const mcpr_match) -> usize {
    guard(|| unsafe { view_ref(r#match) }.map_or(0, |m| m.captures().len()))
}

/// The name of a template capture, in template order.
///
/// \param match The match view, or NULL.
/// \param index The capture's position, from 0 to
///   `mcpr_match_capture_count(match) - 1`.
/// \return The variable name, borrowed from `match` (valid until the callback
///   returns); empty when `index` is out of range or `match` is NULL.
/// \pre `match` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_name(
    r#match: *const mcpr_match,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(r#match) }
            .and_then(|m| m.captures().get(index))
            .map_or(mcpr_str::empty(), |(n, _)| mcpr_str::from_str(n))
    })
}

/// The decoded value of a template capture, percent-decoded exactly once. It
/// is valid UTF-8, never contains `/`, a backslash or NUL, and is never `.`
/// or `..`; it is not a filesystem path.
///
/// \param match The match view, or NULL.
/// \param index The capture's position, from 0 to
///   `mcpr_match_capture_count(match) - 1`.
/// \return The value, borrowed from `match` (valid until the callback
///   returns); empty when `index` is out of range or `match` is NULL.
/// \pre `match` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_value(
    r#match: *const mcpr_match,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(r#match) }
            .and_then(|m| m.captures().get(index))
            .map_or(mcpr_str::empty(), |(_, v)| mcpr_str::from_str(v))
    })
}

/// The target's URI.
///
/// \param target The target view, or NULL.
/// \return The URI, borrowed from `target` (valid until the callback
///   returns); empty when `target` is NULL.
/// \pre `target` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_uri(target: *const mcpr_target) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(target) }
            .map_or(mcpr_str::empty(), |target| mcpr_str::from_str(target.uri()))
    })
}

/// The target's representation label: never empty (`"default"` when the plan
/// gave none).
///
/// \param target The target view, or NULL.
/// \return The label, borrowed from `target` (valid until the callback
///   returns); empty only when `target` is NULL.
/// \pre `target` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_representation(target: *const mcpr_target) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(target) }.map_or(mcpr_str::empty(), |target| {
            mcpr_str::from_str(target.representation())
        })
    })
}

/// The target's private authorization JSON, exactly as the plan gave it.
/// Never appears in any result.
///
/// \param target The target view, or NULL.
/// \return The JSON, borrowed from `target` (valid until the callback
///   returns); length 0 when there is none and when `target` is NULL.
/// \pre `target` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_authorization(target: *const mcpr_target) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(target) }
            .and_then(|target| target.authorization())
            .map_or(mcpr_str::empty(), mcpr_str::from_str)
    })
}

/// What a `complete` callback is asked (borrowed view, valid until the
/// callback returns; its accessors may be called from any thread while
/// the callback runs).
///
/// \ingroup views
pub struct mcpr_completion_request {
    _private: [u8; 0],
}

/// The template's definition.
///
/// \param request The request view of a `complete` callback, or NULL.
/// \return The definition view, borrowed from `request` (valid until the
///   callback returns); NULL when `request` is NULL.
/// \pre `request` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_definition(
    request: *const mcpr_completion_request,
) -> *const mcpr_definition {
    guard(|| {
        unsafe { view_ref(request) }
            .map_or(std::ptr::null(), |request| view_ptr(request.definition()))
    })
}

/// The name of the variable being completed (always one of the template's
/// variables).
///
/// \param request The request view of a `complete` callback, or NULL.
/// \return The name, borrowed from `request` (valid until the callback
///   returns); empty when `request` is NULL.
/// \pre `request` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_argument(
    request: *const mcpr_completion_request,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(request) }.map_or(mcpr_str::empty(), |request| {
            mcpr_str::from_str(request.argument())
        })
    })
}

/// The partial value typed so far: client text (UTF-8, at most
/// `max_uri_bytes`, possibly empty) to match candidates against, never a
/// path.
///
/// \param request The request view of a `complete` callback, or NULL.
/// \return The value, borrowed from `request` (valid until the callback
///   returns); empty when `request` is NULL.
/// \pre `request` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_value(
    request: *const mcpr_completion_request,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(request) }.map_or(mcpr_str::empty(), |request| {
            mcpr_str::from_str(request.value())
        })
    })
}

/// The number of other variables already chosen: only variables of this
/// template other than the argument, with non-empty values that are valid
/// captures, in template order.
///
/// \param request The request view of a `complete` callback, or NULL.
/// \return The count; 0 when `request` is NULL.
/// \pre `request` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_count(
    request: *const mcpr_completion_request,
) -> usize {
    guard(|| unsafe { view_ref(request) }.map_or(0, |request| request.context().len()))
}

/// The name of a chosen variable.
///
/// \param request The request view of a `complete` callback, or NULL.
/// \param index The entry's position, from 0 to
///   `mcpr_completion_request_context_count(request) - 1`.
/// \return The name, borrowed from `request` (valid until the callback
///   returns); empty when `index` is out of range or `request` is NULL.
/// \pre `request` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_name(
    request: *const mcpr_completion_request,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(request) }
            .and_then(|request| request.context().get(index))
            .map_or(mcpr_str::empty(), |(n, _)| mcpr_str::from_str(n))
    })
}

/// The value of a chosen variable, exactly as the client sent it. It is
/// valid UTF-8, and neither it nor its percent-decoding contains `/`, a
/// backslash or NUL or equals `.` or `..`.
///
/// \param request The request view of a `complete` callback, or NULL.
/// \param index The entry's position, from 0 to
///   `mcpr_completion_request_context_count(request) - 1`.
/// \return The value, borrowed from `request` (valid until the callback
///   returns); empty when `index` is out of range or `request` is NULL.
/// \pre `request` is NULL or a view the library passed to a callback (or got
///   from it) that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup views
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_value(
    request: *const mcpr_completion_request,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(request) }
            .and_then(|request| request.context().get(index))
            .map_or(mcpr_str::empty(), |(_, v)| mcpr_str::from_str(v))
    })
}
