package mcpresources_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// events keeps the events an observer gets.
type events struct {
	mu  sync.Mutex
	all []*mcpr.Event
}

func (ev *events) add(e *mcpr.Event) {
	ev.mu.Lock()
	ev.all = append(ev.all, e)
	ev.mu.Unlock()
}

func (ev *events) take() []*mcpr.Event {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	out := ev.all
	ev.all = nil
	return out
}

// planned is a binding planning the given items (each read as "body").
type planned struct{ items []string }

func (p planned) Resolve(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error {
	if err := plan.SetRequested(m.URI(), "", nil); err != nil {
		return err
	}
	for _, i := range p.items {
		if err := plan.AddItem(i, "", nil); err != nil {
			return err
		}
	}
	return nil
}

func (p planned) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", "body")
}

type observeKey struct{}

func observed(t *testing.T, ev *events, opt mcpr.ObserverOptions, hidden string) *mcpr.Resources {
	t.Helper()
	b := mcpr.NewBuilder()
	defer b.Close()
	policy := mcpr.PolicyFuncs{VisibilityFunc: func(ctx context.Context, tg mcpr.Target) (mcpr.Visibility, error) {
		return mcpr.Visibility{Visible: tg.URI() != hidden, DiscloseIssueURI: true}, nil
	}}
	if err := b.SetPolicy(policy); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(def("bundle://b", "b"), planned{items: []string{"x://a", hidden}}); err != nil {
		t.Fatal(err)
	}
	if err := b.SetObserver(ev.add, opt); err != nil {
		t.Fatal(err)
	}
	r, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func TestObserverGetsOneCallEventPerCallWithTheCallersContext(t *testing.T) {
	ev := &events{}
	r := observed(t, ev, mcpr.ObserverOptions{}, "x://hidden")
	ctx := context.WithValue(context.Background(), observeKey{}, "caller-7")
	if _, err := r.Read(ctx, "bundle://b", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(ctx, "x://none", nil); !errors.Is(err, mcpr.ErrUnavailable) {
		t.Fatalf("not found: %v", err)
	}
	if _, err := r.List(ctx, "tenant", "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Request(ctx, "resources/read", []byte(`{"uri":1}`), nil); err != nil {
		t.Fatal(err)
	}
	got := ev.take()
	if len(got) != 4 {
		t.Fatalf("%d events, want 4", len(got))
	}
	want := []struct {
		method string
		status mcpr.Status
	}{
		{"resources/read", mcpr.StatusOK}, {"resources/read", mcpr.StatusUnavailable},
		{"resources/list", mcpr.StatusOK}, {"resources/read", mcpr.StatusInvalidRequest},
	}
	for i, e := range got {
		if e.Kind != mcpr.KindCall || e.Method != want[i].method || e.Status != want[i].status {
			t.Errorf("event %d: %+v", i, e)
		}
		if e.Context == nil || e.Context.Value(observeKey{}) != "caller-7" {
			t.Errorf("event %d: the caller's context is missing", i)
		}
		if e.Duration <= 0 {
			t.Errorf("event %d: no duration", i)
		}
	}
	if got[0].URI != "bundle://b" || !got[0].HasURIHash {
		t.Errorf("read: uri %q hash %v", got[0].URI, got[0].HasURIHash)
	}
	if h, _ := r.EventHash([]byte("bundle://b")); h != got[0].URIHash {
		t.Error("the registry's event hash differs from the event's")
	}
	if !got[2].HasScopeKeyHash {
		t.Error("a listing names its scope key by its hash")
	}
	if got[1].PrivateCause == "" {
		t.Error("a failure carries its private cause")
	}
}

func TestObserverDecisionsNeverShowAHiddenURI(t *testing.T) {
	ev := &events{}
	r := observed(t, ev, mcpr.ObserverOptions{Decisions: true, CallbackTimings: true}, "x://CANARY-hidden")
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	for _, opt := range []*mcpr.ReadOptions{nil, {Executor: ex}} {
		if _, err := r.Read(context.Background(), "bundle://b", opt); err != nil {
			t.Fatal(err)
		}
		got := ev.take()
		if len(got) != 3 {
			t.Fatalf("%d events, want 3 (two items, the call)", len(got))
		}
		if got[0].Rule != mcpr.RuleAdmitted || got[0].URI != "x://a" || got[0].Private {
			t.Errorf("admitted: %+v", got[0])
		}
		h := got[1]
		if h.Rule != mcpr.RuleHidden || !h.Private || h.URI != "" || h.HasURIHash || h.PrivateItemIndex != 1 {
			t.Errorf("hidden: %+v", h)
		}
		if strings.Contains(h.PrivateCause, "CANARY") {
			t.Error("a hidden item's cause names it")
		}
		c := got[2]
		if c.Kind != mcpr.KindCall || c.PrivateCallbacks == nil || c.PrivateCallbacks.BodyReadCalls != 1 {
			t.Errorf("call: %+v", c)
		}
		if opt != nil && !c.HasQueueWait {
			t.Error("no queue wait on an executor")
		}
	}
}

func TestAPanickingObserverChangesNoResultAndIsReleased(t *testing.T) {
	var calls atomic.Int64
	b := mcpr.NewBuilder()
	if err := b.SetPolicy(mcpr.AllowAll); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(def("doc://a", "a"), text("hello")); err != nil {
		t.Fatal(err)
	}
	if err := b.SetObserver(func(*mcpr.Event) { calls.Add(1); panic("observer bug") }, mcpr.ObserverOptions{Decisions: true}); err != nil {
		t.Fatal(err)
	}
	if err := b.SetObserver(nil, mcpr.ObserverOptions{}); err == nil {
		t.Error("a nil observer is refused")
	}
	r, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	bundle, err := r.Read(context.Background(), "doc://a", nil)
	if err != nil || !strings.Contains(string(bundle.JSON), "hello") {
		t.Fatalf("read: %v %s", err, bundle.JSON)
	}
	if calls.Load() != 2 {
		t.Errorf("%d observer calls, want 2", calls.Load())
	}
	r.Close()
}

func TestMetricsCountEveryCallWithoutAnObserver(t *testing.T) {
	r := (&reg{}).add(def("doc://a", "a"), text("x")).build(t)
	for i := 0; i < 3; i++ {
		if _, err := r.Read(context.Background(), "doc://a", nil); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = r.Read(context.Background(), "doc://none", nil)
	ok, err := r.Metrics("resources/read", mcpr.StatusOK)
	if err != nil || ok.Calls != 3 || ok.Total <= 0 {
		t.Fatalf("ok: %+v %v", ok, err)
	}
	if m, _ := r.Metrics("resources/read", mcpr.StatusUnavailable); m.Calls != 1 {
		t.Errorf("unavailable: %+v", m)
	}
	if _, err := r.Metrics("tools/list", mcpr.StatusOK); err == nil {
		t.Error("an unknown method is refused")
	}
}
