package mcprotel_test

import (
	"context"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	mcprotel "github.com/mcp-resources/mcp-resources/bindings/go/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

var body1K = strings.Repeat("a", 1024)

type text struct{}

func (text) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", body1K)
}

// readBench reads the small exact item (the C benchmark's W1, policy
// native) with `observe` as the registry's observer (nil: none).
func readBench(b *testing.B, observe func(*mcpr.Event), opt mcpr.ObserverOptions) {
	builder := mcpr.NewBuilder()
	defer builder.Close()
	if err := builder.SetPolicy(mcpr.AllowAll); err != nil {
		b.Fatal(err)
	}
	if err := builder.Add(def("bench://small/item"), text{}); err != nil {
		b.Fatal(err)
	}
	if observe != nil {
		if err := builder.SetObserver(observe, opt); err != nil {
			b.Fatal(err)
		}
	}
	r, err := builder.Build()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Read(ctx, "bench://small/item", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSmallExactReadObserved: the Go binding's small exact read
// without an observer, with an empty Go observer (call events; with
// decisions), and with this module's observer on the OpenTelemetry SDK
// (every span sampled, a batch processor into a discarding exporter, a
// manual metric reader). scripts/bench.sh prints each as a multiple of
// the first.
func BenchmarkSmallExactReadObserved(b *testing.B) {
	b.Run("none", func(b *testing.B) { readBench(b, nil, mcpr.ObserverOptions{}) })
	b.Run("empty_observer", func(b *testing.B) { readBench(b, func(*mcpr.Event) {}, mcpr.ObserverOptions{}) })
	b.Run("empty_observer_decisions", func(b *testing.B) {
		readBench(b, func(*mcpr.Event) {}, mcpr.ObserverOptions{Decisions: true})
	})
	b.Run("otel", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		defer func() { _ = tp.Shutdown(context.Background()) }()
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		o, err := mcprotel.New(mcprotel.Options{TracerProvider: tp, MeterProvider: mp})
		if err != nil {
			b.Fatal(err)
		}
		readBench(b, o.Observe, o.ObserverOptions())
	})
}
