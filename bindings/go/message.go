package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"errors"
)

// MessageKind says what a JSON-RPC message was (Reply.Kind).
type MessageKind int

// The kinds of message (the C MCPR_MESSAGE_* values).
const (
	// MessageNone: JSON whitespace only (ignored).
	MessageNone MessageKind = C.MCPR_MESSAGE_NONE
	// MessageRequest: a method and an id.
	MessageRequest MessageKind = C.MCPR_MESSAGE_REQUEST
	// MessageNotification: a method and no id; never answered.
	MessageNotification MessageKind = C.MCPR_MESSAGE_NOTIFICATION
	// MessageResponse: an id and result or error, no method.
	MessageResponse MessageKind = C.MCPR_MESSAGE_RESPONSE
	// MessageInvalid: not a JSON-RPC message (answered -32700 or -32600).
	MessageInvalid MessageKind = C.MCPR_MESSAGE_INVALID
)

// Reply is what to do about one JSON-RPC message (Resources.Message): the
// whole response message to send, or, when Handled is false, what the host
// needs to answer the message itself.
type Reply struct {
	// JSON is the whole JSON-RPC response message to send (one line, no
	// newline), or empty when nothing is to be sent: a notification, a
	// response, a blank message, a cancelled request, and every message
	// not handled.
	JSON []byte
	// Handled: the library dealt with the message. False for a request or
	// notification of a method it does not serve (answer a request with
	// ID: -32601 when the host serves it neither) and for a response.
	Handled bool
	// Kind is what the message was.
	Kind MessageKind
	// Method is the method of a request or notification (decoded).
	Method string
	// ID is the raw JSON text of the message's id, exactly as sent (empty
	// for a notification): put it as is into the host's own response.
	ID []byte
	// Params is the raw params text of a message not handled, as sent.
	Params []byte
	// Status is the status behind the reply: StatusOK for a result,
	// StatusCanceled for a cancelled request (which gets no response),
	// StatusInvalidRequest for an invalid message, and so on.
	Status Status
	// IsError: JSON is an error response.
	IsError bool
	// Partial: a resources/read result whose first item is the warning.
	Partial bool
	cause   string
}

// Cause is the private cause behind the reply's failure (for logs only).
func (r Reply) Cause() string { return r.cause }

// Message serves one whole JSON-RPC message (mcpr_message): the message
// text in, the whole response message out, with the request's id byte for
// byte, for hosts that hand the library the wire. The method and raw params
// go to Request, so a message is answered exactly as Request answers them;
// not JSON is -32700, JSON that is no JSON-RPC message -32600 (a batch is
// refused whole), notifications are never answered, and methods the library
// does not serve come back with Handled false (docs/BEHAVIOUR.md §17).
// An error return means a host bug (StatusInvalidArgument: a list method
// without a scope key, bad options), nothing to send. ctx maps onto the
// call's deadline and cancellation as for Request; a ctx already done
// answers as a call cancelled at once (a library request then gets no
// response, or the deadline error when ctx's deadline passed).
func (r *Resources) Message(ctx context.Context, message []byte, opt *RequestOptions) (Reply, error) {
	if r == nil || !r.ref.acquire() {
		return Reply{}, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var o RequestOptions
	if opt != nil {
		o = *opt
	}
	if o.PageSize < 0 || o.PageSize > 1<<31 {
		return Reply{}, argumentError("mcpresources: page size out of range")
	}
	var ex *C.mcpr_executor
	if o.Executor != nil {
		if !o.Executor.ref.acquire() {
			return Reply{}, argumentError("mcpresources: executor closed")
		}
		defer o.Executor.ref.release()
		ex = o.Executor.e
	}
	if ctx == nil {
		ctx = context.Background()
	}
	var token *C.mcpr_cancel
	var timeoutMs, id uint64
	if env, err := begin(ctx); err == nil {
		defer env.end()
		token, timeoutMs, id = env.token, env.timeoutMs, env.id
	} else {
		// ctx is done already: a call cancelled at once.
		token = C.mcpr_cancel_new()
		defer C.mcpr_cancel_free(token)
		C.mcpr_cancel_cancel(token)
	}
	var res C.mcprgo_message_result
	st := C.mcprgo_message(r.r, cbytes(message), cstr(o.Revision), cstr(o.ScopeKey), C.uint32_t(o.PageSize),
		cbytes(o.ClientCapabilities), C.uint64_t(timeoutMs), token, C.uint64_t(id), ex, &res)
	if st != C.MCPR_OK {
		return Reply{}, takeError(res.err, st)
	}
	out := Reply{
		JSON:    goBytes(res.json),
		Handled: bool(res.handled),
		Kind:    MessageKind(res.kind),
		Method:  goString(res.method),
		ID:      goBytes(res.id),
		Params:  goBytes(res.params),
		Status:  Status(res.status),
		IsError: bool(res.is_error),
		Partial: bool(res.partial),
		cause:   goString(res.cause),
	}
	C.mcpr_reply_free(res.reply)
	// The token's cancellation may have won the race against the library's
	// own timer: ctx's passed deadline is the deadline error, not silence.
	if out.Kind == MessageRequest && out.Status == StatusCanceled && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		e := ownError(StatusDeadlineExceeded, deadlineExceededMessage, out.cause)
		out.JSON = append(append(append([]byte(`{"jsonrpc":"2.0","id":`), out.ID...), `,"error":`...), e.JSONRPC...)
		out.JSON = append(out.JSON, '}')
		out.Status, out.IsError = e.Status, true
	}
	return out, nil
}
