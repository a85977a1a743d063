//go:build linux && mcpr_dynamic

package mcpresources_test

import (
	"os"
	"strings"
	"testing"
)

// TestLinkedDynamicallyWithTheTag: with -tags mcpr_dynamic the shared
// library is loaded (found through the rpath the build gave).
func TestLinkedDynamicallyWithTheTag(t *testing.T) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps")
	}
	if !strings.Contains(string(maps), "libmcp_resources.so") {
		t.Fatal("the shared library is not loaded under mcpr_dynamic")
	}
}
