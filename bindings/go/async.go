package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"runtime/cgo"
)

// Asynchronous calls (docs/BEHAVIOUR.md §20): ReadAsync, ListAsync,
// ListTemplatesAsync, RequestAsync and MessageAsync start the call on the
// options' Executor through the library's start entry points
// (mcpr_read_start, ...) and return at once. No goroutine and no OS thread
// of the caller waits in C while the call is in flight: the library's done
// callback, run exactly once on one of the executor's threads, sends the
// outcome on the returned channel.

// Outcome is what an asynchronous call concluded with: Value and Err are
// what the blocking call would have returned.
type Outcome[T any] struct {
	Value T
	Err   error
}

// pending is one asynchronous call in flight, behind the cgo.Handle that
// is the call's done_data: the mapping of its context onto the call (its
// request id, deadline and token, kept until done) and the channel its
// outcome goes to.
type pending[T any] struct {
	env *callEnv
	ch  chan Outcome[T]
}

// beginAsync is begin for an asynchronous call. A ctx already done is not
// refused here: the call starts with a token already cancelled, so that
// only host mistakes fail the start and the library concludes the call as
// cancelled through done (the deadline error when ctx's deadline passed).
func beginAsync(ctx context.Context) *callEnv {
	if env, err := begin(ctx); err == nil {
		return env
	}
	env := &callEnv{ctx: ctx, id: requestID.Add(1), req: &request{ctx: ctx}}
	env.token = C.mcpr_cancel_new()
	env.req.token = env.token
	C.mcpr_cancel_cancel(env.token)
	env.stop = func() bool { return false }
	requests.store(env.id, env.req)
	return env
}

// startAsync starts one call through start (given the call's handle). When
// the start fails, done never runs: the handle and the context mapping are
// let go here and the error returned.
func startAsync[T any](env *callEnv, start func(h C.uintptr_t, e **C.mcpr_error) C.mcpr_status) (<-chan Outcome[T], error) {
	p := &pending[T]{env: env, ch: make(chan Outcome[T], 1)}
	h := cgo.NewHandle(p)
	var e *C.mcpr_error
	if st := start(C.uintptr_t(h), &e); st != C.MCPR_OK {
		h.Delete()
		env.end()
		return nil, takeError(e, st)
	}
	// Started: done owns the handle now (it may even have run already).
	return p.ch, nil
}

// takePending is the call behind a done callback's handle, deleted here
// (the library runs done exactly once).
func takePending[T any](h C.uintptr_t) *pending[T] {
	handle := cgo.Handle(h)
	p := handle.Value().(*pending[T])
	handle.Delete()
	return p
}

// deliver ends the call's context mapping (freeing its token) and sends
// the outcome made by outcome, then closes the channel: one value, sent
// into the channel's one slot, so the library's thread never blocks here.
// outcome frees the C result first and may then ask the caller's context
// (ctx.Err, host code): a panic there becomes an internal error instead of
// unwinding into the library's frames.
func (p *pending[T]) deliver(outcome func() Outcome[T]) {
	var o Outcome[T]
	defer func() {
		if v := recover(); v != nil {
			o = Outcome[T]{Err: ownError(StatusInternal, "mcp-resources call failed",
				"panic while concluding an asynchronous call: "+describePanic(v))}
		}
		p.env.end()
		p.ch <- o
		close(p.ch)
	}()
	o = outcome()
}

//export mcprgoReadDone
func mcprgoReadDone(h C.uintptr_t, st C.mcpr_status, res *C.mcprgo_read_result) {
	p := takePending[Bundle](h)
	p.deliver(func() Outcome[Bundle] {
		if st != C.MCPR_OK {
			return Outcome[Bundle]{Err: p.env.failure(takeError(res.err, st))}
		}
		b := Bundle{JSON: goBytes(res.json), Partial: bool(res.partial), InputRequired: bool(res.input_required)}
		C.mcpr_bundle_free(res.bundle)
		return Outcome[Bundle]{Value: b}
	})
}

//export mcprgoListDone
func mcprgoListDone(h C.uintptr_t, st C.mcpr_status, res *C.mcprgo_list_result) {
	p := takePending[Page](h)
	p.deliver(func() Outcome[Page] {
		if st != C.MCPR_OK {
			return Outcome[Page]{Err: p.env.failure(takeError(res.err, st))}
		}
		pg := Page{JSON: goBytes(res.json), NextCursor: goString(res.next_cursor)}
		C.mcpr_page_free(res.page)
		return Outcome[Page]{Value: pg}
	})
}

//export mcprgoRequestDone
func mcprgoRequestDone(h C.uintptr_t, st C.mcpr_status, res *C.mcprgo_request_result) {
	p := takePending[Response](h)
	p.deliver(func() Outcome[Response] {
		if st != C.MCPR_OK {
			return Outcome[Response]{Err: takeError(res.err, st)}
		}
		return Outcome[Response]{Value: p.env.responseOf(res)}
	})
}

//export mcprgoMessageDone
func mcprgoMessageDone(h C.uintptr_t, st C.mcpr_status, res *C.mcprgo_message_result) {
	p := takePending[Reply](h)
	p.deliver(func() Outcome[Reply] {
		if st != C.MCPR_OK {
			return Outcome[Reply]{Err: takeError(res.err, st)}
		}
		return Outcome[Reply]{Value: replyOf(p.env.ctx, res)}
	})
}

// ReadAsync is Read as an asynchronous call on opt.Executor (required:
// without one the call fails at once with StatusInvalidArgument). It
// returns at once; the channel receives exactly one Outcome, what Read
// would have returned, and is then closed. No goroutine waits in C
// meanwhile: the library's done callback, on an executor thread, sends
// it. ctx maps onto the call as for Read (its deadline the call's
// deadline, its cancellation the call's token): cancelling ctx concludes
// the call at once with StatusCanceled (errors.Is(err, context.Canceled)),
// whatever its callbacks do, and a ctx already done concludes it so too.
// An error return is a host mistake (no executor, a closed registry,
// executor or ResultMeta, an unknown revision, bad options): nothing was
// started and the channel is nil. Close the registry and the executor
// whenever you like: a call in flight holds its own references until its
// outcome is sent.
func (r *Resources) ReadAsync(ctx context.Context, uri string, opt *ReadOptions) (<-chan Outcome[Bundle], error) {
	if r == nil || !r.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o ReadOptions
	if opt != nil {
		o = *opt
	}
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return nil, err
	}
	defer release()
	env := beginAsync(ctx)
	in := o.input()
	call := env.fields(callFields{o.Revision, ex, meta, o.Trace})
	return startAsync[Bundle](env, func(h C.uintptr_t, e **C.mcpr_error) C.mcpr_status {
		return C.mcprgo_read_start(r.r, cstr(uri), call, in, h, e)
	})
}

// ListAsync is List as an asynchronous call on opt.Executor (required;
// the channel, ctx and errors as for ReadAsync).
func (r *Resources) ListAsync(ctx context.Context, scopeKey, cursor string, opt *ListOptions) (<-chan Outcome[Page], error) {
	return r.listAsync(ctx, false, scopeKey, cursor, opt)
}

// ListTemplatesAsync is ListTemplates as an asynchronous call (as
// ListAsync).
func (r *Resources) ListTemplatesAsync(ctx context.Context, scopeKey, cursor string, opt *ListOptions) (<-chan Outcome[Page], error) {
	return r.listAsync(ctx, true, scopeKey, cursor, opt)
}

func (r *Resources) listAsync(ctx context.Context, templates bool, scopeKey, cursor string, opt *ListOptions) (<-chan Outcome[Page], error) {
	if r == nil || !r.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o ListOptions
	if opt != nil {
		o = *opt
	}
	if o.PageSize < 0 || o.PageSize > 1<<31 {
		return nil, argumentError("mcpresources: page size out of range")
	}
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return nil, err
	}
	defer release()
	env := beginAsync(ctx)
	call := env.fields(callFields{o.Revision, ex, meta, o.Trace})
	return startAsync[Page](env, func(h C.uintptr_t, e **C.mcpr_error) C.mcpr_status {
		return C.mcprgo_list_start(r.r, C.bool(templates), cstr(scopeKey), cstr(cursor), C.uint32_t(o.PageSize), call, h, e)
	})
}

// RequestAsync is Request as an asynchronous call on opt.Executor
// (required; the channel, ctx and errors as for ReadAsync). As from
// Request, client mistakes, a deadline and a cancellation are error
// Responses; a method the library does not serve fails the start with
// ErrMethodNotHandled (nothing started), and a completion/complete with a
// ref/prompt reference, known once its params are read, is an Outcome
// whose Err matches ErrMethodNotHandled.
func (r *Resources) RequestAsync(ctx context.Context, method string, params []byte, opt *RequestOptions) (<-chan Outcome[Response], error) {
	if r == nil || !r.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o RequestOptions
	if opt != nil {
		o = *opt
	}
	if o.PageSize < 0 || o.PageSize > 1<<31 {
		return nil, argumentError("mcpresources: page size out of range")
	}
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return nil, err
	}
	defer release()
	env := beginAsync(ctx)
	call := env.fields(callFields{o.Revision, ex, meta, o.Trace})
	return startAsync[Response](env, func(h C.uintptr_t, e **C.mcpr_error) C.mcpr_status {
		return C.mcprgo_request_start(r.r, cstr(method), cbytes(params), cstr(o.ScopeKey), C.uint32_t(o.PageSize),
			C.bool(o.ResourceTools), cbytes(o.ClientCapabilities), cbytes(o.RequestID),
			C.uint32_t(o.HostNotifications), call, h, e)
	})
}

// MessageAsync is Message as an asynchronous call on opt.Executor
// (required; the channel, ctx and errors as for ReadAsync): every message
// (a request the library serves, an invalid one, a notification, a method
// it does not serve) is answered through the channel as Message answers
// it; only host mistakes (a list method without a scope key, bad options)
// fail the start.
func (r *Resources) MessageAsync(ctx context.Context, message []byte, opt *RequestOptions) (<-chan Outcome[Reply], error) {
	if r == nil || !r.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o RequestOptions
	if opt != nil {
		o = *opt
	}
	if o.PageSize < 0 || o.PageSize > 1<<31 {
		return nil, argumentError("mcpresources: page size out of range")
	}
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return nil, err
	}
	defer release()
	if ctx == nil {
		ctx = context.Background()
	}
	env := beginAsync(ctx)
	// As Message: the whole options but RequestID (a listen message names
	// its stream by its own id).
	call := env.fields(callFields{o.Revision, ex, meta, o.Trace})
	return startAsync[Reply](env, func(h C.uintptr_t, e **C.mcpr_error) C.mcpr_status {
		return C.mcprgo_message_start(r.r, cbytes(message), cstr(o.ScopeKey), C.uint32_t(o.PageSize),
			C.bool(o.ResourceTools), cbytes(o.ClientCapabilities), C.uint32_t(o.HostNotifications), call, h, e)
	})
}
