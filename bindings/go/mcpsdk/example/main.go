// Command example is a small MCP server on stdio: the official Go SDK's
// server with an mcp-resources registry installed by mcpsdk.Install. The
// end-to-end tests (tests/clients/) drive it with the official Python and
// TypeScript clients.
//
// Resources:
//
//	doc://item/NNN        120 exact resources (list pages of 50)
//	doc://empty           an explicitly empty text with a content _meta; its
//	                      description carries every standard member (title,
//	                      description, size, annotations with lastModified,
//	                      icons, _meta): each revision lists what it defines
//	doc://bundle          a partial bundle: one item read, one failing
//	doc://slow            a reader that waits until cancelled (or 30 s)
//	doc://stats           JSON counters: readers of doc://slow started and
//	                      that saw their cancellation; calls of the hidden
//	                      template's completer
//	doc://files/{name}    a template; the text names the capture; {name}
//	                      completes from a.txt, alpha.md, b.txt
//
// Completions (completion/complete with ref/resource; the library enforces
// docs/BEHAVIOUR.md §13 whatever the completers do):
//
//	doc://projects/{project}/files/{file}
//	                      two variables: {project} completes from alpha,
//	                      beta; {file} from the files of the project given
//	                      in context.arguments (none without one)
//	doc://many/{n}        a completer offering 150 values (v000 … v149,
//	                      total 150): the library sends the first 100 with
//	                      hasMore true
//	doc://secret/{key}    hidden by the policy's Discover: it is not listed,
//	                      and reading or completing it answers exactly like
//	                      an unregistered URI; its completer never runs
//	                      (doc://stats counts its calls)
//
// Tools (resources in tool results, through the same policy):
//
//	read_resource, list_resources
//	                      the library's resource tools (Options.ResourceTools),
//	                      for clients that only call tools
//	fetch                 a host tool answering with the resources its
//	                      "uris" argument names (mcpsdk.EmbedResources):
//	                      embedded resources, or resource links when "links"
//	                      is true; nothing for a URI the caller may not read
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

var slowStarted, slowCanceled, secretCompletions atomic.Int64

// emptyDefinition carries every standard member of a description.
const emptyDefinition = `{"uri":"doc://empty","name":"empty","title":"Empty","description":"an explicitly empty text",` +
	`"mimeType":"text/plain","size":0,"annotations":{"audience":["user"],"priority":0.5,` +
	`"lastModified":"2025-01-12T15:00:58Z"},"icons":[{"src":"data:image/png;base64,iVBORw==","mimeType":"image/png",` +
	`"sizes":["16x16"],"theme":"light"}],"_meta":{"com.example/kind":"empty"}}`

// hidden is the template the policy hides from discovery.
const hidden = "doc://secret/{key}"

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
	return offer(out, req.Value(), []string{"a.txt", "alpha.md", "b.txt"})
}

// offer proposes the candidates that start with the partial value, in order.
func offer(out *mcpr.Completion, prefix string, candidates []string) error {
	for _, v := range candidates {
		if strings.HasPrefix(v, prefix) {
			if err := out.AddValue(v); err != nil {
				return err
			}
		}
	}
	return nil
}

// projects reads doc://projects/{project}/files/{file}; {file} completes
// from the files of the {project} already chosen (context.arguments).
type projects struct{}

var (
	projectNames = []string{"alpha", "beta"}
	projectFiles = map[string][]string{
		"alpha": {"main.go", "manual.md"},
		"beta":  {"main.py", "notes.txt"},
	}
)

func (projects) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", "project file "+t.URI())
}

func (projects) Complete(ctx context.Context, req mcpr.CompletionRequest, out *mcpr.Completion) error {
	if req.Argument() == "project" {
		return offer(out, req.Value(), projectNames)
	}
	// {file}: the context holds only the template's other variables, each a
	// valid capture (never a traversal); an unknown project has no files.
	for _, c := range req.Context() {
		if c.Name == "project" {
			return offer(out, req.Value(), projectFiles[c.Value])
		}
	}
	return nil
}

// many offers 150 values; the library sends at most 100.
type many struct{}

func (many) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", "many "+t.URI())
}

func (many) Complete(ctx context.Context, req mcpr.CompletionRequest, out *mcpr.Completion) error {
	n := uint64(0)
	for i := 0; i < 150; i++ {
		if v := fmt.Sprintf("v%03d", i); strings.HasPrefix(v, req.Value()) {
			if err := out.AddValue(v); err != nil {
				return err
			}
			n++
		}
	}
	return out.SetTotal(n)
}

// secret is the hidden template's binding: the library never asks it.
type secret struct{}

func (secret) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", "secret")
}

func (secret) Complete(ctx context.Context, req mcpr.CompletionRequest, out *mcpr.Completion) error {
	secretCompletions.Add(1)
	return out.AddValue("leaked")
}

func build() (*mcpr.Resources, error) {
	b := mcpr.NewBuilder()
	defer b.Close()
	// Only Discover is written in Go (one callback per question); the
	// policy's other questions stay native (allowed, visible).
	policy := mcpr.PolicyFuncs{DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
		if d.URI() == hidden {
			return mcpr.ErrUnavailable
		}
		return nil
	}}
	if err := b.SetPolicy(policy); err != nil {
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
	empty := mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		if err := out.SetText("text/plain", ""); err != nil {
			return err
		}
		return out.SetMeta([]byte(`{"com.example/empty":true}`))
	})
	if err := add([]byte(emptyDefinition), empty); err != nil {
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
		s, _ := json.Marshal(map[string]int64{
			"slowStarted":       slowStarted.Load(),
			"slowCanceled":      slowCanceled.Load(),
			"secretCompletions": secretCompletions.Load(),
		})
		return out.SetText("application/json", string(s))
	})
	if err := add(def(map[string]string{"uri": "doc://stats", "name": "stats"}), stats); err != nil {
		return nil, err
	}
	if err := add(def(map[string]string{"uriTemplate": "doc://files/{name}", "name": "files"}), files{}); err != nil {
		return nil, err
	}
	if err := add(def(map[string]string{"uriTemplate": "doc://projects/{project}/files/{file}", "name": "project-files"}), projects{}); err != nil {
		return nil, err
	}
	if err := add(def(map[string]string{"uriTemplate": "doc://many/{n}", "name": "many"}), many{}); err != nil {
		return nil, err
	}
	if err := add(def(map[string]string{"uriTemplate": hidden, "name": "secret"}), secret{}); err != nil {
		return nil, err
	}
	return b.Build()
}

// fetchTool is a host tool that answers with resources.
var fetchTool = &mcp.Tool{
	Name:        "fetch",
	Description: "Returns the resources at the given URIs (as links with links: true).",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"uris":{"type":"array","items":{"type":"string"}},"links":{"type":"boolean"}},"required":["uris"]}`),
}

// fetch embeds the URIs the call names: the library reads each through
// the registry's policy and gives nothing for a URI the caller may not
// read (the same nothing, whatever the reason).
func fetch(res *mcpr.Resources) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct {
			URIs  []string `json:"uris"`
			Links bool     `json:"links"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "uris must be a list of strings"}}}, nil
		}
		opt := &mcpr.EmbedOptions{}
		if args.Links {
			opt.Form = mcpr.EmbedLink
		}
		out, _, err := mcpsdk.EmbedResources(ctx, req, res, args.URIs, opt)
		return out, err
	}
}

func main() {
	res, err := build()
	if err != nil {
		log.Fatal(err)
	}
	defer res.Close()
	impl := &mcp.Implementation{Name: "mcp-resources-example", Version: mcpr.Version()}
	server := mcp.NewServer(impl, nil)
	// serverInfo of stateless results goes in through the library's result _meta.
	mcpsdk.Install(server, res, &mcpsdk.Options{ServerInfo: impl, ResourceTools: true})
	server.AddTool(fetchTool, fetch(res))
	if err := server.Run(context.Background(), &mcpsdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
