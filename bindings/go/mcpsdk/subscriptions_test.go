package mcpsdk_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tenantKey carries a session's tenant in the request context (set by the
// host's own middleware, as a real host would from its authentication).
type tenantKey struct{}

// tenancy maps sessions to tenants and answers the policy per tenant: a
// tenant discovers only the shared documents and its own, and may lose
// sight of a URI at any time.
type tenancy struct {
	mu       sync.Mutex
	sessions map[*mcp.ServerSession]string
	hidden   map[string]bool // tenant + " " + uri
}

func (tn *tenancy) tenantOf(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}

func (tn *tenancy) hide(tenant, uri string) {
	tn.mu.Lock()
	tn.hidden[tenant+" "+uri] = true
	tn.mu.Unlock()
}

func (tn *tenancy) policy() mcpr.Policy {
	return mcpr.PolicyFuncs{
		DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
			t := tn.tenantOf(ctx)
			if strings.HasPrefix(d.URI(), "doc://shared") || strings.HasPrefix(d.URI(), "doc://"+t+"/") {
				return nil
			}
			return mcpr.ErrUnavailable
		},
		VisibilityFunc: func(ctx context.Context, tg mcpr.Target) (mcpr.Visibility, error) {
			tn.mu.Lock()
			defer tn.mu.Unlock()
			return mcpr.Visibility{Visible: !tn.hidden[tn.tenantOf(ctx)+" "+tg.URI()]}, nil
		},
	}
}

func (tn *tenancy) registry(t testing.TB, uris ...string) *mcpr.Resources {
	t.Helper()
	b := mcpr.NewBuilder()
	defer b.Close()
	if err := b.SetPolicy(tn.policy()); err != nil {
		t.Fatal(err)
	}
	if err := b.SetNotifications(mcpr.NotifyResourceUpdates | mcpr.NotifyResourcesListChanged); err != nil {
		t.Fatal(err)
	}
	for _, u := range uris {
		if err := b.Add(def("uri", u, "name", u), text("x")); err != nil {
			t.Fatal(err)
		}
	}
	res, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// inbox collects what one client receives.
type inbox struct {
	mu      sync.Mutex
	updated []*mcp.ResourceUpdatedNotificationParams
	listed  int
	signal  chan struct{}
}

func newInbox() *inbox { return &inbox{signal: make(chan struct{}, 64)} }

func (b *inbox) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ResourceUpdatedHandler: func(ctx context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			b.mu.Lock()
			b.updated = append(b.updated, r.Params)
			b.mu.Unlock()
			b.signal <- struct{}{}
		},
		ResourceListChangedHandler: func(ctx context.Context, r *mcp.ResourceListChangedRequest) {
			b.mu.Lock()
			b.listed++
			b.mu.Unlock()
			b.signal <- struct{}{}
		},
	}
}

// wait waits for one more notification (fails after 5 s).
func (b *inbox) wait(t *testing.T) {
	t.Helper()
	select {
	case <-b.signal:
	case <-time.After(5 * time.Second):
		t.Fatal("no notification")
	}
}

func (b *inbox) uris() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, p := range b.updated {
		out = append(out, p.URI)
	}
	return out
}

// tenantServer is a server with Install and the host's middleware naming
// each session's tenant; connect adds a session of a tenant.
type tenantServer struct {
	tn      *tenancy
	server  *mcp.Server
	adapter *mcpsdk.Adapter
}

func newTenantServer(t *testing.T, res *mcpr.Resources, tn *tenancy) *tenantServer {
	server := mcp.NewServer(&mcp.Implementation{Name: "tenants", Version: "1"}, nil)
	ad := mcpsdk.Install(server, res, nil)
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ss, _ := req.GetSession().(*mcp.ServerSession)
			tn.mu.Lock()
			tenant := tn.sessions[ss]
			tn.mu.Unlock()
			return next(context.WithValue(ctx, tenantKey{}, tenant), method, req)
		}
	})
	return &tenantServer{tn: tn, server: server, adapter: ad}
}

func (ts *tenantServer) connect(t *testing.T, tenant, revision string, box *inbox, own bool) *mcp.ClientSession {
	t.Helper()
	var st, ct mcp.Transport
	if own {
		cr, cw := io.Pipe()
		sr, sw := io.Pipe()
		st = &mcpsdk.IOTransport{Reader: cr, Writer: sw}
		ct = &mcp.IOTransport{Reader: sr, Writer: cw}
	} else {
		st, ct = mcp.NewInMemoryTransports()
	}
	ss, err := ts.server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts.tn.mu.Lock()
	ts.tn.sessions[ss] = tenant
	ts.tn.mu.Unlock()
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: tenant, Version: "1"}, box.options()).
		Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func newTenancy() *tenancy {
	return &tenancy{sessions: map[*mcp.ServerSession]string{}, hidden: map[string]bool{}}
}

func TestSubscriptionsOn2025AreDecidedByTheLibraryAndDeliveredPerSession(t *testing.T) {
	for _, own := range []bool{true, false} {
		tn := newTenancy()
		res := tn.registry(t, "doc://shared", "doc://alpha/1", "doc://beta/1")
		defer res.Close()
		ts := newTenantServer(t, res, tn)
		alphaBox, betaBox := newInbox(), newInbox()
		alpha := ts.connect(t, "alpha", "2025-11-25", alphaBox, own)
		beta := ts.connect(t, "beta", "2025-11-25", betaBox, own)
		ctx := context.Background()
		caps := alpha.InitializeResult().Capabilities.Resources
		if caps == nil || !caps.Subscribe || !caps.ListChanged {
			t.Fatalf("capability %+v", caps)
		}
		for _, cs := range []*mcp.ClientSession{alpha, beta} {
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "doc://shared"}); err != nil {
				t.Fatal(err)
			}
		}
		if err := alpha.Subscribe(ctx, &mcp.SubscribeParams{URI: "doc://alpha/1"}); err != nil {
			t.Fatal(err)
		}
		// another tenant's document answers exactly like an unregistered one
		errOf := func(uri string) *jsonrpc.Error {
			var e *jsonrpc.Error
			if err := beta.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); !errors.As(err, &e) {
				t.Fatalf("subscribe %s: %v", uri, err)
			}
			return e
		}
		other, none := errOf("doc://alpha/1"), errOf("doc://none")
		if other.Code != -32002 || other.Code != none.Code || other.Message != none.Message ||
			strings.Replace(string(other.Data), "doc://alpha/1", "U", 1) != strings.Replace(string(none.Data), "doc://none", "U", 1) {
			t.Fatalf("hidden %+v, unregistered %+v", other, none)
		}
		if err := ts.adapter.ResourceUpdated(ctx, "doc://shared"); err != nil {
			t.Fatal(err)
		}
		alphaBox.wait(t)
		betaBox.wait(t)
		// beta loses sight of it: never told again
		tn.hide("beta", "doc://shared")
		if err := ts.adapter.ResourceUpdated(ctx, "doc://shared"); err != nil {
			t.Fatal(err)
		}
		alphaBox.wait(t)
		if err := ts.adapter.ResourceUpdated(ctx, "doc://alpha/1"); err != nil {
			t.Fatal(err)
		}
		alphaBox.wait(t)
		if got := alphaBox.uris(); strings.Join(got, " ") != "doc://shared doc://shared doc://alpha/1" {
			t.Fatalf("alpha got %v", got)
		}
		if got := betaBox.uris(); strings.Join(got, " ") != "doc://shared" {
			t.Fatalf("beta got %v", got)
		}
		// a reload adding a definition only alpha can discover tells alpha only
		next := tn.registry(t, "doc://shared", "doc://alpha/1", "doc://alpha/2", "doc://beta/1")
		old, err := ts.adapter.Reload(ctx, next)
		if err != nil || old != res {
			t.Fatalf("reload %v", err)
		}
		alphaBox.wait(t)
		next2 := tn.registry(t, "doc://shared", "doc://alpha/1", "doc://alpha/2", "doc://beta/1", "doc://beta/2")
		if old, err = ts.adapter.Reload(ctx, next2); err != nil {
			t.Fatal(err)
		}
		old.Close()
		betaBox.wait(t)
		alphaBox.mu.Lock()
		alphaListed := alphaBox.listed
		alphaBox.mu.Unlock()
		betaBox.mu.Lock()
		betaListed := betaBox.listed
		betaBox.mu.Unlock()
		if alphaListed != 1 || betaListed != 1 {
			t.Fatalf("list changes: alpha %d, beta %d", alphaListed, betaListed)
		}
		// the SDK's own unchecked fan-out reaches nobody
		if err := ts.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "doc://shared"}); err != nil {
			t.Fatal(err)
		}
		if err := ts.adapter.ResourceUpdated(ctx, "doc://alpha/1"); err != nil {
			t.Fatal(err)
		}
		alphaBox.wait(t)
		if got := alphaBox.uris(); got[len(got)-1] != "doc://alpha/1" || len(got) != 4 {
			t.Fatalf("alpha got %v", got)
		}
		next2.Close()
	}
}

func TestListenOn2026IsAcknowledgedByTheLibraryAndCarriesItsStreamID(t *testing.T) {
	for _, own := range []bool{true, false} {
		tn := newTenancy()
		res := tn.registry(t, "doc://shared", "doc://alpha/1", "doc://beta/1")
		defer res.Close()
		ts := newTenantServer(t, res, tn)
		box := newInbox()
		alpha := ts.connect(t, "alpha", "2026-07-28", box, own)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 2)
		// the Go client's Subscribe opens one listen per URI (and blocks)
		for _, uri := range []string{"doc://shared", "doc://beta/1"} {
			go func(uri string) { done <- alpha.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}) }(uri)
		}
		// wait until the honored stream is recorded
		deadline := time.Now().Add(5 * time.Second)
		for {
			if err := ts.adapter.ResourceUpdated(context.Background(), "doc://shared"); err != nil {
				t.Fatal(err)
			}
			select {
			case <-box.signal:
			case <-time.After(50 * time.Millisecond):
				if time.Now().After(deadline) {
					t.Fatal("the stream was never notified")
				}
				continue
			}
			break
		}
		box.mu.Lock()
		p := box.updated[0]
		box.mu.Unlock()
		if p.URI != "doc://shared" || p.Meta["io.modelcontextprotocol/subscriptionId"] == nil {
			t.Fatalf("update %+v", p)
		}
		// the other tenant's URI was not honored: its update reaches nobody
		if err := ts.adapter.ResourceUpdated(context.Background(), "doc://beta/1"); err != nil {
			t.Fatal(err)
		}
		select {
		case <-box.signal:
			t.Fatalf("notified of another tenant's URI: %v", box.uris())
		case <-time.After(200 * time.Millisecond):
		}
		cancel()
	}
}
