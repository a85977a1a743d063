package main

import (
	"context"
	"log"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	b := mcpr.NewBuilder()
	b.SetPolicy(mcpr.AllowAll)
	b.Add([]byte(`{"uri":"doc://hello","name":"hello"}`), mcpr.ReadFunc(
		func(ctx context.Context, t mcpr.Target, out *mcpr.Payload) error {
			return out.SetText("text/plain", "hello")
		}))
	res, err := b.Build()
	if err != nil {
		log.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "hello", Version: "1.0.0"}, nil)
	mcpsdk.Install(server, res, nil)
	log.Fatal(server.Run(context.Background(), &mcpsdk.StdioTransport{}))
}
