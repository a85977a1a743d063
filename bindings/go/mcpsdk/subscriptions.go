package mcpsdk

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Subscriptions (docs/BEHAVIOUR.md §15). The SDK acknowledges every URI a
// client asks for, rechecks nothing when it notifies, and broadcasts list
// changes to every session; its fan-out cannot be gated per session. So
// the adapter answers resources/subscribe, resources/unsubscribe and
// subscriptions/listen with the library's decisions, keeps its own table
// of subscribers (sessions and listen streams, each with the context of
// the request that subscribed: its values are the caller's identity), and
// sends each notification to one session only where the library says so.
// The SDK's own resources/updated and resources/list_changed
// notifications are dropped (they would reach callers unchecked); its
// tool and prompt list changes are untouched. On 2026-07-28 the SDK's own
// listen handler still runs, for the host's tool and prompt list changes:
// its acknowledgement is rewritten with the library's resource decisions
// before it is sent.

const (
	notificationUpdated     = "notifications/resources/updated"
	notificationListChanged = "notifications/resources/list_changed"
	notificationAck         = "notifications/subscriptions/acknowledged"
	subscriptionIDKey       = "io.modelcontextprotocol/subscriptionId"
)

// Adapter is what Install returns: the registry it serves, and the
// deliveries only it may make (the library decides each one, per
// subscriber, at send time).
type Adapter struct{ a *adapter }

// ResourceUpdated tells the subscribers of uri (resources/subscribe on
// 2025 sessions, listen streams naming it on 2026-07-28) that it changed:
// each is rechecked under the identity it subscribed with, and only those
// who may still see it get notifications/resources/updated. ctx bounds
// the decision and the sends.
func (ad *Adapter) ResourceUpdated(ctx context.Context, uri string) error {
	a := ad.a
	targets, subs := a.subs.updateTargets(uri)
	if len(subs) == 0 {
		return nil
	}
	notes, err := a.registry().NotifyUpdated(ctx, uri, subs, a.notifyOptions())
	if err != nil {
		return err
	}
	a.deliverAll(ctx, targets, notes)
	return nil
}

// Reload serves res from now on and tells each session or stream that
// asked for list changes whether its listing changed (only the definitions
// that differ are asked about: a tenant never hears of another tenant's
// catalogue). It returns the registry it replaced, for the host to close
// (calls in flight keep it until they return).
func (ad *Adapter) Reload(ctx context.Context, res *mcpr.Resources) (*mcpr.Resources, error) {
	a := ad.a
	old := a.res.Swap(res)
	change, err := mcpr.NewListChange(old, res)
	if err != nil {
		return old, err
	}
	defer change.Close()
	if change.Len() == 0 {
		return old, nil
	}
	targets, subs := a.subs.listTargets()
	if len(subs) == 0 {
		return old, nil
	}
	notes, err := change.Notify(ctx, subs, a.notifyOptions())
	if err != nil {
		return old, err
	}
	a.deliverAll(ctx, targets, notes)
	return old, nil
}

// PermissionsChanged runs change (the host's permission change) between
// two looks at every list-change subscriber's listing (a full recheck per
// subscriber), and tells those whose listing changed.
func (ad *Adapter) PermissionsChanged(ctx context.Context, change func()) error {
	a := ad.a
	targets, subs := a.subs.listTargets()
	r := a.registry()
	for i := range subs {
		fp, err := r.ListingFingerprint(subs[i].Context, nil)
		if err != nil {
			change()
			return err
		}
		subs[i].Listing = &fp
	}
	change()
	if len(subs) == 0 {
		return nil
	}
	notes, err := r.NotifyListingChanged(ctx, subs, a.notifyOptions())
	if err != nil {
		return err
	}
	a.deliverAll(ctx, targets, notes)
	return nil
}

func (a *adapter) notifyOptions() *mcpr.NotifyOptions {
	return &mcpr.NotifyOptions{Executor: a.opts.Executor}
}

// ---------------------------------------------------------------- the table

// session is a session the adapter has seen, with the identity it spoke
// with and its resources/subscribe URIs (2025 revisions).
type session struct {
	ss       *mcp.ServerSession
	ctx      context.Context // values only (never cancelled)
	revision string
	legacy   bool                       // initialized below 2026-07-28: gets list changes unasked
	uris     map[string]context.Context // subscribed URI -> identity at subscribe time
}

// stream is one subscriptions/listen stream.
type stream struct {
	ss          *mcp.ServerSession
	ctx         context.Context // the listen request's: delivery and identity
	id          json.RawMessage
	revision    string
	uris        map[string]bool
	listChanged bool
}

type subscriptions struct {
	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
	streams  map[*stream]bool
}

func newSubscriptions() *subscriptions {
	return &subscriptions{sessions: map[*mcp.ServerSession]*session{}, streams: map[*stream]bool{}}
}

// target is where one subscriber's message goes.
type target struct {
	ss  *mcp.ServerSession
	ctx context.Context // a stream's context, or nil for a session
}

// session returns the record of req's session (made on first sight, and
// forgotten when the session ends).
func (s *subscriptions) session(ctx context.Context, req mcp.Request) *session {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if ss == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.sessions[ss]
	if rec == nil {
		rec = &session{ss: ss, uris: map[string]context.Context{}}
		s.sessions[ss] = rec
		go func() {
			_ = ss.Wait()
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
		}()
	}
	rec.ctx = context.WithoutCancel(ctx)
	rec.revision = Revision(req)
	if ip := ss.InitializeParams(); ip != nil && ip.ProtocolVersion < revisionStateless {
		rec.legacy = true
	}
	return rec
}

func (s *subscriptions) sessionSeen(ctx context.Context, req mcp.Request) { s.session(ctx, req) }

func (s *subscriptions) updateTargets(uri string) ([]target, []mcpr.Subscriber) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var targets []target
	var subs []mcpr.Subscriber
	for _, rec := range s.sessions {
		if idCtx, ok := rec.uris[uri]; ok {
			targets = append(targets, target{ss: rec.ss})
			subs = append(subs, mcpr.Subscriber{Context: idCtx, Revision: rec.revision})
		}
	}
	for st := range s.streams {
		if st.uris[uri] {
			targets = append(targets, target{ss: st.ss, ctx: st.ctx})
			subs = append(subs, mcpr.Subscriber{Context: st.ctx, Revision: st.revision, SubscriptionID: st.id})
		}
	}
	return targets, subs
}

// listTargets are the list-change subscribers: every session of a 2025
// revision (they get list changes unasked), and the streams that asked; a
// session with such a stream (a client initialized on 2025 that listens
// on 2026-07-28) gets them on its stream only, never twice.
func (s *subscriptions) listTargets() ([]target, []mcpr.Subscriber) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var targets []target
	var subs []mcpr.Subscriber
	listening := map[*mcp.ServerSession]bool{}
	for st := range s.streams {
		if st.listChanged {
			listening[st.ss] = true
		}
	}
	for _, rec := range s.sessions {
		if rec.legacy && !listening[rec.ss] {
			targets = append(targets, target{ss: rec.ss})
			subs = append(subs, mcpr.Subscriber{Context: rec.ctx, Revision: rec.revision})
		}
	}
	for st := range s.streams {
		if st.listChanged {
			targets = append(targets, target{ss: st.ss, ctx: st.ctx})
			subs = append(subs, mcpr.Subscriber{Context: st.ctx, Revision: st.revision, SubscriptionID: st.id})
		}
	}
	return targets, subs
}

// ---------------------------------------------------------------- requests

// subscribe answers resources/subscribe and resources/unsubscribe with the
// library's decision, and records it.
func (a *adapter) subscribe(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	params, err := a.paramsOf(req)
	if err != nil {
		return nil, a.internal(ctx, method, err)
	}
	resp, err := a.registry().Request(ctx, method, params, &mcpr.RequestOptions{Revision: Revision(req), Executor: a.opts.Executor})
	if errors.Is(err, mcpr.ErrMethodNotHandled) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}
	}
	if err != nil {
		return nil, a.internal(ctx, method, err)
	}
	if resp.IsError {
		return nil, rpcError(resp.JSON)
	}
	if d := resp.Subscription; d != nil && len(d.URIs) == 1 {
		if rec := a.subs.session(ctx, req); rec != nil {
			a.subs.mu.Lock()
			if d.Method == mcpr.Subscribe {
				rec.uris[d.URIs[0]] = context.WithoutCancel(ctx)
			} else {
				delete(rec.uris, d.URIs[0])
			}
			a.subs.mu.Unlock()
		}
	}
	return &rawResult{raw: resp.JSON}, nil
}

// paramsOf is the params text of req: as sent (this package's transports)
// or re-encoded from the SDK's struct.
func (a *adapter) paramsOf(req mcp.Request) ([]byte, error) {
	if raw, kept := takeRawParams(req); kept {
		return raw.text, nil
	}
	return reencode(req)
}

// listenKey carries a listen's state from the receiving middleware to the
// sending one, through the SDK's listen handler (its context).
type listenKey struct{}

type listenState struct {
	params   []byte
	reqCtx   context.Context
	revision string
	req      mcp.Request
	failed   error   // the library refused the listen: answer this
	stream   *stream // recorded once acknowledged
}

// listen serves subscriptions/listen: the SDK's own handler runs (for the
// host's tool and prompt list changes) and its acknowledgement is
// rewritten by the sending middleware (acknowledge) with the library's
// decision; the stream is held open while the library honored something,
// and forgotten when it ends.
func (a *adapter) listen(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	params, err := a.paramsOf(req)
	if err != nil {
		return nil, a.internal(ctx, method, err)
	}
	st := &listenState{params: params, reqCtx: ctx, revision: Revision(req), req: req}
	res, err := next(context.WithValue(ctx, listenKey{}, st), method, req)
	if st.failed != nil {
		return nil, st.failed
	}
	if err != nil {
		return nil, err
	}
	if s := st.stream; s != nil {
		<-ctx.Done()
		a.subs.mu.Lock()
		delete(a.subs.streams, s)
		a.subs.mu.Unlock()
	}
	return res, nil
}

// acknowledge rewrites the SDK's acknowledgement of a listen with the
// library's: the honored URIs and resource list changes, the tool and
// prompt types the SDK honored itself; then records the stream.
func (a *adapter) acknowledge(ctx context.Context, st *listenState, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams)
	if !ok || p == nil {
		return next(ctx, notificationAck, req)
	}
	id, err := json.Marshal(p.Meta[subscriptionIDKey])
	if err != nil {
		st.failed = internalError
		return nil, st.failed
	}
	var host mcpr.NotificationTypes
	if p.Notifications.ToolsListChanged {
		host |= mcpr.NotifyToolsListChanged
	}
	if p.Notifications.PromptsListChanged {
		host |= mcpr.NotifyPromptsListChanged
	}
	resp, err := a.registry().Request(st.reqCtx, methodListen, st.params, &mcpr.RequestOptions{
		Revision: st.revision, RequestID: id, HostNotifications: host, Executor: a.opts.Executor,
	})
	switch {
	case errors.Is(err, mcpr.ErrMethodNotHandled):
		st.failed = &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}
	case err != nil:
		st.failed = a.internal(st.reqCtx, methodListen, err)
	case resp.IsError:
		st.failed = rpcError(resp.JSON)
	}
	if st.failed != nil {
		return nil, st.failed
	}
	var msg struct {
		Params struct {
			Notifications mcp.NotificationSubscriptions `json:"notifications"`
		} `json:"params"`
	}
	if err := json.Unmarshal(resp.JSON, &msg); err != nil {
		st.failed = internalError
		return nil, st.failed
	}
	p.Notifications = msg.Params.Notifications
	if d := resp.Subscription; d != nil && (len(d.URIs) > 0 || d.Honored&mcpr.NotifyResourcesListChanged != 0) {
		s := &stream{ctx: ctx, id: d.ID, revision: d.Revision, uris: map[string]bool{},
			listChanged: d.Honored&mcpr.NotifyResourcesListChanged != 0}
		s.ss, _ = st.req.GetSession().(*mcp.ServerSession)
		for _, u := range d.URIs {
			s.uris[u] = true
		}
		a.subs.mu.Lock()
		a.subs.streams[s] = true
		a.subs.mu.Unlock()
		st.stream = s
	}
	return next(ctx, notificationAck, req)
}

// ---------------------------------------------------------------- delivery

// adapterSend marks the adapter's own sends (the sending middleware lets
// only those resource notifications through).
type adapterSend struct{}

// sending is the adapter's sending middleware: it rewrites a listen's
// acknowledgement, lets the adapter's own resource notifications through
// and drops the SDK's (unchecked) ones.
func (a *adapter) sending(next mcp.MethodHandler) mcp.MethodHandler {
	a.send = next
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case notificationAck:
			if st, ok := ctx.Value(listenKey{}).(*listenState); ok {
				return a.acknowledge(ctx, st, req, next)
			}
		case notificationUpdated, notificationListChanged:
			if ctx.Value(adapterSend{}) == nil {
				a.logger.DebugContext(ctx, "mcpsdk: dropped an unchecked resource notification", "method", method)
				return nil, nil
			}
		}
		return next(ctx, method, req)
	}
}

// deliverAll sends each subscriber its message (nothing for the others);
// failed decisions are logged with their causes.
func (a *adapter) deliverAll(ctx context.Context, targets []target, notes []mcpr.Notification) {
	for i, n := range notes {
		if n.Status != mcpr.StatusOK {
			a.logger.WarnContext(ctx, "mcpsdk: a notification decision failed", "status", n.Status.String(), "cause", n.Cause())
		}
		if n.Message == nil || i >= len(targets) || targets[i].ss == nil {
			continue
		}
		if err := a.deliver(ctx, targets[i], n.Message); err != nil {
			a.logger.WarnContext(ctx, "mcpsdk: a notification was not delivered", "error", err)
		}
	}
}

// deliver sends one library message to one session (on its stream when the
// target is one), as the SDK's typed params with the library's members.
func (a *adapter) deliver(ctx context.Context, t target, message []byte) error {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
			URI  string                     `json:"uri"`
		} `json:"params"`
	}
	if err := json.Unmarshal(message, &msg); err != nil {
		return err
	}
	var meta mcp.Meta
	for k, v := range msg.Params.Meta {
		if meta == nil {
			meta = mcp.Meta{}
		}
		meta[k] = v
	}
	sendCtx := t.ctx
	if sendCtx == nil {
		var cancel context.CancelFunc
		sendCtx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
	}
	sendCtx = context.WithValue(sendCtx, adapterSend{}, true)
	var req mcp.Request
	switch msg.Method {
	case notificationUpdated:
		req = &mcp.ServerRequest[*mcp.ResourceUpdatedNotificationParams]{Session: t.ss,
			Params: &mcp.ResourceUpdatedNotificationParams{Meta: meta, URI: msg.Params.URI}}
	case notificationListChanged:
		req = &mcp.ServerRequest[*mcp.ResourceListChangedParams]{Session: t.ss,
			Params: &mcp.ResourceListChangedParams{Meta: meta}}
	default:
		return errors.New("mcpsdk: unknown notification " + msg.Method)
	}
	_, err := a.send(sendCtx, msg.Method, req)
	return err
}
