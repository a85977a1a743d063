package mcpresources

// #include "shim.h"
import "C"

// ResultMeta is result _meta members a host adds to every result of the
// calls given it (for example io.modelcontextprotocol/serverInfo, which MCP
// asks servers to put in every result). NewResultMeta validates them once;
// the same value then serves any number of calls on any goroutines. The
// library merges its members into the _meta of every result after its own,
// which are never replaced. Close it when no call will be given it any
// more (calls in flight keep their own reference).
type ResultMeta struct {
	ref ref
	m   *C.mcpr_result_meta
}

// NewResultMeta validates a JSON object of result _meta members: the
// rules definitions are held to (no repeated key at any depth, no lone
// surrogate, no non-finite number, nesting at most 127 deep), at most
// 63 KiB compact (a result _meta holds 64 KiB; the library's own members
// need the rest), without the library's reserved key
// go.phpboyscout.uk/mcp.resourceRead anywhere. A refusal is an *Error with
// StatusInvalidConfiguration saying why.
func NewResultMeta(json []byte) (*ResultMeta, error) {
	var m *C.mcpr_result_meta
	var ce *C.mcpr_error
	if st := C.mcpr_result_meta_new(cbytes(json), &m, &ce); st != C.MCPR_OK {
		return nil, takeError(ce, st)
	}
	return &ResultMeta{ref: newRef(func() { C.mcpr_result_meta_free(m) }), m: m}, nil
}

// Members is the compact JSON of the members, without the enclosing braces
// ("" for {}), as they are merged into results; "" once closed.
func (m *ResultMeta) Members() string {
	if m == nil || !m.ref.acquire() {
		return ""
	}
	defer m.ref.release()
	return goString(C.mcpr_result_meta_members(m.m))
}

// Close releases the handle once no call uses it (idempotent).
func (m *ResultMeta) Close() {
	if m != nil {
		m.ref.close()
	}
}

// hold is the C handle for one call, holding a reference until letGo (nil
// for a nil ResultMeta; an error once closed).
func (m *ResultMeta) hold() (*C.mcpr_result_meta, error) {
	if m == nil {
		return nil, nil
	}
	if !m.ref.acquire() {
		return nil, argumentError("mcpresources: result meta closed")
	}
	return m.m, nil
}

// letGo releases what hold took.
func (m *ResultMeta) letGo() {
	if m != nil {
		m.ref.release()
	}
}
