package mcpresources

// #include <stdlib.h>
// #include "shim.h"
import "C"

import (
	"context"
	"encoding/json"
	"unsafe"
)

// NotificationTypes is a set of MCP change-notification types (the
// library's MCPR_NOTIFY_* bits).
type NotificationTypes uint32

// The notification types.
const (
	// NotifyResourceUpdates: notifications/resources/updated (the
	// resources capability's subscribe; a listen filter's
	// resourceSubscriptions).
	NotifyResourceUpdates NotificationTypes = C.MCPR_NOTIFY_RESOURCE_UPDATES
	// NotifyResourcesListChanged: notifications/resources/list_changed.
	NotifyResourcesListChanged NotificationTypes = C.MCPR_NOTIFY_RESOURCES_LIST_CHANGED
	// NotifyToolsListChanged: notifications/tools/list_changed (the host's).
	NotifyToolsListChanged NotificationTypes = C.MCPR_NOTIFY_TOOLS_LIST_CHANGED
	// NotifyPromptsListChanged: notifications/prompts/list_changed (the host's).
	NotifyPromptsListChanged NotificationTypes = C.MCPR_NOTIFY_PROMPTS_LIST_CHANGED
)

// SetNotifications declares the resource notifications the host delivers
// for this registry (NotifyResourceUpdates, NotifyResourcesListChanged;
// default neither): Request then decides resources/subscribe and the URIs
// of subscriptions/listen, and Capability says so.
func (b *Builder) SetNotifications(n NotificationTypes) error {
	return b.with(func(cb *C.mcpr_builder) error {
		var e *C.mcpr_error
		if st := C.mcpr_builder_set_notifications(cb, C.uint32_t(n), &e); st != C.MCPR_OK {
			return takeError(e, st)
		}
		return nil
	})
}

// Capability is the resources capability object to declare in initialize
// and server/discover results for revision ("" = the newest): {},
// {"subscribe":true}, {"listChanged":true} or both, as declared.
func (r *Resources) Capability(revision string) (json.RawMessage, error) {
	if r == nil || !r.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	var out C.mcpr_str
	var e *C.mcpr_error
	if st := C.mcpr_resources_capability(r.r, cstr(revision), &out, &e); st != C.MCPR_OK {
		return nil, takeError(e, st)
	}
	return json.RawMessage(goBytes(out)), nil
}

// SubscriptionMethod is the request a Subscription answers.
type SubscriptionMethod int

// The methods.
const (
	// Subscribe: resources/subscribe; record URIs[0] for the session.
	Subscribe SubscriptionMethod = C.MCPR_SUBSCRIPTION_SUBSCRIBE
	// Unsubscribe: resources/unsubscribe; forget URIs[0].
	Unsubscribe SubscriptionMethod = C.MCPR_SUBSCRIPTION_UNSUBSCRIBE
	// Listen: subscriptions/listen; record the stream until it ends.
	Listen SubscriptionMethod = C.MCPR_SUBSCRIPTION_LISTEN
)

// Subscription is what the host records after a successful subscription
// request (Response.Subscription).
type Subscription struct {
	Method SubscriptionMethod
	// URIs to record (Subscribe, Listen: the honored subset, in request
	// order, maybe none) or forget (Unsubscribe), byte for byte.
	URIs []string
	// Honored and Requested notification types (a listen's acknowledged
	// and whole filter).
	Honored, Requested NotificationTypes
	// ID is a listen stream's subscription id, as JSON (nil otherwise).
	ID json.RawMessage
	// Revision of later messages to this subscriber.
	Revision string
}

func subscriptionOf(s *C.mcpr_subscription) *Subscription {
	if s == nil {
		return nil
	}
	out := &Subscription{
		Method:    SubscriptionMethod(C.mcpr_subscription_request(s)),
		Honored:   NotificationTypes(C.mcpr_subscription_honored(s)),
		Requested: NotificationTypes(C.mcpr_subscription_requested(s)),
		Revision:  goString(C.mcpr_subscription_protocol_revision(s)),
	}
	if id := C.mcpr_subscription_id(s); id.len > 0 {
		out.ID = json.RawMessage(goBytes(id))
	}
	n := int(C.mcpr_subscription_uri_count(s))
	out.URIs = make([]string, n)
	for i := range out.URIs {
		out.URIs[i] = goString(C.mcpr_subscription_uri(s, C.size_t(i)))
	}
	return out
}

// Subscriber is one subscriber of a change notification, as the host
// recorded it from a Subscription.
type Subscriber struct {
	// Context carries the subscriber's identity: the policy callbacks
	// deciding for it get a context with its values (its cancellation and
	// deadline are not used: the call's context gives those).
	Context context.Context
	// Revision is Subscription.Revision.
	Revision string
	// SubscriptionID is Subscription.ID (required from 2026-07-28 on).
	SubscriptionID json.RawMessage
	// URI (NotifyUpdated only) is the URI subscribed to when it is not the
	// one that changed ("" = the changed one).
	URI string
	// Listing (NotifyListingChanged only, required there) is the
	// subscriber's ListingFingerprint from before the permission change.
	Listing *[32]byte
}

// NotifyOptions are the options of the notification calls (nil =
// defaults); the deadline and cancellation come from the call's context.
type NotifyOptions struct {
	// Executor runs every callback of the call as one job: the call
	// returns by its deadline whatever the callbacks do.
	Executor *Executor
	// Trace is the trace context of the operation that sends the
	// notifications (the change, the reload), handed to every callback of
	// the call (TraceContextOf); it is the call's, the same for every
	// subscriber, and appears in no message. Notifications carry no result
	// _meta, so there is no ResultMeta.
	Trace TraceContext
}

// Notification is one subscriber's outcome of a notification call.
type Notification struct {
	// Message is the complete JSON-RPC notification to send to the
	// subscriber as it is; nil: send nothing.
	Message []byte
	// Status is StatusOK when the subscriber was decided (message or
	// not), else the failure of its decision (nothing is sent either).
	Status Status
	// Listing (NotifyListingChanged only) is the subscriber's fingerprint
	// now, for the next permission change.
	Listing *[32]byte
	cause   string
}

// Cause is the private cause of a failed decision (for logs only).
func (n Notification) Cause() string { return n.cause }

// valuesOf is the context of a subscriber's callbacks: the call's
// deadline and cancellation, the subscriber's values first.
type valuesOf struct {
	context.Context
	values context.Context
}

func (v valuesOf) Value(key any) any {
	if x := v.values.Value(key); x != nil {
		return x
	}
	return v.Context.Value(key)
}

// subscribers is a C array of subscribers and the bytes its strings point
// into, in C memory (a C array may not hold Go pointers), with the request
// ids each subscriber's callbacks find their context by.
type subscribers struct {
	array *C.mcpr_subscriber
	bytes unsafe.Pointer
	n     int
	env   *callEnv
	ids   []uint64
}

func (env *callEnv) subscribers(subs []Subscriber) *subscribers {
	out := &subscribers{n: len(subs), env: env}
	if len(subs) == 0 {
		return out
	}
	size := 0
	for _, s := range subs {
		size += len(s.Revision) + len(s.SubscriptionID) + len(s.URI) + 32
	}
	out.array = (*C.mcpr_subscriber)(C.calloc(C.size_t(len(subs)), C.size_t(unsafe.Sizeof(C.mcpr_subscriber{}))))
	out.bytes = C.malloc(C.size_t(size))
	buf := unsafe.Slice((*byte)(out.bytes), size)
	array := unsafe.Slice(out.array, len(subs))
	at := 0
	put := func(b []byte) C.mcpr_str {
		if len(b) == 0 {
			return C.mcpr_str{}
		}
		copy(buf[at:], b)
		s := C.mcpr_str{ptr: (*C.char)(unsafe.Pointer(&buf[at])), len: C.size_t(len(b))}
		at += len(b)
		return s
	}
	for i, s := range subs {
		ctx := s.Context
		if ctx == nil {
			ctx = context.Background()
		}
		id := env.sub(valuesOf{Context: env.ctx, values: ctx})
		out.ids = append(out.ids, id)
		var listing *C.uint8_t
		if s.Listing != nil {
			l := put(s.Listing[:])
			listing = (*C.uint8_t)(unsafe.Pointer(l.ptr))
		}
		C.mcprgo_subscriber_set(&array[i], C.uint64_t(id), put([]byte(s.Revision)), put(s.SubscriptionID),
			put([]byte(s.URI)), listing)
	}
	return out
}

func (s *subscribers) free() {
	C.free(unsafe.Pointer(s.array))
	C.free(s.bytes)
}

// notify runs one notification call and reads its outcomes.
func notify(ctx context.Context, kind C.int, r *C.mcpr_resources, change *C.mcpr_list_change, uri string,
	subs []Subscriber, opt *NotifyOptions) ([]Notification, error) {
	var executor *Executor
	var trace TraceContext
	if opt != nil {
		executor, trace = opt.Executor, opt.Trace
	}
	ex, done, err := holdExecutor(executor)
	if err != nil {
		return nil, err
	}
	defer done()
	env, err := begin(ctx)
	if err != nil {
		return nil, err
	}
	defer env.end()
	cs := env.subscribers(subs)
	defer cs.free()
	var out *C.mcpr_notifications
	var e *C.mcpr_error
	// Each subscriber brings its own revision and request: the call's are
	// not used.
	fields := env.fields(callFields{executor: ex, trace: trace})
	st := C.mcprgo_notify(kind, r, change, cstr(uri), cs.array, C.size_t(cs.n), fields, &out, &e)
	if st != C.MCPR_OK {
		return nil, env.failure(takeError(e, st))
	}
	defer C.mcpr_notifications_free(out)
	n := int(C.mcpr_notifications_count(out))
	if n == 0 {
		return []Notification{}, nil
	}
	raw := (*C.mcprgo_notification)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.mcprgo_notification{}))))
	defer C.free(unsafe.Pointer(raw))
	C.mcprgo_notifications_read(out, raw, C.size_t(n))
	got := make([]Notification, n)
	for i, r := range unsafe.Slice(raw, n) {
		if r.message.len > 0 {
			got[i].Message = goBytes(r.message)
		}
		got[i].Status = Status(r.status)
		got[i].cause = goString(r.cause)
		if r.has_listing {
			var l [32]byte
			copy(l[:], unsafe.Slice((*byte)(unsafe.Pointer(&r.listing[0])), 32))
			got[i].Listing = &l
		}
	}
	return got, nil
}

// NotifyUpdated decides one resource update for many subscribers: uri
// changed, and each subscriber, rechecked now under its own Context's
// values (docs/BEHAVIOUR.md §15), gets the exact
// notifications/resources/updated message of its revision, or nothing (a
// subscriber who can no longer see the URI, or was revoked, is skipped
// silently). ctx bounds the whole call (its deadline and cancellation);
// an error means nothing is to be sent.
func (r *Resources) NotifyUpdated(ctx context.Context, uri string, subs []Subscriber, opt *NotifyOptions) ([]Notification, error) {
	if r == nil || !r.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	return notify(ctx, C.MCPRGO_NOTIFY_UPDATED, r.r, nil, uri, subs, opt)
}

// NotifyListingChanged decides a list change after a permission change:
// each subscriber's listing fingerprint is taken again and compared with
// its Listing (from before); a changed one gets the
// notifications/resources/list_changed message of its revision.
// Notification.Listing is each new fingerprint.
func (r *Resources) NotifyListingChanged(ctx context.Context, subs []Subscriber, opt *NotifyOptions) ([]Notification, error) {
	if r == nil || !r.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	return notify(ctx, C.MCPRGO_NOTIFY_LISTING_CHANGED, r.r, nil, "", subs, opt)
}

// ListingFingerprint is the caller's listing fingerprint (which
// definitions ctx's caller can discover, as a digest; a full recheck):
// take one before a permission change, for NotifyListingChanged. Private
// to the host: never send it.
func (r *Resources) ListingFingerprint(ctx context.Context, opt *ReadOptions) ([32]byte, error) {
	var out [32]byte
	if r == nil || !r.ref.acquire() {
		return out, argumentError("mcpresources: registry closed")
	}
	defer r.ref.release()
	o := ReadOptions{}
	if opt != nil {
		o = *opt
	}
	ex, done, err := holdExecutor(o.Executor)
	if err != nil {
		return out, err
	}
	defer done()
	env, err := begin(ctx)
	if err != nil {
		return out, err
	}
	defer env.end()
	buf := (*C.uint8_t)(C.malloc(32))
	defer C.free(unsafe.Pointer(buf))
	var e *C.mcpr_error
	if st := C.mcprgo_listing_fingerprint(r.r, env.fields(callFields{revision: o.Revision, executor: ex, trace: o.Trace}), buf, &e); st != C.MCPR_OK {
		return out, env.failure(takeError(e, st))
	}
	copy(out[:], unsafe.Slice((*byte)(unsafe.Pointer(buf)), 32))
	return out, nil
}

// ListChange is two registries compared once, for list changes after a
// reload. It keeps the policies alive, not the registries; Close it.
type ListChange struct {
	ref ref
	c   *C.mcpr_list_change
}

// NewListChange compares old with new (resources and templates by uri /
// uriTemplate; no callback runs).
func NewListChange(old, new *Resources) (*ListChange, error) {
	if old == nil || new == nil || !old.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer old.ref.release()
	if !new.ref.acquire() {
		return nil, argumentError("mcpresources: registry closed")
	}
	defer new.ref.release()
	var c *C.mcpr_list_change
	var e *C.mcpr_error
	if st := C.mcpr_list_change_new(old.r, new.r, &c, &e); st != C.MCPR_OK {
		return nil, takeError(e, st)
	}
	lc := &ListChange{c: c}
	lc.ref = newRef(func() { C.mcpr_list_change_free(c) })
	return lc, nil
}

// Len is how many definitions differ (0: nobody is ever told).
func (c *ListChange) Len() int {
	if c == nil || !c.ref.acquire() {
		return 0
	}
	defer c.ref.release()
	return int(C.mcpr_list_change_count(c.c))
}

// Notify decides the change for many subscribers: each that can discover
// a differing definition (removed ones under the old registry's policy,
// added ones under the new's, with its own Context's values) gets the
// notifications/resources/list_changed message of its revision; the others
// nothing. Only the differing definitions are asked about.
func (c *ListChange) Notify(ctx context.Context, subs []Subscriber, opt *NotifyOptions) ([]Notification, error) {
	if c == nil || !c.ref.acquire() {
		return nil, argumentError("mcpresources: list change closed")
	}
	defer c.ref.release()
	return notify(ctx, C.MCPRGO_NOTIFY_LIST_CHANGED, nil, c.c, "", subs, opt)
}

// Close frees the list change (calls in flight keep it until they return).
func (c *ListChange) Close() {
	if c != nil {
		c.ref.close()
	}
}

// ListenClosedResult is the result that ends a subscriptions/listen stream
// gracefully (send it as the listen request's result when the server tears
// the stream down): {"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":<id>}}.
func ListenClosedResult(id json.RawMessage) (json.RawMessage, error) {
	var out *C.mcpr_response
	var e *C.mcpr_error
	if st := C.mcpr_notify_listen_closed(cbytes(id), &out, &e); st != C.MCPR_OK {
		return nil, takeError(e, st)
	}
	defer C.mcpr_response_free(out)
	return json.RawMessage(goBytes(C.mcpr_response_json(out))), nil
}
