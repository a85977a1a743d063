//go:build mcpr_dynamic && !mcpr_nopkgconfig

package mcpresources

// With -tags mcpr_dynamic: the shared library through pkg-config's
// mcp_resources module. The loader must find libmcp_resources.so.0.1 at run
// time: add an rpath (CGO_LDFLAGS=-Wl,-rpath,<prefix>/lib) or set
// LD_LIBRARY_PATH (which MCP clients starting a server with a bare
// environment do not pass on).

// #cgo pkg-config: mcp_resources
import "C"
