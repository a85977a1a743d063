package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
)

// Status is the library's status of a failed call (mcpr_status).
type Status int

// The statuses; the values are those of the C ABI.
const (
	StatusOK                   Status = C.MCPR_OK
	StatusInvalidRequest       Status = C.MCPR_INVALID_REQUEST
	StatusUnavailable          Status = C.MCPR_UNAVAILABLE
	StatusInvalidPlan          Status = C.MCPR_INVALID_PLAN
	StatusPolicy               Status = C.MCPR_POLICY
	StatusReadFailed           Status = C.MCPR_READ_FAILED
	StatusTimeout              Status = C.MCPR_TIMEOUT
	StatusInvalidContent       Status = C.MCPR_INVALID_CONTENT
	StatusBudgetExceeded       Status = C.MCPR_BUDGET_EXCEEDED
	StatusCanceled             Status = C.MCPR_CANCELED
	StatusDeadlineExceeded     Status = C.MCPR_DEADLINE_EXCEEDED
	StatusSize                 Status = C.MCPR_SIZE
	StatusInvalidConfiguration Status = C.MCPR_INVALID_CONFIGURATION
	StatusInvalidArgument      Status = C.MCPR_INVALID_ARGUMENT
	StatusInternal             Status = C.MCPR_INTERNAL
	StatusMethodNotHandled     Status = C.MCPR_METHOD_NOT_HANDLED
	// StatusInputRequired: a read's callback asked for input the client
	// cannot be asked for (a revision before 2026-07-28, or a capability it
	// did not declare); Error.InputRequests holds the requests.
	StatusInputRequired Status = C.MCPR_INPUT_REQUIRED
)

var statusNames = map[Status]string{
	StatusOK:                   "ok",
	StatusInvalidRequest:       "invalid_request",
	StatusUnavailable:          "unavailable",
	StatusInvalidPlan:          "invalid_plan",
	StatusPolicy:               "policy",
	StatusReadFailed:           "read_failed",
	StatusTimeout:              "timeout",
	StatusInvalidContent:       "invalid_content",
	StatusBudgetExceeded:       "budget_exceeded",
	StatusCanceled:             "canceled",
	StatusDeadlineExceeded:     "deadline_exceeded",
	StatusSize:                 "size",
	StatusInvalidConfiguration: "invalid_configuration",
	StatusInvalidArgument:      "invalid_argument",
	StatusInternal:             "internal",
	StatusMethodNotHandled:     "method_not_handled",
	StatusInputRequired:        "input_required",
}

// String is the stable snake_case name of the status.
func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return "status(" + strconv.Itoa(int(s)) + ")"
}

// Error is a failed call: the library's status, the suggested JSON-RPC
// code, a safe message that may be sent to an MCP client, and a private
// cause for the host's logs only (reached through Unwrap, or Cause).
//
// errors.Is(err, context.Canceled) holds for StatusCanceled,
// errors.Is(err, context.DeadlineExceeded) for StatusDeadlineExceeded,
// errors.Is(err, ErrUnavailable) for StatusUnavailable and
// errors.Is(err, ErrMethodNotHandled) for StatusMethodNotHandled.
type Error struct {
	// Status is the library's status.
	Status Status
	// Code is the JSON-RPC error code (for reads and listings: the one the
	// call's protocol revision requires, e.g. resource not found is -32002
	// before 2026-07-28 and -32602 from it).
	Code int
	// Message is the safe message (a fixed text; may be shown to clients).
	Message string
	// JSONRPC is the library's complete JSON-RPC error object
	// ({"code":…,"message":…}, plus "data":{"uri":…} for resource not
	// found), to send as the response's "error" member. It never contains
	// the private cause.
	JSONRPC []byte
	// InputRequests, for StatusInputRequired, is the InputRequests JSON the
	// read would have sent (for a host that asks an older client its own
	// way, then retries the read with the answers); nil otherwise.
	InputRequests []byte
	cause         string
}

// Error returns the safe message only; the private cause is never part of
// it, so logging err.Error() or sending it to a client leaks nothing.
func (e *Error) Error() string { return e.Message }

// Cause is the private cause (may be empty): identifiers, callback causes
// and internal detail. Log it; never send it to a client.
func (e *Error) Cause() string { return e.cause }

// Unwrap returns the private cause as an error (nil when there is none).
func (e *Error) Unwrap() error {
	if e.cause == "" {
		return nil
	}
	return causeError(e.cause)
}

// Is makes errors.Is(err, context.Canceled) and errors.Is(err,
// context.DeadlineExceeded) true for the matching statuses, and
// errors.Is(err, ErrUnavailable) true for StatusUnavailable.
func (e *Error) Is(target error) bool {
	switch target {
	case context.Canceled:
		return e.Status == StatusCanceled
	case context.DeadlineExceeded:
		return e.Status == StatusDeadlineExceeded
	case ErrUnavailable:
		return e.Status == StatusUnavailable
	case ErrMethodNotHandled:
		return e.Status == StatusMethodNotHandled
	}
	return false
}

type causeError string

func (c causeError) Error() string { return string(c) }

// ErrUnavailable, returned (or wrapped) by a callback, is a typed denial or
// "not found": from a policy's Discover or Read a denial, from Resolve a
// root denial, from a binding's Read an `unavailable` issue. Any other
// error is an operational failure whose text becomes the private cause.
var ErrUnavailable = errors.New("mcpresources: unavailable")

// ErrMethodNotHandled matches the error of Request for a method the
// library does not serve (route the request elsewhere, or answer -32601).
var ErrMethodNotHandled = errors.New("mcpresources: method not handled")

// The library's messages for the two outcomes the binding decides itself
// (a context already done before the call); a test holds them equal to
// the library's.
const (
	canceledMessage         = "resource request canceled"
	deadlineExceededMessage = "resource request deadline exceeded"
	internalCode            = -32603
)

// takeError turns an error object (freed here) into an *Error.
func takeError(e *C.mcpr_error, st C.mcpr_status) *Error {
	if e == nil {
		return ownError(Status(st), "mcp-resources call failed", "")
	}
	var info C.mcprgo_error_info
	C.mcprgo_error_info_of(e, &info)
	out := &Error{
		Status:  Status(info.status),
		Code:    int(info.code),
		Message: goString(info.message),
		JSONRPC: goBytes(info.jsonrpc),
		cause:   goString(info.cause),
	}
	if info.input_requests.len > 0 {
		out.InputRequests = goBytes(info.input_requests)
	}
	C.mcpr_error_free(e)
	return out
}

// ownError is an error the binding decides itself, shaped like the
// library's (a JSON-RPC error object without data).
func ownError(st Status, msg, cause string) *Error {
	obj, _ := json.Marshal(struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{internalCode, msg})
	return &Error{Status: st, Code: internalCode, Message: msg, JSONRPC: obj, cause: cause}
}

// argumentError is an invalid argument detected on the Go side.
func argumentError(msg string) *Error {
	return ownError(StatusInvalidArgument, msg, "")
}
