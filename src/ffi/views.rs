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
pub struct mcpr_definition {
    _private: [u8; 0],
}

/// The outcome of selection handed to `resolve` (borrowed view, valid until
/// the callback returns; its accessors may be called from any thread while
/// the callback runs).
pub struct mcpr_match {
    _private: [u8; 0],
}

/// A target (URI, representation, private authorization JSON) handed to
/// policy and body-read callbacks (borrowed view, valid until the callback
/// returns; its accessors may be called from any thread while the callback
/// runs).
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

/// The definition's description object as compact JSON (the MCP
/// `Resource` or `ResourceTemplate`). Borrowed from `d`. Empty for NULL.
///
/// # Safety
/// `d` is NULL or a definition view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_json(d: *const mcpr_definition) -> mcpr_str {
    guard(|| unsafe { view_ref(d) }.map_or(mcpr_str::empty(), |d| mcpr_str::from_str(d.json())))
}

/// The `uri` or the `uriTemplate`, exactly as registered. Borrowed from `d`.
///
/// # Safety
/// `d` is NULL or a definition view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_uri(d: *const mcpr_definition) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(d) }.map_or(mcpr_str::empty(), |d| {
            mcpr_str::from_str(d.uri_or_template())
        })
    })
}

/// The definition's `name`. Borrowed from `d`.
///
/// # Safety
/// `d` is NULL or a definition view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_name(d: *const mcpr_definition) -> mcpr_str {
    guard(|| unsafe { view_ref(d) }.map_or(mcpr_str::empty(), |d| mcpr_str::from_str(d.name())))
}

/// Whether the definition is a template (false for NULL).
///
/// # Safety
/// `d` is NULL or a definition view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_is_template(d: *const mcpr_definition) -> bool {
    guard(|| unsafe { view_ref(d) }.is_some_and(|d| d.is_template()))
}

/// The matched definition (borrowed from `m`; NULL for NULL).
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_definition(m: *const mcpr_match) -> *const mcpr_definition {
    guard(|| unsafe { view_ref(m) }.map_or(std::ptr::null(), |m| view_ptr(m.definition())))
}

/// The requested URI, exactly as received. Borrowed from `m`.
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_uri(m: *const mcpr_match) -> mcpr_str {
    guard(|| unsafe { view_ref(m) }.map_or(mcpr_str::empty(), |m| mcpr_str::from_str(m.uri())))
}

/// The number of template captures (0 for exact matches and NULL).
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_count(m: *const mcpr_match) -> usize {
    guard(|| unsafe { view_ref(m) }.map_or(0, |m| m.captures().len()))
}

/// The name of capture `i`, in template order (empty when out of range).
/// Borrowed from `m`.
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_name(m: *const mcpr_match, i: usize) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(m) }
            .and_then(|m| m.captures().get(i))
            .map_or(mcpr_str::empty(), |(n, _)| mcpr_str::from_str(n))
    })
}

/// The decoded value of capture `i` (decoded exactly once; valid UTF-8;
/// never contains `/`, `\`, NUL, nor equals `.` or `..`). Empty when out of
/// range. Borrowed from `m`. Not a filesystem path.
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_value(m: *const mcpr_match, i: usize) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(m) }
            .and_then(|m| m.captures().get(i))
            .map_or(mcpr_str::empty(), |(_, v)| mcpr_str::from_str(v))
    })
}

/// The target URI. Borrowed from `t`.
///
/// # Safety
/// `t` is NULL or a target view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_uri(t: *const mcpr_target) -> mcpr_str {
    guard(|| unsafe { view_ref(t) }.map_or(mcpr_str::empty(), |t| mcpr_str::from_str(t.uri())))
}

/// The representation label (never empty: `"default"` when none was given).
/// Borrowed from `t`.
///
/// # Safety
/// `t` is NULL or a target view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_representation(t: *const mcpr_target) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(t) }.map_or(mcpr_str::empty(), |t| {
            mcpr_str::from_str(t.representation())
        })
    })
}

/// The private authorization JSON, exactly as given (length 0 when none).
/// Borrowed from `t`. Never appears in any result.
///
/// # Safety
/// `t` is NULL or a target view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_authorization(t: *const mcpr_target) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(t) }
            .and_then(|t| t.authorization())
            .map_or(mcpr_str::empty(), mcpr_str::from_str)
    })
}

/// What a `complete` callback is asked (borrowed view, valid until the
/// callback returns; its accessors may be called from any thread while
/// the callback runs).
pub struct mcpr_completion_request {
    _private: [u8; 0],
}

/// The template's definition (borrowed from `q`; NULL for NULL).
///
/// # Safety
/// `q` is NULL or the request view of a `complete` callback that has not
/// returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_definition(
    q: *const mcpr_completion_request,
) -> *const mcpr_definition {
    guard(|| unsafe { view_ref(q) }.map_or(std::ptr::null(), |q| view_ptr(q.definition())))
}

/// The variable being completed (always one of the template's variables).
/// Borrowed from `q`; empty for NULL.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_argument(
    q: *const mcpr_completion_request,
) -> mcpr_str {
    guard(|| unsafe { view_ref(q) }.map_or(mcpr_str::empty(), |q| mcpr_str::from_str(q.argument())))
}

/// The partial value typed so far: client text (UTF-8, at most
/// `max_uri_bytes`, possibly empty), to match candidates against, never a
/// path. Borrowed from `q`; empty for NULL.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_value(
    q: *const mcpr_completion_request,
) -> mcpr_str {
    guard(|| unsafe { view_ref(q) }.map_or(mcpr_str::empty(), |q| mcpr_str::from_str(q.value())))
}

/// The number of other variables already chosen (0 for NULL): only
/// variables of this template other than the argument, with non-empty
/// values that are valid captures, in template order.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_count(
    q: *const mcpr_completion_request,
) -> usize {
    guard(|| unsafe { view_ref(q) }.map_or(0, |q| q.context().len()))
}

/// The name of chosen variable `i` (empty when out of range). Borrowed
/// from `q`.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_name(
    q: *const mcpr_completion_request,
    i: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(q) }
            .and_then(|q| q.context().get(i))
            .map_or(mcpr_str::empty(), |(n, _)| mcpr_str::from_str(n))
    })
}

/// The value of chosen variable `i`, exactly as the client sent it (valid
/// UTF-8; it and its percent-decoding never contain `/`, `\` or NUL, nor
/// equal `.` or `..`). Empty when out of range. Borrowed from `q`.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_value(
    q: *const mcpr_completion_request,
    i: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(q) }
            .and_then(|q| q.context().get(i))
            .map_or(mcpr_str::empty(), |(_, v)| mcpr_str::from_str(v))
    })
}
