package mcpresources

// #include <stdlib.h>
// #include "shim_tools.h"
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"unsafe"
)

// EmbedForm says which content blocks Embed makes.
type EmbedForm uint32

const (
	// EmbedResource makes embedded "resource" blocks: the items a read of
	// each URI gives (the default).
	EmbedResource EmbedForm = C.MCPR_EMBED_RESOURCE
	// EmbedLink makes one "resource_link" block per URI the caller may
	// read, from its registered description; nothing is read.
	EmbedLink EmbedForm = C.MCPR_EMBED_LINK
)

// EmbedOptions are the options of Embed (nil = defaults).
type EmbedOptions struct {
	// Revision is the protocol revision negotiated with the client ("" =
	// the newest).
	Revision string
	// Form: EmbedResource (default) or EmbedLink.
	Form EmbedForm
	// OverBudgetLinks: with EmbedResource, an item that would be a
	// budget_exceeded issue becomes a resource_link block when the caller
	// may learn its URI (it is the requested target, or its visibility
	// discloses it), and a URI the embedding has no budget left for
	// becomes a link when the read's root checks pass.
	OverBudgetLinks bool
	// Executor runs the callbacks (nil = inline).
	Executor *Executor
	// ResultMeta is the _meta of ToolResultJSON (never of the blocks),
	// charged once to the embedding's budget (nil = none).
	ResultMeta *ResultMeta
	// Trace is the trace context handed to every callback (as in
	// ReadOptions).
	Trace TraceContext
}

// EmbeddedURI is what became of one URI of an embedding: for the host
// only (the client sees only the blocks).
type EmbeddedURI struct {
	// Status is StatusOK when the URI gave blocks, else why it gave none
	// (StatusUnavailable for not found and root denials,
	// StatusInvalidRequest for an invalid URI, StatusBudgetExceeded when
	// the embedding had no budget left, ...). Never tell the client.
	Status Status
	// Blocks the URI gave (a partial read's warning and its links included).
	Blocks int
	// Links among its blocks.
	Links int
	// Partial: its read was partial (its first block is the warning).
	Partial bool
	cause   string
}

// Cause is the private cause behind a URI that gave nothing (for logs only).
func (u EmbeddedURI) Cause() string { return u.cause }

// Embedding holds the content blocks of a tool result and what became of
// each URI.
type Embedding struct {
	// Blocks are the content blocks in URI order, each one JSON object.
	Blocks []json.RawMessage
	// BlocksJSON is the same blocks as one JSON array (the content of a
	// CallToolResult).
	BlocksJSON []byte
	// ToolResultJSON is a whole CallToolResult holding the blocks (with
	// "resultType":"complete" on 2026-07-28).
	ToolResultJSON []byte
	// URIs says what became of each URI, in the order given.
	URIs []EmbeddedURI
}

// Embed makes the content blocks of a tool result for uris, each through
// the read pipeline for the caller: the "resource" blocks a read gives
// (the same items, a partial read's warning first), or one "resource_link"
// block from its registered description (EmbedLink). A URI the caller may
// not read gives no block, the same for every reason. The URIs share the
// budgets of one read; ctx is the whole embedding's deadline and
// cancellation. An error means no embedding: cancellation, the deadline,
// more URIs than max_plan_targets (StatusInvalidRequest), or blocks too
// large (StatusSize).
func (r *Resources) Embed(ctx context.Context, uris []string, opt *EmbedOptions) (*Embedding, error) {
	if r == nil || !r.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o EmbedOptions
	if opt != nil {
		o = *opt
	}
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return nil, err
	}
	defer release()
	// One buffer for every URI and a C array of their lengths: cgo may
	// not be handed Go memory holding Go pointers.
	total := 0
	for _, u := range uris {
		total += len(u)
	}
	joined := make([]byte, 0, total)
	for _, u := range uris {
		joined = append(joined, u...)
	}
	var lens *C.size_t
	if len(uris) > 0 {
		lens = (*C.size_t)(C.malloc(C.size_t(len(uris)) * C.size_t(unsafe.Sizeof(C.size_t(0)))))
		if lens == nil {
			return nil, ownError(StatusInternal, "out of memory", "")
		}
		defer C.free(unsafe.Pointer(lens))
		all := unsafe.Slice(lens, len(uris))
		for i, u := range uris {
			all[i] = C.size_t(len(u))
		}
	}
	env, err := begin(ctx)
	if err != nil {
		return nil, err
	}
	defer env.end()
	var res C.mcprgo_embed_result
	st := C.mcprgo_embed(r.r, cbytes(joined), lens, C.size_t(len(uris)), C.uint32_t(o.Form),
		C.bool(o.OverBudgetLinks), env.fields(callFields{o.Revision, ex, meta, o.Trace}), &res)
	if st != C.MCPR_OK {
		return nil, env.failure(takeError(res.err, st))
	}
	defer C.mcpr_embedding_free(res.embedding)
	e := &Embedding{BlocksJSON: goBytes(res.blocks), ToolResultJSON: goBytes(res.tool_result)}
	n := int(C.mcpr_embedding_block_count(res.embedding))
	e.Blocks = make([]json.RawMessage, n)
	for i := range e.Blocks {
		e.Blocks[i] = json.RawMessage(goBytes(C.mcpr_embedding_block(res.embedding, C.size_t(i))))
	}
	e.URIs = make([]EmbeddedURI, int(C.mcpr_embedding_uri_count(res.embedding)))
	for i := range e.URIs {
		ci := C.size_t(i)
		e.URIs[i] = EmbeddedURI{
			Status:  Status(C.mcpr_embedding_uri_status(res.embedding, ci)),
			Blocks:  int(C.mcpr_embedding_uri_block_count(res.embedding, ci)),
			Links:   int(C.mcpr_embedding_uri_link_count(res.embedding, ci)),
			Partial: bool(C.mcpr_embedding_uri_is_partial(res.embedding, ci)),
			cause:   goString(C.mcpr_embedding_uri_cause(res.embedding, ci)),
		}
	}
	return e, nil
}

// The resource tools' names.
const (
	// ReadResourceTool reads a resource by URI.
	ReadResourceTool = "read_resource"
	// ListResourcesTool lists resources, then templates, a page at a time.
	ListResourcesTool = "list_resources"
)

// ResourceToolDefinitions returns the Tool definitions of the resource
// tools (list_resources, read_resource) as one JSON array, for a host's
// tools/list on revision ("" = the newest).
func ResourceToolDefinitions(revision string) ([]byte, error) {
	var out C.mcpr_str
	var e *C.mcpr_error
	if st := C.mcpr_resource_tools_definitions(cstr(revision), &out, &e); st != C.MCPR_OK {
		return nil, takeError(e, st)
	}
	return goBytes(out), nil
}

// CallResourceTool serves tools/call for the resource tools from the raw
// params text: read_resource (a URI's read as embedded resources and as
// structuredContent.contents) and list_resources (a page of resources,
// then of templates, with the library's sealed cursors bound to
// opt.ScopeKey). Tool execution errors are results with isError (one text
// for every URI the caller may not read); malformed params are error
// Responses. errors.Is(err, ErrMethodNotHandled) for any other tool: call
// your own. ctx is the call's deadline and cancellation, as for Request.
func (r *Resources) CallResourceTool(ctx context.Context, params []byte, opt *RequestOptions) (Response, error) {
	if r == nil || !r.ref.acquire() {
		return Response{}, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o RequestOptions
	if opt != nil {
		o = *opt
	}
	if o.PageSize < 0 || o.PageSize > 1<<31 {
		return Response{}, argumentError("mcpresources: page size out of range")
	}
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return Response{}, err
	}
	defer release()
	env, err := begin(ctx)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return Response{JSON: e.JSONRPC, IsError: true, Status: e.Status}, nil
		}
		return Response{}, err
	}
	defer env.end()
	var res C.mcprgo_request_result
	st := C.mcprgo_resource_tools_call(r.r, cbytes(params), cstr(o.ScopeKey), C.uint32_t(o.PageSize),
		env.fields(callFields{o.Revision, ex, meta, o.Trace}), &res)
	if st != C.MCPR_OK {
		return Response{}, takeError(res.err, st)
	}
	out := Response{
		JSON:    goBytes(res.json),
		IsError: bool(res.is_error),
		Status:  Status(res.status),
		Partial: bool(res.partial),
		cause:   goString(res.cause),
	}
	C.mcpr_response_free(res.response)
	if out.IsError && out.Status == StatusCanceled && errors.Is(env.ctx.Err(), context.DeadlineExceeded) {
		e := ownError(StatusDeadlineExceeded, deadlineExceededMessage, out.cause)
		out.JSON, out.Status = e.JSONRPC, e.Status
	}
	return out, nil
}
