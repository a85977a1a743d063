// Package mcpresources is the Go binding of mcp-resources, the library that
// serves MCP resources/read, resources/list and resources/templates/list
// safely: identifier validation, selection of exact URIs and URI
// templates, a policy asked before and after reading, body reads under
// budgets and deadlines, partial bundles with a diagnostic report, and
// signed, expiring list cursors.
//
// Build a registry with a Builder (a Policy, one Binding per definition),
// then answer requests with Resources.Read, List and ListTemplates: they
// return the MCP result as JSON, ready to send as the JSON-RPC result.
// Failures are *Error values carrying the JSON-RPC code and a message safe
// for clients. A context.Context maps onto the library's deadline and
// cancellation.
//
// The package has no MCP SDK dependency; the adapter for the official Go
// SDK is the separate module .../bindings/go/mcpsdk.
package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"errors"
	"runtime"
	"runtime/cgo"
	"sync"
	"sync/atomic"
	"time"
)

// Version is the library's version.
func Version() string { return C.GoString(C.mcpr_version()) }

// Limit names one configurable limit (mcpr_limit).
type Limit uint32

// The limits; timeouts are in milliseconds (see Limits for durations).
const (
	LimitMaxURIBytes        Limit = C.MCPR_LIMIT_MAX_URI_BYTES
	LimitMaxPlanTargets     Limit = C.MCPR_LIMIT_MAX_PLAN_TARGETS
	LimitMaxItems           Limit = C.MCPR_LIMIT_MAX_ITEMS
	LimitMaxItemBytes       Limit = C.MCPR_LIMIT_MAX_ITEM_BYTES
	LimitMaxPayloadBytes    Limit = C.MCPR_LIMIT_MAX_PAYLOAD_BYTES
	LimitMaxEncodedBytes    Limit = C.MCPR_LIMIT_MAX_ENCODED_BYTES
	LimitReportPayloadBytes Limit = C.MCPR_LIMIT_REPORT_PAYLOAD_BYTES
	LimitReportEncodedBytes Limit = C.MCPR_LIMIT_REPORT_ENCODED_BYTES
	LimitMaxIssues          Limit = C.MCPR_LIMIT_MAX_ISSUES
	LimitReadTimeoutMillis  Limit = C.MCPR_LIMIT_READ_TIMEOUT_MS
	LimitItemTimeoutMillis  Limit = C.MCPR_LIMIT_ITEM_TIMEOUT_MS
	LimitDefaultPageSize    Limit = C.MCPR_LIMIT_DEFAULT_PAGE_SIZE
	LimitMaxPageSize        Limit = C.MCPR_LIMIT_MAX_PAGE_SIZE
	LimitMaxPageBytes       Limit = C.MCPR_LIMIT_MAX_PAGE_BYTES
)

// Limits are limit overrides; a zero field keeps the library's default.
type Limits struct {
	MaxURIBytes        int64
	MaxPlanTargets     int64
	MaxItems           int64
	MaxItemBytes       int64
	MaxPayloadBytes    int64
	MaxEncodedBytes    int64
	ReportPayloadBytes int64
	ReportEncodedBytes int64
	MaxIssues          int64
	ReadTimeout        time.Duration
	ItemTimeout        time.Duration
	DefaultPageSize    int64
	MaxPageSize        int64
	MaxPageBytes       int64
}

// Builder builds a registry. It is safe for concurrent use. Close it when
// it is not built (Build closes it).
type Builder struct {
	mu      sync.Mutex
	b       *C.mcpr_builder
	isolate bool
}

// SetCallbackIsolation makes the Go callbacks of the bindings added and the
// policy set afterwards run on a goroutine of their own, where
// runtime.Goexit (t.Fatal and friends in tests) becomes a failure like a
// panic instead of aborting the process. It costs a goroutine hand-off per
// callback (and an OS thread switch: the calling goroutine is locked to its
// thread while the library runs); meant for tests.
func (b *Builder) SetCallbackIsolation(on bool) {
	b.mu.Lock()
	b.isolate = on
	b.mu.Unlock()
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{b: C.mcpr_builder_new()}
}

func (b *Builder) with(f func(*C.mcpr_builder) error) error {
	if b == nil {
		return argumentError("mcpresources: nil builder")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.b == nil {
		return argumentError("mcpresources: builder already built or closed")
	}
	return f(b.b)
}

// SetPolicy sets the policy (required before Build; a later call replaces
// it). AllowAll installs the library's native allow-all policy; the nil
// functions of a PolicyFuncs are native too.
func (b *Builder) SetPolicy(p Policy) error {
	if p == nil {
		return argumentError("mcpresources: nil policy")
	}
	return b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		if _, ok := p.(allowAll); ok {
			if st := C.mcprgo_builder_set_allow_all(cb, &e); st != C.MCPR_OK {
				return takeError(e, st)
			}
			return nil
		}
		goCallbacks := C.unsigned(C.MCPRGO_DISCOVER | C.MCPRGO_VISIBILITY | C.MCPRGO_READ)
		var pf *PolicyFuncs
		switch f := p.(type) {
		case PolicyFuncs:
			pf = &f
		case *PolicyFuncs:
			pf = f
		}
		if pf != nil {
			goCallbacks = 0
			if pf.DiscoverFunc != nil {
				goCallbacks |= C.MCPRGO_DISCOVER
			}
			if pf.VisibilityFunc != nil {
				goCallbacks |= C.MCPRGO_VISIBILITY
			}
			if pf.ReadFunc != nil {
				goCallbacks |= C.MCPRGO_READ
			}
			p = *pf // a copy: later changes to the caller's struct do not race
		}
		if perItemPolicies {
			goCallbacks |= C.MCPRGO_PER_ITEM
		}
		h := cgo.NewHandle(&policyEntry{policy: p, isolate: b.isolate})
		if st := C.mcprgo_builder_set_policy(cb, C.uintptr_t(h), goCallbacks, &e); st != C.MCPR_OK {
			h.Delete() // release never runs for a refused table
			return takeError(e, st)
		}
		return nil
	})
}

// Add registers a definition: the MCP Resource (with "uri") or
// ResourceTemplate (with "uriTemplate") description object as JSON, at
// most 64 KiB, and the Binding that reads its bodies. A Binding that also
// implements Resolver plans its reads itself; one that implements
// Completer (templates only) answers completion/complete for it.
func (b *Builder) Add(definitionJSON []byte, binding Binding) error {
	return b.add(definitionJSON, binding, func(cb *C.mcpr_builder, h C.uintptr_t, goResolve, goComplete C.bool, e **C.mcpr_error) C.mcpr_status {
		return C.mcprgo_builder_add(cb, cbytes(definitionJSON), h, goResolve, goComplete, e)
	})
}

// add registers binding with the C call given (mcprgo_builder_add or its
// variant with hints).
func (b *Builder) add(definitionJSON []byte, binding Binding,
	call func(cb *C.mcpr_builder, h C.uintptr_t, goResolve, goComplete C.bool, e **C.mcpr_error) C.mcpr_status) error {
	if binding == nil {
		return argumentError("mcpresources: nil binding")
	}
	entry := &bindingEntry{binding: binding}
	entry.resolver, _ = binding.(Resolver)
	entry.completer, _ = binding.(Completer)
	return b.with(func(cb *C.mcpr_builder) error {
		entry.isolate = b.isolate
		var e *C.mcpr_error
		h := cgo.NewHandle(entry)
		if st := call(cb, C.uintptr_t(h), C.bool(entry.resolver != nil), C.bool(entry.completer != nil), &e); st != C.MCPR_OK {
			h.Delete() // release never runs for a refused table
			return takeError(e, st)
		}
		return nil
	})
}

// SetLimit sets one limit override (0 = default).
func (b *Builder) SetLimit(which Limit, value int64) error {
	return b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		if st := C.mcpr_builder_set_limit(cb, C.mcpr_limit(which), C.int64_t(value), &e); st != C.MCPR_OK {
			return takeError(e, st)
		}
		return nil
	})
}

// SetLimits sets every non-zero field of l.
func (b *Builder) SetLimits(l Limits) error {
	ms := func(d time.Duration) int64 {
		if d > 0 && d < time.Millisecond {
			return 1
		}
		return d.Milliseconds()
	}
	for _, kv := range []struct {
		which Limit
		value int64
	}{
		{LimitMaxURIBytes, l.MaxURIBytes},
		{LimitMaxPlanTargets, l.MaxPlanTargets},
		{LimitMaxItems, l.MaxItems},
		{LimitMaxItemBytes, l.MaxItemBytes},
		{LimitMaxPayloadBytes, l.MaxPayloadBytes},
		{LimitMaxEncodedBytes, l.MaxEncodedBytes},
		{LimitReportPayloadBytes, l.ReportPayloadBytes},
		{LimitReportEncodedBytes, l.ReportEncodedBytes},
		{LimitMaxIssues, l.MaxIssues},
		{LimitReadTimeoutMillis, ms(l.ReadTimeout)},
		{LimitItemTimeoutMillis, ms(l.ItemTimeout)},
		{LimitDefaultPageSize, l.DefaultPageSize},
		{LimitMaxPageSize, l.MaxPageSize},
		{LimitMaxPageBytes, l.MaxPageBytes},
	} {
		if kv.value == 0 {
			continue
		}
		if err := b.SetLimit(kv.which, kv.value); err != nil {
			return err
		}
	}
	return nil
}

// SetCursorKey sets the cursor key (32 to 1024 bytes) shared by replicas so
// that they accept each other's cursors. Without one, each registry makes
// a random key.
func (b *Builder) SetCursorKey(key []byte) error {
	return b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		var p *C.uint8_t
		if len(key) > 0 {
			p = (*C.uint8_t)(&key[0])
		}
		if st := C.mcpr_builder_set_cursor_key(cb, p, C.size_t(len(key)), &e); st != C.MCPR_OK {
			return takeError(e, st)
		}
		return nil
	})
}

// Build validates everything and returns the registry. The builder is
// closed afterwards, whether Build succeeds or not.
func (b *Builder) Build() (*Resources, error) {
	var r *C.mcpr_resources
	err := b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		st := C.mcpr_builder_build(cb, &r, &e) // consumes cb, built or not
		b.b = nil
		if st != C.MCPR_OK {
			return takeError(e, st)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Resources{ref: newRef(func() { C.mcpr_resources_free(r) }), r: r}, nil
}

// Close frees the builder (every binding's and the policy's Go side is
// released when it was never built). Idempotent.
func (b *Builder) Close() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.b != nil {
		C.mcpr_builder_free(b.b)
		b.b = nil
	}
}

// ref counts the calls using a C handle so that Close never frees it under
// a call: the last of Close and the calls in flight frees it.
type ref struct {
	state atomic.Int64 // calls in flight * 2, | 1 once closed
	free  func()
}

func newRef(free func()) ref { return ref{free: free} }

func (r *ref) acquire() bool {
	if r.state.Add(2)&1 != 0 {
		r.release()
		return false
	}
	return true
}

func (r *ref) release() {
	if r.state.Add(-2) == 1 {
		r.freeOnce()
	}
}

func (r *ref) close() {
	for {
		s := r.state.Load()
		if s&1 != 0 {
			return
		}
		if r.state.CompareAndSwap(s, s|1) {
			if s == 0 {
				r.freeOnce()
			}
			return
		}
	}
}

func (r *ref) freeOnce() {
	// state is 1 (closed, no call) exactly once per transition; mark it so
	// a racing acquire/release pair cannot free twice.
	if r.state.CompareAndSwap(1, 3) {
		r.free()
	}
}

// Resources is an immutable registry, safe for concurrent use. Close
// releases it (calls in flight finish first).
type Resources struct {
	ref ref
	r   *C.mcpr_resources
}

// Close releases the registry; calls in flight keep it until they return,
// later calls fail with StatusInvalidArgument. Idempotent.
func (r *Resources) Close() {
	if r != nil {
		r.ref.close()
	}
}

// Completes reports whether some binding completes arguments: declare the
// MCP completions capability only then.
func (r *Resources) Completes() bool {
	if r == nil || !r.ref.acquire() {
		return false
	}
	defer r.ref.release()
	return bool(C.mcpr_resources_completes(r.r))
}

// Revision is the registry's 32-byte content revision (SHA-256 of the
// canonical registered descriptions).
func (r *Resources) Revision() [32]byte {
	var out [32]byte
	if r != nil && r.ref.acquire() {
		C.mcpr_resources_content_hash(r.r, (*C.uint8_t)(&out[0]))
		r.ref.release()
	}
	return out
}

// Executor is a worker pool for body reads, shareable by many registries
// and calls at once. With one, a hung reader is abandoned at its item
// deadline. Close frees it (calls in flight keep it).
type Executor struct {
	ref ref
	e   *C.mcpr_executor
}

// NewExecutor starts a pool of threads workers (0 =
// DefaultExecutorThreads) with the library's default bounds.
func NewExecutor(threads int) (*Executor, error) {
	return NewExecutorWithOptions(ExecutorOptions{Threads: threads})
}

// DefaultExecutorThreads is the number of workers of an executor made with
// Threads 0: four per usable core (runtime.GOMAXPROCS), at least 8, at most
// the library's 1024. A Go callback that waits (on I/O, a lock, a channel)
// holds its worker thread until it returns, so a pool sized to the cores,
// the C library's own default, queues healthy slow reads behind each other
// until their deadlines pass and they are abandoned; see the README's
// "Sizing an executor".
func DefaultExecutorThreads() int {
	return min(max(4*runtime.GOMAXPROCS(0), 8), maxExecutorThreads)
}

// maxExecutorThreads is the library's bound on workers.
const maxExecutorThreads = C.MCPR_MAX_EXECUTOR_THREADS

// ExecutorOptions configure NewExecutorWithOptions; zero fields take the
// library's defaults.
type ExecutorOptions struct {
	// Threads: regular workers, the calls whose callbacks run at once
	// (0 = DefaultExecutorThreads).
	Threads int
	// MaxHung: most workers hung in abandoned callbacks that are replaced
	// by new ones; beyond it, body reads of a binding that already has a
	// hung reader fail at once (0 = the library's max(8 x Threads, 64)).
	MaxHung int
	// MaxQueued: most calls waiting for a worker at once; further calls
	// fail at once (0 = the library's max(64 x Threads, 1024)).
	MaxQueued int
}

// NewExecutorWithOptions starts a pool with explicit bounds.
func NewExecutorWithOptions(o ExecutorOptions) (*Executor, error) {
	if o.Threads < 0 || o.MaxHung < 0 || o.MaxQueued < 0 {
		return nil, argumentError("mcpresources: negative executor option")
	}
	if o.Threads == 0 {
		o.Threads = DefaultExecutorThreads()
	}
	var e *C.mcpr_executor
	var ce *C.mcpr_error
	if st := C.mcprgo_executor_new(C.size_t(o.Threads), C.size_t(o.MaxHung), C.size_t(o.MaxQueued), &e, &ce); st != C.MCPR_OK {
		return nil, takeError(ce, st)
	}
	return &Executor{ref: newRef(func() { C.mcpr_executor_free(e) }), e: e}, nil
}

// ExecutorStats is a snapshot of an executor's state and counters (counters
// count since the executor was created).
type ExecutorStats struct {
	Threads, MaxHung, MaxQueued uint64 // the configuration in effect
	Workers                     uint64 // worker threads alive
	Busy                        uint64 // workers running a job whose caller waits
	Hung                        uint64 // workers running an abandoned callback
	Queued                      uint64 // jobs waiting for a worker
	Started                     uint64 // jobs started
	Abandoned                   uint64 // running jobs abandoned by their caller
	Returned                    uint64 // abandoned jobs whose callback has returned
	Dropped                     uint64 // jobs dropped before they started
	Refused                     uint64 // saturation refusals
	Replaced                    uint64 // workers started to replace hung ones
	// High-water marks since the executor was made: the most jobs that
	// waited at once (against MaxQueued), the most workers busy at once
	// (against Threads) and the most hung at once (against MaxHung).
	QueuedHighWater, BusyHighWater, HungHighWater uint64
	// Saturations counts the times the executor became saturated (see
	// Saturated), once each time until hung workers return.
	Saturations uint64
	// RefusedQueueFull is the part of Refused refused because MaxQueued
	// calls were waiting (the rest: the executor was saturated).
	RefusedQueueFull uint64
}

// Saturated reports the library's saturation: MaxHung workers are hung
// (body reads of a binding with a hung reader fail at once, "executor
// saturated"), or every worker is (every new call fails at once). Hung
// climbing towards MaxHung, and Refused, show it coming.
func (s ExecutorStats) Saturated() bool {
	return s.Hung >= s.MaxHung || s.Workers <= s.Hung
}

// Stats reads the executor's counters.
func (e *Executor) Stats() (ExecutorStats, error) {
	if e == nil || !e.ref.acquire() {
		return ExecutorStats{}, argumentError("mcpresources: executor closed")
	}
	defer e.ref.release()
	var s C.mcpr_executor_stats
	var ce *C.mcpr_error
	if st := C.mcprgo_executor_stats(e.e, &s, &ce); st != C.MCPR_OK {
		return ExecutorStats{}, takeError(ce, st)
	}
	return ExecutorStats{
		Threads: uint64(s.threads), MaxHung: uint64(s.max_hung), MaxQueued: uint64(s.max_queued),
		Workers: uint64(s.workers), Busy: uint64(s.busy), Hung: uint64(s.hung), Queued: uint64(s.queued),
		Started: uint64(s.started), Abandoned: uint64(s.abandoned), Returned: uint64(s.returned),
		Dropped: uint64(s.dropped), Refused: uint64(s.refused), Replaced: uint64(s.replaced),
		QueuedHighWater: uint64(s.queued_high_water), BusyHighWater: uint64(s.busy_high_water),
		HungHighWater: uint64(s.hung_high_water), Saturations: uint64(s.saturations),
		RefusedQueueFull: uint64(s.refused_queue_full),
	}, nil
}

// Close frees the executor; calls in flight keep it, abandoned readers
// finish on their own. Idempotent.
func (e *Executor) Close() {
	if e != nil {
		e.ref.close()
	}
}

// ListOptions are the options of List and ListTemplates (nil = defaults).
type ListOptions struct {
	// PageSize is the requested page size (0 = the registry's default).
	PageSize int
	// Executor runs the call's policy callbacks (nil = inline); with one,
	// the call returns by its deadline whatever the callbacks do.
	Executor *Executor
	// Revision is the negotiated MCP protocol revision (as in ReadOptions).
	Revision string
	// ResultMeta is the page's _meta (nil = none).
	ResultMeta *ResultMeta
	// Trace is the request's trace context (as in ReadOptions).
	Trace TraceContext
}

// Page is one page of resources/list or resources/templates/list.
type Page struct {
	// JSON is the MCP list result, to send as the JSON-RPC result.
	JSON []byte
	// NextCursor is the cursor of the next page ("" on the last page).
	NextCursor string
}

// List answers resources/list: one page for the caller scope scopeKey
// (required: cursors are bound to it) after cursor ("" = first page).
func (r *Resources) List(ctx context.Context, scopeKey, cursor string, opt *ListOptions) (Page, error) {
	return r.list(ctx, false, scopeKey, cursor, opt)
}

// ListTemplates answers resources/templates/list (same rules as List;
// cursors of one method are refused by the other).
func (r *Resources) ListTemplates(ctx context.Context, scopeKey, cursor string, opt *ListOptions) (Page, error) {
	return r.list(ctx, true, scopeKey, cursor, opt)
}

func (r *Resources) list(ctx context.Context, templates bool, scopeKey, cursor string, opt *ListOptions) (Page, error) {
	if r == nil || !r.ref.acquire() {
		return Page{}, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o ListOptions
	if opt != nil {
		o = *opt
	}
	ex, done, err := holdExecutor(o.Executor)
	if err != nil {
		return Page{}, err
	}
	defer done()
	if o.PageSize < 0 || o.PageSize > 1<<31 {
		return Page{}, argumentError("mcpresources: page size out of range")
	}
	meta, err := o.ResultMeta.hold()
	if err != nil {
		return Page{}, err
	}
	defer o.ResultMeta.letGo()
	env, err := begin(ctx)
	if err != nil {
		return Page{}, err
	}
	defer env.end()
	var res C.mcprgo_list_result
	st := C.mcprgo_list(r.r, C.bool(templates), cstr(scopeKey), cstr(cursor), C.uint32_t(o.PageSize),
		env.fields(callFields{o.Revision, ex, meta, o.Trace}), &res)
	if st != C.MCPR_OK {
		return Page{}, env.failure(takeError(res.err, st))
	}
	p := Page{JSON: goBytes(res.json), NextCursor: goString(res.next_cursor)}
	C.mcpr_page_free(res.page)
	return p, nil
}

// request is what a call's request_data id stands for: the caller's
// context and the library token it cancels.
type request struct {
	ctx context.Context

	mu    sync.Mutex
	token *C.mcpr_cancel // nil when ctx cannot be cancelled, or once freed
}

// cancel cancels the call's token (a no-op once the call has returned).
func (r *request) cancel() {
	r.mu.Lock()
	if r.token != nil {
		C.mcpr_cancel_cancel(r.token)
	}
	r.mu.Unlock()
}

var (
	requests  requestTable // id -> *request, while the call runs
	requestID atomic.Uint64
)

// requestTable maps request ids to requests: sharded maps under mutexes
// (each call stores and removes one entry, which a sync.Map makes costly).
type requestTable struct {
	shards [64]struct {
		mu sync.Mutex
		m  map[uint64]*request
		_  [40]byte // keep shards on separate cache lines
	}
}

func (t *requestTable) store(id uint64, r *request) {
	sh := &t.shards[id%64]
	sh.mu.Lock()
	if sh.m == nil {
		sh.m = make(map[uint64]*request)
	}
	sh.m[id] = r
	sh.mu.Unlock()
}

func (t *requestTable) load(id uint64) *request {
	sh := &t.shards[id%64]
	sh.mu.Lock()
	r := sh.m[id]
	sh.mu.Unlock()
	return r
}

func (t *requestTable) remove(id uint64) {
	sh := &t.shards[id%64]
	sh.mu.Lock()
	delete(sh.m, id)
	sh.mu.Unlock()
}

// callEnv maps a context onto one library call: the request id its
// callbacks find their context with, the deadline in milliseconds, and a
// cancellation token cancelled when ctx is done (by an AfterFunc, or by a
// callback that sees ctx done first). end frees the token under the
// request's lock, so no cancellation can reach a freed token.
type callEnv struct {
	ctx       context.Context
	id        uint64
	timeoutMs uint64
	req       *request
	token     *C.mcpr_cancel
	stop      func() bool
	// subs are the requests of the call's subscribers (a notification
	// call decides for many callers): each its own context, the call's
	// token.
	subs []subRequest
}

type subRequest struct {
	id  uint64
	req *request
}

// sub registers one more request for this call, with its own context
// (a subscriber's), sharing the call's token; end removes it.
func (env *callEnv) sub(ctx context.Context) uint64 {
	id := requestID.Add(1)
	req := &request{ctx: ctx, token: env.token}
	env.subs = append(env.subs, subRequest{id: id, req: req})
	requests.store(id, req)
	return id
}

func begin(ctx context.Context) (*callEnv, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	switch err := ctx.Err(); {
	case errors.Is(err, context.DeadlineExceeded):
		return nil, ownError(StatusDeadlineExceeded, deadlineExceededMessage, "")
	case err != nil:
		return nil, ownError(StatusCanceled, canceledMessage, "")
	}
	env := &callEnv{ctx: ctx, id: requestID.Add(1), req: &request{ctx: ctx}}
	if d, ok := ctx.Deadline(); ok {
		left := time.Until(d)
		if left <= 0 {
			return nil, ownError(StatusDeadlineExceeded, deadlineExceededMessage, "")
		}
		// Rounded up: the library's deadline never passes before ctx's.
		env.timeoutMs = uint64((left + time.Millisecond - 1) / time.Millisecond)
	}
	if ctx.Done() != nil {
		env.token = C.mcpr_cancel_new()
		env.req.token = env.token
		env.stop = context.AfterFunc(ctx, env.req.cancel)
	}
	requests.store(env.id, env.req)
	return env, nil
}

func (env *callEnv) end() {
	requests.remove(env.id)
	for _, s := range env.subs {
		requests.remove(s.id)
		s.req.mu.Lock()
		s.req.token = nil
		s.req.mu.Unlock()
	}
	if env.stop != nil {
		env.stop()
		env.req.mu.Lock()
		env.req.token = nil
		env.req.mu.Unlock()
		C.mcpr_cancel_free(env.token)
	}
}

// callFields are what a call's options give its shared fields: the
// protocol revision, the executor and result _meta held for the call, and
// the trace context.
type callFields struct {
	revision   string
	executor   *C.mcpr_executor
	resultMeta *C.mcpr_result_meta
	trace      TraceContext
}

// fields are the C call-frame fields of one call (the fields every option
// struct shares): what its options give, and the context's deadline, token
// and request id. The one place they are filled.
func (env *callEnv) fields(f callFields) C.mcprgo_call {
	return C.mcprgo_call{
		protocol_revision: cstr(f.revision),
		timeout_ms:        C.uint64_t(env.timeoutMs),
		cancel:            env.token,
		request:           C.uint64_t(env.id),
		executor:          f.executor,
		result_meta:       f.resultMeta,
		trace: C.mcpr_trace_context{
			traceparent: cstr(f.trace.Traceparent),
			tracestate:  cstr(f.trace.Tracestate),
			baggage:     cstr(f.trace.Baggage),
		},
	}
}

// holdExecutor keeps e open for one call (nil = no executor): the C
// executor to pass, and the release to defer.
func holdExecutor(e *Executor) (*C.mcpr_executor, func(), error) {
	if e == nil {
		return nil, func() {}, nil
	}
	if !e.ref.acquire() {
		return nil, nil, argumentError("mcpresources: executor closed")
	}
	return e.e, e.ref.release, nil
}

// holdShared keeps a call's executor and result _meta open for one call
// (nil = none): the C objects to pass, and the one release to defer.
func holdShared(e *Executor, m *ResultMeta) (*C.mcpr_executor, *C.mcpr_result_meta, func(), error) {
	ex, done, err := holdExecutor(e)
	if err != nil {
		return nil, nil, nil, err
	}
	meta, err := m.hold()
	if err != nil {
		done()
		return nil, nil, nil, err
	}
	return ex, meta, func() { m.letGo(); done() }, nil
}

// failure reports a context deadline as StatusDeadlineExceeded even when
// the token's cancellation won the race against the library's own timer.
func (env *callEnv) failure(e *Error) error {
	if e.Status == StatusCanceled && deadlinePassed(env.ctx) {
		return ownError(StatusDeadlineExceeded, deadlineExceededMessage, e.cause)
	}
	return e
}

// deadlinePassed reports whether ctx ended by its deadline, also in the
// moment after the deadline passed and before ctx's timer made Err say so
// (begin refuses such a ctx by its deadline already).
func deadlinePassed(ctx context.Context) bool {
	switch err := ctx.Err(); {
	case errors.Is(err, context.DeadlineExceeded):
		return true
	case err != nil:
		return false
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}
