package mcprotel_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	mcprotel "github.com/mcp-resources/mcp-resources/bindings/go/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// bundle plans the given items and reads each as text, except the ones
// named in fail (a read failure).
type bundle struct {
	items []string
	fail  map[string]bool
}

func (b bundle) Resolve(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error {
	if err := plan.SetRequested(m.URI(), "", nil); err != nil {
		return err
	}
	for _, i := range b.items {
		if err := plan.AddItem(i, "", nil); err != nil {
			return err
		}
	}
	return nil
}

func (b bundle) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	if b.fail[t.URI()] {
		return errors.New("PRIVATE-CAUSE disk gone")
	}
	return out.SetText("text/plain", "body of "+t.URI())
}

type fixture struct {
	r       *mcpr.Resources
	spans   *tracetest.InMemoryExporter
	metrics *sdkmetric.ManualReader
	tp      *sdktrace.TracerProvider
}

func def(uri string) []byte {
	b, _ := json.Marshal(map[string]string{"uri": uri, "name": "n"})
	return b
}

// setup: doc://ok (one item), doc://partial (two items, one failing),
// doc://denied (its permission denied), a hidden item in doc://ok's plan.
func setup(t *testing.T, opt mcprotel.Options) *fixture {
	t.Helper()
	f := &fixture{spans: tracetest.NewInMemoryExporter(), metrics: sdkmetric.NewManualReader()}
	f.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(f.spans))
	opt.TracerProvider = f.tp
	opt.MeterProvider = sdkmetric.NewMeterProvider(sdkmetric.WithReader(f.metrics))
	o, err := mcprotel.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	b := mcpr.NewBuilder()
	defer b.Close()
	policy := mcpr.PolicyFuncs{
		VisibilityFunc: func(ctx context.Context, tg mcpr.Target) (mcpr.Visibility, error) {
			return mcpr.Visibility{Visible: !strings.Contains(tg.URI(), "CANARY"), DiscloseIssueURI: true}, nil
		},
		ReadFunc: func(ctx context.Context, tg mcpr.Target) error {
			if tg.URI() == "doc://denied" {
				return mcpr.ErrUnavailable
			}
			return nil
		},
	}
	for _, step := range []func() error{
		func() error { return b.SetPolicy(policy) },
		func() error { return b.Add(def("doc://ok"), bundle{items: []string{"x://a", "x://CANARY-hidden"}}) },
		func() error {
			return b.Add(def("doc://partial"), bundle{items: []string{"x://a", "x://b"}, fail: map[string]bool{"x://b": true}})
		},
		func() error { return b.Add(def("doc://denied"), bundle{items: []string{"x://a"}}) },
		func() error { return b.SetObserver(o.Observe, o.ObserverOptions()) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	r, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	f.r = r
	return f
}

func attrs(kvs []attribute.KeyValue) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// durations are the mcp.server.operation.duration points, by their
// attribute sets' encoding.
func durations(t *testing.T, f *fixture) []metricdata.HistogramDataPoint[float64] {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := f.metrics.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == mcprotel.MetricServerDuration {
				if m.Unit != "s" {
					t.Errorf("unit %q", m.Unit)
				}
				return m.Data.(metricdata.Histogram[float64]).DataPoints
			}
		}
	}
	return nil
}

func TestSpansAndMetricsOfAReadAPartialReadAndADeniedRead(t *testing.T) {
	f := setup(t, mcprotel.Options{Decisions: true})
	tracer := f.tp.Tracer("host")
	ctx, parent := tracer.Start(context.Background(), "host request")
	if _, err := f.r.Read(ctx, "doc://ok", nil); err != nil {
		t.Fatal(err)
	}
	if b, err := f.r.Read(ctx, "doc://partial", nil); err != nil || !b.Partial {
		t.Fatalf("partial read: %v %v", err, b.Partial)
	}
	if _, err := f.r.Read(ctx, "doc://denied", nil); !errors.Is(err, mcpr.ErrUnavailable) {
		t.Fatalf("denied read: %v", err)
	}
	parent.End()
	spans := f.spans.GetSpans()
	var reads []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == "resources/read" {
			reads = append(reads, s)
		}
	}
	if len(reads) != 3 {
		t.Fatalf("%d read spans, want 3", len(reads))
	}
	for _, s := range reads {
		if s.SpanKind != trace.SpanKindServer || s.Parent.SpanID() != parent.SpanContext().SpanID() {
			t.Errorf("%s: kind %v parent %v", s.Name, s.SpanKind, s.Parent.SpanID())
		}
		a := attrs(s.Attributes)
		if a[mcprotel.AttrMethodName].AsString() != "resources/read" || a[mcprotel.AttrProtocolVersion].AsString() != "2026-07-28" {
			t.Errorf("attributes %v", a)
		}
		if s.EndTime.Sub(s.StartTime) <= 0 {
			t.Error("no duration")
		}
	}
	ok, partial, denied := attrs(reads[0].Attributes), attrs(reads[1].Attributes), attrs(reads[2].Attributes)
	if ok[mcprotel.AttrResourceURI].AsString() != "doc://ok" || ok[mcprotel.AttrPartial].AsBool() || reads[0].Status.Code == codes.Error {
		t.Errorf("read: %v %v", ok, reads[0].Status)
	}
	if !partial[mcprotel.AttrPartial].AsBool() || partial[mcprotel.AttrItems].AsInt64() != 2 {
		t.Errorf("partial: %v", partial)
	}
	// The partial read's decisions: x://a admitted, x://b failed.
	var rules []string
	for _, ev := range reads[1].Events {
		rules = append(rules, attrs(ev.Attributes)[mcprotel.AttrRule].AsString())
	}
	if strings.Join(rules, ",") != "admitted,item_failed" {
		t.Errorf("partial read's decision events: %v", rules)
	}
	// The denied read: an error with the client's code and safe message,
	// and no URI (the requested target was never disclosed).
	if reads[2].Status.Code != codes.Error || reads[2].Status.Description != "resource unavailable" {
		t.Errorf("denied status %v", reads[2].Status)
	}
	if denied[mcprotel.AttrErrorType].AsString() != "-32602" || denied[mcprotel.AttrRPCStatusCode].AsString() != "-32602" {
		t.Errorf("denied: %v", denied)
	}
	if _, named := denied[mcprotel.AttrResourceURI]; named {
		t.Error("a denied read names its URI")
	}
	if len(reads[2].Events) != 0 {
		t.Errorf("a not-found read's root decision is private: %v", reads[2].Events)
	}
	// Nothing of the hidden item, anywhere.
	for _, s := range spans {
		for _, kv := range s.Attributes {
			if strings.Contains(kv.Value.Emit(), "CANARY") || strings.Contains(kv.Value.Emit(), "PRIVATE-CAUSE") {
				t.Errorf("%s: %v", s.Name, kv)
			}
		}
		for _, ev := range s.Events {
			for _, kv := range ev.Attributes {
				if strings.Contains(kv.Value.Emit(), "CANARY") {
					t.Errorf("%s: event %v", s.Name, kv)
				}
			}
		}
	}
	// Metrics: two successes (one point), one failure with its error type.
	points := durations(t, f)
	var okCount, errCount uint64
	for _, p := range points {
		set := p.Attributes
		if v, has := set.Value(mcprotel.AttrErrorType); has {
			if v.AsString() != "-32602" {
				t.Errorf("error.type %v", v)
			}
			errCount += p.Count
		} else {
			okCount += p.Count
		}
		if v, _ := set.Value(mcprotel.AttrMethodName); v.AsString() != "resources/read" {
			t.Errorf("method %v", v)
		}
		if _, has := set.Value(mcprotel.AttrResourceURI); has {
			t.Error("the metric carries a URI (high cardinality)")
		}
	}
	if okCount != 2 || errCount != 1 {
		t.Errorf("durations: %d ok, %d errors", okCount, errCount)
	}
}

func TestPrivateDecisionsOnlyWhenAskedAndMarked(t *testing.T) {
	f := setup(t, mcprotel.Options{PrivateDecisions: true})
	if _, err := f.r.Read(context.Background(), "doc://ok", nil); err != nil {
		t.Fatal(err)
	}
	s := f.spans.GetSpans()[0]
	if len(s.Events) != 2 {
		t.Fatalf("%d events, want 2", len(s.Events))
	}
	hidden := attrs(s.Events[1].Attributes)
	if hidden[mcprotel.AttrRule].AsString() != "hidden" || !hidden[mcprotel.AttrPrivate].AsBool() {
		t.Errorf("hidden: %v", hidden)
	}
	if _, named := hidden[mcprotel.AttrResourceURI]; named {
		t.Error("a hidden item is named")
	}
	if _, hashed := hidden[mcprotel.AttrURIHash]; hashed {
		t.Error("a hidden item is hashed")
	}
}

// A client's traceparent (params._meta) parents the span, and the context's
// span is linked.
func TestTheClientsTraceParentParentsTheSpan(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	o, err := mcprotel.New(mcprotel.Options{TracerProvider: tp, MeterProvider: sdkmetric.NewMeterProvider(), Propagator: propagation.TraceContext{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, ambient := tp.Tracer("host").Start(context.Background(), "transport")
	o.Observe(&mcpr.Event{
		Kind: mcpr.KindCall, Context: ctx, Method: "resources/read", ProtocolRevision: "2026-07-28",
		TraceParent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
	})
	ambient.End()
	s := exp.GetSpans()[0]
	if s.Parent.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || s.Parent.SpanID().String() != "00f067aa0ba902b7" || !s.Parent.IsRemote() {
		t.Errorf("parent %v", s.Parent)
	}
	if len(s.Links) != 1 || s.Links[0].SpanContext.SpanID() != ambient.SpanContext().SpanID() {
		t.Errorf("links %v", s.Links)
	}
}
