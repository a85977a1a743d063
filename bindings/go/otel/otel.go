// Package mcprotel turns the events of an observed mcp-resources registry
// into OpenTelemetry spans and metrics, with the names of the
// OpenTelemetry semantic conventions for MCP (development status): one
// SERVER span per call named after its method (mcp.method.name,
// mcp.protocol.version, error.type and rpc.response.status_code on
// failures, mcp.resource.uri only when the library's disclosure rule lets
// the event name the URI), and the mcp.server.operation.duration
// histogram (seconds). A separate module, so that the core Go binding
// keeps no OpenTelemetry dependency.
//
// A span's parent is the trace context the client sent with the request
// (params._meta traceparent and tracestate, extracted with the configured
// propagator) when the event carries one, else the span in the call's
// context; with both, the context's span is linked.
//
// Decision events (Options.Decisions) become span events of their call's
// span: public ones by default, private ones (anything the caller may not
// learn) only with Options.PrivateDecisions, and then marked
// mcp_resources.private; a hidden URI is never in any event to begin with.
//
//	o, _ := mcprotel.New(mcprotel.Options{})
//	b.SetObserver(o.Observe, o.ObserverOptions())
package mcprotel

import (
	"context"
	"encoding/hex"
	"strconv"
	"sync"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// EmbedMethod is the method of an embedding's events (mcpr.Resources.Embed):
// no MCP method, so its spans are named "embed" and carry no mcp.method.name.
const EmbedMethod = "embed"

// The attribute and metric names of the semantic conventions for MCP, and
// this library's own (prefixed mcp_resources.).
const (
	AttrMethodName       = attribute.Key("mcp.method.name")
	AttrProtocolVersion  = attribute.Key("mcp.protocol.version")
	AttrResourceURI      = attribute.Key("mcp.resource.uri")
	AttrErrorType        = attribute.Key("error.type")
	AttrRPCStatusCode    = attribute.Key("rpc.response.status_code")
	AttrPartial          = attribute.Key("mcp_resources.partial")
	AttrItems            = attribute.Key("mcp_resources.items")
	AttrBytes            = attribute.Key("mcp_resources.bytes")
	AttrCacheScope       = attribute.Key("mcp_resources.cache.scope")
	AttrURIHash          = attribute.Key("mcp_resources.uri_hash")
	AttrQueueWait        = attribute.Key("mcp_resources.queue_wait_s")
	AttrRule             = attribute.Key("mcp_resources.rule")
	AttrIssue            = attribute.Key("mcp_resources.issue")
	AttrPrivate          = attribute.Key("mcp_resources.private")
	MetricServerDuration = "mcp.server.operation.duration"
	// DecisionEventName names the span events of decisions.
	DecisionEventName = "mcp_resources.decision"
	// ScopeName is the instrumentation scope of the tracer and meter.
	ScopeName = "github.com/mcp-resources/mcp-resources/bindings/go/otel"
)

// DurationBuckets are the explicit bucket boundaries (seconds) the
// semantic conventions recommend for mcp.server.operation.duration.
var DurationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// Options configures an Observer; zero values take the global providers.
type Options struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// Propagator extracts the client's trace context (default: the global
	// text map propagator).
	Propagator propagation.TextMapPropagator
	// Decisions: record the public decision events as span events.
	Decisions bool
	// PrivateDecisions: record the private ones too (marked
	// mcp_resources.private): for a tracing backend only the host's own
	// operators read.
	PrivateDecisions bool
}

// Observer records one span and one duration measurement per call.
type Observer struct {
	opt      Options
	tracer   trace.Tracer
	duration metric.Float64Histogram

	mu      sync.Mutex
	pending map[uint64][]*mcpr.Event // decisions waiting for their call event
}

// New makes an Observer.
func New(opt Options) (*Observer, error) {
	if opt.TracerProvider == nil {
		opt.TracerProvider = otel.GetTracerProvider()
	}
	if opt.MeterProvider == nil {
		opt.MeterProvider = otel.GetMeterProvider()
	}
	if opt.Propagator == nil {
		opt.Propagator = otel.GetTextMapPropagator()
	}
	h, err := opt.MeterProvider.Meter(ScopeName).Float64Histogram(MetricServerDuration,
		metric.WithUnit("s"),
		metric.WithDescription("MCP request duration as observed on the receiver from the time it was received until the result is sent."),
		metric.WithExplicitBucketBoundaries(DurationBuckets...))
	if err != nil {
		return nil, err
	}
	return &Observer{
		opt:      opt,
		tracer:   opt.TracerProvider.Tracer(ScopeName),
		duration: h,
		pending:  map[uint64][]*mcpr.Event{},
	}, nil
}

// ObserverOptions are the options to pass to Builder.SetObserver with
// o.Observe.
func (o *Observer) ObserverOptions() mcpr.ObserverOptions {
	return mcpr.ObserverOptions{Decisions: o.opt.Decisions || o.opt.PrivateDecisions}
}

// Observe takes one event of the registry (Builder.SetObserver).
func (o *Observer) Observe(e *mcpr.Event) {
	if e.Kind == mcpr.KindDecision {
		if e.Private && !o.opt.PrivateDecisions {
			return
		}
		o.mu.Lock()
		o.pending[e.CallID] = append(o.pending[e.CallID], e)
		o.mu.Unlock()
		return
	}
	o.mu.Lock()
	decisions := o.pending[e.CallID]
	delete(o.pending, e.CallID)
	o.mu.Unlock()
	o.call(e, decisions)
}

// parent is the span's parent context and the links to add.
func (o *Observer) parent(e *mcpr.Event) (context.Context, []trace.Link) {
	ambient := e.Context
	if ambient == nil {
		ambient = context.Background()
	}
	if e.TraceParent == "" {
		return ambient, nil
	}
	carrier := propagation.MapCarrier{"traceparent": e.TraceParent}
	if e.TraceState != "" {
		carrier["tracestate"] = e.TraceState
	}
	remote := o.opt.Propagator.Extract(context.Background(), carrier)
	if !trace.SpanContextFromContext(remote).IsValid() {
		return ambient, nil
	}
	var links []trace.Link
	if sc := trace.SpanContextFromContext(ambient); sc.IsValid() {
		links = append(links, trace.Link{SpanContext: sc})
	}
	return remote, links
}

func (o *Observer) call(e *mcpr.Event, decisions []*mcpr.Event) {
	end := time.Now()
	start := end.Add(-e.Duration)
	attrs := []attribute.KeyValue{AttrProtocolVersion.String(e.ProtocolRevision)}
	if e.Method != EmbedMethod {
		// An embedding is no MCP method: its span is named "embed".
		attrs = append(attrs, AttrMethodName.String(e.Method))
	}
	if e.Status != mcpr.StatusOK {
		code := strconv.Itoa(e.JSONRPCCode)
		attrs = append(attrs, AttrErrorType.String(code), AttrRPCStatusCode.String(code))
	}
	o.duration.Record(context.Background(), e.Duration.Seconds(), metric.WithAttributes(attrs...))

	ctx, links := o.parent(e)
	spanAttrs := append([]attribute.KeyValue{}, attrs...)
	if e.URI != "" {
		spanAttrs = append(spanAttrs, AttrResourceURI.String(e.URI))
	}
	if e.HasURIHash {
		spanAttrs = append(spanAttrs, AttrURIHash.String(hex.EncodeToString(e.URIHash[:])))
	}
	if e.Status == mcpr.StatusOK {
		spanAttrs = append(spanAttrs, AttrItems.Int64(int64(e.Items)), AttrBytes.Int64(int64(e.Bytes)))
		if e.Method != "resources/list" && e.Method != "resources/templates/list" && e.Method != "completion/complete" {
			spanAttrs = append(spanAttrs, AttrPartial.Bool(e.Partial))
		}
		if e.HasCache {
			scope := "private"
			if e.CachePublic {
				scope = "public"
			}
			spanAttrs = append(spanAttrs, AttrCacheScope.String(scope))
		}
	}
	if e.HasQueueWait {
		spanAttrs = append(spanAttrs, AttrQueueWait.Float64(e.QueueWait.Seconds()))
	}
	_, span := o.tracer.Start(ctx, e.Method,
		trace.WithSpanKind(trace.SpanKindServer),
		trace.WithTimestamp(start),
		trace.WithLinks(links...),
		trace.WithAttributes(spanAttrs...))
	for _, d := range decisions {
		span.AddEvent(DecisionEventName, trace.WithAttributes(decisionAttrs(d)...))
	}
	if e.Status != mcpr.StatusOK {
		span.SetStatus(codes.Error, e.StatusMessage)
	}
	span.End(trace.WithTimestamp(end))
}

func decisionAttrs(d *mcpr.Event) []attribute.KeyValue {
	attrs := []attribute.KeyValue{AttrRule.String(d.RuleName)}
	if d.Issue != mcpr.StatusOK {
		attrs = append(attrs, AttrIssue.String(d.Issue.String()))
	}
	if d.URI != "" {
		attrs = append(attrs, AttrResourceURI.String(d.URI))
	}
	if d.HasURIHash {
		attrs = append(attrs, AttrURIHash.String(hex.EncodeToString(d.URIHash[:])))
	}
	if d.Private {
		attrs = append(attrs, AttrPrivate.Bool(true))
	}
	return attrs
}
