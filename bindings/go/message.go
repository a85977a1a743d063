package mcpresources

// #include "shim.h"
import "C"

import "context"

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
	// IsNotification: JSON is the acknowledgement of a subscriptions/listen
	// stream (a notification message, sent as it is first on the stream),
	// not a response. The listen was served with the message's own id as
	// its stream id and is answered when the stream ends (ListenClosedResult,
	// sent with ID).
	IsNotification bool
	// Subscription is what to record after a successful resources/subscribe,
	// resources/unsubscribe or subscriptions/listen message (nil for every
	// other reply, error responses included).
	Subscription *Subscription
	cause        string
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
	ex, meta, release, err := holdShared(o.Executor, o.ResultMeta)
	if err != nil {
		return Reply{}, err
	}
	defer release()
	if ctx == nil {
		ctx = context.Background()
	}
	env, err := begin(ctx)
	if err == nil {
		defer env.end()
	} else {
		// ctx is done already: a call cancelled at once.
		env = &callEnv{token: C.mcpr_cancel_new()}
		defer C.mcpr_cancel_free(env.token)
		C.mcpr_cancel_cancel(env.token)
	}
	call := env.fields(callFields{o.Revision, ex, meta, o.Trace})
	var res C.mcprgo_message_result
	// A listen message takes its own id as the stream id: o.RequestID is
	// not used.
	st := C.mcprgo_message(r.r, cbytes(message), cstr(o.ScopeKey), C.uint32_t(o.PageSize),
		C.bool(o.ResourceTools), cbytes(o.ClientCapabilities), C.uint32_t(o.HostNotifications), call, &res)
	if st != C.MCPR_OK {
		return Reply{}, takeError(res.err, st)
	}
	return replyOf(ctx, &res), nil
}

// replyOf copies a message's reply out of its result (the C reply is
// freed here). The token's cancellation may have won the race against the
// library's own timer: ctx's passed deadline is the deadline error, not
// silence.
func replyOf(ctx context.Context, res *C.mcprgo_message_result) Reply {
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

		IsNotification: bool(res.is_notification),
		Subscription:   subscriptionOf(res.subscription),
	}
	C.mcpr_reply_free(res.reply)
	if out.Kind == MessageRequest && out.Status == StatusCanceled && deadlinePassed(ctx) {
		e := ownError(StatusDeadlineExceeded, deadlineExceededMessage, out.cause)
		out.JSON = append(append(append([]byte(`{"jsonrpc":"2.0","id":`), out.ID...), `,"error":`...), e.JSONRPC...)
		out.JSON = append(out.JSON, '}')
		out.Status, out.IsError = e.Status, true
	}
	return out
}
