package mcpresources_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// hang is a reader that waits for its context (honouring cancellation).
func hang(started chan<- struct{}) mcpr.Binding {
	return mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		if started != nil {
			select {
			case started <- struct{}{}:
			default:
			}
		}
		<-ctx.Done()
		return ctx.Err()
	})
}

func TestContextDeadlineIsDeadlineExceededNeverCanceled(t *testing.T) {
	r := (&reg{}).add(def("doc://hang", "hang"), hang(nil)).build(t)
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	for i := 0; i < 30; i++ {
		opt := (*mcpr.ReadOptions)(nil)
		if i%2 == 1 {
			opt = &mcpr.ReadOptions{Executor: ex}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+i%7)*time.Millisecond)
		start := time.Now()
		_, err := r.Read(ctx, "doc://hang", opt)
		cancel()
		if time.Since(start) > 5*time.Second {
			t.Fatalf("read returned after %v", time.Since(start))
		}
		e := asError(t, err, mcpr.StatusDeadlineExceeded)
		if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			t.Fatalf("errors.Is mapping wrong for %+v", e)
		}
	}
}

func TestExpiredContextFailsBeforeCalling(t *testing.T) {
	var calls atomic.Int32
	r := (&reg{}).add(def("doc://a", "a"), mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		calls.Add(1)
		return out.SetText("text/plain", "a")
	})).build(t)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := r.Read(ctx, "doc://a", nil)
	asError(t, err, mcpr.StatusDeadlineExceeded)
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	_, err = r.List(ctx2, "s", "", nil)
	asError(t, err, mcpr.StatusCanceled)
	if calls.Load() != 0 {
		t.Fatal("a callback ran for a context already done")
	}
}

func TestCancelReachesTheReaderAndReportsCanceled(t *testing.T) {
	started := make(chan struct{}, 1)
	r := (&reg{}).add(def("doc://hang", "hang"), hang(started)).build(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	_, err := r.Read(ctx, "doc://hang", nil)
	e := asError(t, err, mcpr.StatusCanceled)
	if !errors.Is(err, context.Canceled) {
		t.Fatal("errors.Is(err, context.Canceled) false")
	}
	if e.Message != "resource request canceled" {
		t.Fatalf("message %q differs from the library's", e.Message)
	}
}

func TestBindingMessagesEqualTheLibrarys(t *testing.T) {
	// The binding decides canceled / deadline exceeded itself for a
	// context already done; its messages must equal the library's.
	r := (&reg{limits: mcpr.Limits{ReadTimeout: 20 * time.Millisecond}}).add(def("doc://hang", "hang"), hang(nil)).build(t)
	_, err := r.Read(context.Background(), "doc://hang", nil)
	lib := asError(t, err, mcpr.StatusDeadlineExceeded)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err = r.Read(ctx, "doc://hang", nil)
	own := asError(t, err, mcpr.StatusDeadlineExceeded)
	if lib.Message != own.Message || lib.Code != own.Code {
		t.Fatalf("library %q/%d, binding %q/%d", lib.Message, lib.Code, own.Message, own.Code)
	}
}

func TestItemDeadlineReachesTheCallbackContext(t *testing.T) {
	var seen atomic.Value
	r := (&reg{limits: mcpr.Limits{ItemTimeout: 30 * time.Millisecond}}).add(def("doc://hang", "hang"),
		mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
			if _, ok := ctx.Deadline(); !ok {
				seen.Store(errors.New("no deadline"))
				return errors.New("no deadline")
			}
			<-ctx.Done()
			seen.Store(ctx.Err())
			return ctx.Err()
		})).build(t)
	_, err := r.Read(context.Background(), "doc://hang", nil)
	asError(t, err, mcpr.StatusTimeout)
	if got := seen.Load(); got != context.DeadlineExceeded {
		t.Fatalf("callback saw %v, want context.DeadlineExceeded", got)
	}
}

func TestAbandonedReaderOnAnExecutorIsSafe(t *testing.T) {
	release := make(chan struct{})
	finished := make(chan string, 1)
	r := (&reg{limits: mcpr.Limits{ItemTimeout: 20 * time.Millisecond}}).add(def("doc://stuck", "stuck"),
		mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
			<-release // ignores ctx: hangs past every deadline
			// Still inside the callback: the views and ctx stay usable.
			uri := t.URI()
			_ = out.SetText("text/plain", "late")
			finished <- uri + " " + errString(ctx.Err())
			return nil
		})).build(t)
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Read(context.Background(), "doc://stuck", &mcpr.ReadOptions{Executor: ex})
	asError(t, err, mcpr.StatusTimeout)
	// The call returned; drop every Go reference while the reader runs.
	r.Close()
	ex.Close()
	close(release)
	select {
	case got := <-finished:
		if got != "doc://stuck context canceled" && got != "doc://stuck context deadline exceeded" {
			t.Fatalf("abandoned reader saw %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("abandoned reader never finished")
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestInlineReaderIgnoringItsDeadlineIsATimeout(t *testing.T) {
	r := (&reg{limits: mcpr.Limits{ItemTimeout: 20 * time.Millisecond}}).add(def("doc://deaf", "deaf"),
		mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
			time.Sleep(80 * time.Millisecond) // ignores ctx
			return out.SetText("text/plain", "too late")
		})).build(t)
	start := time.Now()
	_, err := r.Read(context.Background(), "doc://deaf", nil)
	asError(t, err, mcpr.StatusTimeout)
	if time.Since(start) > 10*time.Second {
		t.Fatalf("returned after %v", time.Since(start))
	}
}

func TestSixteenGoroutinesWhileReadersHangOnAnExecutor(t *testing.T) {
	var started atomic.Int32
	r := (&reg{limits: mcpr.Limits{ItemTimeout: 30 * time.Millisecond}}).
		add(def("doc://hang", "hang"), mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
			started.Add(1)
			time.Sleep(60 * time.Millisecond) // past its item deadline, ignoring ctx
			return out.SetText("text/plain", "late")
		})).
		add(def("doc://ok", "ok"), text("ok")).build(t)
	ex, err := mcpr.NewExecutor(4)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	errs := make(chan error, 16*4)
	done := make(chan struct{})
	for g := 0; g < 16; g++ {
		go func(g int) {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 4; i++ {
				// Hanging reads on the executor (its workers stay busy past
				// every deadline), good reads inline at the same time.
				uri, opt := "doc://ok", (*mcpr.ReadOptions)(nil)
				if g%2 == 0 {
					uri, opt = "doc://hang", &mcpr.ReadOptions{Executor: ex}
				}
				_, err := r.Read(context.Background(), uri, opt)
				var e *mcpr.Error
				switch {
				case uri == "doc://ok" && err != nil:
					errs <- err
				case uri == "doc://hang" && (!errors.As(err, &e) || (e.Status != mcpr.StatusTimeout && e.Status != mcpr.StatusDeadlineExceeded)):
					errs <- err
				}
			}
		}(g)
	}
	for g := 0; g < 16; g++ {
		<-done
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if started.Load() == 0 {
		t.Fatal("no hanging reader ran")
	}
}

func TestListingOnAnExecutorReturnsByItsDeadlineWhateverDiscoverDoes(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	p := mcpr.PolicyFuncs{DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
		<-release // hangs, ignoring ctx
		return nil
	}}
	r := (&reg{policy: p}).add(def("doc://a", "a"), text("a")).build(t)
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = r.List(ctx, "s", "", &mcpr.ListOptions{Executor: ex})
	asError(t, err, mcpr.StatusDeadlineExceeded)
	if time.Since(start) > 10*time.Second {
		t.Fatalf("returned after %v", time.Since(start))
	}
	st, err := ex.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Threads != 2 || st.Abandoned == 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestExecutorOptionsAreChecked(t *testing.T) {
	if _, err := mcpr.NewExecutorWithOptions(mcpr.ExecutorOptions{Threads: -1}); err == nil {
		t.Fatal("negative threads accepted")
	}
	if _, err := mcpr.NewExecutorWithOptions(mcpr.ExecutorOptions{Threads: 100000}); err == nil {
		t.Fatal("too many threads accepted")
	}
	ex, err := mcpr.NewExecutorWithOptions(mcpr.ExecutorOptions{Threads: 2, MaxHung: 3, MaxQueued: 5})
	if err != nil {
		t.Fatal(err)
	}
	st, err := ex.Stats()
	if err != nil || st.Threads != 2 || st.MaxHung != 3 || st.MaxQueued != 5 {
		t.Fatalf("stats %+v %v", st, err)
	}
	ex.Close()
	if _, err := ex.Stats(); err == nil {
		t.Fatal("stats of a closed executor")
	}
}
