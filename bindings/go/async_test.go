package mcpresources_test

// Asynchronous calls (docs/BEHAVIOUR.md §20): ReadAsync, ListAsync,
// ListTemplatesAsync, RequestAsync and MessageAsync. Each channel receives
// exactly one Outcome (then it is closed), what the blocking call returns;
// cancelling ctx concludes a call at once while its reader ignores it, and
// ctx's deadline concludes it as DeadlineExceeded; host mistakes fail the
// start and nothing is left registered; the registry and the executor
// closed while calls are in flight, every table released exactly once
// after the last outcome; eight goroutines starting calls at once; many
// calls in flight hold no thread each; the callbacks see ctx's values.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// hangBinding blocks its reads until release is closed, ignoring ctx;
// entered counts the reads that began.
type hangBinding struct {
	release chan struct{}
	mu      sync.Mutex
	entered int
}

func (h *hangBinding) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	h.mu.Lock()
	h.entered++
	h.mu.Unlock()
	<-h.release
	return out.SetText("text/plain", "body of "+t.URI())
}

func (h *hangBinding) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.entered
}

// asyncFixture is a registry with ok://a, ok://b (their URI as text),
// hang://h (a hangBinding) and the template tpl://t/{name} (files: it
// completes), on an executor of two workers.
type asyncFixture struct {
	res  *mcpr.Resources
	ex   *mcpr.Executor
	hang *hangBinding
	ok   mcpr.Binding
	tpl  files
}

func newAsyncFixture(t *testing.T) *asyncFixture {
	t.Helper()
	f := &asyncFixture{hang: &hangBinding{release: make(chan struct{})}}
	f.ok = &uriBinding{}
	r := &reg{limits: mcpr.Limits{ItemTimeout: time.Minute, ReadTimeout: time.Minute}}
	r.add(def("ok://a", "a"), f.ok).add(def("ok://b", "b"), f.ok).add(def("hang://h", "h"), f.hang)
	r.add(tdef("tpl://t/{name}", "t"), f.tpl)
	f.res = r.build(t)
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	f.ex = ex
	t.Cleanup(func() {
		f.open()
		ex.Close()
	})
	return f
}

// open releases every hung reader (idempotent).
func (f *asyncFixture) open() {
	select {
	case <-f.hang.release:
	default:
		close(f.hang.release)
	}
}

// uriBinding serves "body of <uri>".
type uriBinding struct{ _ int } // not zero-sized: ReleasesOf tells instances apart

func (*uriBinding) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", "body of "+t.URI())
}

// slow scales time bounds under the race detector and slow machines.
func slow(d time.Duration) time.Duration {
	if os.Getenv("MCPR_TEST_SLOW") != "" {
		return d * 10
	}
	return d
}

// once receives the one Outcome of ch within max, and checks that the
// channel is closed after it.
func once[T any](t *testing.T, ch <-chan mcpr.Outcome[T], max time.Duration) mcpr.Outcome[T] {
	t.Helper()
	select {
	case o, ok := <-ch:
		if !ok {
			t.Fatal("the channel was closed without an outcome")
		}
		select {
		case _, more := <-ch:
			if more {
				t.Fatal("a second outcome")
			}
		case <-time.After(slow(time.Second)):
			t.Fatal("the channel was not closed after its outcome")
		}
		return o
	case <-time.After(slow(max)):
		t.Fatalf("no outcome within %v", max)
	}
	panic("unreachable")
}

// started is the channel of a start that must succeed (a failed start
// panics, failing the test with its error).
func started[T any](ch <-chan mcpr.Outcome[T], err error) <-chan mcpr.Outcome[T] {
	if err != nil {
		panic("start: " + err.Error())
	}
	if ch == nil {
		panic("start gave no channel")
	}
	return ch
}

func TestAsyncCallsCompleteOnceWithTheBlockingOutcome(t *testing.T) {
	f := newAsyncFixture(t)
	ctx := context.Background()
	ro := &mcpr.ReadOptions{Executor: f.ex}
	for _, uri := range []string{"ok://a", "none://x", "ok://\xff"} {
		o := once(t, started(f.res.ReadAsync(ctx, uri, ro)), 10*time.Second)
		b, err := f.res.Read(ctx, uri, ro)
		if (err == nil) != (o.Err == nil) {
			t.Fatalf("%q: async %v, blocking %v", uri, o.Err, err)
		}
		if err != nil {
			var ea, eb *mcpr.Error
			if !errors.As(o.Err, &ea) || !errors.As(err, &eb) || ea.Status != eb.Status || !bytes.Equal(ea.JSONRPC, eb.JSONRPC) {
				t.Fatalf("%q: async %#v, blocking %#v", uri, o.Err, err)
			}
		} else if !bytes.Equal(o.Value.JSON, b.JSON) || o.Value.Partial != b.Partial {
			t.Fatalf("%q: async %s, blocking %s", uri, o.Value.JSON, b.JSON)
		}
	}

	lo := &mcpr.ListOptions{Executor: f.ex, PageSize: 2}
	for _, templates := range []bool{false, true} {
		start, blocking := f.res.ListAsync, f.res.List
		if templates {
			start, blocking = f.res.ListTemplatesAsync, f.res.ListTemplates
		}
		o := once(t, started(start(ctx, "caller", "", lo)), 10*time.Second)
		p, err := blocking(ctx, "caller", "", lo)
		if o.Err != nil || err != nil {
			t.Fatalf("list: %v, %v", o.Err, err)
		}
		// The same page, apart from the cursor's random nonce.
		if len(o.Value.JSON) != len(p.JSON) || !bytes.Equal(o.Value.JSON[:30], p.JSON[:30]) ||
			(o.Value.NextCursor == "") != (p.NextCursor == "") {
			t.Fatalf("templates %v: async %s, blocking %s", templates, o.Value.JSON, p.JSON)
		}
		// The cursor works for the next page.
		if o.Value.NextCursor != "" {
			next := once(t, started(start(ctx, "caller", o.Value.NextCursor, lo)), 10*time.Second)
			if next.Err != nil {
				t.Fatalf("next page: %v", next.Err)
			}
		}
	}

	qo := &mcpr.RequestOptions{Executor: f.ex, ScopeKey: "caller"}
	for _, rq := range []struct{ method, params string }{
		{"resources/read", `{"uri":"ok://b"}`},
		{"resources/read", `{"uri":1}`},
		{"completion/complete", `{"ref":{"type":"ref/resource","uri":"tpl://t/{name}"},"argument":{"name":"name","value":"al"}}`},
	} {
		o := once(t, started(f.res.RequestAsync(ctx, rq.method, []byte(rq.params), qo)), 10*time.Second)
		r, err := f.res.Request(ctx, rq.method, []byte(rq.params), qo)
		if o.Err != nil || err != nil {
			t.Fatalf("%s: %v, %v", rq.params, o.Err, err)
		}
		if !bytes.Equal(o.Value.JSON, r.JSON) || o.Value.IsError != r.IsError || o.Value.Status != r.Status {
			t.Fatalf("%s: async %s, blocking %s", rq.params, o.Value.JSON, r.JSON)
		}
	}
	// A ref/prompt completion is known only once its params are read.
	o := once(t, started(f.res.RequestAsync(ctx, "completion/complete",
		[]byte(`{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}`), qo)), 10*time.Second)
	if !errors.Is(o.Err, mcpr.ErrMethodNotHandled) {
		t.Fatalf("ref/prompt: %v", o.Err)
	}

	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"ok://a"}}`,
		`garbage`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/list"}`,
	} {
		o := once(t, started(f.res.MessageAsync(ctx, []byte(msg), qo)), 10*time.Second)
		r, err := f.res.Message(ctx, []byte(msg), qo)
		if o.Err != nil || err != nil {
			t.Fatalf("%s: %v, %v", msg, o.Err, err)
		}
		if !bytes.Equal(o.Value.JSON, r.JSON) || o.Value.Handled != r.Handled || o.Value.Kind != r.Kind ||
			o.Value.Method != r.Method || !bytes.Equal(o.Value.ID, r.ID) {
			t.Fatalf("%s: async %+v, blocking %+v", msg, o.Value, r)
		}
	}
	if n := mcpr.PendingRequests(); n != 0 {
		t.Fatalf("%d requests still registered", n)
	}
}

func TestCancellingTheContextConcludesAnAsyncReadAtOnceWhileTheReaderIgnoresIt(t *testing.T) {
	f := newAsyncFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := started(f.res.ReadAsync(ctx, "hang://h", &mcpr.ReadOptions{Executor: f.ex}))
	waitFor(t, func() bool { return f.hang.count() == 1 })
	select {
	case o := <-ch:
		t.Fatalf("an outcome before the cancellation: %+v", o)
	default:
	}
	t0 := time.Now()
	cancel()
	o := once(t, ch, 2*time.Second)
	if !errors.Is(o.Err, context.Canceled) {
		t.Fatalf("got %v, want canceled", o.Err)
	}
	if d := time.Since(t0); d > slow(2*time.Second) {
		t.Fatalf("concluded after %v", d)
	}
	if f.hang.count() != 1 {
		t.Fatal("the reader ran again")
	}

	// ctx's deadline is the deadline error, also while the reader hangs.
	dctx, dcancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer dcancel()
	o = once(t, started(f.res.ReadAsync(dctx, "hang://h", &mcpr.ReadOptions{Executor: f.ex})), 5*time.Second)
	if !errors.Is(o.Err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want deadline exceeded", o.Err)
	}
	// A ctx already done: the call starts cancelled and says so through
	// the channel (only host mistakes fail the start).
	o = once(t, started(f.res.ReadAsync(ctx, "ok://a", &mcpr.ReadOptions{Executor: f.ex})), 5*time.Second)
	if !errors.Is(o.Err, context.Canceled) {
		t.Fatalf("ctx done before the start: %v", o.Err)
	}
	lc, lcancel := context.WithCancel(context.Background())
	lcancel()
	lo := once(t, started(f.res.ListAsync(lc, "caller", "", &mcpr.ListOptions{Executor: f.ex})), 5*time.Second)
	if !errors.Is(lo.Err, context.Canceled) {
		t.Fatalf("list with ctx done: %v", lo.Err)
	}
	ro := once(t, started(f.res.RequestAsync(lc, "resources/read", []byte(`{"uri":"ok://a"}`),
		&mcpr.RequestOptions{Executor: f.ex})), 5*time.Second)
	if ro.Err != nil || !ro.Value.IsError || ro.Value.Status != mcpr.StatusCanceled {
		t.Fatalf("request with ctx done: %+v", ro)
	}
	f.open()
	waitFor(t, func() bool { return mcpr.PendingRequests() == 0 })
}

func TestAsyncStartsRefusedForHostMistakesStartNothing(t *testing.T) {
	f := newAsyncFixture(t)
	ctx := context.Background()
	refused := func(what string, err error, want mcpr.Status) {
		t.Helper()
		asError(t, err, want)
		if n := mcpr.PendingRequests(); n != 0 {
			t.Fatalf("%s: %d requests left registered", what, n)
		}
	}
	ch, err := f.res.ReadAsync(ctx, "ok://a", nil) // no executor
	if ch != nil {
		t.Fatal("a channel for a refused start")
	}
	refused("no executor", err, mcpr.StatusInvalidArgument)
	_, err = f.res.ReadAsync(ctx, "ok://a", &mcpr.ReadOptions{Executor: f.ex, Revision: "1999-01-01"})
	refused("revision", err, mcpr.StatusInvalidArgument)
	_, err = f.res.ListAsync(ctx, "", "", &mcpr.ListOptions{Executor: f.ex})
	refused("no scope key", err, mcpr.StatusInvalidArgument)
	_, err = f.res.ListTemplatesAsync(ctx, "k", "", &mcpr.ListOptions{Executor: f.ex, PageSize: -1})
	refused("page size", err, mcpr.StatusInvalidArgument)
	_, err = f.res.RequestAsync(ctx, "tools/list", nil, &mcpr.RequestOptions{Executor: f.ex})
	if !errors.Is(err, mcpr.ErrMethodNotHandled) {
		t.Fatalf("tools/list: %v", err)
	}
	refused("tools/list", err, mcpr.StatusMethodNotHandled)
	_, err = f.res.MessageAsync(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`), &mcpr.RequestOptions{Executor: f.ex})
	refused("message without a scope key", err, mcpr.StatusInvalidArgument)
	closedEx, _ := mcpr.NewExecutor(1)
	closedEx.Close()
	_, err = f.res.ReadAsync(ctx, "ok://a", &mcpr.ReadOptions{Executor: closedEx})
	refused("closed executor", err, mcpr.StatusInvalidArgument)
	r := (&reg{}).add(def("ok://a", "a"), text("x")).build(t)
	r.Close()
	_, err = r.ReadAsync(ctx, "ok://a", &mcpr.ReadOptions{Executor: f.ex})
	refused("closed registry", err, mcpr.StatusInvalidArgument)
}

func TestTheRegistryAndExecutorMayCloseWhileAsyncCallsAreInFlight(t *testing.T) {
	hang := &hangBinding{release: make(chan struct{})}
	ok := &uriBinding{}
	policy := &mcpr.PolicyFuncs{DiscoverFunc: func(context.Context, mcpr.Definition) error { return nil }}
	b := mcpr.NewBuilder()
	defer b.Close()
	if err := b.SetPolicy(policy); err != nil {
		t.Fatal(err)
	}
	b.SetLimits(mcpr.Limits{ItemTimeout: time.Minute, ReadTimeout: time.Minute})
	b.Add(def("hang://h", "h"), hang)
	b.Add(def("ok://a", "a"), ok)
	res, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	var chans []<-chan mcpr.Outcome[mcpr.Bundle]
	for i := 0; i < 4; i++ {
		uri := "ok://a"
		if i < 2 {
			uri = "hang://h" // two hang on the workers, two wait in the queue
		}
		chans = append(chans, started(res.ReadAsync(context.Background(), uri, &mcpr.ReadOptions{Executor: ex})))
	}
	waitFor(t, func() bool { return hang.count() == 2 })
	res.Close()
	ex.Close()
	if mcpr.ReleasesOf(hang) != 0 || mcpr.ReleasesOf(ok) != 0 {
		t.Fatal("a table released with calls in flight")
	}
	close(hang.release)
	for i, ch := range chans {
		o := once(t, ch, 10*time.Second)
		if o.Err != nil || !strings.Contains(string(o.Value.JSON), "body of ") {
			t.Fatalf("call %d: %+v", i, o)
		}
	}
	waitFor(t, func() bool { return mcpr.ReleasesOf(hang) == 1 && mcpr.ReleasesOf(ok) == 1 })
	time.Sleep(20 * time.Millisecond)
	if mcpr.ReleasesOf(hang) != 1 || mcpr.ReleasesOf(ok) != 1 {
		t.Fatal("a table released more than once")
	}
	if _, err := res.ReadAsync(context.Background(), "ok://a", &mcpr.ReadOptions{Executor: ex}); err == nil {
		t.Fatal("a closed registry started a call")
	}
	waitFor(t, func() bool { return mcpr.PendingRequests() == 0 })
}

func TestEightGoroutinesStartAsyncCallsAtOnceEachCompletingOnce(t *testing.T) {
	f := newAsyncFixture(t)
	const goroutines, calls = 8, 25
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, goroutines*calls)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			<-start
			var reads []<-chan mcpr.Outcome[mcpr.Bundle]
			var reqs []<-chan mcpr.Outcome[mcpr.Response]
			for i := 0; i < calls; i++ {
				uri := "ok://a"
				if i%2 == 1 {
					uri = "ok://b"
				}
				if i%3 == 0 {
					ch, err := f.res.RequestAsync(context.Background(), "resources/read", []byte(`{"uri":"`+uri+`"}`),
						&mcpr.RequestOptions{Executor: f.ex})
					if err != nil {
						errs <- err
						continue
					}
					reqs = append(reqs, ch)
					continue
				}
				ch, err := f.res.ReadAsync(context.Background(), uri, &mcpr.ReadOptions{Executor: f.ex})
				if err != nil {
					errs <- err
					continue
				}
				reads = append(reads, ch)
			}
			for _, ch := range reads {
				n := 0
				for o := range ch { // closed after its one outcome
					n++
					if o.Err != nil || !strings.Contains(string(o.Value.JSON), "body of ok://") {
						errs <- errors.New("goroutine " + strconv.Itoa(g) + ": bad read outcome")
					}
				}
				if n != 1 {
					errs <- errors.New("a read channel carried " + strconv.Itoa(n) + " outcomes")
				}
			}
			for _, ch := range reqs {
				n := 0
				for o := range ch {
					n++
					if o.Err != nil || o.Value.IsError || !strings.Contains(string(o.Value.JSON), "body of ok://") {
						errs <- errors.New("goroutine " + strconv.Itoa(g) + ": bad request outcome")
					}
				}
				if n != 1 {
					errs <- errors.New("a request channel carried " + strconv.Itoa(n) + " outcomes")
				}
			}
		}(g)
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := mcpr.PendingRequests(); n != 0 {
		t.Fatalf("%d requests still registered", n)
	}
}

// threads is the process's OS thread count (Linux).
func threads(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	t.Skip("no thread count")
	return 0
}

func TestManyAsyncCallsInFlightHoldNoThreadEach(t *testing.T) {
	f := newAsyncFixture(t)
	// Warm up: the executor's workers and its watch thread exist.
	once(t, started(f.res.ReadAsync(context.Background(), "ok://a", &mcpr.ReadOptions{Executor: f.ex})), 10*time.Second)
	before := threads(t)
	const n = 64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var chans []<-chan mcpr.Outcome[mcpr.Bundle]
	for i := 0; i < n; i++ {
		chans = append(chans, started(f.res.ReadAsync(ctx, "hang://h", &mcpr.ReadOptions{Executor: f.ex})))
	}
	waitFor(t, func() bool { return f.hang.count() == 2 }) // two workers hang, 62 calls queue
	if grown := threads(t) - before; grown > n/4 {
		t.Fatalf("%d calls in flight added %d threads", n, grown)
	}
	cancel()
	for _, ch := range chans {
		if o := once(t, ch, 5*time.Second); !errors.Is(o.Err, context.Canceled) {
			t.Fatalf("got %v, want canceled", o.Err)
		}
	}
}

// waitFor polls cond until it holds (failing after ten seconds).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(slow(10 * time.Second))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within the time allowed")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

type asyncKey struct{}

func TestAsyncCallbacksSeeTheCallersContextValues(t *testing.T) {
	seen := make(chan any, 4)
	b := mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		seen <- ctx.Value(asyncKey{})
		return out.SetText("text/plain", "x")
	})
	res := (&reg{}).add(def("ok://v", "v"), b).build(t)
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ctx := context.WithValue(context.Background(), asyncKey{}, "the caller's")
	if o := once(t, started(res.ReadAsync(ctx, "ok://v", &mcpr.ReadOptions{Executor: ex})), 10*time.Second); o.Err != nil {
		t.Fatal(o.Err)
	}
	if o := once(t, started(res.RequestAsync(ctx, "resources/read", []byte(`{"uri":"ok://v"}`),
		&mcpr.RequestOptions{Executor: ex})), 10*time.Second); o.Err != nil || o.Value.IsError {
		t.Fatalf("%+v", o)
	}
	for i := 0; i < 2; i++ {
		if v := <-seen; v != "the caller's" {
			t.Fatalf("the reader saw %v", v)
		}
	}
}
