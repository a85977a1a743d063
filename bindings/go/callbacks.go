package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/cgo"
	"unsafe"
)

// Policy decides, for every read and listing, what the caller may discover,
// see and read. Its methods may be called concurrently from many goroutines
// and from threads the library owns (executor workers). A nil error
// allows; an error wrapping ErrUnavailable denies (Visibility: hides);
// any other error fails the whole call with StatusPolicy, its text
// becoming the private cause. A panic counts as such a failure.
type Policy interface {
	// Discover: may the caller discover this definition?
	Discover(ctx context.Context, def Definition) error
	// Visibility: is this target visible, and may issues name its URI?
	Visibility(ctx context.Context, t Target) (Visibility, error)
	// Read: may the caller read this visible target?
	Read(ctx context.Context, t Target) error
}

// AllowAll is the policy that lets every caller discover, see and read
// everything (issues may name URIs). Builder.SetPolicy recognises it and
// installs the library's native equivalent: no Go callback runs.
var AllowAll Policy = allowAll{}

type allowAll struct{}

// PolicyFuncs is a Policy made of functions; a nil function allows
// natively (Discover and Read: allowed; Visibility: visible, issues may
// name the URI). A read asks a Go policy through one cgo crossing per
// step (its first check and its recheck, every question of the step
// answered inside it); with every function nil no Go callback runs at all.
type PolicyFuncs struct {
	DiscoverFunc   func(ctx context.Context, def Definition) error
	VisibilityFunc func(ctx context.Context, t Target) (Visibility, error)
	ReadFunc       func(ctx context.Context, t Target) error
}

// Discover calls f.DiscoverFunc (nil: allowed).
func (f PolicyFuncs) Discover(ctx context.Context, def Definition) error {
	if f.DiscoverFunc == nil {
		return nil
	}
	return f.DiscoverFunc(ctx, def)
}

// Visibility calls f.VisibilityFunc (nil: visible, issues may name the URI).
func (f PolicyFuncs) Visibility(ctx context.Context, t Target) (Visibility, error) {
	if f.VisibilityFunc == nil {
		return Visibility{Visible: true, DiscloseIssueURI: true}, nil
	}
	return f.VisibilityFunc(ctx, t)
}

// Read calls f.ReadFunc (nil: allowed).
func (f PolicyFuncs) Read(ctx context.Context, t Target) error {
	if f.ReadFunc == nil {
		return nil
	}
	return f.ReadFunc(ctx, t)
}

func (allowAll) Discover(context.Context, Definition) error { return nil }
func (allowAll) Visibility(context.Context, Target) (Visibility, error) {
	return Visibility{Visible: true, DiscloseIssueURI: true}, nil
}
func (allowAll) Read(context.Context, Target) error { return nil }

// Binding reads the bodies of one registered definition. Read may be
// called concurrently, on the calling goroutine or on an executor's
// threads; with an executor, a Read abandoned at its item deadline keeps
// running after the call returned (its ctx is then done): it must return
// soon. Fill out with exactly one SetText or SetBlob. A nil error with no
// body is an invalid_content issue, an error wrapping ErrUnavailable an
// unavailable issue, any other error (or a panic) a read_failed issue
// (timeout when the item deadline passed).
type Binding interface {
	Read(ctx context.Context, t Target, out *Payload) error
}

// Resolver is implemented by a Binding that plans its reads itself (several
// items, representations, private authorization JSON). Bindings without it
// read the matched URI as a single item, planned natively by the library.
// ErrUnavailable is a root denial; any other error an invalid plan.
type Resolver interface {
	Resolve(ctx context.Context, m Match, plan *Plan) error
}

// Completer is implemented by a template Binding that proposes values for
// its variables (completion/complete with a ref/resource reference; a
// Completer on an exact-URI definition is refused by Add). Metadata only,
// like Resolve: it must not read bodies. It runs after the policy's
// Discover allowed the template, under the call's deadline and
// cancellation. ErrUnavailable answers like not found; any other error
// fails the call.
type Completer interface {
	Complete(ctx context.Context, req CompletionRequest, out *Completion) error
}

// ReadFunc adapts a function to a Binding.
type ReadFunc func(ctx context.Context, t Target, out *Payload) error

// Read calls f.
func (f ReadFunc) Read(ctx context.Context, t Target, out *Payload) error { return f(ctx, t, out) }

const (
	cbOK          C.mcpr_cb_result = C.MCPR_CB_OK
	cbUnavailable C.mcpr_cb_result = C.MCPR_CB_UNAVAILABLE
	cbFailed      C.mcpr_cb_result = C.MCPR_CB_FAILED

	cbInputRequired C.mcpr_cb_result = C.MCPR_CB_INPUT_REQUIRED
)

// requestOf finds the Read or List call a callback serves. A call that
// already returned (an abandoned body reader starting late) has none: its
// callbacks see a cancelled context.
func requestOf(req C.uint64_t) *request {
	if id := uint64(req); id != 0 {
		return requests.load(id)
	}
	return nil
}

var finishedContext = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// invoke runs one Go callback on behalf of the library: it gives the
// callback its context, runs it and evaluates the error it returned
// (errors.Is, Error: host code too, which may panic) inside one recovered
// region (see settle), so that no panic ever unwinds into the library's
// frames, hands the result and the private cause to the library, and ends
// the context once the callback returned.
//
// runtime.Goexit (t.Fatal, t.FailNow, t.SkipNow) cannot be stopped; on the
// callback's own goroutine it would leave the library's frames on the
// stack and the Go runtime aborts the process. invoke says so on stderr
// first. With isolation (Builder.SetCallbackIsolation) the callback runs on
// a goroutine of its own, where Goexit becomes a failure too.
func invoke(req C.uint64_t, call *C.mcpr_call, isolate bool, f func(ctx context.Context) error) C.mcpr_cb_result {
	if !isolate {
		return invokeInline(req, call, f)
	}
	cs := newCallState(requestOf(req), call)
	var o outcome
	done := make(chan struct{})
	go func() {
		defer close(done) // also after runtime.Goexit
		settle(cs, f, &o, true)
	}()
	<-done
	return finishInvoke(cs, call, o)
}

// invokeInline is invoke without isolation. f does not escape here, so a
// hot callback (the body read, the plan-level entry) that calls it
// directly when it needs no isolation keeps its closure and the outcome
// on the stack: no allocation for either.
func invokeInline(req C.uint64_t, call *C.mcpr_call, f func(ctx context.Context) error) C.mcpr_cb_result {
	cs := newCallState(requestOf(req), call)
	var o outcome
	settle(cs, f, &o, false)
	return finishInvoke(cs, call, o)
}

// finishInvoke ends a callback's context and hands its outcome to the library.
func finishInvoke(cs *callState, call *C.mcpr_call, o outcome) C.mcpr_cb_result {
	cs.finish()
	if o.cause != "" {
		setCause(call, o.cause)
	}
	return o.res
}

// outcome is what a callback's run gives the library.
type outcome struct {
	res   C.mcpr_cb_result
	cause string
}

// The stages of settle, which name what a recovered panic came from.
const (
	stageCallback = iota // the callback itself
	stageResult          // the Error or Is (Unwrap) methods of its error
	stageDone
)

const goexitCause = "a Go callback called runtime.Goexit"

// settle runs f and classifies the error it returned into *o, both inside
// one recovered region: a panic in either becomes a failure whose cause
// names it. *o starts as the Goexit failure, which is what remains when
// runtime.Goexit ends the goroutine (the isolated path reports it; inline,
// the process aborts after the explanation on stderr).
func settle(cs *callState, f func(ctx context.Context) error, o *outcome, isolated bool) {
	*o = outcome{res: cbFailed, cause: goexitCause}
	stage := stageCallback
	defer func() {
		if stage == stageDone {
			return
		}
		if p := recover(); p != nil {
			*o = outcome{res: cbFailed, cause: panicCause(stage, p)}
			return
		}
		if !isolated {
			fmt.Fprintln(os.Stderr, "mcpresources: a callback called runtime.Goexit (t.Fatal, t.FailNow, t.SkipNow?);"+
				" it cannot return to the library and the process will abort. Use t.Error and return an error,"+
				" or Builder.SetCallbackIsolation(true).")
			cs.finish()
		}
	}()
	err := f(cs)
	stage = stageResult
	*o = classify(cs, err)
	stage = stageDone
}

// classify turns a callback's error into its result and private cause; it
// calls the error's methods, so it runs only inside settle's region.
func classify(cs *callState, err error) outcome {
	if err == nil {
		return outcome{res: cbOK}
	}
	if ir, ok := inputRequiredOf(err); ok {
		return askInput(cs, ir)
	}
	if errors.Is(err, ErrUnavailable) {
		return outcome{res: cbUnavailable}
	}
	return outcome{res: cbFailed, cause: err.Error()}
}

// panicCause is the private cause of a panic recovered at stage: in the
// callback itself, or in the methods of the error it returned.
func panicCause(stage int, p any) string {
	if stage == stageResult {
		return "panic in the Error or Is method of the error a Go callback returned: " + describePanic(p)
	}
	return "panic in a Go callback: " + describePanic(p)
}

// describePanic formats a recovered panic value (host code: its Error or
// String method runs), recovering a panic of the formatting itself.
func describePanic(p any) (s string) {
	defer func() {
		if recover() != nil {
			s = "(a panic value whose formatting panicked)"
		}
	}()
	return fmt.Sprint(p)
}

func setCause(call *C.mcpr_call, msg string) {
	C.mcpr_call_set_cause(call, cstr(msg))
}

// bindingEntry is what a binding table's user_data handle holds.
type bindingEntry struct {
	binding   Binding
	resolver  Resolver
	completer Completer
	isolate   bool
}

// policyEntry is what a policy table's user_data handle holds.
type policyEntry struct {
	policy  Policy
	isolate bool
}

//export mcprgoResolve
func mcprgoResolve(h C.uintptr_t, req C.uint64_t, call *C.mcpr_call, m *C.mcpr_match, plan *C.mcpr_plan_builder) C.mcpr_cb_result {
	e := cgo.Handle(h).Value().(*bindingEntry)
	return invoke(req, call, e.isolate, func(ctx context.Context) error {
		cs := ctx.(*callState)
		return e.resolver.Resolve(ctx, Match{cs: cs, m: m}, &Plan{cs: cs, p: plan})
	})
}

//export mcprgoRead
func mcprgoRead(h C.uintptr_t, req C.uint64_t, call *C.mcpr_call, t *C.mcpr_target, out *C.mcpr_payload_builder) C.mcpr_cb_result {
	e := cgo.Handle(h).Value().(*bindingEntry)
	// Two closures, so that the inline one does not escape (invokeInline).
	if e.isolate {
		return invoke(req, call, true, func(ctx context.Context) error { return e.readBody(ctx.(*callState), t, out) })
	}
	return invokeInline(req, call, func(ctx context.Context) error { return e.readBody(ctx.(*callState), t, out) })
}

// readBody runs the binding's Read for one item; its Payload lives in the
// callback's state (one allocation less per body read).
func (e *bindingEntry) readBody(cs *callState, t *C.mcpr_target, out *C.mcpr_payload_builder) error {
	cs.payload = Payload{cs: cs, o: out}
	return e.binding.Read(cs, Target{cs: cs, t: t}, &cs.payload)
}

//export mcprgoComplete
func mcprgoComplete(h C.uintptr_t, req C.uint64_t, call *C.mcpr_call, q *C.mcpr_completion_request, out *C.mcpr_completion_builder) C.mcpr_cb_result {
	e := cgo.Handle(h).Value().(*bindingEntry)
	return invoke(req, call, e.isolate, func(ctx context.Context) error {
		cs := ctx.(*callState)
		return e.completer.Complete(ctx, CompletionRequest{cs: cs, q: q}, &Completion{cs: cs, o: out})
	})
}

// releaseHook, when set (by the package's own tests, before any table
// exists), is told the value of every table the library releases.
var releaseHook func(entry any)

//export mcprgoRelease
func mcprgoRelease(h C.uintptr_t) {
	if releaseHook != nil {
		releaseHook(cgo.Handle(h).Value())
	}
	cgo.Handle(h).Delete()
}

//export mcprgoDiscover
func mcprgoDiscover(h C.uintptr_t, req C.uint64_t, call *C.mcpr_call, d *C.mcpr_definition) C.mcpr_cb_result {
	e := cgo.Handle(h).Value().(*policyEntry)
	p := e.policy
	return invoke(req, call, e.isolate, func(ctx context.Context) error {
		return p.Discover(ctx, Definition{cs: ctx.(*callState), d: d})
	})
}

//export mcprgoVisibility
func mcprgoVisibility(h C.uintptr_t, req C.uint64_t, call *C.mcpr_call, t *C.mcpr_target, out *C.mcpr_visibility) C.mcpr_cb_result {
	e := cgo.Handle(h).Value().(*policyEntry)
	p := e.policy
	return invoke(req, call, e.isolate, func(ctx context.Context) error {
		v, err := p.Visibility(ctx, Target{cs: ctx.(*callState), t: t})
		if err == nil {
			out.visible = C.bool(v.Visible)
			out.disclose_issue_uri = C.bool(v.DiscloseIssueURI)
		}
		return err
	})
}

//export mcprgoPolicyRead
func mcprgoPolicyRead(h C.uintptr_t, req C.uint64_t, call *C.mcpr_call, t *C.mcpr_target) C.mcpr_cb_result {
	e := cgo.Handle(h).Value().(*policyEntry)
	p := e.policy
	return invoke(req, call, e.isolate, func(ctx context.Context) error {
		return p.Read(ctx, Target{cs: ctx.(*callState), t: t})
	})
}

// mcprgoDecidePlan answers a whole step of a read (the first check, the
// recheck, the root checks of an embedding or a subscription) in one
// crossing: the policy's own Discover, Visibility and Read, asked in the
// order and with the stops of the per-item callbacks (docs/BEHAVIOUR.md §5,
// mcpr_decide_plan_fn), each answer classified as its callback's would be
// (a panic is that answer's failure). Only the first check's read
// permission may ask for input; elsewhere asking is a denial, as the
// library reads it.
//
//export mcprgoDecidePlan
func mcprgoDecidePlan(h C.uintptr_t, req C.uint64_t, call *C.mcpr_call, phase C.mcpr_phase, q *C.mcpr_plan_questions, d *C.mcpr_plan_decision) C.mcpr_cb_result {
	e := cgo.Handle(h).Value().(*policyEntry)
	p := e.policy
	if decidePlanHook != nil {
		decidePlanHook()
	}
	if q == nil || d == nil || q.items_len != d.items_len || (q.items_len != 0 && (q.items == nil || d.items == nil)) {
		return cbFailed
	}
	firstCheck := phase == C.MCPR_PHASE_FIRST_CHECK
	// Two closures, so that the inline one does not escape (invokeInline).
	if e.isolate {
		return invoke(req, call, true, func(ctx context.Context) error { return decidePlan(ctx.(*callState), call, firstCheck, p, q, d) })
	}
	return invokeInline(req, call, func(ctx context.Context) error { return decidePlan(ctx.(*callState), call, firstCheck, p, q, d) })
}

// decidePlan answers one plan decision inside mcprgoDecidePlan's callback.
func decidePlan(cs *callState, call *C.mcpr_call, firstCheck bool, p Policy, q *C.mcpr_plan_questions, d *C.mcpr_plan_decision) error {
	pd := planDecider{cs: cs, firstCheck: firstCheck}
	pd.decide(p, q, d)
	if pd.cause != "" {
		setCause(call, pd.cause)
	}
	return nil
}

// decidePlanHook, when set (by the package's own tests, before any table
// exists), runs at every crossing into mcprgoDecidePlan.
var decidePlanHook func()

// perItemPolicies, when set (by the package's own tests), makes SetPolicy
// leave out the plan-level entry: every question is its own crossing.
var perItemPolicies bool

// planDecider is one plan decision's state: the first failure's cause
// (the library reads the answers in order and stops at a failure).
type planDecider struct {
	cs         *callState
	firstCheck bool
	cause      string
}

func (pd *planDecider) decide(p Policy, q *C.mcpr_plan_questions, d *C.mcpr_plan_decision) {
	cs := pd.cs
	if q.definition != nil {
		d.discover = pd.answer(func() error { return p.Discover(cs, Definition{cs: cs, d: q.definition}) }, false)
		if d.discover != cbOK {
			return
		}
	}
	if q.requested != nil && !pd.target(p, q.requested, &d.requested, true) {
		return
	}
	n := int(q.items_len)
	if n == 0 {
		return
	}
	items := unsafe.Slice(q.items, n)
	outs := unsafe.Slice(d.items, n)
	for i := range items {
		if !pd.target(p, items[i], &outs[i], false) {
			return
		}
	}
}

// target answers one target's visibility and, when visible, its read
// permission; false where the per-item form stops asking.
func (pd *planDecider) target(p Policy, t *C.mcpr_target, out *C.mcpr_target_decision, requested bool) bool {
	cs := pd.cs
	var v Visibility
	out.visibility_result = pd.answer(func() (err error) {
		v, err = p.Visibility(cs, Target{cs: cs, t: t})
		return err
	}, false)
	if out.visibility_result != cbOK {
		return false
	}
	out.visibility.visible = C.bool(v.Visible)
	out.visibility.disclose_issue_uri = C.bool(v.DiscloseIssueURI)
	if !v.Visible {
		return !requested
	}
	out.read_result = pd.answer(func() error { return p.Read(cs, Target{cs: cs, t: t}) }, true)
	switch out.read_result {
	case cbOK:
		return true
	case cbUnavailable:
		return !requested
	case cbInputRequired:
		return !requested && !pd.firstCheck
	}
	return false
}

// answer runs one policy method and classifies its error as classify does
// for a callback; a panic (in the method or in its error's methods) is
// that answer's failure.
func (pd *planDecider) answer(f func() error, mayAsk bool) (res C.mcpr_cb_result) {
	stage := stageCallback
	defer func() {
		if r := recover(); r != nil {
			res = pd.fail(panicCause(stage, r))
		}
	}()
	err := f()
	stage = stageResult
	if err == nil {
		return cbOK
	}
	// Asking for input where the library does not take it is a denial.
	if _, ok := inputRequiredOf(err); ok && (!mayAsk || !pd.firstCheck) {
		return cbUnavailable
	}
	o := classify(pd.cs, err)
	if o.res == cbFailed {
		return pd.fail(o.cause)
	}
	return o.res
}

func (pd *planDecider) fail(cause string) C.mcpr_cb_result {
	if pd.cause == "" {
		pd.cause = cause
	}
	return cbFailed
}
