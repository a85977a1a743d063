package mcpresources_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// text is a binding serving a fixed text body.
func text(body string) mcpr.Binding {
	return mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		return out.SetText("text/plain", body)
	})
}

// def is a definition JSON of an exact URI.
func def(uri, name string) []byte {
	b, _ := json.Marshal(map[string]string{"uri": uri, "name": name})
	return b
}

// tdef is a definition JSON of a URI template.
func tdef(tmpl, name string) []byte {
	b, _ := json.Marshal(map[string]string{"uriTemplate": tmpl, "name": name})
	return b
}

type reg struct {
	policy   mcpr.Policy
	limits   mcpr.Limits
	bindings []struct {
		def []byte
		b   mcpr.Binding
	}
}

func (r *reg) add(d []byte, b mcpr.Binding) *reg {
	r.bindings = append(r.bindings, struct {
		def []byte
		b   mcpr.Binding
	}{d, b})
	return r
}

func (r *reg) build(t testing.TB) *mcpr.Resources {
	t.Helper()
	b := mcpr.NewBuilder()
	defer b.Close()
	p := r.policy
	if p == nil {
		p = mcpr.AllowAll
	}
	if err := b.SetPolicy(p); err != nil {
		t.Fatalf("SetPolicy: %v", err)
	}
	if err := b.SetLimits(r.limits); err != nil {
		t.Fatalf("SetLimits: %v", err)
	}
	for _, x := range r.bindings {
		if err := b.Add(x.def, x.b); err != nil {
			t.Fatalf("Add(%s): %v", x.def, err)
		}
	}
	res, err := b.Build()
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	t.Cleanup(res.Close)
	return res
}

// readResult is the parsed resources/read result.
type readResult struct {
	Contents []struct {
		URI      string          `json:"uri"`
		MimeType string          `json:"mimeType"`
		Text     *string         `json:"text"`
		Blob     *string         `json:"blob"`
		Meta     json.RawMessage `json:"_meta"`
	} `json:"contents"`
}

func parseRead(t testing.TB, b mcpr.Bundle) readResult {
	t.Helper()
	var r readResult
	if err := json.Unmarshal(b.JSON, &r); err != nil {
		t.Fatalf("bundle JSON %q: %v", b.JSON, err)
	}
	return r
}

type listResult struct {
	Resources []struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"resources"`
	ResourceTemplates []struct {
		URITemplate string `json:"uriTemplate"`
		Name        string `json:"name"`
	} `json:"resourceTemplates"`
	NextCursor string `json:"nextCursor"`
}

func parseList(t testing.TB, p mcpr.Page) listResult {
	t.Helper()
	var r listResult
	if err := json.Unmarshal(p.JSON, &r); err != nil {
		t.Fatalf("page JSON %q: %v", p.JSON, err)
	}
	return r
}

// asError asserts err is an *mcpr.Error with the status.
func asError(t testing.TB, err error, want mcpr.Status) *mcpr.Error {
	t.Helper()
	var e *mcpr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *mcpr.Error", err, err)
	}
	if e.Status != want {
		t.Fatalf("status %v (message %q, cause %q), want %v", e.Status, e.Message, e.Cause(), want)
	}
	return e
}

// policyFuncs is a Policy from functions (nil = allow).
type policyFuncs struct {
	discover   func(ctx context.Context, d mcpr.Definition) error
	visibility func(ctx context.Context, t mcpr.Target) (mcpr.Visibility, error)
	read       func(ctx context.Context, t mcpr.Target) error
}

func (p policyFuncs) Discover(ctx context.Context, d mcpr.Definition) error {
	if p.discover != nil {
		return p.discover(ctx, d)
	}
	return nil
}

func (p policyFuncs) Visibility(ctx context.Context, t mcpr.Target) (mcpr.Visibility, error) {
	if p.visibility != nil {
		return p.visibility(ctx, t)
	}
	return mcpr.Visibility{Visible: true}, nil
}

func (p policyFuncs) Read(ctx context.Context, t mcpr.Target) error {
	if p.read != nil {
		return p.read(ctx, t)
	}
	return nil
}

var _ = fmt.Sprintf
