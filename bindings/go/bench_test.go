package mcpresources_test

import (
	"context"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// The small exact read of the C ABI benchmark (c-tests/bench_read.c): one
// 1 KiB text item at an exact URI. scripts/bench.sh prints these next to
// the C figure.

var body1K = strings.Repeat("a", 1024)

type okPolicy struct{}

func (okPolicy) Discover(context.Context, mcpr.Definition) error { return nil }
func (okPolicy) Visibility(context.Context, mcpr.Target) (mcpr.Visibility, error) {
	return mcpr.Visibility{Visible: true}, nil
}
func (okPolicy) Read(context.Context, mcpr.Target) error { return nil }

func benchRead(b *testing.B, policy mcpr.Policy, ctx context.Context, executor bool) {
	r := (&reg{policy: policy}).add(def("bench://small/item", "item"), text(body1K)).build(b)
	var opt *mcpr.ReadOptions
	if executor {
		ex, err := mcpr.NewExecutor(0)
		if err != nil {
			b.Fatal(err)
		}
		defer ex.Close()
		opt = &mcpr.ReadOptions{Executor: ex}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Read(ctx, "bench://small/item", opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSmallExactRead/go_policy: the policy's three callbacks and the
// body reader in Go: eleven cgo callbacks per read (discover twice,
// visibility and read four times each: before reading and in the recheck,
// for the requested target and the item; one body read). go_discover_only:
// PolicyFuncs with Discover only (three callbacks); native_allow_all: only
// the body reader.
func BenchmarkSmallExactRead(b *testing.B) {
	cancelable, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.Run("go_policy", func(b *testing.B) { benchRead(b, okPolicy{}, context.Background(), false) })
	b.Run("go_policy_cancelable_ctx", func(b *testing.B) { benchRead(b, okPolicy{}, cancelable, false) })
	discoverOnly := mcpr.PolicyFuncs{DiscoverFunc: func(context.Context, mcpr.Definition) error { return nil }}
	b.Run("go_discover_only", func(b *testing.B) { benchRead(b, discoverOnly, context.Background(), false) })
	b.Run("native_allow_all", func(b *testing.B) { benchRead(b, mcpr.AllowAll, context.Background(), false) })
	b.Run("native_allow_all_request", func(b *testing.B) {
		r := (&reg{}).add(def("bench://small/item", "item"), text(body1K)).build(b)
		params := []byte(`{"uri":"bench://small/item"}`)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if resp, err := r.Request(context.Background(), "resources/read", params, nil); err != nil || resp.IsError {
				b.Fatal(err)
			}
		}
	})
	b.Run("go_policy_executor", func(b *testing.B) { benchRead(b, okPolicy{}, context.Background(), true) })
}
