package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"unsafe"
)

// ReadOptions are the options of Read (nil = defaults).
type ReadOptions struct {
	// Executor runs the read's callbacks (nil = inline on the calling
	// goroutine); with one, the read returns by its deadline whatever the
	// callbacks do, and a hung reader is abandoned at its item deadline.
	Executor *Executor
	// Revision is the negotiated MCP protocol revision the result is shaped
	// for: "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25" or
	// "2026-07-28"; "" = the newest the library knows. 2026-07-28 results
	// carry resultType, ttlMs and cacheScope; earlier ones none of them.
	// Before 2025-06-18 content items carry no _meta (those revisions
	// define none), and listings leave out what each revision does not
	// define (icons before 2025-11-25; title, _meta and
	// annotations.lastModified before 2025-06-18). Errors follow it too (not
	// found: -32002 before 2026-07-28, -32602 from it). Another value is
	// StatusInvalidArgument.
	Revision string
	// ResultMeta is merged into the result's _meta after the library's own
	// members (nil = none).
	ResultMeta *ResultMeta
	// Trace is the request's trace context, when the host read it itself
	// (for example from its transport's headers): every callback of the
	// read sees it through TraceContextOf. A member that is not valid
	// UTF-8 is StatusInvalidArgument; one longer than 8 KiB is left out.
	Trace TraceContext
	// ScopeKey is the caller's principal, for a read whose callback asks
	// for input (its requestState is bound to it; required then).
	ScopeKey string
	// ClientCapabilities is the client's ClientCapabilities JSON (nil =
	// nothing declared): an input request it did not declare is never sent.
	ClientCapabilities []byte
	// RequestState and InputResponses are the retry's requestState and
	// inputResponses JSON, exactly as the client sent them (empty = none).
	RequestState   string
	InputResponses []byte
	// Params is the request's whole params JSON: the requestState is bound
	// to the params other than uri, _meta and the retry members.
	Params []byte
}

// Bundle is a resources/read result.
type Bundle struct {
	// JSON is the MCP resources/read result, to send as the JSON-RPC result.
	JSON []byte
	// Partial: some items failed; the first item is the diagnostic warning.
	Partial bool
	// InputRequired: an InputRequiredResult (a callback asked for input
	// first); JSON is still the result to send.
	InputRequired bool
}

// Read answers resources/read for uri (the raw params.uri). ctx's deadline
// becomes the call's deadline (StatusDeadlineExceeded when it passes) and
// its cancellation the call's cancellation (StatusCanceled); callbacks get
// a context carrying ctx's values.
func (r *Resources) Read(ctx context.Context, uri string, opt *ReadOptions) (Bundle, error) {
	if r == nil || !r.ref.acquire() {
		return Bundle{}, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o ReadOptions
	if opt != nil {
		o = *opt
	}
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return Bundle{}, err
	}
	defer release()
	env, err := begin(ctx)
	if err != nil {
		return Bundle{}, err
	}
	defer env.end()
	// The result struct lives in env (allocated anyway): a local would
	// move to the heap, since cgo makes every pointer passed to a function
	// that calls back into Go escape. Passed as &env.readRes: cgo's pointer
	// check then looks at that field only, not at the rest of env.
	//
	// buf is the result's Go memory, sized by the registry's last small
	// result: when the JSON fits, the shim copies it there and frees the
	// bundle in the same call (one call into C per read, not two).
	var buf []byte
	if hint := r.readHint.Load(); hint > 0 {
		buf = make([]byte, hint+hint/32+16) // a little room: results of one resource vary little
	}
	in := o.input()
	st := C.mcprgo_read(r.r, cstr(uri), env.fields(callFields{o.Revision, ex, meta, o.Trace}), in,
		(*C.uint8_t)(unsafe.SliceData(buf)), C.size_t(len(buf)), &env.readRes)
	res := &env.readRes
	if st != C.MCPR_OK {
		return Bundle{}, env.failure(takeError(res.err, st))
	}
	b := Bundle{Partial: bool(res.partial), InputRequired: bool(res.input_required)}
	n := int(res.json.len)
	if res.copied {
		b.JSON = buf[:n:n]
	} else {
		b.JSON = goBytes(res.json)
		C.mcpr_bundle_free(res.bundle)
	}
	if n <= maxReadHint && int64(n) != r.readHint.Load() {
		r.readHint.Store(int64(n))
	}
	return b, nil
}

// maxReadHint bounds Resources.readHint: a result larger than this is
// copied out of its bundle after the call, so that a large result never
// makes the next small read allocate a large buffer.
const maxReadHint = 16 << 10

// input is the read's input-required members (BEHAVIOUR §18) as the shim
// takes them, for the blocking and the asynchronous read.
func (o *ReadOptions) input() C.mcprgo_input {
	return C.mcprgo_input{
		scope_key:           cstr(o.ScopeKey),
		client_capabilities: cbytes(o.ClientCapabilities),
		request_state:       cstr(o.RequestState),
		input_responses:     cbytes(o.InputResponses),
		params:              cbytes(o.Params),
	}
}
