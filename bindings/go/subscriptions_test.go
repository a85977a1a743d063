package mcpresources_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// tenantKey carries the caller's tenant in a context.
type tenantKey struct{}

func asTenant(t string) context.Context {
	return context.WithValue(context.Background(), tenantKey{}, t)
}

// rules says, per tenant, which URIs are hidden and which definitions
// undiscoverable; it may change while subscriptions stand.
type rules struct {
	mu       sync.Mutex
	hidden   map[string]bool // tenant + " " + uri
	noListed map[string]bool
}

func newRules() *rules { return &rules{hidden: map[string]bool{}, noListed: map[string]bool{}} }

func (r *rules) hide(tenant, uri string) {
	r.mu.Lock()
	r.hidden[tenant+" "+uri] = true
	r.mu.Unlock()
}

func (r *rules) unlist(tenant, key string) {
	r.mu.Lock()
	r.noListed[tenant+" "+key] = true
	r.mu.Unlock()
}

func (r *rules) policy() mcpr.Policy {
	tenantOf := func(ctx context.Context) string { t, _ := ctx.Value(tenantKey{}).(string); return t }
	return mcpr.PolicyFuncs{
		DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.noListed[tenantOf(ctx)+" "+d.URI()] {
				return mcpr.ErrUnavailable
			}
			return nil
		},
		VisibilityFunc: func(ctx context.Context, t mcpr.Target) (mcpr.Visibility, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			return mcpr.Visibility{Visible: !r.hidden[tenantOf(ctx)+" "+t.URI()]}, nil
		},
	}
}

func subscribable(t *testing.T, rl *rules, uris ...string) *mcpr.Resources {
	t.Helper()
	b := mcpr.NewBuilder()
	defer b.Close()
	if err := b.SetPolicy(rl.policy()); err != nil {
		t.Fatal(err)
	}
	if err := b.SetNotifications(mcpr.NotifyResourceUpdates | mcpr.NotifyResourcesListChanged); err != nil {
		t.Fatal(err)
	}
	for _, u := range uris {
		if err := b.Add(def(u, u), text("x")); err != nil {
			t.Fatal(err)
		}
	}
	res, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(res.Close)
	return res
}

func TestSubscribeHonorsWhatAReadWouldAndHidesTheRestAlike(t *testing.T) {
	rl := newRules()
	res := subscribable(t, rl, "doc://a", "doc://b")
	rl.hide("alice", "doc://b")
	caps, err := res.Capability("2025-11-25")
	if err != nil || string(caps) != `{"subscribe":true,"listChanged":true}` {
		t.Fatalf("capability %s %v", caps, err)
	}
	o := &mcpr.RequestOptions{Revision: "2025-11-25"}
	ok, err := res.Request(asTenant("alice"), "resources/subscribe", []byte(`{"uri":"doc://a"}`), o)
	if err != nil || ok.IsError || string(ok.JSON) != "{}" || ok.Subscription == nil {
		t.Fatalf("subscribe: %+v %v", ok, err)
	}
	if s := ok.Subscription; s.Method != mcpr.Subscribe || len(s.URIs) != 1 || s.URIs[0] != "doc://a" || s.Revision != "2025-11-25" {
		t.Fatalf("decision %+v", s)
	}
	hidden, _ := res.Request(asTenant("alice"), "resources/subscribe", []byte(`{"uri":"doc://b"}`), o)
	none, _ := res.Request(asTenant("alice"), "resources/subscribe", []byte(`{"uri":"doc://zz"}`), o)
	if !hidden.IsError || hidden.Subscription != nil ||
		strings.Replace(string(hidden.JSON), "doc://b", "U", 1) != strings.Replace(string(none.JSON), "doc://zz", "U", 1) {
		t.Fatalf("hidden %s, none %s", hidden.JSON, none.JSON)
	}
	o = &mcpr.RequestOptions{Revision: "2026-07-28", RequestID: json.RawMessage(`"l-1"`)}
	ack, err := res.Request(asTenant("alice"), "subscriptions/listen",
		[]byte(`{"notifications":{"resourceSubscriptions":["doc://b","doc://a"]}}`), o)
	if err != nil || !ack.IsNotification || !strings.Contains(string(ack.JSON), `"resourceSubscriptions":["doc://a"]`) {
		t.Fatalf("listen: %s %v", ack.JSON, err)
	}
	if string(ack.Subscription.ID) != `"l-1"` || ack.Subscription.Method != mcpr.Listen {
		t.Fatalf("listen decision %+v", ack.Subscription)
	}
	// no request id: the host's mistake
	o.RequestID = nil
	_, err = res.Request(asTenant("alice"), "subscriptions/listen", []byte(`{"notifications":{}}`), o)
	var e *mcpr.Error
	if !errors.As(err, &e) || e.Status != mcpr.StatusInvalidArgument {
		t.Fatalf("listen without id: %v", err)
	}
}

func TestUpdatesAreRecheckedAtSendTimeUnderEachSubscribersIdentity(t *testing.T) {
	rl := newRules()
	res := subscribable(t, rl, "doc://a")
	subs := []mcpr.Subscriber{
		{Context: asTenant("alice"), Revision: "2026-07-28", SubscriptionID: json.RawMessage(`7`)},
		{Context: asTenant("bob"), Revision: "2025-11-25"},
	}
	rl.hide("alice", "doc://a") // hidden after subscribing
	got, err := res.NotifyUpdated(context.Background(), "doc://a", subs, nil)
	if err != nil || len(got) != 2 {
		t.Fatalf("notify: %v %v", got, err)
	}
	if got[0].Message != nil || got[0].Status != mcpr.StatusOK {
		t.Fatalf("a hidden URI was notified: %s", got[0].Message)
	}
	if string(got[1].Message) != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"doc://a"}}` {
		t.Fatalf("bob: %s", got[1].Message)
	}
	// a subscriber on 2026-07-28 without its stream id is a host mistake
	subs[0].SubscriptionID = nil
	if _, err := res.NotifyUpdated(context.Background(), "doc://a", subs, nil); err == nil {
		t.Fatal("no error for a stream subscriber without its id")
	}
	// the call's context bounds it
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := res.NotifyUpdated(ctx, "doc://a", subs[1:], nil); err == nil {
		t.Fatal("a cancelled call decided")
	}
}

func TestTenThousandSubscribersInOneCallOnAnExecutor(t *testing.T) {
	rl := newRules()
	res := subscribable(t, rl, "doc://a")
	rl.hide("t3", "doc://a")
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	subs := make([]mcpr.Subscriber, 10000)
	for i := range subs {
		subs[i] = mcpr.Subscriber{Context: asTenant(fmt.Sprintf("t%d", i%10)), Revision: "2026-07-28",
			SubscriptionID: json.RawMessage(fmt.Sprint(i))}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	got, err := res.NotifyUpdated(ctx, "doc://a", subs, &mcpr.NotifyOptions{Executor: ex})
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for i, n := range got {
		if n.Message != nil {
			sent++
			if !strings.Contains(string(n.Message), fmt.Sprintf(`"io.modelcontextprotocol/subscriptionId":%d}`, i)) {
				t.Fatalf("%d: %s", i, n.Message)
			}
		}
	}
	if sent != 9000 {
		t.Fatalf("sent %d", sent)
	}
}

func TestListChangesReachOnlyTenantsWhoCanDiscoverAChange(t *testing.T) {
	rl := newRules()
	before := subscribable(t, rl, "a://1", "b://1")
	after := subscribable(t, rl, "a://1", "a://2", "b://1")
	rl.unlist("bob", "a://2")
	change, err := mcpr.NewListChange(before, after)
	if err != nil {
		t.Fatal(err)
	}
	defer change.Close()
	if change.Len() != 1 {
		t.Fatalf("len %d", change.Len())
	}
	subs := []mcpr.Subscriber{{Context: asTenant("alice"), Revision: "2025-11-25"}, {Context: asTenant("bob"), Revision: "2025-11-25"}}
	got, err := change.Notify(context.Background(), subs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(got[0].Message) != `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}` || got[1].Message != nil {
		t.Fatalf("list change: %q %q", got[0].Message, got[1].Message)
	}
	// permission change: fingerprints
	fp, err := after.ListingFingerprint(asTenant("alice"), nil)
	if err != nil {
		t.Fatal(err)
	}
	subs[0].Listing, subs[1].Listing = &fp, &fp
	rl.unlist("alice", "b://1")
	got, err = after.NotifyListingChanged(context.Background(), subs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Message == nil || got[0].Listing == nil || *got[0].Listing == fp {
		t.Fatalf("alice's listing changed: %+v", got[0])
	}
	if got[1].Message == nil {
		t.Fatal("bob's listing differs from alice's fingerprint: told")
	}
	closed, err := mcpr.ListenClosedResult(json.RawMessage(`1`))
	if err != nil || string(closed) != `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":1}}` {
		t.Fatalf("closed %s %v", closed, err)
	}
}

func TestSubscriptionMessagesCarryTheirDecisionAndAListenItsOwnID(t *testing.T) {
	rl := newRules()
	res := subscribable(t, rl, "doc://a", "doc://b")
	rl.hide("alice", "doc://b")
	// RequestID is for Request; a listen message takes its own id.
	o := &mcpr.RequestOptions{Revision: "2026-07-28", RequestID: json.RawMessage(`999`)}
	ack, err := res.Message(asTenant("alice"),
		[]byte(`{"jsonrpc":"2.0","id":"m-1","method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["doc://b","doc://a"]}}}`), o)
	want := `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"m-1"},"notifications":{"resourceSubscriptions":["doc://a"]}}}`
	if err != nil || !ack.Handled || !ack.IsNotification || ack.IsError || string(ack.JSON) != want {
		t.Fatalf("listen: %+v %v", ack, err)
	}
	if s := ack.Subscription; s == nil || s.Method != mcpr.Listen || string(s.ID) != `"m-1"` || len(s.URIs) != 1 || s.URIs[0] != "doc://a" {
		t.Fatalf("listen decision %+v", ack.Subscription)
	}
	if string(ack.ID) != `"m-1"` {
		t.Fatalf("id %s", ack.ID)
	}
	old := &mcpr.RequestOptions{Revision: "2025-11-25"}
	sub, err := res.Message(asTenant("alice"), []byte(`{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"doc://a"}}`), old)
	if err != nil || string(sub.JSON) != `{"jsonrpc":"2.0","id":4,"result":{}}` || sub.IsNotification ||
		sub.Subscription == nil || sub.Subscription.Method != mcpr.Subscribe {
		t.Fatalf("subscribe: %+v %v", sub, err)
	}
	hidden, _ := res.Message(asTenant("alice"), []byte(`{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"doc://b"}}`), old)
	none, _ := res.Message(asTenant("alice"), []byte(`{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"doc://zz"}}`), old)
	if !hidden.IsError || hidden.Subscription != nil || hidden.IsNotification ||
		strings.Replace(string(hidden.JSON), "doc://b", "U", 1) != strings.Replace(string(none.JSON), "doc://zz", "U", 1) {
		t.Fatalf("hidden %s, none %s", hidden.JSON, none.JSON)
	}
}

// TestANotificationCallsTraceReachesItsCallbacksAndNoMessage: NotifyOptions.Trace
// (the call's, the same for every subscriber) reaches every callback of
// NotifyUpdated, ListChange.Notify and NotifyListingChanged, inline and on
// an executor, and appears in no message.
func TestANotificationCallsTraceReachesItsCallbacksAndNoMessage(t *testing.T) {
	var mu sync.Mutex
	var seen []mcpr.TraceContext
	policy := mcpr.PolicyFuncs{DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
		tc, _ := mcpr.TraceContextOf(ctx)
		mu.Lock()
		seen = append(seen, tc)
		mu.Unlock()
		return nil
	}}
	build := func(uris ...string) *mcpr.Resources {
		b := mcpr.NewBuilder()
		defer b.Close()
		if err := b.SetPolicy(policy); err != nil {
			t.Fatal(err)
		}
		if err := b.SetNotifications(mcpr.NotifyResourceUpdates | mcpr.NotifyResourcesListChanged); err != nil {
			t.Fatal(err)
		}
		for _, u := range uris {
			if err := b.Add(def(u, u), text("x")); err != nil {
				t.Fatal(err)
			}
		}
		res, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(res.Close)
		return res
	}
	old, res := build("doc://a", "doc://b"), build("doc://a")
	change, err := mcpr.NewListChange(old, res)
	if err != nil {
		t.Fatal(err)
	}
	defer change.Close()
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	trace := mcpr.TraceContext{Traceparent: "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01", Baggage: "k=v"}
	var zero [32]byte
	subs := []mcpr.Subscriber{
		{Context: asTenant("alice"), Revision: "2026-07-28", SubscriptionID: json.RawMessage(`7`), Listing: &zero},
		{Context: asTenant("bob"), Revision: "2025-11-25", Listing: &zero},
	}
	check := func(what string, got []mcpr.Notification, err error) {
		t.Helper()
		if err != nil || len(got) != 2 {
			t.Fatalf("%s: %v %v", what, got, err)
		}
		for _, n := range got {
			if n.Message == nil || strings.Contains(string(n.Message), "0af7651916cd43dd") || strings.Contains(string(n.Message), "k=v") {
				t.Fatalf("%s: message %s", what, n.Message)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if len(seen) < 2 {
			t.Fatalf("%s: %d callbacks", what, len(seen))
		}
		for _, tc := range seen {
			if tc != trace {
				t.Fatalf("%s: a callback saw %+v", what, tc)
			}
		}
		seen = nil
	}
	ctx := context.Background()
	for _, e := range []*mcpr.Executor{nil, ex} {
		o := &mcpr.NotifyOptions{Executor: e, Trace: trace}
		got, err := res.NotifyUpdated(ctx, "doc://a", subs, o)
		check("update", got, err)
		got, err = change.Notify(ctx, subs, o)
		check("list change", got, err)
		got, err = res.NotifyListingChanged(ctx, subs, o)
		check("permission change", got, err)
	}
	// a member that is not UTF-8 is the host's mistake
	_, err = res.NotifyUpdated(ctx, "doc://a", subs, &mcpr.NotifyOptions{Trace: mcpr.TraceContext{Baggage: "\xff"}})
	var e *mcpr.Error
	if !errors.As(err, &e) || e.Status != mcpr.StatusInvalidArgument {
		t.Fatalf("a trace that is not UTF-8: %v", err)
	}
}

// TestTheSubscriptionMethodsAsAsyncCallsDecideAsTheBlockingOnes: RequestAsync
// and MessageAsync (BEHAVIOUR §15 rule 13) answer resources/subscribe and
// subscriptions/listen with the blocking call's JSON and decision (a
// listen's RequestID and HostNotifications included; a listen message
// names its stream by its own id).
func TestTheSubscriptionMethodsAsAsyncCallsDecideAsTheBlockingOnes(t *testing.T) {
	rl := newRules()
	res := subscribable(t, rl, "doc://a", "doc://b")
	rl.hide("alice", "doc://b")
	ex, err := mcpr.NewExecutor(2)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ctx := asTenant("alice")
	listen := `{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["doc://b","doc://a"]}}`
	for _, c := range []struct {
		method, params string
		o              *mcpr.RequestOptions
	}{
		{"resources/subscribe", `{"uri":"doc://a"}`, &mcpr.RequestOptions{Revision: "2025-11-25", Executor: ex}},
		{"resources/subscribe", `{"uri":"doc://b"}`, &mcpr.RequestOptions{Revision: "2025-11-25", Executor: ex}},
		{"subscriptions/listen", listen, &mcpr.RequestOptions{Revision: "2026-07-28", Executor: ex,
			RequestID: json.RawMessage(`"l-9"`), HostNotifications: mcpr.NotifyToolsListChanged}},
	} {
		ch, err := res.RequestAsync(ctx, c.method, []byte(c.params), c.o)
		if err != nil {
			t.Fatal(err)
		}
		var o mcpr.Outcome[mcpr.Response]
		select {
		case o = <-ch:
		case <-time.After(20 * time.Second):
			t.Fatal("no outcome")
		}
		want, err := res.Request(ctx, c.method, []byte(c.params), c.o)
		if o.Err != nil || err != nil || string(o.Value.JSON) != string(want.JSON) ||
			o.Value.IsNotification != want.IsNotification || fmt.Sprint(o.Value.Subscription) != fmt.Sprint(want.Subscription) {
			t.Fatalf("%s %s: %+v %v, blocking %+v %v", c.method, c.params, o.Value, o.Err, want, err)
		}
	}
	msg := `{"jsonrpc":"2.0","id":"m-9","method":"subscriptions/listen","params":` + listen + `}`
	o := &mcpr.RequestOptions{Revision: "2026-07-28", Executor: ex, HostNotifications: mcpr.NotifyToolsListChanged}
	ch, err := res.MessageAsync(ctx, []byte(msg), o)
	if err != nil {
		t.Fatal(err)
	}
	r := <-ch
	if r.Err != nil || !r.Value.IsNotification || r.Value.Subscription == nil ||
		string(r.Value.Subscription.ID) != `"m-9"` || len(r.Value.Subscription.URIs) != 1 ||
		!strings.Contains(string(r.Value.JSON), `"toolsListChanged":true`) {
		t.Fatalf("listen message: %+v %v", r.Value, r.Err)
	}
}
