package mcpresources_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// TestTheDefaultExecutorLeavesRoomForBlockingGoCallbacks: a Go callback
// that waits (on I/O, a lock, a sleep) holds its worker thread, so the
// binding's default executor has several workers per core, at least 8,
// and the library's hung and queue bounds scale with them.
func TestTheDefaultExecutorLeavesRoomForBlockingGoCallbacks(t *testing.T) {
	want := 4 * runtime.GOMAXPROCS(0)
	if want < 8 {
		want = 8
	}
	if got := mcpr.DefaultExecutorThreads(); got != want {
		t.Fatalf("DefaultExecutorThreads %d, want %d", got, want)
	}
	for _, make := range []func() (*mcpr.Executor, error){
		func() (*mcpr.Executor, error) { return mcpr.NewExecutor(0) },
		func() (*mcpr.Executor, error) { return mcpr.NewExecutorWithOptions(mcpr.ExecutorOptions{}) },
	} {
		ex, err := make()
		if err != nil {
			t.Fatal(err)
		}
		st, err := ex.Stats()
		ex.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := uint64(want)
		if st.Threads != n || st.MaxHung != max(8*n, 64) || st.MaxQueued != max(64*n, 1024) {
			t.Fatalf("default executor %+v, want %d threads, max_hung %d, max_queued %d", st, n, max(8*n, 64), max(64*n, 1024))
		}
	}
}

// TestHealthySlowReadsOnTheDefaultExecutorAreNeverRefused: many
// goroutines reading through bindings whose callbacks are slow but within
// their deadlines all succeed on the default executor; nothing is
// abandoned, refused or saturated.
func TestHealthySlowReadsOnTheDefaultExecutorAreNeverRefused(t *testing.T) {
	slow := mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		select {
		case <-time.After(5 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
		return out.SetText("text/plain", "slow")
	})
	r := (&reg{policy: policyFuncs{discover: func(ctx context.Context, d mcpr.Definition) error {
		time.Sleep(time.Millisecond) // a slow policy too
		return nil
	}}}).add(def("doc://slow", "slow"), slow).build(t)
	ex, err := mcpr.NewExecutor(0)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 32*4)
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				if _, err := r.Read(context.Background(), "doc://slow", &mcpr.ReadOptions{Executor: ex}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		e, _ := err.(*mcpr.Error)
		if e != nil {
			t.Errorf("%v (cause %q)", err, e.Cause())
		} else {
			t.Error(err)
		}
	}
	st, err := ex.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Refused != 0 || st.Abandoned != 0 || st.Saturated() {
		t.Fatalf("healthy slow work: %+v", st)
	}
}

// TestStatsSaySaturatedWhenEveryWorkerOrTheHungBoundIsTaken: Saturated
// is the library's definition (hung >= max_hung, or every worker hung),
// seen coming in Hung and Refused.
func TestStatsSaySaturatedWhenEveryWorkerOrTheHungBoundIsTaken(t *testing.T) {
	for _, tc := range []struct {
		st   mcpr.ExecutorStats
		want bool
	}{
		{mcpr.ExecutorStats{MaxHung: 4, Workers: 3, Hung: 0}, false},
		{mcpr.ExecutorStats{MaxHung: 4, Workers: 5, Hung: 3}, false},
		{mcpr.ExecutorStats{MaxHung: 4, Workers: 6, Hung: 4}, true},
		{mcpr.ExecutorStats{MaxHung: 8, Workers: 2, Hung: 2}, true},
	} {
		if got := tc.st.Saturated(); got != tc.want {
			t.Errorf("%+v: Saturated %v, want %v", tc.st, got, tc.want)
		}
	}
	release := make(chan struct{})
	r := (&reg{limits: mcpr.Limits{ItemTimeout: 20 * time.Millisecond}}).add(def("doc://stuck", "stuck"),
		mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
			<-release // ignores ctx
			return nil
		})).build(t)
	ex, err := mcpr.NewExecutorWithOptions(mcpr.ExecutorOptions{Threads: 1, MaxHung: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	_, err = r.Read(context.Background(), "doc://stuck", &mcpr.ReadOptions{Executor: ex})
	asError(t, err, mcpr.StatusTimeout)
	st, _ := ex.Stats()
	if !st.Saturated() || st.Hung != 1 {
		t.Fatalf("one hung reader at max_hung 1: %+v", st)
	}
	// It shows in the counters that outlive it: the hung high-water mark
	// and one saturation.
	if st.HungHighWater != 1 || st.Saturations != 1 || st.BusyHighWater < 1 || st.RefusedQueueFull != 0 {
		t.Fatalf("high-water marks and saturations: %+v", st)
	}
	close(release)
	deadline := time.Now().Add(10 * time.Second)
	for st.Saturated() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		st, _ = ex.Stats()
	}
	if st.Saturated() {
		t.Fatalf("still saturated after the reader returned: %+v", st)
	}
	if st.HungHighWater != 1 || st.Saturations != 1 {
		t.Fatalf("the marks stay after capacity returned: %+v", st)
	}
}
