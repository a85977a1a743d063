// Package mcpsdk serves an mcp-resources registry on a *mcp.Server of the
// official Go MCP SDK (github.com/modelcontextprotocol/go-sdk).
//
// Install adds a receiving middleware that answers resources/read,
// resources/list, resources/templates/list and completion/complete for
// resource templates (ref/resource) with the library's one-call
// function (mcpresources.Resources.Request): the
// library's JSON goes to the client unchanged (no re-marshal through the
// SDK's content structs), errors are the library's JSON-RPC error objects,
// the protocol revision is the one the request or the session negotiated,
// the scope key of listings comes from the session's authorization (or a
// function of the host), and cancellation from the request's context. It
// also advertises the resources capability in initialize and
// server/discover results (and completions when some binding completes).
// Failures that are not the library's JSON-RPC error objects reach the
// client as -32603 "Internal error" (the cause goes to Options.Logger).
//
// Serve the server on StdioTransport or IOTransport: they keep the params
// text of those methods as the client sent it for the library (the SDK
// hands middlewares only its decoded structs), and answer malformed lines
// with JSON-RPC errors instead of ending the session.
package mcpsdk

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"sort"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure Install (nil = defaults).
type Options struct {
	// ScopeKey returns the caller scope of a listing (cursors are bound to
	// it). nil = DefaultScopeKey.
	ScopeKey func(ctx context.Context, req mcp.Request) (string, error)
	// Executor runs the library's callbacks (nil = inline on the request's
	// goroutine); with one, every call returns by its deadline.
	Executor *mcpr.Executor
	// PageSize of listings (0 = the registry's default).
	PageSize int
	// ResourceTools registers the resource tools on the server:
	// read_resource and list_resources (mcpr.ResourceToolDefinitions),
	// served by the library for clients that only call tools.
	ResourceTools bool
	// Logger receives the failures the client sees only as -32603
	// "Internal error" (a ScopeKey error, a closed registry, a protocol
	// revision neither the SDK nor the library knows), with their causes. nil =
	// slog.Default().
	Logger *slog.Logger
	// ServerInfo is the server's Implementation, as given to mcp.NewServer.
	// With it, the io.modelcontextprotocol/serverInfo member the SDK puts
	// in the _meta of every result of a stateless (2026-07-28) request is
	// the library's: passed as its result _meta (mcpr.ResultMeta, merged
	// after the library's own members and counted in its budgets), so
	// the result is sent as the library made it. Without it, the SDK's
	// members are spliced into the library's result as before.
	ServerInfo *mcp.Implementation
}

const (
	methodRead          = "resources/read"
	methodList          = "resources/list"
	methodListTemplates = "resources/templates/list"
	methodComplete      = "completion/complete"
	methodInitialize    = "initialize"
	methodDiscover      = "server/discover"
	// revisionStateless is the first revision whose requests carry their
	// protocol version in _meta.
	revisionStateless = "2026-07-28"
)

// Install serves res on server: resources/read, resources/list,
// resources/templates/list and completion/complete with a ref/resource
// reference go to the library (whatever AddResource registered is
// shadowed; ref/prompt completions stay with the server's handler), with
// their params as sent when the server runs on this package's transports
// (re-encoded from the SDK's structs on any other), and
// initialize / server/discover results advertise the resources capability
// (neither subscribe nor listChanged: the registry is immutable) and, when
// some binding completes, the completions capability. Install before the
// server runs sessions.
func Install(server *mcp.Server, res *mcpr.Resources, opts *Options) {
	a := &adapter{res: res}
	if opts != nil {
		a.opts = *opts
	}
	if a.opts.ScopeKey == nil {
		a.opts.ScopeKey = DefaultScopeKey
	}
	a.logger = a.opts.Logger
	if a.logger == nil {
		a.logger = slog.Default()
	}
	if info := a.opts.ServerInfo; info != nil {
		a.serverInfo = serverInfoMeta(info, a.logger)
	}
	server.AddReceivingMiddleware(a.middleware)
	if a.opts.ResourceTools {
		if err := a.addResourceTools(server); err != nil {
			a.logger.Error("mcpsdk: the resource tools could not be registered", "error", err)
		}
	}
}

type adapter struct {
	res    *mcpr.Resources
	opts   Options
	logger *slog.Logger
	// serverInfo is Options.ServerInfo as result _meta (nil without it).
	serverInfo *mcpr.ResultMeta
}

// serverInfoMeta is {"io.modelcontextprotocol/serverInfo": info} as a
// library ResultMeta, made once (nil, logged, should the library refuse
// it: the SDK's members are then spliced as without ServerInfo).
func serverInfoMeta(info *mcp.Implementation, logger *slog.Logger) *mcpr.ResultMeta {
	text, err := json.Marshal(map[string]any{mcp.MetaKeyServerInfo: info})
	if err == nil {
		var m *mcpr.ResultMeta
		if m, err = mcpr.NewResultMeta(text); err == nil {
			return m
		}
	}
	logger.Error("mcpsdk: Options.ServerInfo refused; the SDK's serverInfo is spliced instead", "error", err)
	return nil
}

// stateless reports whether req carries a stateless (2026-07-28 or later)
// protocol version in its _meta: the requests whose results the SDK
// annotates with the server's identity.
func stateless(req mcp.Request) bool {
	p := req.GetParams()
	if p == nil || reflect.ValueOf(p).IsNil() {
		return false
	}
	v, ok := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string)
	return ok && v >= revisionStateless
}

func (a *adapter) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case methodRead, methodList, methodListTemplates, methodComplete:
			return a.route(ctx, method, req, next)
		case methodInitialize, methodDiscover:
			res, err := next(ctx, method, req)
			if err == nil {
				advertise(res, a.res.Completes())
			}
			return res, err
		case methodToolsList:
			res, err := next(ctx, method, req)
			if err == nil && a.opts.ResourceTools {
				err = shapeToolList(res, Revision(req))
			}
			return res, err
		case methodToolsCall:
			// The library's tool results go out as the library made them
			// (see EmbedResources).
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			return toolResult(res)
		}
		return next(ctx, method, req)
	}
}

// route answers one of the library's methods. With the raw params kept by
// this package's transports the library gets them as sent and decides
// itself (a ref/prompt completion goes back to the server's own handler);
// through another transport it gets the params re-encoded from the SDK's
// struct, and ref/prompt completions never reach it.
func (a *adapter) route(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	raw, kept := takeRawParams(req)
	var params []byte
	if kept {
		params = raw.text
	} else {
		if method == methodComplete {
			p, ok := req.GetParams().(*mcp.CompleteParams)
			if !ok || p == nil || p.Ref == nil || p.Ref.Type != "ref/resource" {
				return next(ctx, method, req)
			}
		}
		var err error
		if params, err = reencode(req); err != nil {
			return nil, a.internal(ctx, method, err)
		}
	}
	res, err := a.serve(ctx, method, params, req)
	if !errors.Is(err, mcpr.ErrMethodNotHandled) {
		return res, err
	}
	if method != methodComplete {
		return nil, a.internal(ctx, method, err)
	}
	if kept && raw.reduced {
		// The transport judged the reference not a prompt's; the library
		// did: hand the SDK's handler the params it would have decoded.
		if req, err = completeRequest(req, raw.text); err != nil {
			return nil, invalidParams
		}
	}
	return next(ctx, method, req)
}

// reencode is the params of a request that came without its raw text: the
// SDK's params struct, _meta included, as JSON (nil when absent).
func reencode(req mcp.Request) ([]byte, error) {
	p := req.GetParams()
	if p == nil || reflect.ValueOf(p).IsNil() {
		return nil, nil
	}
	return json.Marshal(p)
}

// completeRequest is req with params decoded from text (for the server's
// own completion handler).
func completeRequest(req mcp.Request, text []byte) (mcp.Request, error) {
	var p mcp.CompleteParams
	if err := json.Unmarshal(text, &p); err != nil {
		return nil, err
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	return &mcp.CompleteRequest{Session: ss, Params: &p, Extra: req.GetExtra()}, nil
}

// The errors the adapter itself sends: fixed texts, never a host error's.
var (
	internalError = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error"}
	invalidParams = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params"}
)

// internal logs a host-side failure (the cause stays here) and returns the
// error the client gets instead: -32603 with a fixed message.
func (a *adapter) internal(ctx context.Context, method string, err error) error {
	cause := err.Error()
	var e *mcpr.Error
	if errors.As(err, &e) && e.Cause() != "" {
		cause += ": " + e.Cause()
	}
	a.logger.ErrorContext(ctx, "mcpsdk: request failed", "method", method, "error", cause)
	return internalError
}

// advertise sets the resources capability of an initialize or discover
// result, and the completions capability when some binding completes.
func advertise(res mcp.Result, completes bool) {
	var caps **mcp.ServerCapabilities
	switch r := res.(type) {
	case *mcp.InitializeResult:
		caps = &r.Capabilities
	case *mcp.DiscoverResult:
		caps = &r.Capabilities
	default:
		return
	}
	if *caps == nil {
		*caps = &mcp.ServerCapabilities{}
	}
	(*caps).Resources = &mcp.ResourceCapabilities{}
	if completes && (*caps).Completions == nil {
		(*caps).Completions = &mcp.CompletionCapabilities{}
	}
}

// Revision is the protocol revision of a request: a stateless
// (2026-07-28 or later) version in the request's _meta, else the version
// the session negotiated, else "" (the library's newest).
func Revision(req mcp.Request) string {
	if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
		if v, ok := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string); ok && v >= revisionStateless {
			return v
		}
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			return ip.ProtocolVersion
		}
	}
	return ""
}

// DefaultScopeKey scopes listings by the request's authorization: the
// bearer token's user (or, without a user, a hash of its scopes), else the
// session id, else one shared scope (stdio: one client per process).
func DefaultScopeKey(ctx context.Context, req mcp.Request) (string, error) {
	if extra := req.GetExtra(); extra != nil && extra.TokenInfo != nil {
		ti := extra.TokenInfo
		if ti.UserID != "" {
			return "user:" + ti.UserID, nil
		}
		h := sha256.New()
		for _, s := range ti.Scopes {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		return "token-scopes:" + hex.EncodeToString(h.Sum(nil)), nil
	}
	if s := req.GetSession(); s != nil && !reflect.ValueOf(s).IsNil() {
		if id := s.ID(); id != "" {
			return "session:" + id, nil
		}
	}
	return "anonymous", nil
}

// serve answers one of the library's methods with its one-call function:
// params go to the library, which reads the per-request protocol version
// from their _meta itself; the session's revision, the scope key and the
// request's context come from here. Every failure that is not the
// library's JSON-RPC error object becomes -32603 with a fixed message
// (logged with its cause); ErrMethodNotHandled is returned as is.
func (a *adapter) serve(ctx context.Context, method string, params []byte, req mcp.Request) (mcp.Result, error) {
	opt := &mcpr.RequestOptions{Revision: Revision(req), PageSize: a.opts.PageSize, Executor: a.opts.Executor}
	if a.serverInfo != nil && stateless(req) {
		opt.ResultMeta = a.serverInfo
	}
	if method == methodList || method == methodListTemplates {
		scope, err := a.opts.ScopeKey(ctx, req)
		if err != nil {
			return nil, a.internal(ctx, method, err)
		}
		opt.ScopeKey = scope
	}
	resp, err := a.res.Request(ctx, method, params, opt)
	if errors.Is(err, mcpr.ErrMethodNotHandled) {
		return nil, err
	}
	if err != nil {
		return nil, a.internal(ctx, method, err)
	}
	if resp.IsError {
		return nil, rpcError(resp.JSON)
	}
	res := &rawResult{raw: resp.JSON}
	if opt.ResultMeta != nil {
		// The library wrote it: the SDK finds it present and adds nothing.
		res.Meta = mcp.Meta{mcp.MetaKeyServerInfo: a.opts.ServerInfo}
	}
	return res, nil
}

// rpcError is the library's JSON-RPC error object as the SDK's error type
// (code, message and data exactly as the library made them).
func rpcError(obj []byte) error {
	var e struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(obj, &e); err != nil {
		return internalError
	}
	return &jsonrpc.Error{Code: e.Code, Message: e.Message, Data: e.Data}
}

// rawResult carries the library's result JSON through the SDK unchanged.
// The SDK may add result-level _meta (the server's identity on stateless
// requests, when Options.ServerInfo did not give it to the library): its
// members are spliced into the library's _meta object (the library's own
// keys win), or a _meta member is put first; every other byte stays the
// library's.
type rawResult struct {
	mcp.ResultBase
	raw json.RawMessage
}

// MarshalJSON returns the library's bytes with the SDK's _meta members.
func (r *rawResult) MarshalJSON() ([]byte, error) {
	if len(r.Meta) == 0 || len(r.raw) < 2 || r.raw[0] != '{' {
		return r.raw, nil
	}
	start, end, err := memberValue(r.raw, "_meta")
	if err != nil {
		return nil, err
	}
	if start < 0 { // no _meta: put one first
		meta, err := json.Marshal(r.Meta)
		if err != nil {
			return nil, err
		}
		out := make([]byte, 0, len(r.raw)+len(meta)+10)
		out = append(out, `{"_meta":`...)
		out = append(out, meta...)
		if len(r.raw) > 2 {
			out = append(out, ',')
		}
		return append(out, r.raw[1:]...), nil
	}
	value := r.raw[start:end]
	var own map[string]json.RawMessage
	if value[0] != '{' || json.Unmarshal(value, &own) != nil {
		return r.raw, nil
	}
	keys := make([]string, 0, len(r.Meta))
	for k := range r.Meta {
		if _, taken := own[k]; !taken {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return r.raw, nil
	}
	sort.Strings(keys)
	var members []byte
	for _, k := range keys {
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(r.Meta[k])
		if err != nil {
			return nil, err
		}
		members = append(append(append(append(members, kb...), ':'), vb...), ',')
	}
	if len(own) == 0 {
		members = members[:len(members)-1]
	}
	out := make([]byte, 0, len(r.raw)+len(members))
	out = append(out, r.raw[:start+1]...)
	out = append(out, members...)
	return append(out, r.raw[start+1:]...), nil
}

// memberValue finds the value of the first top-level member name of a
// JSON object: its byte range [start, end), or start -1 when absent.
func memberValue(obj []byte, name string) (start, end int, err error) {
	start, end = -1, -1
	err = eachMember(obj, func(key string, s, e int) bool {
		if key == name {
			start, end = s, e
			return false
		}
		return true
	})
	if err != nil {
		return -1, -1, err
	}
	return start, end, nil
}

// eachMember calls f with the key and the value's byte range [start, end)
// of each top-level member of the JSON object obj, in order, until f
// returns false.
func eachMember(obj []byte, f func(key string, start, end int) bool) error {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		// The value's bytes end at the offset; RawMessage holds them
		// exactly, so they start len(v) before it.
		end := int(dec.InputOffset())
		key, _ := tok.(string)
		if !f(key, end-len(v), end) {
			return nil
		}
	}
	return nil
}
