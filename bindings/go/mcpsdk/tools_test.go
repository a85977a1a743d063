package mcpsdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// embedTool is a host tool answering with the resources its "uris"
// argument names, plus a text block of its own.
func embedTool(res *mcpr.Resources, form mcpr.EmbedForm) (*mcp.Tool, mcp.ToolHandler) {
	tool := &mcp.Tool{
		Name:        "fetch",
		Description: "Fetches documents.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"uris":{"type":"array","items":{"type":"string"}}}}`),
	}
	h := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct {
			URIs []string `json:"uris"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return nil, err
		}
		out, _, err := mcpsdk.EmbedResources(ctx, req, res, args.URIs, &mcpr.EmbedOptions{Form: form})
		if err != nil {
			return nil, err
		}
		out.Content = append(out.Content, &mcp.TextContent{Text: "done"})
		return out, nil
	}
	return tool, h
}

func TestEmbedResourcesSendsTheLibrarysBlocksAndTheHandlersOwn(t *testing.T) {
	for _, rev := range revisions {
		fx, server := installed(t, nil, nil)
		server.AddTool(embedTool(fx.res, mcpr.EmbedResource))
		c := rawServer(t, server, 0)
		c.initialize(rev)
		resp := c.call("tools/call", []byte(`{"name":"fetch","arguments":{"uris":["doc://empty","doc://missing","doc://item/001"]}}`))
		result := member(resp, "result")
		want := `{"content":[{"type":"resource","resource":{"uri":"doc://empty","mimeType":"text/plain","text":""}},` +
			`{"type":"resource","resource":{"uri":"doc://item/001","mimeType":"text/plain","text":"item 1"}},` +
			`{"type":"text","text":"done"}]`
		if !strings.HasPrefix(string(result), want) {
			t.Fatalf("%s: %s", rev, result)
		}
		// The explicit empty text survives: the SDK's structs would drop it.
		if strings.Contains(string(result), `"resultType":"complete"`) != (rev >= "2026-07-28") {
			t.Fatalf("%s: resultType in %s", rev, result)
		}
	}
}

func TestEmbedResourcesLinksThroughTheSDKClient(t *testing.T) {
	for _, rev := range revisions {
		fx := newFixture(t)
		server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
		mcpsdk.Install(server, fx.res, nil)
		server.AddTool(embedTool(fx.res, mcpr.EmbedLink))
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
			Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: rev})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fetch",
			Arguments: map[string]any{"uris": []string{"doc://item/002", "doc://nope", "doc://files/x.txt"}}})
		if rev < "2025-06-18" {
			// No resource_link block exists before 2025-06-18: the link
			// form is the host's mistake (BEHAVIOUR §16 rule 13).
			if err == nil || !strings.Contains(err.Error(), "2025-06-18") {
				t.Fatalf("%s: %v %+v", rev, err, r)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Content) != 3 {
			t.Fatalf("%s: %d blocks", rev, len(r.Content))
		}
		l0, ok0 := r.Content[0].(*mcp.ResourceLink)
		l1, ok1 := r.Content[1].(*mcp.ResourceLink)
		if !ok0 || !ok1 || l0.URI != "doc://item/002" || l0.Name != "item-002" || l1.URI != "doc://files/x.txt" || l1.Name != "files" {
			t.Fatalf("%s: %+v %+v", rev, r.Content[0], r.Content[1])
		}
	}
}

func TestTheResourceToolsAreRegisteredAndServedByTheLibrary(t *testing.T) {
	forToolRevisions(t, func(t *testing.T, rev string, cs *mcp.ClientSession) {
		ctx := context.Background()
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, tl := range tools.Tools {
			names[tl.Name] = true
			if tl.Name != "read_resource" && tl.Name != "list_resources" {
				continue
			}
			// The session's revision's definitions: title and outputSchema
			// from 2025-06-18, annotations from 2025-03-26.
			later := rev >= "2025-06-18"
			if (tl.OutputSchema != nil) != later || (tl.Title != "") != later || (tl.Annotations != nil) != (rev >= "2025-03-26") {
				t.Fatalf("%s: %s: %+v", rev, tl.Name, tl)
			}
		}
		if !names["read_resource"] || !names["list_resources"] {
			t.Fatalf("tools %v", names)
		}
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_resource", Arguments: map[string]any{"uri": "doc://item/003"}})
		if err != nil || r.IsError || len(r.Content) != 1 {
			t.Fatalf("%v %+v", err, r)
		}
		if e, ok := r.Content[0].(*mcp.EmbeddedResource); !ok || e.Resource.Text != "item 3" {
			t.Fatalf("%+v", r.Content[0])
		}
		missing, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_resource", Arguments: map[string]any{"uri": "doc://nope"}})
		if err != nil || !missing.IsError {
			t.Fatalf("%v %+v", err, missing)
		}
		// list_resources walks every page: 123 resources, then the template.
		seen, cursor := 0, ""
		templates := 0
		for page := 0; page < 20; page++ {
			args := map[string]any{}
			if cursor != "" {
				args["cursor"] = cursor
			}
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_resources", Arguments: args})
			if err != nil || r.IsError {
				t.Fatalf("%v %+v", err, r)
			}
			var sc struct {
				Resources  []json.RawMessage `json:"resources"`
				Templates  []json.RawMessage `json:"resourceTemplates"`
				NextCursor string            `json:"nextCursor"`
			}
			b, _ := json.Marshal(r.StructuredContent)
			if rev < "2025-06-18" {
				// No structured content before 2025-06-18: the one text
				// block holds the page.
				text, ok := r.Content[0].(*mcp.TextContent)
				if r.StructuredContent != nil || !ok {
					t.Fatalf("%s: %+v", rev, r)
				}
				b = []byte(text.Text)
			}
			if err := json.Unmarshal(b, &sc); err != nil {
				t.Fatal(err)
			}
			seen += len(sc.Resources)
			templates += len(sc.Templates)
			if cursor = sc.NextCursor; cursor == "" {
				break
			}
		}
		if seen != 123 || templates != 1 {
			t.Fatalf("listed %d resources, %d templates", seen, templates)
		}
		// Another tool is the server's.
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"}); err == nil {
			t.Fatal("an unknown tool answered")
		}
	})
}

func forToolRevisions(t *testing.T, f func(t *testing.T, rev string, cs *mcp.ClientSession)) {
	for _, rev := range revisions {
		for _, own := range []bool{true, false} {
			t.Run(rev, func(t *testing.T) {
				fx := newFixture(t)
				f(t, rev, connectOver(t, fx, rev, &mcpsdk.Options{ResourceTools: true}, own))
			})
		}
	}
}

func TestResourceToolErrorsAreProtocolErrorsOnlyForMalformedParams(t *testing.T) {
	_, server := installed(t, &mcpsdk.Options{ResourceTools: true}, nil)
	c := rawServer(t, server, 0)
	c.initialize("2025-11-25")
	resp := c.call("tools/call", []byte(`{"name":"read_resource","arguments":{"uri":7}}`))
	if !strings.Contains(string(member(resp, "result")), `"isError":true`) {
		t.Fatalf("%s", resp)
	}
	resp = c.call("tools/call", []byte(`{"name":"list_resources","arguments":{"cursor":"bogus"}}`))
	if !strings.Contains(string(member(resp, "result")), `Invalid cursor`) {
		t.Fatalf("%s", resp)
	}
}
