package mcpsdk_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hostileRequest is a request whose params text is sent byte for byte.
type hostileRequest struct {
	what   string
	method string
	params string // "" = no params member
}

// hostileRequests are the hostile and the plain requests whose answers a
// Go server must give exactly as the library's one-call function (and so
// a C server) does.
func hostileRequests() []hostileRequest {
	pad := strings.Repeat("x", 300*1024)
	stateless := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	ref := `"ref":{"type":"ref/resource","uri":"doc://files/{name}"}`
	return []hostileRequest{
		{"a plain read", "resources/read", `{"uri":"doc://item/001"}`},
		{"a plain template listing", "resources/templates/list", `{}`},
		{"a plain completion", "completion/complete", `{` + ref + `,"argument":{"name":"name","value":"a"}}`},
		{"invalid UTF-8 in the URI", "resources/read", "{\"uri\":\"doc://item/\xff\"}"},
		{"invalid UTF-8 in an ignored member", "resources/read", "{\"uri\":\"doc://item/001\",\"x\":\"\xc3\"}"},
		{"a lone surrogate in the URI", "resources/read", `{"uri":"doc://item/\ud800"}`},
		{"a repeated uri", "resources/read", `{"uri":"doc://item/001","uri":"doc://item/002"}`},
		{"a repeated _meta", "resources/read", `{"uri":"doc://item/001","_meta":{},"_meta":{}}`},
		{"params over 256 KiB in a member the SDK drops", "resources/read", `{"uri":"doc://item/001","pad":"` + pad + `"}`},
		{"params nested 1,000 deep", "resources/read", `{"uri":"doc://item/001","x":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`},
		{"_meta nested 1,000 deep", "resources/read", `{"uri":"doc://item/001","_meta":{"x":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`},
		{"a number for the URI", "resources/read", `{"uri":5}`},
		{"a null URI", "resources/read", `{"uri":null}`},
		{"no URI", "resources/read", `{}`},
		{"params an array", "resources/read", `[]`},
		{"params a string", "resources/read", `"doc://item/001"`},
		{"params null", "resources/read", `null`},
		{"no params member", "resources/read", ``},
		{"_meta a number", "resources/read", `{"uri":"doc://item/001","_meta":5}`},
		{"an unknown per-request revision", "resources/read", `{"uri":"doc://item/001","_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}`},
		{"a number for the per-request revision", "resources/read", `{"uri":"doc://item/001","_meta":{"io.modelcontextprotocol/protocolVersion":5}}`},
		{"not found, escaped non-ASCII", "resources/read", `{"uri":"doc://missing/\u00e9"}`},
		{"not found, raw non-ASCII", "resources/read", `{"uri":"doc://missing/é<&>"}`},
		{"not found on a stateless request", "resources/read", `{"uri":"doc://missing/x",` + stateless + `}`},
		{"invalid UTF-8 on a stateless request", "resources/read", "{\"uri\":\"doc://item/\xff\"," + stateless + "}"},
		{"a number for the cursor", "resources/list", `{"cursor":5}`},
		{"a repeated cursor", "resources/list", `{"cursor":"a","cursor":"b"}`},
		{"a lone surrogate in the cursor", "resources/list", `{"cursor":"\udc00"}`},
		{"a forged cursor", "resources/templates/list", `{"cursor":"forged"}`},
		{"list params an array", "resources/list", `[1]`},
		{"list params over 256 KiB", "resources/list", `{"pad":"` + pad + `"}`},
		{"a repeated completion argument", "completion/complete", `{` + ref + `,"argument":{"name":"name","value":"a"},"argument":{"name":"name","value":"b"}}`},
		{"a number for the template", "completion/complete", `{"ref":{"type":"ref/resource","uri":5},"argument":{"name":"name","value":""}}`},
		{"an unknown reference type", "completion/complete", `{"ref":{"type":"ref/nope"},"argument":{"name":"name","value":""}}`},
		{"a lone surrogate in the value", "completion/complete", `{` + ref + `,"argument":{"name":"name","value":"\ud800"}}`},
		{"invalid UTF-8 in the value", "completion/complete", "{" + ref + ",\"argument\":{\"name\":\"name\",\"value\":\"\xfe\"}}"},
		{"a repeated context argument", "completion/complete", `{` + ref + `,"argument":{"name":"name","value":""},"context":{"arguments":{"a":"1","a":"2"}}}`},
		{"completion params over 256 KiB", "completion/complete", `{` + ref + `,"argument":{"name":"name","value":""},"pad":"` + pad + `"}`},
		{"no completion params", "completion/complete", ``},
	}
}

// TestAGoServerAnswersHostileParamsByteForByteAsTheLibrary sends each
// hostile request through the adapter over the package's transport and
// directly to Resources.Request (what the C mcpr_request answers): the
// error or result objects are the same bytes.
func TestAGoServerAnswersHostileParamsByteForByteAsTheLibrary(t *testing.T) {
	fx, server := installed(t, nil, nil)
	c := rawServer(t, server, 0)
	const revision = "2025-11-25"
	c.initialize(revision)
	for _, h := range hostileRequests() {
		var params []byte
		if h.params != "" {
			params = []byte(h.params)
		}
		resp := c.call(h.method, params)
		want, err := fx.res.Request(context.Background(), h.method, params,
			&mcpr.RequestOptions{Revision: revision, ScopeKey: "anonymous"})
		if err != nil {
			t.Fatalf("%s: Request: %v", h.what, err)
		}
		got, kind := member(resp, "result"), "result"
		if want.IsError {
			got, kind = member(resp, "error"), "error"
		}
		if !bytes.Equal(got, want.JSON) {
			t.Errorf("%s: the Go server's %s differs from the library's\n got: %.300s\nwant: %.300s", h.what, kind, got, want.JSON)
		}
	}
}

// TestThroughAnotherTransportTheSDKDecodesParamsFirst documents what
// differs without the package's transport (an SDK transport, or the SDK's
// HTTP handler, which makes its own): the SDK decodes the params into its
// structs before the adapter runs, so a repeated member is served
// last-wins instead of refused, and a wrong type gets the SDK's own error.
func TestThroughAnotherTransportTheSDKDecodesParamsFirst(t *testing.T) {
	_, server := installed(t, nil, nil)
	c := sdkRawServer(t, server)
	c.initialize("2025-11-25")
	for _, d := range []struct {
		what, method, params, member, contains string
	}{
		{"a repeated member is served last-wins", "resources/read", `{"uri":"doc://item/001","uri":"doc://item/002"}`, "result", `"text":"item 2"`},
		{"invalid UTF-8 becomes U+FFFD in data.uri", "resources/read", "{\"uri\":\"doc://item/\xff\"}", "error", "\"uri\":\"doc://item/\ufffd\""},
		{"a lone surrogate becomes U+FFFD in data.uri", "resources/read", `{"uri":"doc://item/\ud800"}`, "error", "\"uri\":\"doc://item/\ufffd\""},
		{"invalid UTF-8 elsewhere passes", "resources/read", "{\"uri\":\"doc://item/001\",\"x\":\"\xc3\"}", "result", `"text":"item 1"`},
		{"a member the SDK drops escapes the 256 KiB bound", "resources/read", `{"uri":"doc://item/001","pad":"` + strings.Repeat("x", 300*1024) + `"}`, "result", `"text":"item 1"`},
		{"a wrong type gets the SDK's error quoting the params", "resources/read", `{"uri":5}`, "error", `unmarshaling`},
		{"missing params get the SDK's -32600", "resources/read", "", "error", `-32600`},
	} {
		var params []byte
		if d.params != "" {
			params = []byte(d.params)
		}
		resp := c.call(d.method, params)
		if !strings.Contains(string(member(resp, d.member)), d.contains) {
			t.Errorf("%s: %.300s", d.what, resp)
		}
	}
}

// TestHostSideErrorsReachClientsAsInternalErrorWithAFixedMessage: a
// failure that is not the library's JSON-RPC error object (a ScopeKey
// error, a closed registry) reaches the client as -32603 "Internal error", never as
// code 0 nor with the host's text; the cause goes to the logger.
func TestHostSideErrorsReachClientsAsInternalErrorWithAFixedMessage(t *testing.T) {
	secret := "secret host detail"
	logger, logs := newTestLogger()
	fx := newFixture(t)
	scopeFails := &mcpsdk.Options{Logger: logger, ScopeKey: func(ctx context.Context, req mcp.Request) (string, error) {
		return "", errors.New(secret)
	}}
	cs := connect(t, fx, "2025-11-25", scopeFails)
	_, err := cs.ListResources(context.Background(), nil)
	expectInternal(t, "ScopeKey error", err, secret)
	if !strings.Contains(logs.String(), secret) {
		t.Fatalf("the cause was not logged: %q", logs.String())
	}

	closed := newFixture(t)
	cs = connect(t, closed, "2025-11-25", &mcpsdk.Options{Logger: logger})
	closed.res.Close()
	_, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "doc://item/001"})
	expectInternal(t, "closed registry", err, "closed")

	// The same through the package's transport.
	_, server := installed(t, scopeFails, nil)
	c := rawServer(t, server, 0)
	c.initialize("2025-11-25")
	resp := c.call("resources/list", nil)
	if got := string(member(resp, "error")); got != `{"code":-32603,"message":"Internal error"}` {
		t.Fatalf("resources/list with a failing ScopeKey through the package's transport: %s", resp)
	}
}

// TestOlderRevisionsAreServed: a session on 2024-11-05 or 2025-03-26 (the
// SDK negotiates both) gets every method served by the library, in those
// revisions' shapes: not an internal error.
func TestOlderRevisionsAreServed(t *testing.T) {
	for _, rev := range []string{"2025-03-26", "2024-11-05"} {
		for _, own := range []bool{true, false} {
			cs := connectOver(t, newFixture(t), rev, nil, own)
			ctx := context.Background()
			r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "doc://item/001"})
			if err != nil || len(r.Contents) != 1 || r.Contents[0].Text != "item 1" {
				t.Fatalf("%s read: %v %+v", rev, err, r)
			}
			l, err := cs.ListResources(ctx, nil)
			if err != nil || len(l.Resources) == 0 || l.NextCursor == "" {
				t.Fatalf("%s list: %v %+v", rev, err, l)
			}
			tl, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil || len(tl.ResourceTemplates) != 1 {
				t.Fatalf("%s templates: %v %+v", rev, err, tl)
			}
			c, err := cs.Complete(ctx, &mcp.CompleteParams{
				Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "doc://files/{name}"},
				Argument: mcp.CompleteParamsArgument{Name: "name", Value: "a"},
			})
			if err != nil || strings.Join(c.Completion.Values, ",") != "a.txt,alpha.md" {
				t.Fatalf("%s complete: %v %+v", rev, err, c)
			}
		}
	}
	// Over the package's transport the library's bytes reach the client
	// unchanged: no 2026 member, no content _meta.
	_, server := installed(t, nil, nil)
	c := rawServer(t, server, 0)
	c.initialize("2025-03-26")
	resp := c.call("resources/read", []byte(`{"uri":"doc://item/001"}`))
	if got := string(member(resp, "result")); !strings.HasPrefix(got, `{"contents":[{"uri":"doc://item/001","mimeType":"text/plain","text":"item 1"}],"_meta":{`) || strings.Contains(got, "resultType") {
		t.Fatalf("read on 2025-03-26: %s", resp)
	}
	resp = c.call("resources/read", []byte(`{"uri":"doc://missing"}`))
	if got := string(member(resp, "error")); got != `{"code":-32002,"message":"Resource not found","data":{"uri":"doc://missing"}}` {
		t.Fatalf("not found on 2025-03-26: %s", resp)
	}
}

// expectInternal asserts err is -32603 "Internal error" and mentions none
// of the host's words.
func expectInternal(t *testing.T, what string, err error, hidden string) {
	t.Helper()
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("%s: %v (%T) is not a JSON-RPC error", what, err, err)
	}
	if werr.Code != jsonrpc.CodeInternalError || werr.Message != "Internal error" || len(werr.Data) != 0 {
		t.Fatalf("%s: code %d message %q data %s, want -32603 \"Internal error\"", what, werr.Code, werr.Message, werr.Data)
	}
	if strings.Contains(werr.Message, hidden) {
		t.Fatalf("%s: the host's text reached the client: %q", what, werr.Message)
	}
}

// TestPromptCompletionsStayWithTheServersHandler: over the package's
// transport a ref/prompt completion keeps its params for the server's own
// completion handler, while a ref/resource one goes to the library.
func TestPromptCompletionsStayWithTheServersHandler(t *testing.T) {
	_, server := installed(t, nil, &mcp.ServerOptions{
		CompletionHandler: func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{
				Values: []string{"prompt:" + req.Params.Ref.Name + ":" + req.Params.Argument.Value}}}, nil
		},
	})
	c := rawServer(t, server, 0)
	c.initialize("2025-11-25")
	resp := c.call("completion/complete", []byte(`{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"wo"}}`))
	if got := string(member(resp, "result")); !strings.Contains(got, `"prompt:greet:wo"`) {
		t.Fatalf("prompt completion: %s", resp)
	}
	// A resource reference the library serves although a prompt's name is
	// present elsewhere in the params.
	resp = c.call("completion/complete", []byte(`{"ref":{"type":"ref/resource","uri":"doc://files/{name}"},"argument":{"name":"name","value":"a"},"name":"greet"}`))
	if got := string(member(resp, "result")); !strings.Contains(got, `"a.txt"`) {
		t.Fatalf("resource completion: %s", resp)
	}
}
