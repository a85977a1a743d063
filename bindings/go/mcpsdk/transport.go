package mcpsdk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineLength is the longest line (one JSON-RPC message) the
// transports read when MaxLineLength is 0: the SDK's own default, 16 MiB.
const DefaultMaxLineLength = mcp.DefaultMaxLineLength

// StdioTransport is the transport of a server with Install on stdin and
// stdout: newline-delimited JSON-RPC messages, like the SDK's
// mcp.StdioTransport, with two differences.
//
//   - Malformed input does not end the session. A line that is not JSON
//     (garbage, a NUL byte, nesting beyond 10,000 levels) is answered with
//     a -32700 parse error, a line that is JSON but not a JSON-RPC message
//     (a batch, another value, a missing or wrong "jsonrpc", method or id
//     member, a line over MaxLineLength) with -32600, both with id null or
//     the message's id; blank lines are ignored; then the next line is
//     read. The SDK's transports end the session (and the README's server
//     with it) on the first such line.
//   - The params of resources/read, resources/list,
//     resources/templates/list and completion/complete requests reach the
//     library exactly as the client sent them (see Install), so a Go server
//     answers them byte for byte as a C server does.
//
// JSON-RPC batches, which MCP dropped in 2025-06-18, are refused with one
// -32600 error.
type StdioTransport struct {
	// MaxLineLength bounds one line (0 = DefaultMaxLineLength, negative =
	// no bound); a longer line is answered -32600 and skipped.
	MaxLineLength int
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	return newLineConn(os.Stdin, os.Stdout, nil, t.MaxLineLength), nil
}

// IOTransport is StdioTransport over any byte streams (a pipe, a socket):
// Reader carries the client's messages, Writer the server's; Close closes
// both.
type IOTransport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// MaxLineLength as in StdioTransport.
	MaxLineLength int
}

// Connect implements mcp.Transport.
func (t *IOTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	return newLineConn(t.Reader, t.Writer, t.Writer, t.MaxLineLength), nil
}

// line is one line read (or the error that ended the stream).
type line struct {
	text    []byte
	tooLong bool
	err     error
}

// lineConn is an mcp.Connection over newline-delimited JSON-RPC.
type lineConn struct {
	in      io.Closer
	out     io.Writer
	outC    io.Closer // nil: stdout stays open
	lines   chan line
	closed  chan struct{}
	once    sync.Once
	writeMu sync.Mutex
}

func newLineConn(in io.ReadCloser, out io.Writer, outC io.Closer, maxLine int) *lineConn {
	if maxLine == 0 {
		maxLine = DefaultMaxLineLength
	}
	c := &lineConn{in: in, out: out, outC: outC, lines: make(chan line), closed: make(chan struct{})}
	// Reads run on a goroutine of their own so that Close unblocks Read
	// (as in the SDK's transport; a read of stdin may outlive Close).
	go c.readLines(bufio.NewReaderSize(in, 64*1024), maxLine)
	return c
}

func (c *lineConn) readLines(r *bufio.Reader, maxLine int) {
	for {
		l := readLine(r, maxLine)
		if len(l.text) > 0 || l.tooLong {
			// The last line may lack its newline: it still counts.
			select {
			case c.lines <- line{text: l.text, tooLong: l.tooLong}:
			case <-c.closed:
				return
			}
		}
		if l.err != nil {
			select {
			case c.lines <- line{err: l.err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readLine reads up to and without the next newline; past maxLine bytes
// (maxLine > 0) it keeps reading to the newline but keeps nothing.
func readLine(r *bufio.Reader, maxLine int) line {
	var l line
	for {
		chunk, err := r.ReadSlice('\n')
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		if !l.tooLong {
			if maxLine > 0 && len(l.text)+len(chunk) > maxLine {
				l.tooLong, l.text = true, nil
			} else {
				l.text = append(l.text, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		l.err = err
		return l
	}
}

// Read returns the next JSON-RPC message, answering malformed lines itself.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l line
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			return nil, l.err
		}
		msg, reply := decodeLine(l.text, l.tooLong)
		if reply != nil {
			if err := c.writeLine(reply); err != nil {
				return nil, err
			}
			continue
		}
		if msg != nil {
			return msg, nil
		}
	}
}

// Write sends one message as one line.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	buf := make([]byte, 0, len(data)+1)
	_, err := c.out.Write(append(append(buf, data...), '\n'))
	return err
}

// Close closes both streams (stdout stays open); idempotent.
func (c *lineConn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		err = c.in.Close()
		if c.outC != nil {
			err = errors.Join(err, c.outC.Close())
		}
	})
	return err
}

// SessionID implements mcp.Connection (stdio sessions have none).
func (c *lineConn) SessionID() string { return "" }

// The answers to malformed lines, with id null (JSON-RPC 2.0 §5.1).
var (
	parseErrorLine     = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
	invalidRequestLine = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`)
)

// invalidRequest is the -32600 answer, with the message's id when it has a
// valid one.
func invalidRequest(id jsonrpc.ID) []byte {
	if !id.IsValid() {
		return invalidRequestLine
	}
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id,
		Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request"}})
	if err != nil {
		return invalidRequestLine
	}
	return data
}

// decodeLine turns one line into a message, or into the answer a malformed
// line gets (both nil: a blank line, ignored).
func decodeLine(text []byte, tooLong bool) (jsonrpc.Message, []byte) {
	if tooLong {
		return nil, invalidRequestLine
	}
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return nil, nil
	}
	if !json.Valid(text) {
		return nil, parseErrorLine
	}
	if text[0] != '{' {
		return nil, invalidRequestLine // a batch, or not an object
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(text, &members) != nil {
		return nil, invalidRequestLine
	}
	var id jsonrpc.ID
	if raw, ok := members["id"]; ok {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return nil, invalidRequestLine
		}
		var err error
		if id, err = jsonrpc.MakeID(v); err != nil {
			return nil, invalidRequestLine
		}
	}
	var version string
	if json.Unmarshal(members["jsonrpc"], &version) != nil || version != "2.0" {
		return nil, invalidRequest(id)
	}
	if rawMethod, ok := members["method"]; ok {
		var method string
		if json.Unmarshal(rawMethod, &method) != nil {
			return nil, invalidRequest(id)
		}
		req := &jsonrpc.Request{ID: id, Method: method, Params: members["params"]}
		keepRawParams(req)
		return req, nil
	}
	if !id.IsValid() {
		return nil, invalidRequestLine
	}
	resp := &jsonrpc.Response{ID: id, Result: members["result"]}
	if raw, ok := members["error"]; ok && !bytes.Equal(raw, []byte("null")) {
		var e jsonrpc.Error
		if json.Unmarshal(raw, &e) != nil {
			return nil, invalidRequest(id)
		}
		resp.Error = &e
	}
	return resp, nil
}
