// Command example is a small MCP server on stdio: the official Go SDK's
// server with an mcp-resources registry installed by mcpsdk.Install. The
// end-to-end tests (tests/clients/) drive it with the official Python and
// TypeScript clients.
//
// Resources:
//
//	doc://item/NNN        120 exact resources (list pages of 50)
//	doc://empty           an explicitly empty text
//	doc://bundle          a partial bundle: one item read, one failing
//	doc://slow            a reader that waits until cancelled (or 30 s)
//	doc://stats           JSON counters: readers of doc://slow that saw
//	                      their cancellation
//	doc://files/{name}    a template; the text names the capture; {name}
//	                      completes from a.txt, alpha.md, b.txt
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
	"sync/atomic"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var slowStarted, slowCanceled atomic.Int64

func text(s string) mcpr.Binding {
	return mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		return out.SetText("text/plain", s)
	})
}

func def(fields map[string]string) []byte {
	b, _ := json.Marshal(fields)
	return b
}

// bundle plans two items: itself, and one whose read fails.
type bundle struct{}

func (bundle) Resolve(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error {
	if err := plan.SetRequested(m.URI(), "", nil); err != nil {
		return err
	}
	if err := plan.AddItem(m.URI(), "", nil); err != nil {
		return err
	}
	return plan.AddItem("doc://bundle/broken", "", nil)
}

func (bundle) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	if t.URI() == "doc://bundle/broken" {
		return fmt.Errorf("storage offline")
	}
	return out.SetText("text/plain", "bundle head")
}

// files reads doc://files/{name} and completes {name} (completion/complete).
type files struct{}

func (files) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", "file "+t.URI())
}

func (files) Complete(ctx context.Context, req mcpr.CompletionRequest, out *mcpr.Completion) error {
	for _, v := range []string{"a.txt", "alpha.md", "b.txt"} {
		if strings.HasPrefix(v, req.Value()) {
			if err := out.AddValue(v); err != nil {
				return err
			}
		}
	}
	return nil
}

func build() (*mcpr.Resources, error) {
	b := mcpr.NewBuilder()
	defer b.Close()
	if err := b.SetPolicy(mcpr.AllowAll); err != nil {
		return nil, err
	}
	if err := b.SetLimits(mcpr.Limits{DefaultPageSize: 50}); err != nil {
		return nil, err
	}
	add := func(d []byte, bd mcpr.Binding) error { return b.Add(d, bd) }
	for i := 0; i < 120; i++ {
		uri := fmt.Sprintf("doc://item/%03d", i)
		if err := add(def(map[string]string{"uri": uri, "name": fmt.Sprintf("item-%03d", i), "mimeType": "text/plain"}),
			text(fmt.Sprintf("item %d", i))); err != nil {
			return nil, err
		}
	}
	if err := add(def(map[string]string{"uri": "doc://empty", "name": "empty"}), text("")); err != nil {
		return nil, err
	}
	if err := add(def(map[string]string{"uri": "doc://bundle", "name": "bundle"}), bundle{}); err != nil {
		return nil, err
	}
	slow := mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		slowStarted.Add(1)
		select {
		case <-ctx.Done():
			slowCanceled.Add(1)
			return ctx.Err()
		case <-time.After(30 * time.Second):
			return out.SetText("text/plain", "slow")
		}
	})
	if err := add(def(map[string]string{"uri": "doc://slow", "name": "slow"}), slow); err != nil {
		return nil, err
	}
	stats := mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		s, _ := json.Marshal(map[string]int64{"slowStarted": slowStarted.Load(), "slowCanceled": slowCanceled.Load()})
		return out.SetText("application/json", string(s))
	})
	if err := add(def(map[string]string{"uri": "doc://stats", "name": "stats"}), stats); err != nil {
		return nil, err
	}
	if err := add(def(map[string]string{"uriTemplate": "doc://files/{name}", "name": "files"}), files{}); err != nil {
		return nil, err
	}
	return b.Build()
}

func main() {
	res, err := build()
	if err != nil {
		log.Fatal(err)
	}
	defer res.Close()
	server := mcp.NewServer(&mcp.Implementation{Name: "mcp-resources-example", Version: mcpr.Version()}, nil)
	mcpsdk.Install(server, res, nil)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
