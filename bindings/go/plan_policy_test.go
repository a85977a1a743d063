package mcpresources_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// countingPolicy counts its calls and hides, denies or fails by URI.
type countingPolicy struct {
	discover, visibility, read int
	hidden, denied, failing    string
}

func (p *countingPolicy) Discover(context.Context, mcpr.Definition) error {
	p.discover++
	return nil
}

func (p *countingPolicy) Visibility(_ context.Context, t mcpr.Target) (mcpr.Visibility, error) {
	p.visibility++
	if t.URI() == p.failing {
		return mcpr.Visibility{}, errors.New("PRIVATE visibility failure")
	}
	return mcpr.Visibility{Visible: t.URI() != p.hidden, DiscloseIssueURI: true}, nil
}

func (p *countingPolicy) Read(_ context.Context, t mcpr.Target) error {
	p.read++
	if t.URI() == p.denied {
		return mcpr.ErrUnavailable
	}
	return nil
}

// TestAGoPolicyAnswersEachStepOfAReadInOneCrossing: the first check and
// the recheck of a single-item read are one crossing each into the Go
// policy, which is asked exactly what the per-item callbacks are asked.
func TestAGoPolicyAnswersEachStepOfAReadInOneCrossing(t *testing.T) {
	p := &countingPolicy{}
	r := (&reg{policy: p}).add(def("doc://plan/a", "a"), text("hello")).build(t)
	before := mcpr.PlanCrossings()
	if _, err := r.Read(context.Background(), "doc://plan/a", nil); err != nil {
		t.Fatal(err)
	}
	if n := mcpr.PlanCrossings() - before; n != 2 {
		t.Fatalf("%d crossings into the plan-level entry, want 2", n)
	}
	// discover twice; visibility and read four times each (the requested
	// target and the item, before the body read and in the recheck).
	if p.discover != 2 || p.visibility != 4 || p.read != 4 {
		t.Fatalf("discover %d visibility %d read %d, want 2 4 4", p.discover, p.visibility, p.read)
	}
}

// TestBothPolicyFormsAnswerByteForByteAlike: the same Go policies through
// the plan-level entry and through one crossing per question give the
// same results and errors (hidden, denied, failing and allowed targets).
func TestBothPolicyFormsAnswerByteForByteAlike(t *testing.T) {
	read := func(perItem bool, p *countingPolicy, uri string) string {
		mcpr.SetPerItemPolicies(perItem)
		defer mcpr.SetPerItemPolicies(false)
		r := (&reg{policy: p}).add(def("doc://plan/a", "a"), text("hello")).build(t)
		b, err := r.Read(context.Background(), uri, nil)
		if err != nil {
			var e *mcpr.Error
			if errors.As(err, &e) {
				return fmt.Sprintf("error %v %s", e.Status, e.Message)
			}
			return "error " + err.Error()
		}
		j := string(b.JSON)
		if i := strings.Index(j, "mcp-warning://read/"); i >= 0 {
			j = j[:i] + j[i+len("mcp-warning://read/")+32:]
		}
		return j
	}
	policies := []func() *countingPolicy{
		func() *countingPolicy { return &countingPolicy{} },
		func() *countingPolicy { return &countingPolicy{hidden: "doc://plan/a"} },
		func() *countingPolicy { return &countingPolicy{denied: "doc://plan/a"} },
		func() *countingPolicy { return &countingPolicy{failing: "doc://plan/a"} },
	}
	for i, mk := range policies {
		for _, uri := range []string{"doc://plan/a", "doc://plan/none"} {
			a, b := read(true, mk(), uri), read(false, mk(), uri)
			if a != b {
				t.Errorf("policy %d, %s: per item %q, plan %q", i, uri, a, b)
			}
		}
	}
}
