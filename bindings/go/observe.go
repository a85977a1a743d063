package mcpresources

// #include "shim.h"
// #include "shim_observe.h"
import "C"

import (
	"context"
	"fmt"
	"os"
	"runtime/cgo"
	"time"
	"unsafe"
)

// EventKind tells call events from decision events.
type EventKind uint32

// The kinds of events (MCPR_EVENT_*).
const (
	// KindCall: one per call of the registry, when it returns.
	KindCall EventKind = C.MCPR_EVENT_CALL
	// KindDecision: a decision of a call, when the observer asks for them.
	KindDecision EventKind = C.MCPR_EVENT_DECISION
)

// DecisionRule is what a decision decided (MCPR_DECISION_*).
type DecisionRule uint32

// The decision rules (docs/BEHAVIOUR.md §19).
const (
	RuleAllowed          DecisionRule = C.MCPR_DECISION_ALLOWED
	RuleAdmitted         DecisionRule = C.MCPR_DECISION_ADMITTED
	RuleHidden           DecisionRule = C.MCPR_DECISION_HIDDEN
	RuleDenied           DecisionRule = C.MCPR_DECISION_DENIED
	RuleRevoked          DecisionRule = C.MCPR_DECISION_REVOKED
	RuleNewlyVisible     DecisionRule = C.MCPR_DECISION_NEWLY_VISIBLE
	RuleItemFailed       DecisionRule = C.MCPR_DECISION_ITEM_FAILED
	RuleBudgetExceeded   DecisionRule = C.MCPR_DECISION_BUDGET_EXCEEDED
	RuleTimeout          DecisionRule = C.MCPR_DECISION_TIMEOUT
	RuleNotFound         DecisionRule = C.MCPR_DECISION_NOT_FOUND
	RuleInvalid          DecisionRule = C.MCPR_DECISION_INVALID
	RuleFailed           DecisionRule = C.MCPR_DECISION_FAILED
	RuleCanceled         DecisionRule = C.MCPR_DECISION_CANCELED
	RuleDeadlineExceeded DecisionRule = C.MCPR_DECISION_DEADLINE_EXCEEDED
)

// DecisionSubject is what a decision is about (MCPR_SUBJECT_*).
type DecisionSubject uint32

// The decision subjects.
const (
	SubjectRoot       DecisionSubject = C.MCPR_SUBJECT_ROOT
	SubjectItem       DecisionSubject = C.MCPR_SUBJECT_ITEM
	SubjectDefinition DecisionSubject = C.MCPR_SUBJECT_DEFINITION
)

// Phase is when in its call a decision was made (MCPR_PHASE_*; 0 when no
// callback decided).
type Phase uint32

// The phases.
const (
	PhaseUnknown    Phase = C.MCPR_PHASE_UNKNOWN
	PhaseFirstCheck Phase = C.MCPR_PHASE_FIRST_CHECK
	PhaseRecheck    Phase = C.MCPR_PHASE_RECHECK
	PhaseResolve    Phase = C.MCPR_PHASE_RESOLVE
	PhaseBodyRead   Phase = C.MCPR_PHASE_BODY_READ
	PhaseListing    Phase = C.MCPR_PHASE_LISTING
	PhaseCompletion Phase = C.MCPR_PHASE_COMPLETION
)

// EventHash is a keyed hash of a URI or scope key (the registry's event
// key; see Builder.SetEventKey and Resources.EventHash).
type EventHash [C.MCPR_EVENT_HASH_BYTES]byte

// IssueCounts are a read's report issues by code, and issuesOmitted.
type IssueCounts struct {
	Unavailable, ReadFailed, Timeout, InvalidContent, BudgetExceeded uint32
	Omitted                                                          uint64
}

// CallbackStats are the host callbacks a call made and their times
// (ObserverOptions.CallbackTimings). Private: they reveal work done for
// what the caller may not see.
type CallbackStats struct {
	DiscoverCalls, VisibilityCalls, PermissionCalls uint64
	ResolveCalls, BodyReadCalls, CompleteCalls      uint64
	Discover, Visibility, Permission                time.Duration
	Resolve, BodyRead, Complete                     time.Duration
}

// Event is one event of an observed registry (docs/BEHAVIOUR.md §19): a
// copy, the observer may keep it. Fields that do not apply to its kind are
// zero. A log client-facing operators read shows only the public part:
// no Private* field, and no event whose Private is true.
type Event struct {
	Kind EventKind
	// Context is the context of the Read, List, Request or Complete call
	// the event belongs to (nil when the call is gone or was made through
	// the C ABI by other code): the observer finds the caller's identity
	// and its trace span there.
	Context          context.Context
	Method           string
	ProtocolRevision string
	CallID           uint64
	// TraceParent and TraceState are the W3C trace context the client
	// sent with the request (params._meta), when the library has it.
	TraceParent, TraceState string

	// Call events.
	Status      Status
	JSONRPCCode int
	// StatusMessage is the failure's safe message (what the client is told).
	StatusMessage string
	Duration      time.Duration
	QueueWait     time.Duration
	HasQueueWait  bool
	Items, Bytes  uint64
	Partial       bool
	Issues        IssueCounts
	HasCache      bool
	CacheTTL      time.Duration
	CachePublic   bool

	// URI is the URI the event is about, in plain, only where the
	// disclosure rule allows (else empty; see URIHash).
	URI        string
	URIHash    EventHash
	HasURIHash bool
	// ScopeKeyHash is a listing's scope key, hashed.
	ScopeKeyHash    EventHash
	HasScopeKeyHash bool

	// Decision events.
	Rule     DecisionRule
	RuleName string
	Subject  DecisionSubject
	Phase    Phase
	Issue    Status
	// Private: the event concerns what the caller may not learn.
	Private bool

	// PrivateItemIndex is an item decision's index in the plan (-1 else).
	PrivateItemIndex int
	// PrivateCause is the failure's or the item's private cause.
	PrivateCause string
	// PrivateCallbacks is set when ObserverOptions.CallbackTimings is.
	PrivateCallbacks *CallbackStats
}

// ObserverOptions says what an observer wants besides call events.
type ObserverOptions struct {
	// Decisions: also decision events (each planned item's final
	// decision, each definition a listing visits, a failed call's root).
	Decisions bool
	// CallbackTimings: per-kind callback counts and times in call events.
	CallbackTimings bool
}

type observerEntry struct {
	fn func(*Event)
}

// SetObserver sets (or replaces) the registry's observer: fn gets one
// event per call and, with opt.Decisions, the decisions. It runs on the
// calling goroutine's thread or an executor's, concurrently: it must not
// block. A panic in it is recovered and changes no result.
func (b *Builder) SetObserver(fn func(*Event), opt ObserverOptions) error {
	if fn == nil {
		return argumentError("mcpresources: nil observer")
	}
	var flags C.uint32_t
	if opt.Decisions {
		flags |= C.MCPR_OBSERVE_DECISIONS
	}
	if opt.CallbackTimings {
		flags |= C.MCPR_OBSERVE_CALLBACK_TIMINGS
	}
	return b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		h := cgo.NewHandle(&observerEntry{fn: fn})
		if st := C.mcprgo_builder_set_observer(cb, C.uintptr_t(h), flags, &e); st != C.MCPR_OK {
			h.Delete() // release never runs for a refused table
			return takeError(e, st)
		}
		return nil
	})
}

// SetEventKey sets the key of the event hashes (32 to 1024 bytes), shared
// by replicas that must give the same hashes. Without it the cursor key
// serves; without either, each registry makes a random one.
func (b *Builder) SetEventKey(key []byte) error {
	return b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		var p *C.uint8_t
		if len(key) > 0 {
			p = (*C.uint8_t)(&key[0])
		}
		if st := C.mcpr_builder_set_event_key(cb, p, C.size_t(len(key)), &e); st != C.MCPR_OK {
			return takeError(e, st)
		}
		return nil
	})
}

// MetricsBuckets is the number of latency buckets of CallMetrics: bucket
// 0 counts calls under 1,024 ns, bucket i (1 to 26) calls of 2^(9+i) to
// 2^(10+i) ns, the last one calls of 2^36 ns or more.
const MetricsBuckets = C.MCPR_METRICS_BUCKETS

// CallMetrics are the calls of one method with one outcome.
type CallMetrics struct {
	Calls, Partial uint64
	Total          time.Duration
	Buckets        [MetricsBuckets]uint64
}

// Metrics are the registry's counts of method ("resources/read", ...)
// with outcome (StatusOK or a failure), kept without an observer.
func (r *Resources) Metrics(method string, outcome Status) (CallMetrics, error) {
	var m CallMetrics
	if r == nil || !r.ref.acquire() {
		return m, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var c C.mcpr_call_metrics
	var e *C.mcpr_error
	if st := C.mcprgo_resources_metrics(r.r, cstr(method), C.uint32_t(outcome), &c, &e); st != C.MCPR_OK {
		return m, takeError(e, st)
	}
	m.Calls, m.Partial, m.Total = uint64(c.calls), uint64(c.partial), time.Duration(c.total_ns)
	for i := range m.Buckets {
		m.Buckets[i] = uint64(c.buckets[i])
	}
	return m, nil
}

// EventHash is the keyed hash events give b (a URI, a scope key): how to
// find the events about a URI in the logs.
func (r *Resources) EventHash(b []byte) (EventHash, error) {
	var h EventHash
	if r == nil || !r.ref.acquire() {
		return h, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var e *C.mcpr_error
	if st := C.mcpr_resources_event_hash(r.r, cbytes(b), (*C.uint8_t)(&h[0]), &e); st != C.MCPR_OK {
		return h, takeError(e, st)
	}
	return h, nil
}

// staticName returns the Go constant equal to s when it is one of the
// library's static names (no copy), else a copy.
func staticName(s C.mcpr_str, names []string) string {
	b := unsafe.Slice((*byte)(unsafe.Pointer(s.ptr)), int(s.len))
	for _, n := range names {
		if string(b) == n {
			return n
		}
	}
	return goString(s)
}

var (
	methodNames   = []string{"resources/read", "resources/list", "resources/templates/list", "completion/complete", "tools/call", "embed", "subscriptions"}
	revisionNames = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
	ruleNames     = []string{"allowed", "admitted", "hidden", "denied", "revoked", "newly_visible", "item_failed",
		"budget_exceeded", "timeout", "not_found", "invalid", "failed", "canceled", "deadline_exceeded"}
)

// eventOf copies the lent C event into a Go Event.
func eventOf(e *C.mcpr_event) *Event {
	ev := &Event{
		Kind:             EventKind(e.kind),
		Method:           staticName(e.method, methodNames),
		ProtocolRevision: staticName(e.protocol_revision, revisionNames),
		CallID:           uint64(e.call_id),
		Status:           Status(e.status),
		JSONRPCCode:      int(e.jsonrpc_code),
		StatusMessage:    goString(e.status_message),
		Duration:         time.Duration(e.duration_ns),
		QueueWait:        time.Duration(e.queue_wait_ns),
		HasQueueWait:     bool(e.has_queue_wait),
		Items:            uint64(e.items),
		Bytes:            uint64(e.bytes),
		Partial:          bool(e.partial),
		Issues: IssueCounts{
			Unavailable: uint32(e.issues_unavailable), ReadFailed: uint32(e.issues_read_failed),
			Timeout: uint32(e.issues_timeout), InvalidContent: uint32(e.issues_invalid_content),
			BudgetExceeded: uint32(e.issues_budget_exceeded), Omitted: uint64(e.issues_omitted),
		},
		HasCache:         bool(e.has_cache),
		CacheTTL:         time.Duration(e.cache_ttl_ms) * time.Millisecond,
		CachePublic:      bool(e.cache_public),
		URI:              goString(e.uri),
		Rule:             DecisionRule(e.rule),
		Subject:          DecisionSubject(e.subject),
		Phase:            Phase(e.phase),
		Issue:            Status(e.issue),
		Private:          bool(e.is_private),
		PrivateItemIndex: -1,
	}
	if e.rule_name.len > 0 {
		ev.RuleName = staticName(e.rule_name, ruleNames)
	}
	if e.private_item_index != C.uint64_t(^uint64(0)) {
		ev.PrivateItemIndex = int(e.private_item_index)
	}
	if req := requestOf(C.uint64_t(uintptr(e.request_data))); req != nil {
		ev.Context = req.ctx
	}
	ev.HasURIHash = bool(C.mcpr_event_uri_hash(e, (*C.uint8_t)(&ev.URIHash[0])))
	if ev.Kind == KindCall && ev.Subject == 0 {
		ev.HasScopeKeyHash = bool(C.mcpr_event_scope_key_hash(e, (*C.uint8_t)(&ev.ScopeKeyHash[0])))
	}
	if ev.Status != StatusOK || ev.Issue != StatusOK || ev.Rule == RuleHidden {
		ev.PrivateCause = goString(C.mcpr_event_private_cause(e))
	}
	if e.private_timed {
		ev.PrivateCallbacks = &CallbackStats{
			DiscoverCalls: uint64(e.private_discover_calls), Discover: time.Duration(e.private_discover_ns),
			VisibilityCalls: uint64(e.private_visibility_calls), Visibility: time.Duration(e.private_visibility_ns),
			PermissionCalls: uint64(e.private_permission_calls), Permission: time.Duration(e.private_permission_ns),
			ResolveCalls: uint64(e.private_resolve_calls), Resolve: time.Duration(e.private_resolve_ns),
			BodyReadCalls: uint64(e.private_body_read_calls), BodyRead: time.Duration(e.private_body_read_ns),
			CompleteCalls: uint64(e.private_complete_calls), Complete: time.Duration(e.private_complete_ns),
		}
	}
	return ev
}

//export mcprgoObserve
func mcprgoObserve(h C.uintptr_t, e *C.mcpr_event) {
	defer func() {
		if p := recover(); p != nil {
			// Contained: nothing an observer does changes a result.
			fmt.Fprintf(os.Stderr, "mcpresources: observer panicked: %v\n", p)
		}
	}()
	entry, _ := cgo.Handle(h).Value().(*observerEntry)
	if entry == nil {
		return
	}
	entry.fn(eventOf(e))
}
