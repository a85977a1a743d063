//go:build !mcpr_dynamic && !mcpr_nopkgconfig

package mcpresources

// Default linking: the static library through pkg-config's
// mcp_resources_static module (installed by `cmake --install`), so a Go
// binary needs no shared library at run time. Set PKG_CONFIG_PATH to the
// absolute <prefix>/lib/pkgconfig when the prefix is not a system one.

// #cgo pkg-config: mcp_resources_static
import "C"
