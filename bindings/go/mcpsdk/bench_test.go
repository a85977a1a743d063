package mcpsdk_test

import (
	"context"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The small exact read (one 1 KiB text item) through a client session of
// the official Go SDK over its in-memory transport: served by the SDK's own
// resource handler, and by the library through mcpsdk.Install.
// scripts/bench.sh prints these next to the C ABI and Go binding figures.

var body1K = strings.Repeat("a", 1024)

func benchSession(b *testing.B, install func(*mcp.Server)) *mcp.ClientSession {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	install(server)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

func benchReads(b *testing.B, cs *mcp.ClientSession) {
	params := &mcp.ReadResourceParams{URI: "bench://small/item"}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := cs.ReadResource(ctx, params)
		if err != nil || len(r.Contents) != 1 || len(r.Contents[0].Text) != 1024 {
			b.Fatalf("read: %v", err)
		}
	}
}

func BenchmarkSDKSessionSmallExactRead(b *testing.B) {
	b.Run("sdk_own_handler", func(b *testing.B) {
		cs := benchSession(b, func(s *mcp.Server) {
			s.AddResource(&mcp.Resource{URI: "bench://small/item", Name: "item"},
				func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
						{URI: req.Params.URI, MIMEType: "text/plain", Text: body1K},
					}}, nil
				})
		})
		benchReads(b, cs)
	})
	b.Run("mcpsdk_adapter", func(b *testing.B) {
		bd := mcpr.NewBuilder()
		defer bd.Close()
		if err := bd.SetPolicy(mcpr.AllowAll); err != nil {
			b.Fatal(err)
		}
		if err := bd.Add([]byte(`{"uri":"bench://small/item","name":"item"}`), text(body1K)); err != nil {
			b.Fatal(err)
		}
		res, err := bd.Build()
		if err != nil {
			b.Fatal(err)
		}
		defer res.Close()
		cs := benchSession(b, func(s *mcp.Server) { mcpsdk.Install(s, res, nil) })
		benchReads(b, cs)
	})
}
