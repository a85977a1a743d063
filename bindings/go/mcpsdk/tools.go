package mcpsdk

import (
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"sync"
	"weak"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resources in tool results. The SDK's content structs cannot carry every
// result the library makes exactly (an embedded resource with an empty
// text body loses its "text" member on the way through them), so a tool
// result the library made rides through the SDK beside the struct the
// handler returns: the handler's *mcp.CallToolResult is registered here
// with the library's bytes, and Install's middleware sends those bytes
// (with whatever the handler added after them) instead of the SDK's
// re-encoding.

// methodToolsCall is the method of tool calls.
const methodToolsCall = "tools/call"

// methodToolsList is the method of tool listings.
const methodToolsList = "tools/list"

// revisionToolOutput is the revision that gave tools title and
// outputSchema (and tool results structuredContent).
const revisionToolOutput = "2025-06-18"

// shapeToolList gives the resource tools, in a tools/list result for a
// session on a revision before 2025-06-18, that revision's definitions (the
// library's: no title or outputSchema, and before 2025-03-26 no
// annotations). A client that sees an output schema demands structured
// content, which results on those revisions do not carry (BEHAVIOUR §16
// rule 13). The SDK's own slice is left alone: the result gets a copy.
func shapeToolList(res mcp.Result, revision string) error {
	lt, ok := res.(*mcp.ListToolsResult)
	if !ok || revision == "" || revision >= revisionToolOutput {
		return nil
	}
	defs, err := mcpr.ResourceToolDefinitions(revision)
	if err != nil {
		return err
	}
	var own []*mcp.Tool
	if err := json.Unmarshal(defs, &own); err != nil {
		return err
	}
	tools := append([]*mcp.Tool(nil), lt.Tools...)
	for i, t := range tools {
		for _, d := range own {
			if t != nil && d.Name == t.Name {
				tools[i] = d
			}
		}
	}
	lt.Tools = tools
	return nil
}

// libraryResult is what the library made for one *mcp.CallToolResult.
type libraryResult struct {
	// whole: raw is the whole CallToolResult (the resource tools).
	whole bool
	// raw: the whole result, or the content blocks' JSON array.
	raw []byte
	// blocks: the Content the library's blocks were decoded into (the
	// handler may append its own after them).
	blocks []mcp.Content
	// revision the blocks were made for ("resultType" from 2026-07-28).
	revision string
}

// libraryResults maps a result to its library bytes until the middleware
// takes them (or the result is collected, for a server without Install).
var libraryResults sync.Map // weak.Pointer[mcp.CallToolResult] -> libraryResult

func keepLibraryResult(res *mcp.CallToolResult, lr libraryResult) {
	key := weak.Make(res)
	libraryResults.Store(key, lr)
	runtime.AddCleanup(res, func(k weak.Pointer[mcp.CallToolResult]) { libraryResults.Delete(k) }, key)
}

func takeLibraryResult(res mcp.Result) (libraryResult, *mcp.CallToolResult, bool) {
	ctr, ok := res.(*mcp.CallToolResult)
	if !ok || ctr == nil {
		return libraryResult{}, nil, false
	}
	v, ok := libraryResults.LoadAndDelete(weak.Make(ctr))
	if !ok {
		return libraryResult{}, nil, false
	}
	return v.(libraryResult), ctr, true
}

// EmbedResources makes the result of a tool that answers with resources:
// the library's embedding of uris for the caller of req (each URI through
// the read pipeline: its resource blocks, or one resource_link block with
// mcpr.EmbedLink; nothing for a URI the caller may not read). The returned
// result's Content holds the blocks (decoded into the SDK's types); a
// handler may append content of its own, set StructuredContent or IsError,
// and return it. A server that ran Install sends the library's bytes for
// the blocks. The Embedding says what became of each URI (for the host's
// logs, never the client). The revision is opt.Revision, else the
// request's (see Revision).
func EmbedResources(ctx context.Context, req *mcp.CallToolRequest, res *mcpr.Resources, uris []string,
	opt *mcpr.EmbedOptions) (*mcp.CallToolResult, *mcpr.Embedding, error) {
	var o mcpr.EmbedOptions
	if opt != nil {
		o = *opt
	}
	if o.Revision == "" && req != nil {
		o.Revision = Revision(req)
	}
	e, err := res.Embed(ctx, uris, &o)
	if err != nil {
		return nil, nil, err
	}
	// The SDK's own decoding of its content blocks.
	var decoded mcp.CallToolResult
	if err := json.Unmarshal(e.ToolResultJSON, &decoded); err != nil {
		return nil, nil, err
	}
	out := &mcp.CallToolResult{Content: decoded.Content}
	if out.Content == nil {
		out.Content = []mcp.Content{}
	}
	keepLibraryResult(out, libraryResult{
		raw:      e.BlocksJSON,
		blocks:   append([]mcp.Content(nil), out.Content...),
		revision: o.Revision,
	})
	return out, e, nil
}

// addResourceTools registers read_resource and list_resources (the
// library's definitions) with handlers serving them through the library.
func (a *adapter) addResourceTools(server *mcp.Server) error {
	defs, err := mcpr.ResourceToolDefinitions("")
	if err != nil {
		return err
	}
	var tools []*mcp.Tool
	if err := json.Unmarshal(defs, &tools); err != nil {
		return err
	}
	for _, t := range tools {
		server.AddTool(t, a.callResourceTool)
	}
	return nil
}

// callResourceTool serves one resource tool call: the params (re-encoded
// from the SDK's raw-arguments struct, so the arguments are as the client
// sent them) go to the library, whose CallToolResult the middleware sends
// as made; its JSON-RPC error objects are errors of the call.
func (a *adapter) callResourceTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var params []byte
	if req.Params != nil && !reflect.ValueOf(req.Params).IsNil() {
		var err error
		if params, err = json.Marshal(req.Params); err != nil {
			return nil, a.internal(ctx, methodToolsCall, err)
		}
	}
	opt := &mcpr.RequestOptions{Revision: Revision(req), PageSize: a.opts.PageSize, Executor: a.opts.Executor}
	scope, err := a.opts.ScopeKey(ctx, req)
	if err != nil {
		return nil, a.internal(ctx, methodToolsCall, err)
	}
	opt.ScopeKey = scope
	resp, err := a.res.CallResourceTool(ctx, params, opt)
	if err != nil {
		return nil, a.internal(ctx, methodToolsCall, err)
	}
	if resp.IsError {
		return nil, rpcError(resp.JSON)
	}
	if c := resp.Cause(); c != "" {
		// A tool execution error: its private cause is for the logs.
		a.logger.DebugContext(ctx, "mcpsdk: resource tool error", "cause", c)
	}
	var decoded mcp.CallToolResult
	if err := json.Unmarshal(resp.JSON, &decoded); err != nil {
		return nil, a.internal(ctx, methodToolsCall, err)
	}
	out := &decoded
	if out.Content == nil {
		out.Content = []mcp.Content{}
	}
	keepLibraryResult(out, libraryResult{whole: true, raw: resp.JSON})
	return out, nil
}

// toolResult is the result to send for a tools/call: the library's bytes
// when the handler's result came from it (see EmbedResources), else res
// as the SDK made it.
func toolResult(res mcp.Result) (mcp.Result, error) {
	lr, ctr, ok := takeLibraryResult(res)
	if !ok {
		return res, nil
	}
	raw := lr.raw
	if !lr.whole {
		var err error
		if raw, err = assemble(ctr, lr); err != nil {
			return nil, err
		}
	}
	// A _meta the handler set is spliced in as the SDK's would be.
	return &rawResult{ResultBase: mcp.ResultBase{Meta: ctr.Meta}, raw: raw}, nil
}

// assemble writes a host tool's result around the library's blocks: the
// blocks as the library made them, then the content the handler appended
// (as the SDK encodes it), the handler's structuredContent and isError,
// and "resultType" from 2026-07-28. A handler that replaced the library's
// blocks gets the SDK's encoding of what it returned.
func assemble(ctr *mcp.CallToolResult, lr libraryResult) ([]byte, error) {
	content := lr.raw
	own := len(lr.blocks) <= len(ctr.Content)
	for i := 0; own && i < len(lr.blocks); i++ {
		own = ctr.Content[i] == lr.blocks[i]
	}
	if !own {
		var err error
		if content, err = json.Marshal(ctr.Content); err != nil {
			return nil, err
		}
	} else if extra := ctr.Content[len(lr.blocks):]; len(extra) > 0 {
		more, err := json.Marshal(extra)
		if err != nil {
			return nil, err
		}
		joined := append([]byte(nil), content[:len(content)-1]...)
		if len(lr.blocks) > 0 {
			joined = append(joined, ',')
		}
		content = append(joined, more[1:]...)
	}
	out := append([]byte(`{"content":`), content...)
	if ctr.StructuredContent != nil {
		sc, err := json.Marshal(ctr.StructuredContent)
		if err != nil {
			return nil, err
		}
		out = append(append(out, `,"structuredContent":`...), sc...)
	}
	if ctr.IsError {
		out = append(out, `,"isError":true`...)
	}
	if lr.revision == "" || lr.revision >= revisionStateless {
		out = append(out, `,"resultType":"complete"`...)
	}
	return append(out, '}'), nil
}
