package mcpresources_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

func TestReadExactReturnsTheLibraryJSON(t *testing.T) {
	r := (&reg{}).add(def("doc://hello", "hello"), text("hi there")).build(t)
	b, err := r.Read(context.Background(), "doc://hello", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := parseRead(t, b)
	if b.Partial || len(got.Contents) != 1 || got.Contents[0].URI != "doc://hello" ||
		got.Contents[0].Text == nil || *got.Contents[0].Text != "hi there" || got.Contents[0].MimeType != "text/plain" {
		t.Fatalf("unexpected bundle %s", b.JSON)
	}
}

func TestReadExplicitEmptyTextIsKept(t *testing.T) {
	r := (&reg{}).add(def("doc://empty", "empty"), text("")).build(t)
	b, err := r.Read(context.Background(), "doc://empty", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := parseRead(t, b)
	if len(got.Contents) != 1 || got.Contents[0].Text == nil || *got.Contents[0].Text != "" {
		t.Fatalf("explicit empty text lost: %s", b.JSON)
	}
}

func TestReadBlobAndMeta(t *testing.T) {
	r := (&reg{}).add(def("doc://blob", "blob"), mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		if err := out.SetBlob("application/octet-stream", []byte{0, 1, 2}); err != nil {
			return err
		}
		return out.SetMeta([]byte(`{"k":1}`))
	})).build(t)
	b, err := r.Read(context.Background(), "doc://blob", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := parseRead(t, b)
	if got.Contents[0].Blob == nil || *got.Contents[0].Blob != "AAEC" || string(got.Contents[0].Meta) != `{"k":1}` {
		t.Fatalf("unexpected bundle %s", b.JSON)
	}
}

// templated plans the matched URI plus a sibling item, from captures.
type templated struct{}

func (templated) Resolve(ctx context.Context, m mcpr.Match, plan *mcpr.Plan) error {
	name, ok := m.Capture("name")
	if !ok || !m.Definition().IsTemplate() || m.Definition().URI() != "doc://t/{name}" {
		return errors.New("capture missing")
	}
	if err := plan.SetRequested(m.URI(), "", []byte(`{"user":"u1"}`)); err != nil {
		return err
	}
	if err := plan.AddItem(m.URI(), "", []byte(`{"user":"u1"}`)); err != nil {
		return err
	}
	return plan.AddItem("doc://t/"+name+"-extra", "", nil)
}

func (templated) Read(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
	if strings.HasSuffix(t.URI(), "-extra") {
		return mcpr.ErrUnavailable
	}
	return out.SetText("text/plain", t.URI()+"|"+t.Representation()+"|"+string(t.Authorization()))
}

func TestResolverPlansTemplateReadsAndPartialBundles(t *testing.T) {
	r := (&reg{}).add(tdef("doc://t/{name}", "t"), templated{}).build(t)
	b, err := r.Read(context.Background(), "doc://t/abc", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := parseRead(t, b)
	if !b.Partial || len(got.Contents) != 2 {
		t.Fatalf("want a partial bundle (warning + one item): %s", b.JSON)
	}
	it := got.Contents[1]
	if it.URI != "doc://t/abc" || it.Text == nil || *it.Text != `doc://t/abc|default|{"user":"u1"}` {
		t.Fatalf("unexpected item %s", b.JSON)
	}
	if strings.Contains(string(b.JSON), `"user"`) && !strings.Contains(*it.Text, "user") {
		t.Fatalf("authorization leaked: %s", b.JSON)
	}
}

func TestUnknownURIIsUnavailableWithCode32602(t *testing.T) {
	r := (&reg{}).add(def("doc://a", "a"), text("a")).build(t)
	_, err := r.Read(context.Background(), "doc://missing", nil)
	e := asError(t, err, mcpr.StatusUnavailable)
	if e.Code != -32602 || !errors.Is(err, mcpr.ErrUnavailable) || e.Message == "" {
		t.Fatalf("unexpected error %+v", e)
	}
}

func TestMalformedURIIsInvalidRequest(t *testing.T) {
	r := (&reg{}).add(def("doc://a", "a"), text("a")).build(t)
	for _, uri := range []string{"", "not a uri", "doc://a/%zz", "doc://a\x00"} {
		_, err := r.Read(context.Background(), uri, nil)
		asError(t, err, mcpr.StatusInvalidRequest)
	}
}

func TestPolicyDenialIsUnavailable(t *testing.T) {
	p := policyFuncs{read: func(ctx context.Context, tg mcpr.Target) error {
		return mcpr.ErrUnavailable
	}}
	r := (&reg{policy: p}).add(def("doc://a", "a"), text("a")).build(t)
	_, err := r.Read(context.Background(), "doc://a", nil)
	asError(t, err, mcpr.StatusUnavailable)
}

func TestPolicyFailureCauseIsPrivate(t *testing.T) {
	p := policyFuncs{discover: func(ctx context.Context, d mcpr.Definition) error {
		return errors.New("database password wrong")
	}}
	r := (&reg{policy: p}).add(def("doc://a", "a"), text("a")).build(t)
	_, err := r.Read(context.Background(), "doc://a", nil)
	e := asError(t, err, mcpr.StatusPolicy)
	if strings.Contains(e.Error(), "password") || strings.Contains(e.Message, "password") {
		t.Fatalf("cause leaked into the safe message: %q", e.Error())
	}
	if !strings.Contains(e.Cause(), "database password wrong") || !strings.Contains(errors.Unwrap(err).Error(), "password") {
		t.Fatalf("cause not reachable: %q", e.Cause())
	}
	if e.Code != -32603 {
		t.Fatalf("code %d", e.Code)
	}
}

func TestPolicyHidesTargetsThroughVisibility(t *testing.T) {
	p := policyFuncs{visibility: func(ctx context.Context, tg mcpr.Target) (mcpr.Visibility, error) {
		return mcpr.Visibility{}, nil
	}}
	r := (&reg{policy: p}).add(def("doc://a", "a"), text("a")).build(t)
	_, err := r.Read(context.Background(), "doc://a", nil)
	asError(t, err, mcpr.StatusUnavailable)
}

type ctxKey struct{}

func TestCallbacksSeeTheCallersContextValues(t *testing.T) {
	var seen []any
	p := policyFuncs{discover: func(ctx context.Context, d mcpr.Definition) error {
		seen = append(seen, ctx.Value(ctxKey{}))
		if d.Name() != "a" || d.URI() != "doc://a" || d.IsTemplate() || !strings.Contains(string(d.JSON()), `"name":"a"`) {
			return errors.New("bad definition view")
		}
		return nil
	}}
	r := (&reg{policy: p}).add(def("doc://a", "a"), mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		seen = append(seen, ctx.Value(ctxKey{}))
		if out.MaxBytes() <= 0 {
			return errors.New("no max bytes")
		}
		return out.SetText("text/plain", "x")
	})).build(t)
	ctx := context.WithValue(context.Background(), ctxKey{}, "v")
	if _, err := r.Read(ctx, "doc://a", nil); err != nil {
		t.Fatal(err)
	}
	if len(seen) < 2 {
		t.Fatalf("callbacks not called: %v", seen)
	}
	for _, v := range seen {
		if v != "v" {
			t.Fatalf("value not propagated: %v", seen)
		}
	}
}

func TestViewsAreInertAfterTheirCallbackReturned(t *testing.T) {
	var kept mcpr.Target
	var keptOut *mcpr.Payload
	var keptCtx context.Context
	r := (&reg{}).add(def("doc://a", "a"), mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		kept, keptOut, keptCtx = tg, out, ctx
		return out.SetText("text/plain", "x")
	})).build(t)
	if _, err := r.Read(context.Background(), "doc://a", nil); err != nil {
		t.Fatal(err)
	}
	if kept.URI() != "" || kept.Authorization() != nil {
		t.Fatal("a kept view still reads the library's memory")
	}
	if err := keptOut.SetText("text/plain", "late"); err == nil {
		t.Fatal("a kept payload accepted a body")
	}
	select {
	case <-keptCtx.Done():
	default:
		t.Fatal("a callback context is not done after its callback returned")
	}
	if !errors.Is(keptCtx.Err(), context.Canceled) {
		t.Fatalf("err %v", keptCtx.Err())
	}
}

func TestBuildRefusesBadDefinitionsAndReuse(t *testing.T) {
	b := mcpr.NewBuilder()
	defer b.Close()
	if err := b.Add([]byte(`{"name":"x"}`), text("a")); err == nil {
		t.Fatal("definition without uri accepted")
	} else {
		asError(t, err, mcpr.StatusInvalidConfiguration)
	}
	if err := b.Add([]byte(`not json`), text("a")); err == nil {
		t.Fatal("invalid JSON accepted")
	}
	if err := b.Add(def("doc://a", "a"), nil); err == nil {
		t.Fatal("nil binding accepted")
	}
	if err := b.SetPolicy(nil); err == nil {
		t.Fatal("nil policy accepted")
	}
	if err := b.SetLimit(mcpr.LimitMaxItems, -1); err == nil {
		t.Fatal("negative limit accepted")
	}
	if err := b.SetCursorKey([]byte("short")); err == nil {
		t.Fatal("short cursor key accepted")
	}
	if err := b.Add(def("doc://a", "a"), text("a")); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(); err == nil {
		t.Fatal("build without a policy succeeded")
	}
	if err := b.Add(def("doc://b", "b"), text("b")); err == nil {
		t.Fatal("builder reused after Build")
	}
	if _, err := b.Build(); err == nil {
		t.Fatal("second Build succeeded")
	}
}

func TestDuplicateDefinitionsFailBuild(t *testing.T) {
	b := mcpr.NewBuilder()
	defer b.Close()
	_ = b.SetPolicy(mcpr.AllowAll)
	_ = b.Add(def("doc://a", "a"), text("a"))
	_ = b.Add(def("doc://a", "a"), text("a"))
	_, err := b.Build()
	asError(t, err, mcpr.StatusInvalidConfiguration)
}

func TestClosedRegistryRefusesCalls(t *testing.T) {
	r := (&reg{}).add(def("doc://a", "a"), text("a")).build(t)
	r.Close()
	r.Close()
	_, err := r.Read(context.Background(), "doc://a", nil)
	asError(t, err, mcpr.StatusInvalidArgument)
	_, err = r.List(context.Background(), "s", "", nil)
	asError(t, err, mcpr.StatusInvalidArgument)
	var nilRes *mcpr.Resources
	_, err = nilRes.Read(context.Background(), "doc://a", nil)
	asError(t, err, mcpr.StatusInvalidArgument)
}

func TestRevisionIsStableAcrossIdenticalRegistries(t *testing.T) {
	a := (&reg{}).add(def("doc://a", "a"), text("a")).build(t)
	b := (&reg{}).add(def("doc://a", "a"), text("b")).build(t)
	c := (&reg{}).add(def("doc://c", "c"), text("a")).build(t)
	if a.Revision() != b.Revision() || a.Revision() == c.Revision() || a.Revision() == [32]byte{} {
		t.Fatal("revision does not follow the registered descriptions")
	}
}

func TestVersionIsTheCrateVersion(t *testing.T) {
	if v := mcpr.Version(); v == "" || !strings.Contains(v, ".") {
		t.Fatalf("version %q", v)
	}
}

func TestPolicyFuncsRunOnlyTheGivenFunctions(t *testing.T) {
	var discovered int
	p := mcpr.PolicyFuncs{DiscoverFunc: func(ctx context.Context, d mcpr.Definition) error {
		discovered++
		if d.Name() == "b" {
			return mcpr.ErrUnavailable
		}
		return nil
	}}
	r := (&reg{policy: p}).add(def("doc://a", "a"), text("a")).add(def("doc://b", "b"), text("b")).build(t)
	if _, err := r.Read(context.Background(), "doc://a", nil); err != nil {
		t.Fatal(err)
	}
	_, err := r.Read(context.Background(), "doc://b", nil)
	asError(t, err, mcpr.StatusUnavailable)
	if discovered == 0 {
		t.Fatal("Discover never ran")
	}
	// Pointer form, with a read denial and native discovery.
	q := &mcpr.PolicyFuncs{ReadFunc: func(ctx context.Context, tg mcpr.Target) error {
		if tg.URI() == "doc://b" {
			return mcpr.ErrUnavailable
		}
		return nil
	}}
	r2 := (&reg{policy: q}).add(def("doc://a", "a"), text("a")).add(def("doc://b", "b"), text("b")).build(t)
	if _, err := r2.Read(context.Background(), "doc://a", nil); err != nil {
		t.Fatal(err)
	}
	_, err = r2.Read(context.Background(), "doc://b", nil)
	asError(t, err, mcpr.StatusUnavailable)
	// No functions: everything allowed.
	r3 := (&reg{policy: mcpr.PolicyFuncs{}}).add(def("doc://a", "a"), text("a")).build(t)
	if _, err := r3.Read(context.Background(), "doc://a", nil); err != nil {
		t.Fatal(err)
	}
}

// Read copies a result into a buffer sized by the registry's last one
// (read.go): every result must come back whole and alone whether it fits
// (the same item again), outgrows it (a larger item after a small one,
// one beyond the buffer's bound) or is smaller, and two Bundles never
// share memory.
func TestReadResultsOfChangingSizesComeBackWhole(t *testing.T) {
	bodies := map[string]string{
		"doc://small": "s",
		"doc://mid":   strings.Repeat("m", 3000),
		"doc://big":   strings.Repeat("b", 40<<10),
	}
	rg := &reg{}
	for uri, body := range bodies {
		rg.add(def(uri, strings.TrimPrefix(uri, "doc://")), text(body))
	}
	r := rg.build(t)
	var kept []mcpr.Bundle
	var keptURIs []string
	for _, uri := range []string{"doc://small", "doc://small", "doc://mid", "doc://small", "doc://big", "doc://mid", "doc://mid", "doc://big", "doc://small"} {
		b, err := r.Read(context.Background(), uri, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := parseRead(t, b)
		if len(got.Contents) != 1 || got.Contents[0].Text == nil || *got.Contents[0].Text != bodies[uri] {
			t.Fatalf("%s: wrong result (%d bytes)", uri, len(b.JSON))
		}
		kept = append(kept, b)
		keptURIs = append(keptURIs, uri)
	}
	for _, b := range kept {
		_ = append(b.JSON, "xxxx"...) // into spare capacity: touches no other Bundle
	}
	for i, b := range kept {
		if got := parseRead(t, b); *got.Contents[0].Text != bodies[keptURIs[i]] {
			t.Fatalf("result %d changed after later reads", i)
		}
	}
}
