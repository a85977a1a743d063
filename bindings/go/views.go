package mcpresources

// /* The setters' C calls copy what they are given, keep no Go pointer and
//  * call no Go code: with noescape and nocallback (cgo needs both) the
//  * error pointer they write stays on the Go stack. */
// #cgo noescape mcpr_payload_set_text
// #cgo nocallback mcpr_payload_set_text
// #cgo noescape mcpr_payload_set_blob
// #cgo nocallback mcpr_payload_set_blob
// #include "shim.h"
import "C"

// The views below are handed to callbacks. They are valid only while the
// callback runs: after it returns their accessors return zero values and
// their setters fail, instead of touching memory the library has freed.

// Definition is a registered definition (a policy's Discover, a Match).
type Definition struct {
	cs *callState
	d  *C.mcpr_definition
}

// JSON is the definition's description object as compact JSON (the MCP
// Resource or ResourceTemplate).
func (d Definition) JSON() []byte {
	var out []byte
	d.cs.live(func() { out = goBytes(C.mcpr_definition_json(d.d)) })
	return out
}

// URI is the uri or the uriTemplate, exactly as registered.
func (d Definition) URI() string {
	var out string
	d.cs.live(func() { out = goString(C.mcpr_definition_uri(d.d)) })
	return out
}

// Name is the definition's name.
func (d Definition) Name() string {
	var out string
	d.cs.live(func() { out = goString(C.mcpr_definition_name(d.d)) })
	return out
}

// IsTemplate reports whether the definition is a URI template.
func (d Definition) IsTemplate() bool {
	var out bool
	d.cs.live(func() { out = bool(C.mcpr_definition_is_template(d.d)) })
	return out
}

// Capture is one decoded template capture.
type Capture struct {
	// Name is the template variable's name.
	Name string
	// Value is the decoded value (valid UTF-8, never containing "/", "\",
	// NUL, nor equal to "." or ".."; still not a filesystem path).
	Value string
}

// Match is the outcome of selection handed to a Resolver.
type Match struct {
	cs *callState
	m  *C.mcpr_match
}

// URI is the requested URI, exactly as received.
func (m Match) URI() string {
	var out string
	m.cs.live(func() { out = goString(C.mcpr_match_uri(m.m)) })
	return out
}

// Definition is the matched definition.
func (m Match) Definition() Definition {
	var d *C.mcpr_definition
	m.cs.live(func() { d = C.mcpr_match_definition(m.m) })
	return Definition{cs: m.cs, d: d}
}

// Captures are the template captures in template order (none for exact
// matches).
func (m Match) Captures() []Capture {
	var out []Capture
	m.cs.live(func() {
		n := C.mcpr_match_capture_count(m.m)
		out = make([]Capture, 0, int(n))
		for i := C.size_t(0); i < n; i++ {
			out = append(out, Capture{
				Name:  goString(C.mcpr_match_capture_name(m.m, i)),
				Value: goString(C.mcpr_match_capture_value(m.m, i)),
			})
		}
	})
	return out
}

// Capture is the value of the capture called name.
func (m Match) Capture(name string) (string, bool) {
	for _, c := range m.Captures() {
		if c.Name == name {
			return c.Value, true
		}
	}
	return "", false
}

// Target is a target handed to policy and body-read callbacks.
type Target struct {
	cs *callState
	t  *C.mcpr_target
}

// URI is the target URI.
func (t Target) URI() string {
	var out string
	t.cs.live(func() { out = goString(C.mcpr_target_uri(t.t)) })
	return out
}

// Representation is the representation label ("default" when none).
func (t Target) Representation() string {
	var out string
	t.cs.live(func() { out = goString(C.mcpr_target_representation(t.t)) })
	return out
}

// Authorization is the private authorization JSON given by the plan (empty
// when none). It never appears in any result.
func (t Target) Authorization() []byte {
	var out []byte
	t.cs.live(func() { out = goBytes(C.mcpr_target_authorization(t.t)) })
	return out
}

// Visibility is a policy's visibility decision.
type Visibility struct {
	// Visible: the caller may know the target exists.
	Visible bool
	// DiscloseIssueURI: an issue about the target may name its URI.
	DiscloseIssueURI bool
}

// Plan is the read plan a Resolver fills.
type Plan struct {
	cs *callState
	p  *C.mcpr_plan_builder
}

// SetRequested sets the canonical requested target (representation ""
// means "default"; authorization is private JSON, at most 64 KiB, nil for
// none). A refused target makes the whole plan invalid.
func (p *Plan) SetRequested(uri, representation string, authorization []byte) error {
	return p.set(true, uri, representation, authorization)
}

// AddItem appends an item target, in read order (URIs unique).
func (p *Plan) AddItem(uri, representation string, authorization []byte) error {
	return p.set(false, uri, representation, authorization)
}

func (p *Plan) set(requested bool, uri, representation string, authorization []byte) error {
	var st C.mcpr_status
	var e *C.mcpr_error
	if !p.cs.live(func() {
		if requested {
			st = C.mcpr_plan_set_requested(p.p, cstr(uri), cstr(representation), cbytes(authorization), &e)
		} else {
			st = C.mcpr_plan_add_item(p.p, cstr(uri), cstr(representation), cbytes(authorization), &e)
		}
	}) {
		return errViewExpired
	}
	if st != C.MCPR_OK {
		return takeError(e, st)
	}
	return nil
}

// Payload is the body a binding's Read fills: exactly one SetText or
// SetBlob, optionally SetMeta. The library copies everything.
type Payload struct {
	cs *callState
	o  *C.mcpr_payload_builder
}

// MaxBytes is the item byte limit (payload bytes): a hint, the library
// enforces it.
func (o *Payload) MaxBytes() int64 {
	var n int64
	o.cs.live(func() { n = int64(C.mcpr_call_max_bytes(o.cs.call)) })
	return n
}

// SetText sets a text body: mimeType an RFC 9110 media type, text valid
// UTF-8 (may be empty).
func (o *Payload) SetText(mimeType, text string) error {
	var st C.mcpr_status
	var e *C.mcpr_error
	if !o.cs.live(func() { st = C.mcpr_payload_set_text(o.o, cstr(mimeType), cstr(text), &e) }) {
		return errViewExpired
	}
	if st != C.MCPR_OK {
		return takeError(e, st)
	}
	return nil
}

// SetBlob sets a binary body (sent base64; may be empty).
func (o *Payload) SetBlob(mimeType string, data []byte) error {
	var st C.mcpr_status
	var e *C.mcpr_error
	if !o.cs.live(func() {
		var p *C.uint8_t
		if len(data) > 0 {
			p = (*C.uint8_t)(&data[0])
		}
		st = C.mcpr_payload_set_blob(o.o, cstr(mimeType), p, C.size_t(len(data)), &e)
	}) {
		return errViewExpired
	}
	if st != C.MCPR_OK {
		return takeError(e, st)
	}
	return nil
}

// SetMeta sets the item's _meta (a JSON object, at most 64 KiB).
func (o *Payload) SetMeta(metaJSON []byte) error {
	var st C.mcpr_status
	var e *C.mcpr_error
	if !o.cs.live(func() { st = C.mcpr_payload_set_meta(o.o, cbytes(metaJSON), &e) }) {
		return errViewExpired
	}
	if st != C.MCPR_OK {
		return takeError(e, st)
	}
	return nil
}

// errViewExpired: a view was used after its callback returned.
var errViewExpired = argumentError("mcpresources: callback view used after the callback returned")

// CompletionRequest is what a Completer is asked.
type CompletionRequest struct {
	cs *callState
	q  *C.mcpr_completion_request
}

// Definition is the template's definition.
func (q CompletionRequest) Definition() Definition {
	var d *C.mcpr_definition
	q.cs.live(func() { d = C.mcpr_completion_request_definition(q.q) })
	return Definition{cs: q.cs, d: d}
}

// Argument is the variable being completed.
func (q CompletionRequest) Argument() string {
	var out string
	q.cs.live(func() { out = goString(C.mcpr_completion_request_argument(q.q)) })
	return out
}

// Value is the partial value typed so far (client text, possibly empty;
// never a path).
func (q CompletionRequest) Value() string {
	var out string
	q.cs.live(func() { out = goString(C.mcpr_completion_request_value(q.q)) })
	return out
}

// Context are the other variables already chosen, in template order.
func (q CompletionRequest) Context() []Capture {
	var out []Capture
	q.cs.live(func() {
		n := C.mcpr_completion_request_context_count(q.q)
		out = make([]Capture, 0, int(n))
		for i := C.size_t(0); i < n; i++ {
			out = append(out, Capture{
				Name:  goString(C.mcpr_completion_request_context_name(q.q, i)),
				Value: goString(C.mcpr_completion_request_context_value(q.q, i)),
			})
		}
	})
	return out
}

// Completion collects the values a Completer proposes.
type Completion struct {
	cs *callState
	o  *C.mcpr_completion_builder
}

// AddValue proposes one value, most relevant first: what the client
// substitutes into {var}, RFC 6570-encoding it ("a b", not "a%20b"). A
// value that is no valid completion value (empty, "/", "..", "%", "?",
// "#", a control or bidi override, too long once encoded, ...;
// docs/BEHAVIOUR.md §13 rule 5) is dropped (StatusInvalidContent) without
// spoiling the others.
func (c *Completion) AddValue(value string) error {
	var st C.mcpr_status
	var e *C.mcpr_error
	if !c.cs.live(func() { st = C.mcpr_completion_add_value(c.o, cstr(value), &e) }) {
		return errViewExpired
	}
	if st != C.MCPR_OK {
		return takeError(e, st)
	}
	return nil
}

// SetTotal sets the number of options available (may exceed the values
// added).
func (c *Completion) SetTotal(total uint64) error {
	var st C.mcpr_status
	var e *C.mcpr_error
	if !c.cs.live(func() { st = C.mcpr_completion_set_total(c.o, C.uint64_t(total), &e) }) {
		return errViewExpired
	}
	if st != C.MCPR_OK {
		return takeError(e, st)
	}
	return nil
}

// SetHasMore says whether more options exist than those sent.
func (c *Completion) SetHasMore(hasMore bool) error {
	var st C.mcpr_status
	var e *C.mcpr_error
	if !c.cs.live(func() { st = C.mcpr_completion_set_has_more(c.o, C.bool(hasMore), &e) }) {
		return errViewExpired
	}
	if st != C.MCPR_OK {
		return takeError(e, st)
	}
	return nil
}
