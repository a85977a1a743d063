package mcpsdk

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK decodes a request's params into its own structs before any
// middleware runs, refusing (with messages that echo the params and Go
// type names) what they cannot hold and keeping no raw text. The
// transports of this package therefore keep the params text of the
// library's methods themselves: the request reaches the SDK with params it
// always accepts (only the client's "_meta" object, which the SDK reads for
// the stateless protocol, and nothing for a ref/prompt completion, which
// keeps its params), and the raw text rides along, keyed by the request's
// *mcp.RequestExtra (a fresh one the transport sets: the SDK hands it to
// the middleware unchanged, and nobody else can make one that matches).

// rawParams is the params text of one request as received.
type rawParams struct {
	text    []byte // nil when the request had no params member
	reduced bool   // the SDK got the placeholder, not the params
}

// rawStore maps a request's RequestExtra to its raw params. An entry
// leaves when the middleware takes it, or when its request is collected
// (requests the SDK refused before the middleware).
var rawStore sync.Map // weak.Pointer[mcp.RequestExtra] -> rawParams

// libraryMethod reports whether method's params go to the library.
func libraryMethod(method string) bool {
	switch method {
	case methodRead, methodList, methodListTemplates, methodComplete, methodSubscribe, methodUnsubscribe,
		methodListen:
		return true
	}
	return false
}

// keepRawParams keeps the params of a library method's call and hands the
// SDK the placeholder instead.
func keepRawParams(req *jsonrpc.Request) {
	if !req.IsCall() || !libraryMethod(req.Method) {
		return
	}
	extra := &mcp.RequestExtra{}
	key := weak.Make(extra)
	raw := rawParams{text: req.Params}
	// The SDK's own listen handler runs (for the host's tool and prompt
	// list changes): it needs the filter, so a listen keeps its params.
	if req.Method != methodListen && (req.Method != methodComplete || !promptReference(req.Params)) {
		raw.reduced = true
		req.Params = placeholder(req.Params)
	}
	rawStore.Store(key, raw)
	runtime.AddCleanup(extra, func(k weak.Pointer[mcp.RequestExtra]) { rawStore.Delete(k) }, key)
	req.Extra = extra
}

// takeRawParams returns the raw params kept for req (ok false: none, the
// request came through another transport).
func takeRawParams(req mcp.Request) (rawParams, bool) {
	extra := req.GetExtra()
	if extra == nil {
		return rawParams{}, false
	}
	v, ok := rawStore.LoadAndDelete(weak.Make(extra))
	if !ok {
		return rawParams{}, false
	}
	return v.(rawParams), true
}

// placeholder is what the SDK gets instead of the params: {} with the
// client's "_meta" member when it is an object (its last occurrence, as
// the SDK itself reads it).
func placeholder(params []byte) json.RawMessage {
	meta := lastMember(params, "_meta")
	if len(meta) == 0 || meta[0] != '{' || !shallow(meta, maxMetaDepth) {
		return json.RawMessage(`{}`)
	}
	out := make([]byte, 0, len(meta)+10)
	out = append(out, `{"_meta":`...)
	out = append(out, meta...)
	return append(out, '}')
}

// maxMetaDepth is the deepest "_meta" the placeholder carries (the SDK
// refuses params nested beyond 1000 levels, with a message quoting them).
const maxMetaDepth = 64

// shallow reports whether the JSON value v nests at most max levels.
func shallow(v []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range v {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > max {
				return false
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return true
}

// lastMember is the raw value of the last top-level member name of a JSON
// object (nil when params is no object or lacks it).
func lastMember(params []byte, name string) []byte {
	params = bytes.TrimSpace(params)
	if len(params) == 0 || params[0] != '{' {
		return nil
	}
	var last []byte
	if eachMember(params, func(key string, start, end int) bool {
		if key == name {
			last = params[start:end]
		}
		return true
	}) != nil {
		return nil
	}
	return last
}

// promptReference reports whether completion params name a ref/prompt
// reference (read leniently: such a request is the host's and keeps its
// params for the SDK's completion handler).
func promptReference(params []byte) bool {
	ref := lastMember(params, "ref")
	var kind string
	return json.Unmarshal(lastMember(ref, "type"), &kind) == nil && kind == "ref/prompt"
}
