package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// RequestOptions are the options of Request (nil = defaults; the list
// methods then fail: they need a scope key).
type RequestOptions struct {
	// Revision is the protocol revision negotiated with the client ("" =
	// the newest). A known revision in the request's
	// params._meta["io.modelcontextprotocol/protocolVersion"] wins.
	Revision string
	// ScopeKey is the caller scope of resources/list and
	// resources/templates/list (required for them; cursors are bound to it).
	ScopeKey string
	// PageSize of the list methods (0 = the registry's default).
	PageSize int
	// Executor runs the body reads of resources/read.
	Executor *Executor
	// ResultMeta is merged into the _meta of every result (never into an
	// error object) after the library's own members (nil = none): put the
	// server's io.modelcontextprotocol/serverInfo here.
	ResultMeta *ResultMeta
	// Trace is the request's trace context when the host read it itself
	// (as in ReadOptions); trace members in the request's params _meta
	// take its place.
	Trace TraceContext
	// ResourceTools: Request also serves tools/call for the resource
	// tools (as CallResourceTool does); any other tool stays
	// ErrMethodNotHandled. False: tools/call is not handled at all.
	ResourceTools bool
	// ClientCapabilities is the client's ClientCapabilities JSON as known
	// from initialize, for a resources/read whose callback asks for input
	// (nil = nothing declared); the params' _meta clientCapabilities wins.
	ClientCapabilities []byte
	// RequestID is the request's JSON-RPC id as JSON (subscriptions/listen
	// needs it: it names the stream).
	RequestID json.RawMessage
	// HostNotifications are the tool and prompt list changes the host
	// delivers itself on a listen stream (NotifyToolsListChanged,
	// NotifyPromptsListChanged).
	HostNotifications NotificationTypes
}

// Response is the answer to one request: a JSON-RPC result or error object.
type Response struct {
	// JSON is the "result" object when IsError is false, the "error"
	// object when it is true.
	JSON []byte
	// IsError tells which member of the JSON-RPC response JSON goes under.
	IsError bool
	// Status is the status behind an error response (StatusOK for a result).
	Status Status
	// Partial: a resources/read result whose first item is the warning.
	Partial bool
	// InputRequired: a resources/read InputRequiredResult (the client
	// retries with its inputResponses and the requestState).
	InputRequired bool
	// IsNotification: JSON is a complete notification message to send as
	// it is (a subscriptions/listen acknowledgement), not a result.
	IsNotification bool
	// Subscription is what to record after a successful resources/subscribe,
	// resources/unsubscribe or subscriptions/listen (nil otherwise).
	Subscription *Subscription
	cause        string
}

// Cause is the private cause behind an error response (for logs only).
func (r Response) Cause() string { return r.cause }

// Request serves one MCP request in one call: method is the JSON-RPC method
// and params the raw text of its params (nil when the request had none).
// It serves resources/read, resources/list, resources/templates/list,
// completion/complete (with a ref/resource reference),
// resources/subscribe, resources/unsubscribe and subscriptions/listen
// (docs/BEHAVIOUR.md §15; the decision to record is Response.Subscription)
// and, with opt.ResourceTools, tools/call for the resource tools.
// Client mistakes (malformed params, unknown URIs, bad cursors, an unknown
// per-request revision) and failures of the call are error Responses, to
// send like results. An error return means no response: StatusMethodNotHandled
// (errors.Is(err, ErrMethodNotHandled)) for any other method,
// StatusInvalidArgument for programming errors. ctx maps onto the call's
// deadline and cancellation as for Read; a request the client cancelled
// gets no response at all in MCP, so drop the Response after cancelling.
func (r *Resources) Request(ctx context.Context, method string, params []byte, opt *RequestOptions) (Response, error) {
	if r == nil || !r.ref.acquire() {
		return Response{}, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o RequestOptions
	if opt != nil {
		o = *opt
	}
	if o.PageSize < 0 || o.PageSize > 1<<31 {
		return Response{}, argumentError("mcpresources: page size out of range")
	}
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return Response{}, err
	}
	defer release()
	env, err := begin(ctx)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return Response{JSON: e.JSONRPC, IsError: true, Status: e.Status}, nil
		}
		return Response{}, err
	}
	defer env.end()
	var res C.mcprgo_request_result
	st := C.mcprgo_request(r.r, cstr(method), cbytes(params), cstr(o.ScopeKey), C.uint32_t(o.PageSize),
		C.bool(o.ResourceTools), cbytes(o.ClientCapabilities), cbytes(o.RequestID),
		C.uint32_t(o.HostNotifications), env.fields(callFields{o.Revision, ex, meta, o.Trace}), &res)
	if st != C.MCPR_OK {
		return Response{}, takeError(res.err, st)
	}
	return env.responseOf(&res), nil
}

// responseOf copies a request's response out of its result (the C
// response is freed here); a context deadline is the deadline error even
// when the token's cancellation won the race against the library's timer.
func (env *callEnv) responseOf(res *C.mcprgo_request_result) Response {
	out := Response{
		JSON:    goBytes(res.json),
		IsError: bool(res.is_error),
		Status:  Status(res.status),
		Partial: bool(res.partial),
		cause:   goString(res.cause),

		InputRequired:  bool(res.input_required),
		IsNotification: bool(res.is_notification),
		Subscription:   subscriptionOf(res.subscription),
	}
	C.mcpr_response_free(res.response)
	if out.IsError && out.Status == StatusCanceled && deadlinePassed(env.ctx) {
		e := ownError(StatusDeadlineExceeded, deadlineExceededMessage, out.cause)
		out.JSON, out.Status = e.JSONRPC, e.Status
	}
	return out
}

// CacheHints are cache hints a host declares for a binding
// (Builder.AddWithHints) or for one item (Payload.SetCacheHints). They
// shape the ttlMs and cacheScope of 2026-07-28 results.
type CacheHints struct {
	// TTL: how long a result made of this content may be considered fresh
	// (0 = immediately stale; rounded down to milliseconds).
	TTL time.Duration
	// CallerIndependent: the content is the same whoever asks. A result is
	// "public" only when this and the registry's policy declaration are
	// both true and the policy filtered nothing.
	CallerIndependent bool
}

func ttlMillis(d time.Duration) (uint64, error) {
	if d < 0 {
		return 0, argumentError("mcpresources: negative TTL")
	}
	return uint64(d / time.Millisecond), nil
}

// SetCacheHints declares the registry's cache hints: ttl is the TTL of list
// pages and of reads through bindings added without their own hints;
// policyCallerIndependent says that the policy decides the same for every
// caller. Without it every result is "ttlMs":0, "cacheScope":"private".
func (b *Builder) SetCacheHints(ttl time.Duration, policyCallerIndependent bool) error {
	ms, err := ttlMillis(ttl)
	if err != nil {
		return err
	}
	return b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		if st := C.mcpr_builder_set_cache_hints(cb, C.uint64_t(ms), C.bool(policyCallerIndependent), &e); st != C.MCPR_OK {
			return takeError(e, st)
		}
		return nil
	})
}

// AddWithHints is Add with the binding's cache hints.
func (b *Builder) AddWithHints(definitionJSON []byte, binding Binding, hints CacheHints) error {
	ms, err := ttlMillis(hints.TTL)
	if err != nil {
		return err
	}
	return b.add(definitionJSON, binding, func(cb *C.mcpr_builder, h C.uintptr_t, goResolve, goComplete C.bool, e **C.mcpr_error) C.mcpr_status {
		return C.mcprgo_builder_add_with_hints(cb, cbytes(definitionJSON), h, goResolve, goComplete, C.uint64_t(ms), C.bool(hints.CallerIndependent), e)
	})
}

// SetCacheHints declares this item's cache hints; they can only lower what
// its binding declared.
func (o *Payload) SetCacheHints(hints CacheHints) error {
	ms, err := ttlMillis(hints.TTL)
	if err != nil {
		return err
	}
	var st C.mcpr_status
	var e *C.mcpr_error
	if !o.cs.live(func() {
		st = C.mcprgo_payload_set_cache_hints(o.o, C.uint64_t(ms), C.bool(hints.CallerIndependent), &e)
	}) {
		return errViewExpired
	}
	if st != C.MCPR_OK {
		return takeError(e, st)
	}
	return nil
}
