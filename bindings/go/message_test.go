package mcpresources_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

func messageRegistry(t *testing.T) *mcpr.Resources {
	return (&reg{}).add(def("doc://a", "a"), text("A")).add(def("doc://b", "b"), text("B")).build(t)
}

// TestMessageAnswersWholeMessagesWithTheIdByteForByte: a library request is
// answered with its whole response message, the id exactly as sent, and
// the same object Request answers.
func TestMessageAnswersWholeMessagesWithTheIdByteForByte(t *testing.T) {
	res := messageRegistry(t)
	o := &mcpr.RequestOptions{Revision: "2025-11-25", ScopeKey: "s"}
	for _, id := range []string{"1", "-3", "123456789012345678901234567890", `"a\u0062"`, `""`} {
		msg := `{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"uri":"doc://a"}}`
		r, err := res.Message(context.Background(), []byte(msg), o)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := res.Request(context.Background(), "resources/read", []byte(`{"uri":"doc://a"}`), o)
		if got := string(r.JSON); got != `{"jsonrpc":"2.0","id":`+id+`,"result":`+string(want.JSON)+`}` {
			t.Fatalf("id %s: %s", id, got)
		}
		if !r.Handled || r.Kind != mcpr.MessageRequest || string(r.ID) != id || r.Method != "resources/read" ||
			r.Status != mcpr.StatusOK || r.IsError || len(r.Params) != 0 {
			t.Fatalf("id %s: %+v", id, r)
		}
	}
	r, _ := res.Message(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"doc://x"}}`), o)
	if !r.IsError || r.Status != mcpr.StatusUnavailable || r.Cause() == "" ||
		string(r.JSON) != `{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"doc://x"}}}` {
		t.Fatalf("not found: %+v %s", r, r.JSON)
	}
}

// TestMessageAnswersMalformedMessagesAndHandsTheRestToTheHost: -32700 and
// -32600 with id null; unserved methods, other notifications and
// responses handed over with their method, raw id and raw params.
func TestMessageAnswersMalformedMessagesAndHandsTheRestToTheHost(t *testing.T) {
	res := messageRegistry(t)
	o := &mcpr.RequestOptions{ScopeKey: "s"}
	for line, want := range map[string]string{
		"garbage": `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		"\x00":    `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`:            `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`:           `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`:       `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`,
		`{"jsonrpc":"1.0","id":"x","method":"ping"}`:            `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request"}}`,
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001): `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	} {
		r, err := res.Message(context.Background(), []byte(line), o)
		if err != nil || string(r.JSON) != want || r.Kind != mcpr.MessageInvalid || !r.Handled {
			t.Fatalf("%.40q: %+v %s %v", line, r, r.JSON, err)
		}
	}
	r, _ := res.Message(context.Background(), []byte(`{"jsonrpc":"2.0","id":"t","method":"tools/list","params":{"cursor":"c"}}`), o)
	if r.Handled || len(r.JSON) != 0 || r.Method != "tools/list" || string(r.ID) != `"t"` || string(r.Params) != `{"cursor":"c"}` {
		t.Fatalf("tools/list: %+v", r)
	}
	r, _ = res.Message(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`), o)
	if r.Handled || r.Kind != mcpr.MessageNotification || len(r.JSON) != 0 || len(r.ID) != 0 {
		t.Fatalf("notification: %+v", r)
	}
	r, _ = res.Message(context.Background(), []byte(`{"jsonrpc":"2.0","method":"resources/read","params":{"uri":"doc://a"}}`), o)
	if !r.Handled || r.Kind != mcpr.MessageNotification || len(r.JSON) != 0 {
		t.Fatalf("ignored notification: %+v", r)
	}
	r, _ = res.Message(context.Background(), []byte(`{"jsonrpc":"2.0","id":5,"result":{}}`), o)
	if r.Handled || r.Kind != mcpr.MessageResponse || string(r.ID) != "5" {
		t.Fatalf("response: %+v", r)
	}
	r, _ = res.Message(context.Background(), []byte("  \n"), o)
	if !r.Handled || r.Kind != mcpr.MessageNone || len(r.JSON) != 0 {
		t.Fatalf("blank: %+v", r)
	}
	_, err := res.Message(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`), nil)
	var e *mcpr.Error
	if !errors.As(err, &e) || e.Status != mcpr.StatusInvalidArgument {
		t.Fatalf("a list without a scope key: %v", err)
	}
}

// TestMessageDeadlineIsTheDeadlineErrorWithTheID: a request whose ctx
// deadline passes while it runs gets the deadline error with its id.
func TestMessageDeadlineIsTheDeadlineErrorWithTheID(t *testing.T) {
	res := (&reg{}).add(def("doc://hang", "hang"), hang(nil)).build(t)
	for i := 0; i < 10; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+i%4)*time.Millisecond)
		r, err := res.Message(ctx, []byte(`{"jsonrpc":"2.0","id":"h","method":"resources/read","params":{"uri":"doc://hang"}}`), nil)
		cancel()
		if err != nil || !r.IsError || r.Status != mcpr.StatusDeadlineExceeded ||
			!strings.HasPrefix(string(r.JSON), `{"jsonrpc":"2.0","id":"h","error":{"code":-32603`) {
			t.Fatalf("%v %+v %s", err, r, r.JSON)
		}
	}
}

// TestMessageOfACancelledContextSendsNothingButTheDeadlineError: a request
// whose ctx was cancelled gets no response; one whose ctx deadline passed
// gets the deadline error with its id; an invalid message is answered
// whatever ctx is.
func TestMessageOfACancelledContextSendsNothingButTheDeadlineError(t *testing.T) {
	res := messageRegistry(t)
	o := &mcpr.RequestOptions{ScopeKey: "s"}
	read := []byte(`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"doc://a"}}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := res.Message(ctx, read, o)
	if err != nil || len(r.JSON) != 0 || r.Status != mcpr.StatusCanceled || !r.Handled {
		t.Fatalf("cancelled: %+v %v", r, err)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	r, _ = res.Message(ctx, read, o)
	if r.Status != mcpr.StatusDeadlineExceeded || !r.IsError ||
		string(r.JSON) != `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"resource request deadline exceeded"}}` {
		t.Fatalf("deadline: %+v %s", r, r.JSON)
	}
	r, _ = res.Message(ctx, []byte("garbage"), o)
	if r.Kind != mcpr.MessageInvalid || !strings.Contains(string(r.JSON), "-32700") {
		t.Fatalf("garbage: %+v", r)
	}
}
