package mcpresources_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

func fields(t *testing.T, raw []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return m
}

func TestResultsCarryResultTypeAndCacheHintsOnlyFrom2026(t *testing.T) {
	r := manyResources(t, 3, nil)
	for _, tc := range []struct {
		rev  string
		want bool
	}{{"2024-11-05", false}, {"2025-03-26", false}, {"2025-06-18", false}, {"2025-11-25", false}, {"2026-07-28", true}, {"", true}} {
		b, err := r.Read(context.Background(), "doc://item/0001", &mcpr.ReadOptions{Revision: tc.rev})
		if err != nil {
			t.Fatal(err)
		}
		p, err := r.List(context.Background(), "s", "", &mcpr.ListOptions{Revision: tc.rev})
		if err != nil {
			t.Fatal(err)
		}
		tp, err := r.ListTemplates(context.Background(), "s", "", &mcpr.ListOptions{Revision: tc.rev})
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range [][]byte{b.JSON, p.JSON, tp.JSON} {
			m := fields(t, raw)
			for _, k := range []string{"resultType", "ttlMs", "cacheScope"} {
				if _, has := m[k]; has != tc.want {
					t.Fatalf("revision %q: %s present=%v in %s", tc.rev, k, has, raw)
				}
			}
			if tc.want && (string(m["resultType"]) != `"complete"` || string(m["ttlMs"]) != "0" || string(m["cacheScope"]) != `"private"`) {
				t.Fatalf("revision %q: default hints in %s", tc.rev, raw)
			}
		}
	}
}

func TestUnknownRevisionIsInvalidArgument(t *testing.T) {
	r := manyResources(t, 1, nil)
	_, err := r.Read(context.Background(), "doc://item/0000", &mcpr.ReadOptions{Revision: "1999-01-01"})
	asError(t, err, mcpr.StatusInvalidArgument)
	_, err = r.List(context.Background(), "s", "", &mcpr.ListOptions{Revision: "2026-07-29"})
	asError(t, err, mcpr.StatusInvalidArgument)
	_, err = r.Read(context.Background(), "doc://item/0000", &mcpr.ReadOptions{Revision: "2024-10-07"})
	asError(t, err, mcpr.StatusInvalidArgument)
}

func TestNotFoundErrorObjectFollowsTheRevision(t *testing.T) {
	r := manyResources(t, 1, nil)
	for rev, code := range map[string]int{"2024-11-05": -32002, "2025-03-26": -32002, "2025-11-25": -32002, "2025-06-18": -32002, "2026-07-28": -32602} {
		_, err := r.Read(context.Background(), "doc://missing", &mcpr.ReadOptions{Revision: rev})
		e := asError(t, err, mcpr.StatusUnavailable)
		var obj struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Data    struct {
				URI string `json:"uri"`
			} `json:"data"`
		}
		if err := json.Unmarshal(e.JSONRPC, &obj); err != nil {
			t.Fatalf("%s: %s", rev, e.JSONRPC)
		}
		if e.Code != code || obj.Code != code || obj.Message == "" || obj.Data.URI != "doc://missing" {
			t.Fatalf("%s: code %d, object %s", rev, e.Code, e.JSONRPC)
		}
	}
}

func TestRequestServesTheThreeMethodsInOneCall(t *testing.T) {
	r := manyResources(t, 3, nil)
	ctx := context.Background()
	resp, err := r.Request(ctx, "resources/read", []byte(`{"uri":"doc://item/0002"}`), &mcpr.RequestOptions{Revision: "2025-11-25"})
	if err != nil || resp.IsError || resp.Status != mcpr.StatusOK {
		t.Fatalf("read: %v %+v", err, resp)
	}
	if got := parseRead(t, mcpr.Bundle{JSON: resp.JSON}); *got.Contents[0].Text != "body 2" {
		t.Fatalf("read result %s", resp.JSON)
	}
	resp, err = r.Request(ctx, "resources/list", nil, &mcpr.RequestOptions{ScopeKey: "s", PageSize: 2})
	if err != nil || resp.IsError {
		t.Fatalf("list: %v %s", err, resp.JSON)
	}
	if got := parseList(t, mcpr.Page{JSON: resp.JSON}); len(got.Resources) != 2 || got.NextCursor == "" {
		t.Fatalf("list result %s", resp.JSON)
	}
	resp, err = r.Request(ctx, "resources/templates/list", []byte(`{}`), &mcpr.RequestOptions{ScopeKey: "s"})
	if err != nil || resp.IsError || len(parseList(t, mcpr.Page{JSON: resp.JSON}).ResourceTemplates) != 2 {
		t.Fatalf("templates: %v %s", err, resp.JSON)
	}
}

func TestRequestMistakesAreErrorResponses(t *testing.T) {
	r := manyResources(t, 1, nil)
	ctx := context.Background()
	for _, tc := range []struct {
		method, params string
		status         mcpr.Status
		code           string
	}{
		{"resources/read", `{"uri":5}`, mcpr.StatusInvalidRequest, "-32602"},
		{"resources/read", `not json`, mcpr.StatusInvalidRequest, "-32602"},
		{"resources/read", `{"uri":"doc://missing"}`, mcpr.StatusUnavailable, "-32602"},
		{"resources/list", `{"cursor":"forged"}`, mcpr.StatusInvalidRequest, "-32602"},
	} {
		resp, err := r.Request(ctx, tc.method, []byte(tc.params), &mcpr.RequestOptions{ScopeKey: "s", Revision: "2026-07-28"})
		if err != nil || !resp.IsError || resp.Status != tc.status || string(fields(t, resp.JSON)["code"]) != tc.code {
			t.Fatalf("%s %s: %v %+v %s", tc.method, tc.params, err, resp, resp.JSON)
		}
	}
	// The per-request revision wins over the option.
	resp, err := r.Request(ctx, "resources/read",
		[]byte(`{"uri":"doc://missing","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}`),
		&mcpr.RequestOptions{Revision: "2026-07-28"})
	if err != nil || string(fields(t, resp.JSON)["code"]) != "-32002" {
		t.Fatalf("per-request revision: %v %s", err, resp.JSON)
	}
	// No response at all: another method, or a list without a scope key.
	_, err = r.Request(ctx, "tools/list", nil, nil)
	if !errors.Is(err, mcpr.ErrMethodNotHandled) {
		t.Fatalf("tools/list: %v", err)
	}
	_, err = r.Request(ctx, "resources/list", nil, nil)
	asError(t, err, mcpr.StatusInvalidArgument)
}

func TestRequestDeadlineIsDeadlineExceeded(t *testing.T) {
	r := (&reg{}).add(def("doc://hang", "hang"), hang(nil)).build(t)
	for i := 0; i < 10; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+i%4)*time.Millisecond)
		resp, err := r.Request(ctx, "resources/read", []byte(`{"uri":"doc://hang"}`), nil)
		cancel()
		if err != nil || !resp.IsError || resp.Status != mcpr.StatusDeadlineExceeded {
			t.Fatalf("%v %+v %s", err, resp, resp.JSON)
		}
	}
}

func TestOwnErrorObjectsEqualTheLibrarys(t *testing.T) {
	r := (&reg{limits: mcpr.Limits{ReadTimeout: 20 * time.Millisecond}}).add(def("doc://hang", "hang"), hang(nil)).build(t)
	_, err := r.Read(context.Background(), "doc://hang", nil)
	lib := asError(t, err, mcpr.StatusDeadlineExceeded)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err = r.Read(ctx, "doc://hang", nil)
	own := asError(t, err, mcpr.StatusDeadlineExceeded)
	if string(lib.JSONRPC) != string(own.JSONRPC) {
		t.Fatalf("library %s, binding %s", lib.JSONRPC, own.JSONRPC)
	}
}

func TestCacheHintsShapeTTLAndScope(t *testing.T) {
	b := mcpr.NewBuilder()
	defer b.Close()
	_ = b.SetPolicy(mcpr.AllowAll)
	if err := b.SetCacheHints(time.Minute, true); err != nil {
		t.Fatal(err)
	}
	if err := b.AddWithHints(def("doc://pub", "pub"), text("p"), mcpr.CacheHints{TTL: 10 * time.Second, CallerIndependent: true}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddWithHints(def("doc://lowered", "lowered"), mcpr.ReadFunc(func(ctx context.Context, tg mcpr.Target, out *mcpr.Payload) error {
		if err := out.SetCacheHints(mcpr.CacheHints{TTL: time.Second}); err != nil {
			return err
		}
		return out.SetText("text/plain", "l")
	}), mcpr.CacheHints{TTL: 10 * time.Second, CallerIndependent: true}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddWithHints(def("doc://bad", "bad"), text("b"), mcpr.CacheHints{TTL: -time.Second}); err == nil {
		t.Fatal("negative TTL accepted")
	}
	r, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for uri, want := range map[string][2]string{"doc://pub": {"10000", `"public"`}, "doc://lowered": {"1000", `"private"`}} {
		bd, err := r.Read(context.Background(), uri, &mcpr.ReadOptions{Revision: "2026-07-28"})
		if err != nil {
			t.Fatal(err)
		}
		m := fields(t, bd.JSON)
		if string(m["ttlMs"]) != want[0] || string(m["cacheScope"]) != want[1] {
			t.Fatalf("%s: %s", uri, bd.JSON)
		}
	}
}

// TestOlderRevisionsLeaveOutWhatTheyDoNotDefine: before 2025-06-18 content
// items carry no _meta and descriptions no title, icons, _meta or
// annotations.lastModified; 2025-06-18 lists no icons.
func TestOlderRevisionsLeaveOutWhatTheyDoNotDefine(t *testing.T) {
	full := []byte(`{"uri":"doc://m","name":"m","title":"M","annotations":{"priority":1,"lastModified":"2025-01-12T15:00:58Z"},"icons":[{"src":"https://example.com/i.png"}],"_meta":{"k":1}}`)
	r := (&reg{}).add(full, mcpr.ReadFunc(func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
		if err := out.SetText("text/plain", "m"); err != nil {
			return err
		}
		return out.SetMeta([]byte(`{"com.example/lang":"en"}`))
	})).build(t)
	defer r.Close()
	for _, tc := range []struct {
		rev                        string
		itemMeta, title, icons, lm bool
	}{
		{"2024-11-05", false, false, false, false},
		{"2025-03-26", false, false, false, false},
		{"2025-06-18", true, true, false, true},
		{"2025-11-25", true, true, true, true},
		{"2026-07-28", true, true, true, true},
	} {
		b, err := r.Read(context.Background(), "doc://m", &mcpr.ReadOptions{Revision: tc.rev})
		if err != nil {
			t.Fatal(err)
		}
		var read struct {
			Contents []map[string]json.RawMessage `json:"contents"`
		}
		if err := json.Unmarshal(b.JSON, &read); err != nil || len(read.Contents) != 1 {
			t.Fatalf("%s: %s", tc.rev, b.JSON)
		}
		if _, has := read.Contents[0]["_meta"]; has != tc.itemMeta {
			t.Fatalf("%s: content _meta present=%v: %s", tc.rev, has, b.JSON)
		}
		p, err := r.List(context.Background(), "s", "", &mcpr.ListOptions{Revision: tc.rev})
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Resources []map[string]json.RawMessage `json:"resources"`
		}
		if err := json.Unmarshal(p.JSON, &page); err != nil || len(page.Resources) != 1 {
			t.Fatalf("%s: %s", tc.rev, p.JSON)
		}
		d := page.Resources[0]
		_, title := d["title"]
		_, icons := d["icons"]
		_, meta := d["_meta"]
		var ann map[string]json.RawMessage
		_ = json.Unmarshal(d["annotations"], &ann)
		_, lm := ann["lastModified"]
		if title != tc.title || icons != tc.icons || meta != tc.title || lm != tc.lm || string(ann["priority"]) != "1" {
			t.Fatalf("%s: listed %s", tc.rev, p.JSON)
		}
	}
}

// TestDefinitionMembersAreCheckedByAdd: Add refuses invalid standard
// members with StatusInvalidConfiguration and a message naming the member.
func TestDefinitionMembersAreCheckedByAdd(t *testing.T) {
	for def, member := range map[string]string{
		`{"uriTemplate":"doc://t/{id}","name":"t","size":3}`:                        "size",
		`{"uri":"doc://a","name":"a","annotations":{"priority":-1}}`:                "annotations.priority",
		`{"uri":"doc://a","name":"a","annotations":{"audience":["system"]}}`:        "annotations.audience",
		`{"uri":"doc://a","name":"a","annotations":{"lastModified":"12 Jan 2025"}}`: "annotations.lastModified",
		`{"uri":"doc://a","name":"a","icons":[{"src":"icon.png"}]}`:                 "icons[].src",
	} {
		b := mcpr.NewBuilder()
		err := b.Add([]byte(def), text("x"))
		b.Close()
		e := asError(t, err, mcpr.StatusInvalidConfiguration)
		if !strings.Contains(e.Message, member) {
			t.Fatalf("%s: message %q does not name %s", def, e.Message, member)
		}
	}
}
