package mcpresources_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

func TestSixteenGoroutinesReadAndListAtOnceInlineAndOnAnExecutor(t *testing.T) {
	p := policyFuncs{discover: func(ctx context.Context, d mcpr.Definition) error {
		if d.Name() == "item 7" {
			return mcpr.ErrUnavailable
		}
		return nil
	}}
	r := manyResources(t, 40, p)
	// One worker per goroutine reading on the executor: healthy work never
	// queues behind the others (see the README's "Sizing an executor").
	ex, err := mcpr.NewExecutor(8)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			opt, lopt := (*mcpr.ReadOptions)(nil), &mcpr.ListOptions{PageSize: 7}
			if g%2 == 1 {
				opt, lopt = &mcpr.ReadOptions{Executor: ex}, &mcpr.ListOptions{PageSize: 7, Executor: ex}
			}
			for i := 0; i < 60; i++ {
				n := (g*7 + i) % 40
				uri := fmt.Sprintf("doc://item/%04d", n)
				b, err := r.Read(context.Background(), uri, opt)
				if n == 7 {
					if !errors.Is(err, mcpr.ErrUnavailable) {
						errs <- fmt.Errorf("denied read: %v", err)
						return
					}
					continue
				}
				if err != nil || !strings.Contains(string(b.JSON), fmt.Sprintf(`"text":"body %d"`, n)) {
					errs <- fmt.Errorf("read %s: %v %s", uri, err, b.JSON)
					return
				}
				if i%10 == 0 {
					count, cursor := 0, ""
					for {
						pg, err := r.List(context.Background(), fmt.Sprintf("scope-%d", g), cursor, lopt)
						if err != nil {
							errs <- err
							return
						}
						count += strings.Count(string(pg.JSON), `"uri":`)
						if pg.NextCursor == "" {
							break
						}
						cursor = pg.NextCursor
					}
					if count != 39 {
						errs <- fmt.Errorf("listed %d", count)
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCloseWhileCallsRunIsSafe(t *testing.T) {
	for round := 0; round < 5; round++ {
		r := manyResources(t, 5, policyFuncs{})
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 50; i++ {
					_, err := r.Read(context.Background(), "doc://item/0001", nil)
					var e *mcpr.Error
					if err != nil && (!errors.As(err, &e) || e.Status != mcpr.StatusInvalidArgument) {
						t.Errorf("unexpected error %v", err)
						return
					}
				}
			}()
		}
		time.Sleep(time.Millisecond)
		r.Close()
		wg.Wait()
	}
}

func panicky(where string) (mcpr.Policy, mcpr.Binding) {
	p := policyFuncs{
		discover: func(ctx context.Context, d mcpr.Definition) error {
			if where == "discover" {
				panic("boom in discover")
			}
			return nil
		},
		visibility: func(ctx context.Context, tg mcpr.Target) (mcpr.Visibility, error) {
			if where == "visibility" {
				panic("boom in visibility")
			}
			return mcpr.Visibility{Visible: true}, nil
		},
	}
	b := resolverFunc{
		resolve: func(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error {
			if where == "resolve" {
				panic("boom in resolve")
			}
			return plan.SetRequested(m.URI(), "", nil)
		},
		read: func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
			if where == "read" {
				var m map[string]int
				m["nil map"] = 1 // a runtime error panic
			}
			return out.SetText("text/plain", "ok")
		},
	}
	return p, b
}

type resolverFunc struct {
	resolve func(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error
	read    func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error
}

func (r resolverFunc) Resolve(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error {
	if err := r.resolve(ctx, m, plan); err != nil {
		return err
	}
	return plan.AddItem(m.URI(), "", nil)
}

func (r resolverFunc) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return r.read(ctx, t, out)
}

func TestPanickingCallbacksBecomeFailures(t *testing.T) {
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	for _, tc := range []struct {
		where string
		want  mcpr.Status
	}{
		{"discover", mcpr.StatusPolicy},
		{"visibility", mcpr.StatusPolicy},
		{"resolve", mcpr.StatusInvalidPlan},
		{"read", mcpr.StatusReadFailed},
	} {
		p, b := panicky(tc.where)
		r := (&reg{policy: p}).add(def("doc://p", "p"), b).build(t)
		for _, opt := range []*mcpr.ReadOptions{nil, {Executor: ex}} {
			_, err := r.Read(context.Background(), "doc://p", opt)
			e := asError(t, err, tc.want)
			if tc.want != mcpr.StatusReadFailed && !strings.Contains(e.Cause(), "panic") {
				t.Errorf("%s: cause %q does not name the panic", tc.where, e.Cause())
			}
			if strings.Contains(e.Message, "boom") {
				t.Errorf("%s: panic text in the safe message", tc.where)
			}
		}
		// The registry keeps working after the panic.
		if tc.where != "read" {
			continue
		}
		if _, err := r.List(context.Background(), "s", "", nil); err != nil {
			t.Fatal(err)
		}
	}
	// Listing with a panicking discover fails the listing only.
	p, b := panicky("discover")
	r := (&reg{policy: p}).add(def("doc://p", "p"), b).build(t)
	_, err = r.List(context.Background(), "s", "", nil)
	asError(t, err, mcpr.StatusPolicy)
}

// TestGoexitInACallbackIsExplained runs a child process whose callback calls
// t.Fatal: the Go runtime cannot return to the library then and aborts; the
// binding must have said why on stderr.
func TestGoexitInACallbackIsExplained(t *testing.T) {
	if os.Getenv("MCPR_GOEXIT_CHILD") == "1" {
		r := (&reg{}).add(def("doc://x", "x"), mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
			t.Fatal("fatal inside a callback")
			return nil
		})).build(t)
		_, _ = r.Read(context.Background(), "doc://x", nil)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGoexitInACallbackIsExplained$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPR_GOEXIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("child succeeded: %s", out)
	}
	if !strings.Contains(string(out), "mcpresources: a callback called runtime.Goexit") {
		t.Fatalf("child output lacks the explanation: %s", out)
	}
}

func TestIsolatedCallbacksTurnGoexitAndPanicsIntoFailures(t *testing.T) {
	for _, how := range []string{"goexit", "panic"} {
		b := mcpr.NewBuilder()
		b.SetCallbackIsolation(true)
		_ = b.SetPolicy(policyFuncs{discover: func(ctx context.Context, d mcpr.Definition) error {
			if d.Name() == "bad" {
				if how == "goexit" {
					runtime.Goexit()
				}
				panic("isolated boom")
			}
			return nil
		}})
		_ = b.Add(def("doc://bad", "bad"), text("x"))
		_ = b.Add(def("doc://good", "good"), mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
			if tg.URI() != "doc://good" {
				return errors.New("bad view")
			}
			return out.SetText("text/plain", "fine")
		}))
		r, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Read(context.Background(), "doc://bad", nil)
		e := asError(t, err, mcpr.StatusPolicy)
		if how == "goexit" && !strings.Contains(e.Cause(), "Goexit") || how == "panic" && !strings.Contains(e.Cause(), "isolated boom") {
			t.Fatalf("%s: cause %q", how, e.Cause())
		}
		if bd, err := r.Read(context.Background(), "doc://good", nil); err != nil || !strings.Contains(string(bd.JSON), "fine") {
			t.Fatalf("%s: isolated good read: %v %s", how, err, bd.JSON)
		}
		r.Close()
	}
}
