package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"errors"
)

// InputRequired is the error a Policy's Read (in the first check) or a
// Binding's Read returns when the read needs input from the client first
// (an MCP 2026-07-28 InputRequiredResult; BEHAVIOUR §18 in the library's
// docs): the read is answered with Requests and a sealed requestState that
// carries State back to the callbacks of the client's retry. Returned from
// any other callback it counts as ErrUnavailable. On a revision before
// 2026-07-28, or when the client did not declare a capability a request
// needs, the read fails with StatusInputRequired instead.
type InputRequired struct {
	// Requests are the input requests, in order (at most 16).
	Requests []InputRequest
	// State is up to 1 KiB of the callback's own, handed back on the retry
	// (InputState).
	State []byte
}

// InputRequest is one request of an InputRequired.
type InputRequest struct {
	// Key names the request in the result and its response on the retry:
	// 1 to 64 bytes of A-Z a-z 0-9 _ . -, unique within the read.
	Key string
	// Request is the request object as JSON: an elicitation/create,
	// sampling/createMessage or roots/list request (checked against the
	// schema; a refused one fails the callback).
	Request []byte
}

// Error says that input is required.
func (e *InputRequired) Error() string { return "mcpresources: input required" }

// InputAction is what the user did with an elicitation.
type InputAction int

// The actions (the values of the C ABI's mcpr_input_action).
const (
	// InputNoAction: no elicitation response under that key.
	InputNoAction InputAction = C.MCPR_INPUT_NO_ACTION
	// InputAccept: the user submitted the form or confirmed.
	InputAccept InputAction = C.MCPR_INPUT_ACCEPT
	// InputDecline: the user explicitly declined.
	InputDecline InputAction = C.MCPR_INPUT_DECLINE
	// InputCancel: the user dismissed the request.
	InputCancel InputAction = C.MCPR_INPUT_CANCEL
)

// callStateKey finds the callback's call state in a context derived from
// the one the callback was given.
type callStateKey struct{}

func callStateOf(ctx context.Context) *callState {
	if ctx == nil {
		return nil
	}
	cs, _ := ctx.Value(callStateKey{}).(*callState)
	return cs
}

// IsInputRetry reports whether the read a callback's ctx serves is the
// verified retry of an input-required read (false for any other context,
// and once the callback returned).
func IsInputRetry(ctx context.Context) bool {
	var out bool
	if cs := callStateOf(ctx); cs != nil {
		cs.live(func() { out = bool(C.mcpr_input_is_retry(cs.call)) })
	}
	return out
}

// InputResponse is the client's response under key on a verified retry
// (an ElicitResult, CreateMessageResult or ListRootsResult as JSON, checked
// against the kind of request asked), and whether there is one.
func InputResponse(ctx context.Context, key string) ([]byte, bool) {
	var out []byte
	if cs := callStateOf(ctx); cs != nil {
		cs.live(func() {
			if s := C.mcpr_input_response(cs.call, cstr(key)); s.len > 0 {
				out = goBytes(s)
			}
		})
	}
	return out, out != nil
}

// InputResponseAction is the user's action in the elicitation response
// under key (InputNoAction when there is none).
func InputResponseAction(ctx context.Context, key string) InputAction {
	out := InputNoAction
	if cs := callStateOf(ctx); cs != nil {
		cs.live(func() { out = InputAction(C.mcpr_input_response_action(cs.call, cstr(key))) })
	}
	return out
}

// InputContent is one submitted form field of the elicitation response
// under key, as JSON (true, "text", 3), and whether it was sent.
func InputContent(ctx context.Context, key, field string) ([]byte, bool) {
	var out []byte
	if cs := callStateOf(ctx); cs != nil {
		cs.live(func() {
			if s := C.mcpr_input_response_content(cs.call, cstr(key), cstr(field)); s.len > 0 {
				out = goBytes(s)
			}
		})
	}
	return out, out != nil
}

// InputState is the State the asking callback returned, on the verified
// retry (nil otherwise).
func InputState(ctx context.Context) []byte {
	var out []byte
	if cs := callStateOf(ctx); cs != nil {
		cs.live(func() {
			if s := C.mcpr_input_state(cs.call); s.len > 0 {
				out = goBytes(s)
			}
		})
	}
	return out
}

// askInput hands an InputRequired to the call (the callback has not
// returned yet): MCPR_CB_INPUT_REQUIRED, or a failure naming the refused
// request.
func askInput(cs *callState, ir *InputRequired) outcome {
	out := outcome{res: cbInputRequired}
	ran := cs.live(func() {
		for _, r := range ir.Requests {
			var e *C.mcpr_error
			if st := C.mcpr_input_add_request(cs.call, cstr(r.Key), cbytes(r.Request), &e); st != C.MCPR_OK {
				out = outcome{res: cbFailed, cause: "input request " + r.Key + " refused: " + takeError(e, st).Message}
				return
			}
		}
		var e *C.mcpr_error
		var p *C.uint8_t
		if len(ir.State) > 0 {
			p = (*C.uint8_t)(&ir.State[0])
		}
		if st := C.mcpr_input_set_state(cs.call, p, C.size_t(len(ir.State)), &e); st != C.MCPR_OK {
			out = outcome{res: cbFailed, cause: "input state refused: " + takeError(e, st).Message}
		}
	})
	if !ran {
		return outcome{res: cbFailed, cause: "input required after the callback returned"}
	}
	return out
}

// inputRequiredOf finds an InputRequired in a callback's error.
func inputRequiredOf(err error) (*InputRequired, bool) {
	var ir *InputRequired
	ok := errors.As(err, &ir) && ir != nil
	return ir, ok
}

// SetInputUnsupportedError chooses the JSON-RPC error of a read whose
// callback asks for input on a revision before 2026-07-28 (default -32603
// "Input required: this protocol revision cannot carry the request for
// input"): a code outside -32099..-32020 and a message of 1 to 256 bytes
// without control characters, else StatusInvalidConfiguration.
func (b *Builder) SetInputUnsupportedError(code int32, message string) error {
	return b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		if st := C.mcpr_builder_set_input_unsupported_error(cb, C.int32_t(code), cstr(message), &e); st != C.MCPR_OK {
			return takeError(e, st)
		}
		return nil
	})
}
