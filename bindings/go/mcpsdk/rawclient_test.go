package mcpsdk_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawClient speaks newline-delimited JSON-RPC to a server by hand: it
// writes lines byte for byte (hostile ones included) and reads the
// server's lines as sent.
type rawClient struct {
	t      testing.TB
	w      io.WriteCloser
	lines  chan []byte
	nextID int
}

// installed is a new server with a new fixture's registry installed.
func installed(t testing.TB, opts *mcpsdk.Options, serverOpts *mcp.ServerOptions) (*fixture, *mcp.Server) {
	t.Helper()
	fx := newFixture(t)
	server := mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "1"}, serverOpts)
	mcpsdk.Install(server, fx.res, opts)
	return fx, server
}

// rawServer starts server on the package's IOTransport over pipes (the
// transport the README's server runs on stdio) and returns a raw client.
func rawServer(t testing.TB, server *mcp.Server, maxLine int) *rawClient {
	t.Helper()
	return rawOver(t, server, func(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
		return &mcpsdk.IOTransport{Reader: r, Writer: w, MaxLineLength: maxLine}
	})
}

// sdkRawServer is rawServer on the SDK's own mcp.IOTransport.
func sdkRawServer(t testing.TB, server *mcp.Server) *rawClient {
	t.Helper()
	return rawOver(t, server, func(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
		return &mcp.IOTransport{Reader: r, Writer: w}
	})
}

func rawOver(t testing.TB, server *mcp.Server, transport func(io.ReadCloser, io.WriteCloser) mcp.Transport) *rawClient {
	t.Helper()
	cr, cw := io.Pipe() // client -> server
	sr, sw := io.Pipe() // server -> client
	ss, err := server.Connect(context.Background(), transport(cr, sw), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, w: cw, lines: make(chan []byte, 64)}
	go func() {
		r := bufio.NewReaderSize(sr, 1<<20)
		for {
			l, err := r.ReadBytes('\n')
			if len(l) > 0 {
				c.lines <- bytes.TrimSuffix(l, []byte("\n"))
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cw.Close()
		_ = ss.Close()
		_ = sr.Close()
	})
	return c
}

// send writes one line (a newline is added).
func (c *rawClient) send(line []byte) {
	c.t.Helper()
	if _, err := c.w.Write(append(append([]byte{}, line...), '\n')); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// recv reads the server's next line.
func (c *rawClient) recv() []byte {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server closed the connection")
		}
		return l
	case <-time.After(20 * time.Second):
		c.t.Fatal("no answer from the server")
	}
	return nil
}

// call sends a request with the raw params text (nil: no params member)
// and returns the response line.
func (c *rawClient) call(method string, params []byte) []byte {
	c.t.Helper()
	c.nextID++
	line := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q`, c.nextID, method))
	if params != nil {
		line = append(append(line, `,"params":`...), params...)
	}
	c.send(append(line, '}'))
	resp := c.recv()
	if id := member(resp, "id"); string(id) != fmt.Sprint(c.nextID) {
		c.t.Fatalf("response %s answers id %s, want %d", resp, id, c.nextID)
	}
	return resp
}

// initialize runs the handshake on revision.
func (c *rawClient) initialize(revision string) []byte {
	c.t.Helper()
	resp := c.call("initialize", []byte(fmt.Sprintf(
		`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`, revision)))
	if member(resp, "result") == nil {
		c.t.Fatalf("initialize: %s", resp)
	}
	c.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return resp
}

// member is the raw value of a top-level member of a JSON object, exactly
// as its bytes appear (nil when absent).
func member(obj []byte, name string) []byte {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		start := dec.InputOffset()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if tok == name {
			// The value's own bytes (after the colon and any space).
			raw := obj[start:dec.InputOffset()]
			return bytes.TrimLeft(raw, " \t\r\n:")
		}
	}
	return nil
}

// logSink collects what a test logger writes (safe for concurrent use).
type logSink struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newTestLogger is a text logger writing into a new sink.
func newTestLogger() (*slog.Logger, *logSink) {
	sink := &logSink{}
	return slog.New(slog.NewTextHandler(sink, nil)), sink
}
