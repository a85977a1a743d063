package mcpresources_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// TestResultMetaIsValidatedOnce: NewResultMeta keeps a JSON object's
// compact members and refuses what breaks the definition discipline or
// uses the library's reserved key.
func TestResultMetaIsValidatedOnce(t *testing.T) {
	m, err := mcpr.NewResultMeta([]byte(` {"io.modelcontextprotocol/serverInfo": {"name":"s","version":"1"}} `))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Members(); got != `"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}` {
		t.Fatalf("members %q", got)
	}
	m.Close()
	m.Close()
	if m.Members() != "" {
		t.Fatal("a closed ResultMeta still answers")
	}
	for json, why := range map[string]string{
		`[]`:            "object",
		`{"a":1,"a":2}`: "repeats",
		`{"go.phpboyscout.uk/mcp.resourceRead":{}}`:      "reserved",
		`{"x":{"go.phpboyscout.uk/mcp.resourceRead":1}}`: "reserved",
		`{"a":1e999}`: "JSON",
		`{"a":"` + strings.Repeat("x", 63*1024) + `"}`: "63 KiB",
	} {
		_, err := mcpr.NewResultMeta([]byte(json))
		e := asError(t, err, mcpr.StatusInvalidConfiguration)
		if !strings.Contains(e.Message, why) {
			t.Fatalf("%.60s: message %q, want %q", json, e.Message, why)
		}
	}
}

// TestResultMetaIsMergedIntoEveryResult: Read, List, ListTemplates and
// Request merge the members after the library's own; error objects carry
// none; a closed ResultMeta is refused.
func TestResultMetaIsMergedIntoEveryResult(t *testing.T) {
	m, err := mcpr.NewResultMeta([]byte(`{"io.modelcontextprotocol/serverInfo":{"name":"go","version":"1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r := (&reg{}).add(def("doc://a", "a"), text("a")).add(tdef("doc://t/{id}", "t"), text("t")).build(t)
	defer r.Close()
	ctx := context.Background()
	const member = `"io.modelcontextprotocol/serverInfo":{"name":"go","version":"1"}`
	b, err := r.Read(ctx, "doc://a", &mcpr.ReadOptions{ResultMeta: m})
	if err != nil || !strings.Contains(string(b.JSON), `"_meta":{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,`) ||
		!strings.Contains(string(b.JSON), member) {
		t.Fatalf("read: %v %s", err, b.JSON)
	}
	for _, templates := range []bool{false, true} {
		list := r.List
		if templates {
			list = r.ListTemplates
		}
		p, err := list(ctx, "s", "", &mcpr.ListOptions{ResultMeta: m})
		if err != nil || !strings.Contains(string(p.JSON), `,"_meta":{`+member+`}`) {
			t.Fatalf("list (templates %v): %v %s", templates, err, p.JSON)
		}
	}
	opt := &mcpr.RequestOptions{ScopeKey: "s", ResultMeta: m}
	for _, c := range []struct{ method, params string }{
		{"resources/read", `{"uri":"doc://a"}`},
		{"resources/list", `{}`},
		{"resources/templates/list", `{}`},
	} {
		resp, err := r.Request(ctx, c.method, []byte(c.params), opt)
		if err != nil || resp.IsError || !strings.Contains(string(resp.JSON), member) {
			t.Fatalf("%s: %v %s", c.method, err, resp.JSON)
		}
	}
	resp, err := r.Request(ctx, "resources/read", []byte(`{"uri":"doc://missing"}`), opt)
	if err != nil || !resp.IsError || strings.Contains(string(resp.JSON), "serverInfo") {
		t.Fatalf("not found: %v %s", err, resp.JSON)
	}
	closed, _ := mcpr.NewResultMeta([]byte(`{}`))
	closed.Close()
	_, err = r.Read(ctx, "doc://a", &mcpr.ReadOptions{ResultMeta: closed})
	asError(t, err, mcpr.StatusInvalidArgument)
}

// TestCallbacksSeeTheRequestsTraceContext: the trace members of the
// request's params _meta reach every Go callback (TraceContextOf), inline
// and on an executor; a context that is not a callback's has none.
func TestCallbacksSeeTheRequestsTraceContext(t *testing.T) {
	var mu sync.Mutex
	var seen []mcpr.TraceContext
	note := func(ctx context.Context) {
		tc, _ := mcpr.TraceContextOf(ctx)
		mu.Lock()
		seen = append(seen, tc)
		mu.Unlock()
	}
	policy := mcpr.PolicyFuncs{DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
		note(ctx)
		return nil
	}}
	body := mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		note(ctx)
		return out.SetText("text/plain", "x")
	})
	r := (&reg{policy: policy}).add(def("doc://a", "a"), body).build(t)
	defer r.Close()
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	want := mcpr.TraceContext{Traceparent: "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01", Baggage: "k=v"}
	params := []byte(`{"uri":"doc://a","_meta":{"traceparent":"` + want.Traceparent + `","baggage":"k=v","tracestate":1}}`)
	for _, e := range []*mcpr.Executor{nil, ex} {
		seen = nil
		resp, err := r.Request(context.Background(), "resources/read", params, &mcpr.RequestOptions{Executor: e})
		if err != nil || resp.IsError {
			t.Fatalf("%v %s", err, resp.JSON)
		}
		mu.Lock()
		if len(seen) < 3 {
			t.Fatalf("callbacks seen: %d", len(seen))
		}
		for _, tc := range seen {
			if tc != want {
				t.Fatalf("trace context %+v, want %+v", tc, want)
			}
		}
		mu.Unlock()
	}
	if _, ok := mcpr.TraceContextOf(context.Background()); ok {
		t.Fatal("a plain context has a trace context")
	}
}

// TestTheOptionsTraceContextReachesTheCallbacks: Trace in ReadOptions,
// ListOptions and RequestOptions reaches every callback of the call, inline
// and on an executor; trace members in a request's params _meta take its
// place; a member that is not UTF-8 is StatusInvalidArgument.
func TestTheOptionsTraceContextReachesTheCallbacks(t *testing.T) {
	var mu sync.Mutex
	var seen []mcpr.TraceContext
	note := func(ctx context.Context) {
		tc, _ := mcpr.TraceContextOf(ctx)
		mu.Lock()
		seen = append(seen, tc)
		mu.Unlock()
	}
	// Every callback since the last check saw want.
	allSaw := func(what string, want mcpr.TraceContext) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(seen) == 0 {
			t.Fatalf("%s: no callback ran", what)
		}
		for _, tc := range seen {
			if tc != want {
				t.Fatalf("%s: trace context %+v, want %+v", what, tc, want)
			}
		}
		seen = nil
	}
	policy := mcpr.PolicyFuncs{DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
		note(ctx)
		return nil
	}}
	body := mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		note(ctx)
		return out.SetText("text/plain", "x")
	})
	r := (&reg{policy: policy}).add(def("doc://a", "a"), body).build(t)
	defer r.Close()
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ctx := context.Background()
	host := mcpr.TraceContext{Traceparent: "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01", Tracestate: "v=1"}
	for _, e := range []*mcpr.Executor{nil, ex} {
		if _, err := r.Read(ctx, "doc://a", &mcpr.ReadOptions{Executor: e, Trace: host}); err != nil {
			t.Fatal(err)
		}
		allSaw("read", host)
		if _, err := r.List(ctx, "s", "", &mcpr.ListOptions{Executor: e, Trace: host}); err != nil {
			t.Fatal(err)
		}
		allSaw("list", host)
		opt := &mcpr.RequestOptions{ScopeKey: "s", Executor: e, Trace: host}
		if resp, err := r.Request(ctx, "resources/read", []byte(`{"uri":"doc://a"}`), opt); err != nil || resp.IsError {
			t.Fatalf("%v %s", err, resp.JSON)
		}
		allSaw("request", host)
		params := []byte(`{"uri":"doc://a","_meta":{"baggage":"from-params"}}`)
		if resp, err := r.Request(ctx, "resources/read", params, opt); err != nil || resp.IsError {
			t.Fatalf("%v %s", err, resp.JSON)
		}
		allSaw("request with params trace", mcpr.TraceContext{Baggage: "from-params"})
	}
	_, err = r.Read(ctx, "doc://a", &mcpr.ReadOptions{Trace: mcpr.TraceContext{Baggage: "\xff"}})
	asError(t, err, mcpr.StatusInvalidArgument)
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 0 {
		t.Fatal("a refused call ran callbacks")
	}
}
