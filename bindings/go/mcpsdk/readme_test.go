package mcpsdk_test

import (
	"bytes"
	"os"
	"testing"
)

// TestTheREADMEServerIsHello: the server of bindings/go/README.md ("A
// server in 20 lines") is hello/main.go byte for byte, so the code readers
// copy is the code the suites build and feed malformed input.
func TestTheREADMEServerIsHello(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	hello, err := os.ReadFile("hello/main.go")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(readme, []byte("## A server in 20 lines"))
	if i < 0 {
		t.Fatal("the README has no server section")
	}
	rest := readme[i:]
	start := bytes.Index(rest, []byte("```go\n"))
	if start < 0 {
		t.Fatal("the server section has no Go block")
	}
	block := rest[start+len("```go\n"):]
	end := bytes.Index(block, []byte("```\n"))
	if end < 0 || !bytes.Equal(block[:end], hello) {
		t.Fatalf("the README's server differs from hello/main.go")
	}
}
