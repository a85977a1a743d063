//go:build linux && !mcpr_dynamic

package mcpresources_test

import (
	"os"
	"strings"
	"testing"
)

// TestLinkedStaticallyByDefault: without the mcpr_dynamic tag the test
// binary must not load the shared library.
func TestLinkedStaticallyByDefault(t *testing.T) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps")
	}
	if strings.Contains(string(maps), "libmcp_resources.so") {
		t.Fatal("the shared library is loaded: the default link is not static")
	}
}
