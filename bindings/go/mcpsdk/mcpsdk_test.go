package mcpsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every revision the SDK negotiates and the library serves.
var revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

type fixture struct {
	res          *mcpr.Resources
	slowStarted  atomic.Int64
	slowCanceled atomic.Int64
}

func text(s string) mcpr.Binding {
	return mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		return out.SetText("text/plain", s)
	})
}

func def(kv ...string) []byte {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return b
}

type partial struct{}

func (partial) Resolve(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error {
	if err := plan.SetRequested(m.URI(), "", nil); err != nil {
		return err
	}
	if err := plan.AddItem(m.URI(), "", nil); err != nil {
		return err
	}
	return plan.AddItem("doc://bundle/broken", "", nil)
}

func (partial) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	if t.URI() == "doc://bundle/broken" {
		return errors.New("storage offline")
	}
	return out.SetText("text/plain", "bundle head")
}

// filesBinding reads doc://files/{name} and completes {name}.
type filesBinding struct{}

func (filesBinding) Read(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", "file "+tg.URI())
}

func (filesBinding) Complete(ctx context.Context, req mcpr.CompletionRequest, out *mcpr.Completion) error {
	for _, v := range []string{"a.txt", "alpha.md", "b.txt"} {
		if strings.HasPrefix(v, req.Value()) {
			if err := out.AddValue(v); err != nil {
				return err
			}
		}
	}
	return nil
}

func newFixture(t testing.TB) *fixture {
	f := &fixture{}
	b := mcpr.NewBuilder()
	defer b.Close()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.SetPolicy(mcpr.AllowAll))
	must(b.SetLimits(mcpr.Limits{DefaultPageSize: 50}))
	for i := 0; i < 120; i++ {
		must(b.Add(def("uri", fmt.Sprintf("doc://item/%03d", i), "name", fmt.Sprintf("item-%03d", i)), text(fmt.Sprintf("item %d", i))))
	}
	must(b.Add(def("uri", "doc://empty", "name", "empty"), text("")))
	must(b.Add(def("uri", "doc://bundle", "name", "bundle"), partial{}))
	must(b.Add(def("uri", "doc://slow", "name", "slow"), mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		f.slowStarted.Add(1)
		select {
		case <-ctx.Done():
			f.slowCanceled.Add(1)
			return ctx.Err()
		case <-time.After(30 * time.Second):
			return out.SetText("text/plain", "slow")
		}
	})))
	must(b.Add(def("uriTemplate", "doc://files/{name}", "name", "files"), filesBinding{}))
	res, err := b.Build()
	must(err)
	t.Cleanup(res.Close)
	f.res = res
	return f
}

// connect serves f on a new server over the package's transport (the
// raw-params path) and connects an SDK client on revision.
func connect(t testing.TB, f *fixture, revision string, opts *mcpsdk.Options) *mcp.ClientSession {
	t.Helper()
	return connectOver(t, f, revision, opts, true)
}

// connectOver is connect over the package's transport (ownTransport) or
// the SDK's in-memory one (the re-encoded-params path).
func connectOver(t testing.TB, f *fixture, revision string, opts *mcpsdk.Options, ownTransport bool) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "1"}, nil)
	mcpsdk.Install(server, f.res, opts)
	var st, ct mcp.Transport
	if ownTransport {
		cr, cw := io.Pipe() // client -> server
		sr, sw := io.Pipe() // server -> client
		st = &mcpsdk.IOTransport{Reader: cr, Writer: sw}
		ct = &mcp.IOTransport{Reader: sr, Writer: cw}
	} else {
		st, ct = mcp.NewInMemoryTransports()
	}
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != revision {
		t.Fatalf("negotiated %q, want %q", got, revision)
	}
	return cs
}

// forEachRevision runs f on each revision, over the package's transport
// and over the SDK's.
func forEachRevision(t *testing.T, f func(t *testing.T, rev string, cs *mcp.ClientSession, fx *fixture)) {
	for _, rev := range revisions {
		for _, own := range []bool{true, false} {
			name := rev + "/package transport"
			if !own {
				name = rev + "/SDK transport"
			}
			t.Run(name, func(t *testing.T) {
				fx := newFixture(t)
				f(t, rev, connectOver(t, fx, rev, nil, own), fx)
			})
		}
	}
}

func TestInstallAdvertisesResourcesWithoutSubscribeOrListChanged(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string, cs *mcp.ClientSession, fx *fixture) {
		caps := cs.InitializeResult().Capabilities
		if caps == nil || caps.Resources == nil || caps.Resources.ListChanged || caps.Resources.Subscribe {
			t.Fatalf("resources capability %+v", caps)
		}
	})
}

func TestReadExactTemplateAndEmptyText(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string, cs *mcp.ClientSession, fx *fixture) {
		ctx := context.Background()
		r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "doc://item/007"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Contents) != 1 || r.Contents[0].Text != "item 7" || r.Contents[0].URI != "doc://item/007" {
			t.Fatalf("exact read %+v", r.Contents)
		}
		r, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "doc://files/a.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Contents) != 1 || r.Contents[0].Text != "file doc://files/a.txt" {
			t.Fatalf("template read %+v", r.Contents)
		}
		r, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "doc://empty"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Contents) != 1 || r.Contents[0].Text != "" || r.Contents[0].Blob != nil {
			t.Fatalf("empty read %+v", r.Contents)
		}
	})
}

func TestPartialBundleStartsWithTheWarning(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string, cs *mcp.ClientSession, fx *fixture) {
		r, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "doc://bundle"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Contents) != 2 || !strings.HasPrefix(r.Contents[0].URI, "mcp-warning:") || r.Contents[1].Text != "bundle head" {
			t.Fatalf("partial bundle %+v %+v", r.Contents[0], r.Contents[1])
		}
		if strings.Contains(r.Contents[0].Text, "storage offline") {
			t.Fatal("the private cause reached the client")
		}
	})
}

func TestListPaginatesToTheEndAndRefusesForgedCursors(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string, cs *mcp.ClientSession, fx *fixture) {
		ctx := context.Background()
		seen, pages, cursor := map[string]bool{}, 0, ""
		for {
			r, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, res := range r.Resources {
				seen[res.URI] = true
			}
			if r.NextCursor == "" {
				break
			}
			cursor = r.NextCursor
		}
		if len(seen) != 123 || pages != 3 {
			t.Fatalf("%d resources in %d pages", len(seen), pages)
		}
		_, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: "forged"})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
			t.Fatalf("forged cursor: %v", err)
		}
		tr, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.ResourceTemplates) != 1 || tr.ResourceTemplates[0].URITemplate != "doc://files/{name}" {
			t.Fatalf("templates %+v", tr.ResourceTemplates)
		}
	})
}

func TestNotFoundUsesTheRevisionsCode(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string, cs *mcp.ClientSession, fx *fixture) {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "doc://missing"})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) {
			t.Fatalf("not a JSON-RPC error: %v", err)
		}
		want := int64(-32002)
		if rev >= "2026-07-28" {
			want = -32602
		}
		if werr.Code != want {
			t.Fatalf("code %d, want %d", werr.Code, want)
		}
		var data struct {
			URI string `json:"uri"`
		}
		if err := json.Unmarshal(werr.Data, &data); err != nil || data.URI != "doc://missing" {
			t.Fatalf("data %s", werr.Data)
		}
	})
}

func TestClientCancellationReachesTheReaderAndTheSessionGoesOn(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string, cs *mcp.ClientSession, fx *fixture) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "doc://slow"})
			done <- err
		}()
		deadline := time.Now().Add(10 * time.Second)
		for fx.slowStarted.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		cancel()
		if err := <-done; err == nil {
			t.Fatal("cancelled read succeeded")
		}
		for fx.slowCanceled.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if fx.slowCanceled.Load() != 1 {
			t.Fatal("the cancellation never reached the reader")
		}
		r, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "doc://item/001"})
		if err != nil || r.Contents[0].Text != "item 1" {
			t.Fatalf("session unusable after the cancellation: %v", err)
		}
	})
}

func TestScopeKeyFunctionBindsCursors(t *testing.T) {
	fx := newFixture(t)
	var calls atomic.Int64
	cs := connect(t, fx, "2025-11-25", &mcpsdk.Options{ScopeKey: func(ctx context.Context, req mcp.Request) (string, error) {
		calls.Add(1)
		return "tenant-a", nil
	}, PageSize: 10})
	r, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Resources) != 10 || calls.Load() != 1 {
		t.Fatalf("page size %d, scope calls %d", len(r.Resources), calls.Load())
	}
	// Another registry's server cannot continue the pagination.
	other := connect(t, newFixture(t), "2025-11-25", nil)
	if _, err := other.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: r.NextCursor}); err == nil {
		t.Fatal("foreign cursor accepted")
	}
}

func TestRevisionPrefersAStatelessRequestVersion(t *testing.T) {
	req := &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "x"}}
	if got := mcpsdk.Revision(req); got != "" {
		t.Fatalf("no session, no _meta: %q", got)
	}
	req.Params.Meta = mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28"}
	if got := mcpsdk.Revision(req); got != "2026-07-28" {
		t.Fatalf("stateless request: %q", got)
	}
	req.Params.Meta = mcp.Meta{mcp.MetaKeyProtocolVersion: "2025-11-25"}
	if got := mcpsdk.Revision(req); got != "" {
		t.Fatalf("an old version in _meta is not stateless: %q", got)
	}
}

func TestStatelessResultsKeepTheSDKsServerInfo(t *testing.T) {
	fx := newFixture(t)
	cs := connect(t, fx, "2026-07-28", nil)
	r, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "doc://item/001"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Meta[mcp.MetaKeyServerInfo]; !ok || r.Contents[0].Text != "item 1" {
		t.Fatalf("serverInfo missing from the result _meta: %+v", r.Meta)
	}
	l, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Meta[mcp.MetaKeyServerInfo]; !ok || len(l.Resources) != 50 {
		t.Fatalf("serverInfo missing from the page _meta: %+v", l.Meta)
	}
}

func TestSplicedMetaKeepsTheLibrarysBytes(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`{"contents":[],"_meta":{"a":1}}`, `{"contents":[],"_meta":{"s":"x","a":1}}`},
		{`{"contents":[],"_meta":{}}`, `{"contents":[],"_meta":{"s":"x"}}`},
		{`{"contents":[{"text":""}]}`, `{"_meta":{"s":"x"},"contents":[{"text":""}]}`},
		{`{}`, `{"_meta":{"s":"x"}}`},
		{`{"_meta":{"s":"library"}}`, `{"_meta":{"s":"library"}}`},
	} {
		got, err := mcpsdk.SpliceMetaForTest([]byte(tc.raw), map[string]any{"s": "x"})
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %s (%v), want %s", tc.raw, got, err, tc.want)
		}
	}
}

func TestDefaultScopeKeyFollowsTheAuthorization(t *testing.T) {
	ctx := context.Background()
	withUser := &mcp.ReadResourceRequest{Extra: &mcp.RequestExtra{TokenInfo: &auth.TokenInfo{UserID: "alice"}}}
	withScopes := &mcp.ReadResourceRequest{Extra: &mcp.RequestExtra{TokenInfo: &auth.TokenInfo{Scopes: []string{"a", "b"}}}}
	otherScopes := &mcp.ReadResourceRequest{Extra: &mcp.RequestExtra{TokenInfo: &auth.TokenInfo{Scopes: []string{"ab"}}}}
	anonymous := &mcp.ReadResourceRequest{}
	keys := map[string]bool{}
	for _, req := range []mcp.Request{withUser, withScopes, otherScopes, anonymous} {
		k, err := mcpsdk.DefaultScopeKey(ctx, req)
		if err != nil || k == "" {
			t.Fatalf("%v %q", err, k)
		}
		keys[k] = true
	}
	if len(keys) != 4 {
		t.Fatalf("scope keys collide: %v", keys)
	}
	if k, _ := mcpsdk.DefaultScopeKey(ctx, withUser); k != "user:alice" {
		t.Fatalf("user scope %q", k)
	}
}

func TestResourceCompletionsGoToTheLibrary(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string, cs *mcp.ClientSession, fx *fixture) {
		if cs.InitializeResult().Capabilities.Completions == nil {
			t.Fatal("completions capability missing")
		}
		r, err := cs.Complete(context.Background(), &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "doc://files/{name}"},
			Argument: mcp.CompleteParamsArgument{Name: "name", Value: "a"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(r.Completion.Values, ",") != "a.txt,alpha.md" {
			t.Fatalf("values %v", r.Completion.Values)
		}
		_, err = cs.Complete(context.Background(), &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "doc://nowhere/{x}"},
			Argument: mcp.CompleteParamsArgument{Name: "x", Value: ""},
		})
		if err == nil {
			t.Fatal("completion of an unknown template succeeded")
		}
	})
}

// TestServerInfoGoesInThroughTheLibrarysResultMeta: with Options.ServerInfo
// the serverInfo of a stateless request's result is the library's result
// _meta member (the bytes the library made, as mcpr.Resources.Request with
// the same ResultMeta makes them), after the library's report; sessions
// that negotiated an older revision get none, as from the SDK.
func TestServerInfoGoesInThroughTheLibrarysResultMeta(t *testing.T) {
	info := &mcp.Implementation{Name: "test-server", Version: "1"}
	fx, server := installed(t, &mcpsdk.Options{ServerInfo: info}, nil)
	c := rawServer(t, server, 0)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	params := []byte(`{"uri":"doc://item/001",` + meta + `}`)
	resp := c.call("resources/read", params)
	got := member(resp, "result")
	rm, err := mcpr.NewResultMeta([]byte(`{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer rm.Close()
	want, err := fx.res.Request(context.Background(), "resources/read", params, &mcpr.RequestOptions{ResultMeta: rm})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want.JSON) {
		t.Fatalf("read result\n got %s\nwant %s", got, want.JSON)
	}
	if !strings.Contains(string(got), `"_meta":{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,"partial":false,"issues":[],"issuesOmitted":0},"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1"}}`) {
		t.Fatalf("serverInfo not after the report: %s", got)
	}
	resp = c.call("resources/list", []byte(`{`+meta+`}`))
	if got := string(member(resp, "result")); strings.Count(got, "serverInfo") != 1 || !strings.Contains(got, `,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1"}}`) {
		t.Fatalf("list: %s", got)
	}
	// A session on 2025-11-25: no serverInfo, as the SDK does.
	_, server = installed(t, &mcpsdk.Options{ServerInfo: info}, nil)
	c = rawServer(t, server, 0)
	c.initialize("2025-11-25")
	resp = c.call("resources/read", []byte(`{"uri":"doc://item/001"}`))
	if got := string(member(resp, "result")); strings.Contains(got, "serverInfo") {
		t.Fatalf("serverInfo on 2025-11-25: %s", got)
	}
	// Through the SDK's client on 2026-07-28, the parsed result has it.
	cs := connect(t, newFixture(t), "2026-07-28", &mcpsdk.Options{ServerInfo: info})
	r, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "doc://item/001"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Meta[mcp.MetaKeyServerInfo]; !ok {
		t.Fatalf("serverInfo missing: %+v", r.Meta)
	}
}
