package mcpresources_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// files completes {name} from a fixed list, filtered by the partial value
// and by the chosen {dir}.
type files struct{ seen *[]mcpr.Capture }

func (files) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	return out.SetText("text/plain", t.URI())
}

func (f files) Complete(ctx context.Context, req mcpr.CompletionRequest, out *mcpr.Completion) error {
	if f.seen != nil {
		*f.seen = req.Context()
	}
	if req.Argument() != "name" || !req.Definition().IsTemplate() {
		return errors.New("unexpected argument " + req.Argument())
	}
	if req.Value() == "boom" {
		panic("completer panic")
	}
	if req.Value() == "hidden" {
		return mcpr.ErrUnavailable
	}
	if err := out.AddValue("a/b"); err == nil {
		return errors.New("a value with a slash was accepted")
	}
	for _, v := range []string{"alpha", "alpine", "beta"} {
		if strings.HasPrefix(v, req.Value()) {
			if err := out.AddValue(v); err != nil {
				return err
			}
		}
	}
	return out.SetTotal(10)
}

type completionResult struct {
	Completion struct {
		Values  []string `json:"values"`
		Total   *int     `json:"total"`
		HasMore bool     `json:"hasMore"`
	} `json:"completion"`
}

func complete(t *testing.T, r *mcpr.Resources, value string, chosen map[string]string) (mcpr.Response, completionResult) {
	t.Helper()
	params := map[string]any{
		"ref":      map[string]string{"type": "ref/resource", "uri": "doc://dirs/{dir}/{name}"},
		"argument": map[string]string{"name": "name", "value": value},
	}
	if chosen != nil {
		params["context"] = map[string]any{"arguments": chosen}
	}
	raw, _ := json.Marshal(params)
	resp, err := r.Request(context.Background(), "completion/complete", raw, &mcpr.RequestOptions{Revision: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	var out completionResult
	if !resp.IsError {
		if err := json.Unmarshal(resp.JSON, &out); err != nil {
			t.Fatalf("%s: %v", resp.JSON, err)
		}
	}
	return resp, out
}

func TestCompleterProposesValuesThroughRequest(t *testing.T) {
	var seen []mcpr.Capture
	r := (&reg{}).add(tdef("doc://dirs/{dir}/{name}", "files"), files{seen: &seen}).build(t)
	if !r.Completes() {
		t.Fatal("Completes false with a completer")
	}
	resp, got := complete(t, r, "al", map[string]string{"dir": "src"})
	if resp.IsError || strings.Join(got.Completion.Values, ",") != "alpha,alpine" {
		t.Fatalf("completion %s", resp.JSON)
	}
	if len(seen) != 1 || seen[0] != (mcpr.Capture{Name: "dir", Value: "src"}) {
		t.Fatalf("context %v", seen)
	}
	// A panic fails the call; ErrUnavailable answers like not found.
	resp, _ = complete(t, r, "boom", nil)
	if !resp.IsError || strings.Contains(string(resp.JSON), "completer panic") {
		t.Fatalf("panicking completer: %s", resp.JSON)
	}
	resp, _ = complete(t, r, "hidden", nil)
	if !resp.IsError || resp.Status != mcpr.StatusUnavailable {
		t.Fatalf("unavailable completer: %+v %s", resp, resp.JSON)
	}
}

func TestWithoutACompleterNothingCompletes(t *testing.T) {
	r := (&reg{}).add(tdef("doc://dirs/{dir}/{name}", "files"), text("x")).build(t)
	if r.Completes() {
		t.Fatal("Completes true without a completer")
	}
	resp, got := complete(t, r, "al", nil)
	if resp.IsError || len(got.Completion.Values) != 0 {
		t.Fatalf("template without completer: %s", resp.JSON)
	}
}

func TestACompleterOnAnExactURIIsRefused(t *testing.T) {
	b := mcpr.NewBuilder()
	defer b.Close()
	err := b.Add(def("doc://exact", "exact"), files{})
	asError(t, err, mcpr.StatusInvalidConfiguration)
}
