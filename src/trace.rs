//! The trace context of a request (docs/BEHAVIOUR.md §14): the
//! OpenTelemetry members MCP reserves in a request's `params._meta`,
//! `traceparent`, `tracestate` and `baggage` (W3C Trace Context and W3C
//! Baggage), handed to every callback of the call through its call
//! context, so that host code can join the client's trace.
//!
//! The library does not interpret them: a member that is a JSON string of
//! at most [`MAX_TRACE_VALUE_BYTES`] is handed exactly as sent (decoded
//! from JSON); any other value is left out, as W3C asks a receiver to
//! ignore a header it cannot use, and never fails the request.

/// The longest trace member value handed to callbacks (W3C Baggage's
/// limit for the whole header; `traceparent` is 55 bytes and `tracestate`
/// at most 512 in valid use).
///
/// cbindgen:ignore
pub const MAX_TRACE_VALUE_BYTES: usize = 8192;

/// The trace context members of one request, each as sent.
///
/// cbindgen:ignore
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceContext {
    traceparent: Option<Box<str>>,
    tracestate: Option<Box<str>>,
    baggage: Option<Box<str>>,
}

fn bounded(value: Option<&str>) -> Option<Box<str>> {
    value
        .filter(|v| v.len() <= MAX_TRACE_VALUE_BYTES)
        .map(Box::from)
}

impl TraceContext {
    /// A trace context of these members; a value longer than
    /// [`MAX_TRACE_VALUE_BYTES`] is left out.
    pub fn new(traceparent: Option<&str>, tracestate: Option<&str>, baggage: Option<&str>) -> Self {
        TraceContext {
            traceparent: bounded(traceparent),
            tracestate: bounded(tracestate),
            baggage: bounded(baggage),
        }
    }

    /// `traceparent`, as sent.
    pub fn traceparent(&self) -> Option<&str> {
        self.traceparent.as_deref()
    }

    /// `tracestate`, as sent.
    pub fn tracestate(&self) -> Option<&str> {
        self.tracestate.as_deref()
    }

    /// `baggage`, as sent.
    pub fn baggage(&self) -> Option<&str> {
        self.baggage.as_deref()
    }

    /// Whether no member is present.
    pub fn is_empty(&self) -> bool {
        self.traceparent.is_none() && self.tracestate.is_none() && self.baggage.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_kept_as_sent_within_the_bound() {
        let tp = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
        let t = TraceContext::new(Some(tp), Some("vendor=x"), None);
        assert_eq!(t.traceparent(), Some(tp));
        assert_eq!(t.tracestate(), Some("vendor=x"));
        assert_eq!(t.baggage(), None);
        assert!(!t.is_empty());
        let long = "b".repeat(MAX_TRACE_VALUE_BYTES + 1);
        let fits = "b".repeat(MAX_TRACE_VALUE_BYTES);
        let t = TraceContext::new(None, None, Some(&long));
        assert!(t.is_empty());
        let t = TraceContext::new(None, None, Some(&fits));
        assert_eq!(t.baggage(), Some(fits.as_str()));
    }
}
