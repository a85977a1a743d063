package mcpresources_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

const (
	consentRequest = `{"method":"elicitation/create","params":{"mode":"form","message":"Read it?",` +
		`"requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}}}`
	inputCaps   = `{"elicitation":{},"roots":{}}`
	acceptInput = `{"consent":{"action":"accept","content":{"confirm":true}}}`
)

// inputRegistry: doc://consent needs consent in the policy's first check;
// doc://roots asks for the client's roots from its body read.
func inputRegistry(t *testing.T, accepted *int, badRequest bool) *mcpr.Resources {
	t.Helper()
	p := mcpr.PolicyFuncs{ReadFunc: func(ctx context.Context, tg mcpr.Target) error {
		if tg.URI() != "doc://consent" {
			return nil
		}
		if mcpr.IsInputRetry(ctx) && mcpr.InputResponseAction(ctx, "consent") == mcpr.InputAccept {
			if v, ok := mcpr.InputContent(ctx, "consent", "confirm"); ok && string(v) == "true" &&
				string(mcpr.InputState(ctx)) == "own state" {
				*accepted++
				return nil
			}
		}
		key := "consent"
		if badRequest {
			key = "bad key!"
		}
		return &mcpr.InputRequired{
			Requests: []mcpr.InputRequest{{Key: key, Request: []byte(consentRequest)}},
			State:    []byte("own state"),
		}
	}}
	roots := mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		if r, ok := mcpr.InputResponse(ctx, "roots"); ok {
			return out.SetText("text/plain", "roots: "+string(r))
		}
		return &mcpr.InputRequired{Requests: []mcpr.InputRequest{{Key: "roots", Request: []byte(`{"method":"roots/list"}`)}}}
	})
	return (&reg{policy: p}).
		add(def("doc://consent", "c"), text("the body")).
		add(def("doc://roots", "r"), roots).
		add(def("doc://plain", "p"), text("plain")).
		build(t)
}

func stateOf(t *testing.T, result []byte) string {
	t.Helper()
	var v struct {
		ResultType   string                     `json:"resultType"`
		Requests     map[string]json.RawMessage `json:"inputRequests"`
		RequestState string                     `json:"requestState"`
		TTL          *int                       `json:"ttlMs"`
	}
	if err := json.Unmarshal(result, &v); err != nil || v.ResultType != "input_required" || v.RequestState == "" {
		t.Fatalf("not an InputRequiredResult (%v): %s", err, result)
	}
	if v.TTL != nil {
		t.Errorf("an input-required result has ttlMs: %s", result)
	}
	return v.RequestState
}

func TestAPolicyAsksForInputAndTheRetryReadsWithTheResponses(t *testing.T) {
	accepted := 0
	r := inputRegistry(t, &accepted, false)
	defer r.Close()
	ctx := context.Background()
	o := &mcpr.ReadOptions{ScopeKey: "principal:alice", ClientCapabilities: []byte(inputCaps)}
	b, err := r.Read(ctx, "doc://consent", o)
	if err != nil || !b.InputRequired {
		t.Fatalf("Read: %v, %+v", err, b)
	}
	state := stateOf(t, b.JSON)
	o.RequestState, o.InputResponses = state, []byte(acceptInput)
	b, err = r.Read(ctx, "doc://consent", o)
	if err != nil || b.InputRequired || !strings.Contains(string(b.JSON), "the body") || accepted == 0 {
		t.Fatalf("retry: %v, %s, accepted %d", err, b.JSON, accepted)
	}
	if !strings.Contains(string(b.JSON), `"ttlMs":0`) {
		t.Errorf("a retried result is cacheable: %s", b.JSON)
	}
	// A tampered state: one refusal for every URI.
	bad := []byte(state)
	bad[len(bad)/2] ^= 1
	for _, uri := range []string{"doc://consent", "doc://plain", "doc://nowhere", "not a uri"} {
		o.RequestState = string(bad)
		_, err := r.Read(ctx, uri, o)
		e := asError(t, err, mcpr.StatusInvalidRequest)
		if e != nil && string(e.JSONRPC) != `{"code":-32602,"message":"Invalid request state"}` {
			t.Errorf("%s: %s", uri, e.JSONRPC)
		}
	}
}

func TestABodyReadAsksForRootsThroughTheOneCallRequest(t *testing.T) {
	r := inputRegistry(t, new(int), false)
	defer r.Close()
	ctx := context.Background()
	o := &mcpr.RequestOptions{ScopeKey: "principal:alice", ClientCapabilities: []byte(inputCaps)}
	resp, err := r.Request(ctx, "resources/read", []byte(`{"uri":"doc://roots"}`), o)
	if err != nil || !resp.InputRequired || resp.IsError {
		t.Fatalf("Request: %v, %+v", err, resp)
	}
	params := `{"uri":"doc://roots","requestState":"` + stateOf(t, resp.JSON) +
		`","inputResponses":{"roots":{"roots":[{"uri":"file:///srv/projects/a"}]}}}`
	resp, err = r.Request(ctx, "resources/read", []byte(params), o)
	if err != nil || resp.InputRequired || !strings.Contains(string(resp.JSON), `file:///srv/projects/a`) {
		t.Fatalf("retry: %v, %s", err, resp.JSON)
	}
	// Without the capability: -32021, never the request.
	o.ClientCapabilities = []byte(`{}`)
	resp, err = r.Request(ctx, "resources/read", []byte(`{"uri":"doc://roots"}`), o)
	if err != nil || !resp.IsError || resp.Status != mcpr.StatusInputRequired ||
		!strings.Contains(string(resp.JSON), `"code":-32021`) {
		t.Fatalf("missing capability: %v, %+v", err, resp)
	}
}

func TestAnOlderRevisionFailsWithTheHostsErrorAndTheRequests(t *testing.T) {
	b := mcpr.NewBuilder()
	defer b.Close()
	if err := b.SetInputUnsupportedError(-32021, "reserved"); err == nil {
		t.Error("a reserved code was accepted")
	}
	r := inputRegistry(t, new(int), false)
	defer r.Close()
	_, err := r.Read(context.Background(), "doc://consent", &mcpr.ReadOptions{ScopeKey: "a", Revision: "2025-11-25"})
	e := asError(t, err, mcpr.StatusInputRequired)
	if e == nil {
		return
	}
	if e.Code != -32603 || !strings.Contains(string(e.InputRequests), `"consent":{"method":"elicitation/create"`) {
		t.Errorf("%d %s %s", e.Code, e.JSONRPC, e.InputRequests)
	}
	if mcpr.StatusInputRequired.String() != "input_required" {
		t.Error(mcpr.StatusInputRequired.String())
	}
}

func TestARefusedInputRequestFailsTheCallbackAndTheAccessorsNeedACallback(t *testing.T) {
	r := inputRegistry(t, new(int), true)
	defer r.Close()
	_, err := r.Read(context.Background(), "doc://consent",
		&mcpr.ReadOptions{ScopeKey: "a", ClientCapabilities: []byte(inputCaps)})
	var e *mcpr.Error
	if !errors.As(err, &e) || e.Status != mcpr.StatusPolicy || !strings.Contains(e.Cause(), "bad key!") {
		t.Fatalf("%v", err)
	}
	ctx := context.Background()
	if mcpr.IsInputRetry(ctx) || mcpr.InputResponseAction(ctx, "k") != mcpr.InputNoAction || mcpr.InputState(ctx) != nil {
		t.Error("input accessors answered outside a callback")
	}
	if _, ok := mcpr.InputResponse(ctx, "k"); ok {
		t.Error("a response outside a callback")
	}
}

func TestAMessageTakesTheClientCapabilitiesOfTheOptions(t *testing.T) {
	r := inputRegistry(t, new(int), false)
	defer r.Close()
	msg := []byte(`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"doc://consent"}}`)
	o := &mcpr.RequestOptions{ScopeKey: "principal:alice", ClientCapabilities: []byte(inputCaps)}
	reply, err := r.Message(context.Background(), msg, o)
	if err != nil || !strings.Contains(string(reply.JSON), `"resultType":"input_required"`) {
		t.Fatalf("%v %s", err, reply.JSON)
	}
	o.ClientCapabilities = nil
	reply, err = r.Message(context.Background(), msg, o)
	if err != nil || !strings.Contains(string(reply.JSON), `"code":-32021`) {
		t.Fatalf("without capabilities: %v %s", err, reply.JSON)
	}
}
