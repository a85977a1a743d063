package mcpresources_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// toolsRegistry: three resources and a template; doc://hidden is hidden,
// doc://secret undiscoverable.
func toolsRegistry(t *testing.T) *mcpr.Resources {
	t.Helper()
	p := policyFuncs{
		discover: func(ctx context.Context, d mcpr.Definition) error {
			if d.URI() == "doc://secret" {
				return mcpr.ErrUnavailable
			}
			return nil
		},
		visibility: func(ctx context.Context, tg mcpr.Target) (mcpr.Visibility, error) {
			return mcpr.Visibility{Visible: tg.URI() != "doc://hidden"}, nil
		},
	}
	return (&reg{policy: p}).
		add(def("doc://a", "a"), text("alpha")).
		add(def("doc://b", "b"), text("beta")).
		add(def("doc://hidden", "hidden"), text("h")).
		add(def("doc://secret", "secret"), text("s")).
		add(tdef("note://n/{id}", "note"), text("note")).
		build(t)
}

func TestEmbedGivesWhatAReadGives(t *testing.T) {
	r := toolsRegistry(t)
	ctx := context.Background()
	e, err := r.Embed(ctx, []string{"doc://a", "note://n/7"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, uri := range []string{"doc://a", "note://n/7"} {
		b, err := r.Read(ctx, uri, nil)
		if err != nil {
			t.Fatal(err)
		}
		var read struct {
			Contents []json.RawMessage `json:"contents"`
		}
		if err := json.Unmarshal(b.JSON, &read); err != nil {
			t.Fatal(err)
		}
		want := `{"type":"resource","resource":` + string(read.Contents[0]) + `}`
		if string(e.Blocks[i]) != want {
			t.Fatalf("block %d = %s, want %s", i, e.Blocks[i], want)
		}
	}
	if len(e.URIs) != 2 || e.URIs[0].Status != mcpr.StatusOK || e.URIs[0].Blocks != 1 {
		t.Fatalf("outcomes %+v", e.URIs)
	}
	var whole struct {
		Content    []json.RawMessage `json:"content"`
		ResultType string            `json:"resultType"`
	}
	if err := json.Unmarshal(e.ToolResultJSON, &whole); err != nil || len(whole.Content) != 2 || whole.ResultType != "complete" {
		t.Fatalf("tool result %s (%v)", e.ToolResultJSON, err)
	}
}

func TestEmbedGivesNothingForHiddenUndiscoverableUnregisteredOrInvalidURIs(t *testing.T) {
	r := toolsRegistry(t)
	ctx := context.Background()
	for _, form := range []mcpr.EmbedForm{mcpr.EmbedResource, mcpr.EmbedLink} {
		o := &mcpr.EmbedOptions{Form: form}
		alone, err := r.Embed(ctx, []string{"doc://a"}, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, uri := range []string{"doc://hidden", "doc://secret", "doc://none", "not a uri", "", "note://n/.."} {
			e, err := r.Embed(ctx, []string{uri, "doc://a", uri}, o)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(e.BlocksJSON, alone.BlocksJSON) {
				t.Fatalf("%q: %s, want %s", uri, e.BlocksJSON, alone.BlocksJSON)
			}
			if e.URIs[0].Status == mcpr.StatusOK || e.URIs[0].Blocks != 0 {
				t.Fatalf("%q: %+v", uri, e.URIs[0])
			}
		}
	}
}

func TestEmbedLinksComeFromRegisteredDescriptions(t *testing.T) {
	r := toolsRegistry(t)
	e, err := r.Embed(context.Background(), []string{"doc://b", "note://n/x"}, &mcpr.EmbedOptions{Form: mcpr.EmbedLink, Revision: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"resource_link","uri":"doc://b","name":"b"},{"type":"resource_link","uri":"note://n/x","name":"note"}]`
	if string(e.BlocksJSON) != want {
		t.Fatalf("%s", e.BlocksJSON)
	}
	if e.URIs[0].Links != 1 || strings.Contains(string(e.ToolResultJSON), "resultType") {
		t.Fatalf("%+v %s", e.URIs, e.ToolResultJSON)
	}
}

func TestEmbedFailsAsAWholeOnlyForCancellationAndDeadline(t *testing.T) {
	r := toolsRegistry(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := r.Embed(ctx, []string{"doc://a"}, nil)
	asError(t, err, mcpr.StatusCanceled)
	ctx, stop := context.WithTimeout(context.Background(), time.Nanosecond)
	defer stop()
	time.Sleep(time.Millisecond)
	_, err = r.Embed(ctx, []string{"doc://a"}, nil)
	asError(t, err, mcpr.StatusDeadlineExceeded)
	_, err = r.Embed(context.Background(), []string{"doc://a"}, &mcpr.EmbedOptions{Form: 9})
	asError(t, err, mcpr.StatusInvalidArgument)
	e, err := r.Embed(context.Background(), nil, nil)
	if err != nil || string(e.BlocksJSON) != "[]" || len(e.URIs) != 0 {
		t.Fatalf("%v %s", err, e.BlocksJSON)
	}
}

func TestResourceToolDefinitions(t *testing.T) {
	defs, err := mcpr.ResourceToolDefinitions("2026-07-28")
	if err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(defs, &tools); err != nil || len(tools) != 2 ||
		tools[0].Name != mcpr.ListResourcesTool || tools[1].Name != mcpr.ReadResourceTool {
		t.Fatalf("%s (%v)", defs, err)
	}
	_, err = mcpr.ResourceToolDefinitions("2020-01-01")
	asError(t, err, mcpr.StatusInvalidArgument)
}

func TestCallResourceToolServesBothToolsAndNoOther(t *testing.T) {
	r := toolsRegistry(t)
	ctx := context.Background()
	o := &mcpr.RequestOptions{ScopeKey: "tenant", PageSize: 2}
	resp, err := r.CallResourceTool(ctx, []byte(`{"name":"read_resource","arguments":{"uri":"doc://a"}}`), o)
	if err != nil || resp.IsError || !strings.Contains(string(resp.JSON), `"structuredContent":{"contents":[{"uri":"doc://a"`) {
		t.Fatalf("%v %s", err, resp.JSON)
	}
	var notFound []byte
	for _, uri := range []string{"doc://hidden", "doc://secret", "doc://none", "not a uri"} {
		resp, err := r.CallResourceTool(ctx, []byte(`{"name":"read_resource","arguments":{"uri":"`+uri+`"}}`), o)
		if err != nil || resp.IsError {
			t.Fatalf("%v %s", err, resp.JSON)
		}
		if notFound == nil {
			notFound = resp.JSON
		} else if !bytes.Equal(resp.JSON, notFound) {
			t.Fatalf("%q: %s, want %s", uri, resp.JSON, notFound)
		}
	}
	if !strings.Contains(string(notFound), `"isError":true`) {
		t.Fatalf("%s", notFound)
	}
	// list_resources pages: resources, then templates (the hidden
	// resource is listed: listing asks discover only).
	var seen []string
	cursor := ""
	for page := 0; page < 10; page++ {
		params := `{"name":"list_resources"}`
		if cursor != "" {
			params = `{"name":"list_resources","arguments":{"cursor":"` + cursor + `"}}`
		}
		resp, err := r.CallResourceTool(ctx, []byte(params), o)
		if err != nil || resp.IsError {
			t.Fatalf("%v %s", err, resp.JSON)
		}
		var res struct {
			Structured struct {
				Resources []struct {
					URI string `json:"uri"`
				} `json:"resources"`
				Templates []struct {
					URITemplate string `json:"uriTemplate"`
				} `json:"resourceTemplates"`
				NextCursor string `json:"nextCursor"`
			} `json:"structuredContent"`
		}
		if err := json.Unmarshal(resp.JSON, &res); err != nil {
			t.Fatal(err)
		}
		for _, x := range res.Structured.Resources {
			seen = append(seen, x.URI)
		}
		for _, x := range res.Structured.Templates {
			seen = append(seen, x.URITemplate)
		}
		if cursor = res.Structured.NextCursor; cursor == "" {
			break
		}
	}
	if strings.Join(seen, " ") != "doc://a doc://b doc://hidden note://n/{id}" {
		t.Fatalf("listed %v", seen)
	}
	_, err = r.CallResourceTool(ctx, []byte(`{"name":"get_weather"}`), o)
	if !errors.Is(err, mcpr.ErrMethodNotHandled) {
		t.Fatalf("%v", err)
	}
	// Through Request only with ResourceTools.
	call := []byte(`{"name":"read_resource","arguments":{"uri":"doc://a"}}`)
	if _, err := r.Request(ctx, "tools/call", call, o); !errors.Is(err, mcpr.ErrMethodNotHandled) {
		t.Fatalf("%v", err)
	}
	o.ResourceTools = true
	via, err := r.Request(ctx, "tools/call", call, o)
	if err != nil || !bytes.Equal(via.JSON, mustCall(t, r, call, o).JSON) {
		t.Fatalf("%v %s", err, via.JSON)
	}
	bad, err := r.CallResourceTool(ctx, []byte(`{"name":7}`), o)
	if err != nil || !bad.IsError || bad.Status != mcpr.StatusInvalidRequest {
		t.Fatalf("%v %+v", err, bad)
	}
}

func mustCall(t *testing.T, r *mcpr.Resources, params []byte, o *mcpr.RequestOptions) mcpr.Response {
	t.Helper()
	resp, err := r.CallResourceTool(context.Background(), params, o)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
