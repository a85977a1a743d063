module github.com/mcp-resources/mcp-resources/bindings/go

go 1.24
