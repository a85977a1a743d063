package mcpresources

// #include "shim.h"
import "C"

import "context"

// TraceContext is the trace context of the request a callback serves: the
// traceparent, tracestate and baggage members (W3C Trace Context and W3C
// Baggage) of the request's params _meta, each exactly as the client sent
// it (the library does not interpret them; a member that is not a string
// of at most 8 KiB is left out). Empty fields are absent members.
type TraceContext struct {
	Traceparent string
	Tracestate  string
	Baggage     string
}

// TraceContextOf is the trace context of the request served by the
// callback whose ctx this is (the context the library hands a Policy,
// Binding or Completer method); ok is false when the request carried none,
// when ctx is not a callback's context, and once the callback returned.
func TraceContextOf(ctx context.Context) (tc TraceContext, ok bool) {
	cs, isCall := ctx.(*callState)
	if !isCall {
		return TraceContext{}, false
	}
	cs.live(func() {
		tc = TraceContext{
			Traceparent: goString(C.mcpr_call_traceparent(cs.call)),
			Tracestate:  goString(C.mcpr_call_tracestate(cs.call)),
			Baggage:     goString(C.mcpr_call_baggage(cs.call)),
		}
	})
	return tc, tc != TraceContext{}
}
