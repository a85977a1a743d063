package mcpresources_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// The error values a careless callback may return. Evaluating any of them
// (errors.Is, Error) panics.

// nilDerefError is returned as a typed nil pointer: its Error dereferences it.
type nilDerefError struct{ msg string }

func (e *nilDerefError) Error() string { return e.msg }

// panickingError panics in Error.
type panickingError struct{}

func (panickingError) Error() string { panic("Error method panicked") }

// panickingIs panics in Is (errors.Is calls it).
type panickingIs struct{}

func (panickingIs) Error() string { return "an error whose Is panics" }
func (panickingIs) Is(error) bool { panic("Is method panicked") }

// panickingUnwrap panics in Unwrap (errors.Is walks the chain).
type panickingUnwrap struct{}

func (panickingUnwrap) Error() string { return "an error whose Unwrap panics" }
func (panickingUnwrap) Unwrap() error { panic("Unwrap method panicked") }

var badErrors = []struct {
	name string
	make func() error
}{
	{"typed nil pointer", func() error { var e *nilDerefError; return e }},
	{"panicking Error", func() error { return panickingError{} }},
	{"panicking Is", func() error { return panickingIs{} }},
	{"panicking Unwrap", func() error { return panickingUnwrap{} }},
}

// callbackKinds are the callbacks that return errors, with the status a
// failing one gives the call.
var callbackKinds = []struct {
	name string
	want mcpr.Status
}{
	{"discover", mcpr.StatusPolicy},
	{"visibility", mcpr.StatusPolicy},
	{"policy read", mcpr.StatusPolicy},
	{"resolve", mcpr.StatusInvalidPlan},
	{"read", mcpr.StatusReadFailed},
	{"complete", mcpr.StatusReadFailed},
}

// badPolicy returns the bad error from the callback named by where.
type badPolicy struct {
	where string
	err   func() error
}

func (p *badPolicy) Discover(ctx context.Context, d mcpr.Definition) error {
	if p.where == "discover" {
		return p.err()
	}
	return nil
}

func (p *badPolicy) Visibility(ctx context.Context, t mcpr.Target) (mcpr.Visibility, error) {
	if p.where == "visibility" {
		return mcpr.Visibility{}, p.err()
	}
	return mcpr.Visibility{Visible: true}, nil
}

func (p *badPolicy) Read(ctx context.Context, t mcpr.Target) error {
	if p.where == "policy read" {
		return p.err()
	}
	return nil
}

// badBinding is a template binding (resolver, reader, completer) returning
// the bad error from the callback named by where.
type badBinding struct {
	where string
	err   func() error
}

func (b *badBinding) Resolve(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error {
	if b.where == "resolve" {
		return b.err()
	}
	if err := plan.SetRequested(m.URI(), "", nil); err != nil {
		return err
	}
	return plan.AddItem(m.URI(), "", nil)
}

func (b *badBinding) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	if b.where == "read" {
		return b.err()
	}
	return out.SetText("text/plain", "ok")
}

func (b *badBinding) Complete(ctx context.Context, req mcpr.CompletionRequest, out *mcpr.Completion) error {
	if b.where == "complete" {
		return b.err()
	}
	return out.AddValue("x")
}

// callFailure makes the call that runs the callback named by where and
// returns its failure status and private cause.
func callFailure(r *mcpr.Resources, where string, ex *mcpr.Executor) (mcpr.Status, string, error) {
	if where == "complete" {
		params := `{"ref":{"type":"ref/resource","uri":"doc://bad/{x}"},"argument":{"name":"x","value":""}}`
		resp, err := r.Request(context.Background(), "completion/complete", []byte(params),
			&mcpr.RequestOptions{Executor: ex})
		if err != nil {
			return 0, "", err
		}
		if !resp.IsError {
			return mcpr.StatusOK, "", fmt.Errorf("completion succeeded: %s", resp.JSON)
		}
		return resp.Status, resp.Cause(), nil
	}
	_, err := r.Read(context.Background(), "doc://bad/1", &mcpr.ReadOptions{Executor: ex})
	e, ok := err.(*mcpr.Error)
	if !ok {
		return 0, "", fmt.Errorf("read: %v (%T)", err, err)
	}
	return e.Status, e.Cause(), nil
}

// waitReleased waits until the library released v's table once (a worker
// may run the release a little after the last free), then checks it stays
// released exactly once.
func waitReleased(t *testing.T, what string, v any) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for mcpr.ReleasesOf(v) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(5 * time.Millisecond)
	if n := mcpr.ReleasesOf(v); n != 1 {
		t.Fatalf("%s released %d times after Close, want exactly 1", what, n)
	}
}

// TestACallbacksErrorValueIsEvaluatedInsideTheBarrier: an error value whose
// evaluation panics (a typed nil pointer, a panicking Error or Is) returned
// by any callback fails the call like a panic in the callback, inline, on
// an executor, isolated, and under a host-side recover (which must then
// see nothing); the registry's tables are released exactly once at Close.
func TestACallbacksErrorValueIsEvaluatedInsideTheBarrier(t *testing.T) {
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	modes := []struct {
		name         string
		executor     *mcpr.Executor
		isolate      bool
		hostRecovers bool
	}{
		{"inline", nil, false, false},
		{"inline under a host recover", nil, false, true},
		{"executor", ex, false, false},
		{"executor under a host recover", ex, false, true},
		{"isolated", nil, true, true},
		{"isolated on an executor", ex, true, true},
	}
	for _, kind := range callbackKinds {
		for _, bad := range badErrors {
			for _, mode := range modes {
				t.Run(kind.name+"/"+bad.name+"/"+mode.name, func(t *testing.T) {
					policy := &badPolicy{where: kind.name, err: bad.make}
					binding := &badBinding{where: kind.name, err: bad.make}
					b := mcpr.NewBuilder()
					b.SetCallbackIsolation(mode.isolate)
					if err := b.SetPolicy(policy); err != nil {
						t.Fatal(err)
					}
					if err := b.Add(tdef("doc://bad/{x}", "bad"), binding); err != nil {
						t.Fatal(err)
					}
					r, err := b.Build()
					if err != nil {
						t.Fatal(err)
					}
					var st mcpr.Status
					var cause string
					var recovered any
					func() {
						if mode.hostRecovers {
							defer func() { recovered = recover() }()
						}
						st, cause, err = callFailure(r, kind.name, mode.executor)
					}()
					r.Close()
					switch {
					case recovered != nil:
						t.Errorf("a panic reached the host through the library: %v", recovered)
					case err != nil:
						t.Error(err)
					case st != kind.want:
						t.Errorf("status %v, want %v (cause %q)", st, kind.want, cause)
					case kind.name != "read" && !strings.Contains(cause, "panic in the Error or Is method of the error a Go callback returned"):
						t.Errorf("cause %q does not name the panic", cause)
					}
					waitReleased(t, "the policy", policy)
					waitReleased(t, "the binding", binding)
				})
			}
		}
	}
}

// trapContext is a caller's context whose Done and Err panic once armed
// (after the call began): host code the binding calls on the library's
// behalf.
type trapContext struct {
	context.Context
	armed atomic.Bool
}

func (c *trapContext) Done() <-chan struct{} {
	if c.armed.Load() {
		panic("Done of the caller's context panicked")
	}
	return c.Context.Done()
}

func (c *trapContext) Err() error {
	if c.armed.Load() {
		panic("Err of the caller's context panicked")
	}
	return c.Context.Err()
}

// returnsWithin runs f and fails when it has not returned within d.
func returnsWithin(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("the call did not return within %v", d)
	}
}

// TestAPanickingCallerContextNeitherHangsNorCrashesTheCall: the caller's
// context's methods are host code too. One that panics while a callback
// asks its context for Err fails that callback (the call returns; the
// callback context's lock is not left held), and one that panics in the
// binding's watcher goroutine (the callback waits on Done) ends the
// callback's context instead of the process.
func TestAPanickingCallerContextNeitherHangsNorCrashesTheCall(t *testing.T) {
	for _, how := range []string{"Err in the callback", "Done in the watcher"} {
		t.Run(how, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			trap := &trapContext{Context: ctx}
			seen := make(chan error, 1)
			r := (&reg{}).add(def("doc://trap", "trap"), mcpr.ReadFunc(func(cbCtx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
				defer trap.armed.Store(false) // armed only while the callback runs
				if how == "Err in the callback" {
					trap.armed.Store(true)
					_ = cbCtx.Err()
					return nil
				}
				done := cbCtx.Done()
				trap.armed.Store(true)
				select {
				case <-done:
					seen <- cbCtx.Err()
				case <-time.After(10 * time.Second):
					seen <- nil
				}
				return out.SetText("text/plain", "late")
			})).build(t)
			var err error
			var recovered any
			returnsWithin(t, 20*time.Second, func() {
				defer func() { recovered = recover() }()
				_, err = r.Read(trap, "doc://trap", nil)
			})
			if recovered != nil {
				t.Fatalf("a panic reached the host through the library: %v", recovered)
			}
			if how == "Err in the callback" {
				e := asError(t, err, mcpr.StatusReadFailed)
				if !strings.Contains(e.Cause(), "panic") {
					t.Fatalf("cause %q", e.Cause())
				}
				return
			}
			if got := <-seen; got != context.Canceled {
				t.Fatalf("the callback's context ended with %v, want context.Canceled", got)
			}
		})
	}
}

// unprintable is a panic value whose Error panics with itself: fmt gives
// up on it and panics again.
type unprintable struct{}

func (unprintable) Error() string { panic(unprintable{}) }

// TestAPanicValueWhoseFormattingPanicsIsStillAFailure: the binding formats
// a recovered panic value into the private cause; formatting is host code
// (the value's Error or String method) and a panic in it stays inside the
// barrier too.
func TestAPanicValueWhoseFormattingPanicsIsStillAFailure(t *testing.T) {
	r := (&reg{policy: mcpr.PolicyFuncs{DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
		panic(unprintable{})
	}}}).add(def("doc://x", "x"), text("x")).build(t)
	var err error
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		_, err = r.Read(context.Background(), "doc://x", nil)
	}()
	if recovered != nil {
		t.Fatalf("a panic reached the host through the library: %v", recovered)
	}
	e := asError(t, err, mcpr.StatusPolicy)
	if !strings.Contains(e.Cause(), "panic in a Go callback") {
		t.Fatalf("cause %q", e.Cause())
	}
}
