package mcpsdk_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

const (
	parseError     = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
	invalidRequest = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`
)

// malformedLines are lines a broken or hostile client may send, with the
// answer each gets ("" = none: ignored).
func malformedLines() []struct{ line, answer string } {
	deepArray := strings.Repeat("[", 1000) + strings.Repeat("]", 1000)
	deepObject := strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000)
	tooDeep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	deepParams := `{"jsonrpc":"2.0","method":"notifications/x","params":` + deepArray + `}`
	return []struct{ line, answer string }{
		{"garbage", parseError},
		{"\x00", parseError},
		{"{\"jsonrpc\":\"2.0\",\x00}", parseError},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"`, parseError},
		{tooDeep, parseError},
		{deepArray, invalidRequest},
		{deepObject, invalidRequest},
		{deepParams, ""}, // a notification nobody handles: no answer
		{"", ""},
		{"   \t", ""},
		{`[]`, invalidRequest},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, invalidRequest},
		{`42`, invalidRequest},
		{`"text"`, invalidRequest},
		{`null`, invalidRequest},
		{`{}`, invalidRequest},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}`},
		{`{"jsonrpc":"2.0","id":8,"method":5}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"Invalid Request"}}`},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","result":{}}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":9,"error":5}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request"}}`},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"pad\":\"" + strings.Repeat("x", 40000) + "\"}", invalidRequest},
		// As mcpr_message answers them: a repeated JSON-RPC member, ids MCP
		// does not allow (the SDK would take null for a notification and 1.5
		// for 1), a response without exactly one of result and error.
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","\u0069d":1,"id":2,"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, invalidRequest},
		{`{"jsonrpc":"2.0","id":10}`, `{"jsonrpc":"2.0","id":10,"error":{"code":-32600,"message":"Invalid Request"}}`},
		{`{"jsonrpc":"2.0","id":11,"result":{},"error":{"code":1,"message":"x"}}`, `{"jsonrpc":"2.0","id":11,"error":{"code":-32600,"message":"Invalid Request"}}`},
	}
}

// TestMalformedLinesAreAnsweredAndTheSessionGoesOn: over the package's
// transport every malformed line gets its JSON-RPC answer (-32700 for what
// is not JSON, -32600 for JSON that is no JSON-RPC message, nothing for a
// blank line) and the session serves the next request. The SDK's own
// transport ends the session on the first one.
func TestMalformedLinesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	_, server := installed(t, nil, nil)
	c := rawServer(t, server, 32*1024)
	c.initialize("2025-11-25")
	for _, m := range malformedLines() {
		c.send([]byte(m.line))
		if m.answer != "" {
			if got := c.recv(); string(got) != m.answer {
				t.Errorf("line %.40q: answer %s, want %s", m.line, got, m.answer)
			}
		}
		resp := c.call("resources/read", []byte(`{"uri":"doc://item/001"}`))
		if !bytes.Contains(member(resp, "result"), []byte(`"text":"item 1"`)) {
			t.Fatalf("after line %.40q: %s", m.line, resp)
		}
	}
	// Before initialize too: a fresh session answers and then initializes.
	c = rawServer(t, server, 0)
	c.send([]byte("garbage"))
	if got := c.recv(); string(got) != parseError {
		t.Fatalf("garbage before initialize: %s", got)
	}
	c.initialize("2025-11-25")
}

// TestTheSDKsOwnTransportEndsTheSessionOnMalformedInput documents why the
// package has a transport: the same garbage line ends a session on the
// SDK's mcp.IOTransport (as it does on mcp.StdioTransport).
func TestTheSDKsOwnTransportEndsTheSessionOnMalformedInput(t *testing.T) {
	_, server := installed(t, nil, nil)
	c := sdkRawServer(t, server)
	c.initialize("2025-11-25")
	c.send([]byte("garbage"))
	select {
	case l, ok := <-c.lines:
		if ok {
			t.Fatalf("the SDK's transport answered %s (has it learned to survive malformed input?)", l)
		}
	case <-contextDone(t):
		t.Fatal("the SDK's transport neither answered nor closed")
	}
}

func contextDone(t *testing.T) <-chan struct{} {
	ctx, cancel := context.WithTimeout(context.Background(), 20e9)
	t.Cleanup(cancel)
	return ctx.Done()
}
