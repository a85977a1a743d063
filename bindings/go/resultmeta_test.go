package mcpresources_test

import (
	"strings"
	"testing"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
)

// TestResultMetaIsValidatedOnce: NewResultMeta keeps a JSON object's
// compact members and refuses what breaks the definition discipline or
// uses the library's reserved key.
func TestResultMetaIsValidatedOnce(t *testing.T) {
	m, err := mcpr.NewResultMeta([]byte(` {"io.modelcontextprotocol/serverInfo": {"name":"s","version":"1"}} `))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Members(); got != `"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}` {
		t.Fatalf("members %q", got)
	}
	m.Close()
	m.Close()
	if m.Members() != "" {
		t.Fatal("a closed ResultMeta still answers")
	}
	for json, why := range map[string]string{
		`[]`:            "object",
		`{"a":1,"a":2}`: "repeats",
		`{"go.phpboyscout.uk/mcp.resourceRead":{}}`:      "reserved",
		`{"x":{"go.phpboyscout.uk/mcp.resourceRead":1}}`: "reserved",
		`{"a":1e999}`: "JSON",
		`{"a":"` + strings.Repeat("x", 63*1024) + `"}`: "63 KiB",
	} {
		_, err := mcpr.NewResultMeta([]byte(json))
		e := asError(t, err, mcpr.StatusInvalidConfiguration)
		if !strings.Contains(e.Message, why) {
			t.Fatalf("%.60s: message %q, want %q", json, e.Message, why)
		}
	}
}
