package mcpresources_test

import (
	"context"
	"fmt"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

func manyResources(t testing.TB, n int, policy mcpr.Policy) *mcpr.Resources {
	r := &reg{policy: policy}
	for i := 0; i < n; i++ {
		r.add(def(fmt.Sprintf("doc://item/%04d", i), fmt.Sprintf("item %d", i)), text(fmt.Sprintf("body %d", i)))
	}
	r.add(tdef("doc://t/{a}", "t1"), text("t"))
	r.add(tdef("doc://u/{b}", "t2"), text("u"))
	return r.build(t)
}

func TestListFollowsNextCursorToTheEnd(t *testing.T) {
	r := manyResources(t, 120, nil)
	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		p, err := r.List(context.Background(), "scope", cursor, &mcpr.ListOptions{PageSize: 50})
		if err != nil {
			t.Fatal(err)
		}
		got := parseList(t, p)
		if got.NextCursor != p.NextCursor {
			t.Fatalf("NextCursor %q differs from the JSON's %q", p.NextCursor, got.NextCursor)
		}
		for _, res := range got.Resources {
			if seen[res.URI] {
				t.Fatalf("duplicate %s", res.URI)
			}
			seen[res.URI] = true
		}
		pages++
		if p.NextCursor == "" {
			break
		}
		cursor = p.NextCursor
	}
	if len(seen) != 120 || pages != 3 {
		t.Fatalf("%d resources in %d pages", len(seen), pages)
	}
}

func TestForgedCursorIsInvalidRequest(t *testing.T) {
	r := manyResources(t, 10, nil)
	p, err := r.List(context.Background(), "scope", "", &mcpr.ListOptions{PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"forged", p.NextCursor + "x", p.NextCursor[:len(p.NextCursor)-2]} {
		_, err := r.List(context.Background(), "scope", c, nil)
		asError(t, err, mcpr.StatusInvalidRequest)
	}
	// Bound to the scope and to the method.
	_, err = r.List(context.Background(), "other scope", p.NextCursor, nil)
	asError(t, err, mcpr.StatusInvalidRequest)
	_, err = r.ListTemplates(context.Background(), "scope", p.NextCursor, nil)
	asError(t, err, mcpr.StatusInvalidRequest)
	// A cursor of another registry.
	other := manyResources(t, 10, nil)
	_, err = other.List(context.Background(), "scope", p.NextCursor, nil)
	asError(t, err, mcpr.StatusInvalidRequest)
}

// An empty scope key is a host mistake, never the client's: the same
// StatusInvalidArgument from every entry point.
func TestEmptyScopeKeyIsInvalidArgument(t *testing.T) {
	r := manyResources(t, 1, nil)
	_, err := r.List(context.Background(), "", "", nil)
	asError(t, err, mcpr.StatusInvalidArgument)
	_, err = r.ListTemplates(context.Background(), "", "", nil)
	asError(t, err, mcpr.StatusInvalidArgument)
	_, err = r.Request(context.Background(), "resources/list", nil, nil)
	asError(t, err, mcpr.StatusInvalidArgument)
	_, err = r.Request(context.Background(), "resources/templates/list", []byte(`{}`), nil)
	asError(t, err, mcpr.StatusInvalidArgument)
}

func TestNegativePageSizeIsInvalidArgument(t *testing.T) {
	r := manyResources(t, 1, nil)
	_, err := r.List(context.Background(), "s", "", &mcpr.ListOptions{PageSize: -1})
	asError(t, err, mcpr.StatusInvalidArgument)
}

func TestListTemplatesListsTemplatesOnly(t *testing.T) {
	r := manyResources(t, 3, nil)
	p, err := r.ListTemplates(context.Background(), "scope", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := parseList(t, p)
	if len(got.ResourceTemplates) != 2 || len(got.Resources) != 0 || got.ResourceTemplates[0].URITemplate != "doc://t/{a}" {
		t.Fatalf("unexpected page %s", p.JSON)
	}
}

func TestListAsksDiscoverForEachDefinition(t *testing.T) {
	p := policyFuncs{discover: func(ctx context.Context, d mcpr.Definition) error {
		if d.Name() == "item 1" {
			return mcpr.ErrUnavailable
		}
		return nil
	}}
	r := manyResources(t, 3, p)
	pg, err := r.List(context.Background(), "scope", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := parseList(t, pg)
	if len(got.Resources) != 2 || got.Resources[0].URI != "doc://item/0000" || got.Resources[1].URI != "doc://item/0002" {
		t.Fatalf("denied definition listed: %s", pg.JSON)
	}
}
