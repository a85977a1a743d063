package mcpsdk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"regexp"
	"strconv"
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
//     member, a repeated JSON-RPC member, an id that is null or no
//     integer, a response without exactly one of result and error, a line
//     over MaxLineLength) with -32600, both with id null or the message's
//     id, as the library's mcpr_message answers them; blank lines are
//     ignored; then the next line is read. The SDK's transports end the
//     session (and the README's server with it) on the first such line.
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
	members, ok := envelopeMembers(text)
	if !ok {
		return nil, invalidRequestLine
	}
	var id jsonrpc.ID
	if raw, ok := members["id"]; ok {
		var err error
		if id, err = requestID(raw); err != nil {
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
	// A response has exactly one of result and error, an object.
	result, hasResult := members["result"]
	rawError, hasError := members["error"]
	if hasResult == hasError || (hasError && rawError[0] != '{') {
		return nil, invalidRequest(id)
	}
	resp := &jsonrpc.Response{ID: id, Result: result}
	if hasError {
		var e jsonrpc.Error
		if json.Unmarshal(rawError, &e) != nil {
			return nil, invalidRequest(id)
		}
		resp.Error = &e
	}
	return resp, nil
}

// envelopeMembers returns the members JSON-RPC defines of a JSON object
// (jsonrpc, id, method, params, result, error: other members are
// ignored), or false when one of them is repeated: which one would count
// is not defined, and the library's mcpr_message refuses such a message
// too (-32600, id null).
func envelopeMembers(obj []byte) (map[string]json.RawMessage, bool) {
	members := make(map[string]json.RawMessage, 4)
	repeated := false
	err := eachMember(obj, func(key string, start, end int) bool {
		switch key {
		case "jsonrpc", "id", "method", "params", "result", "error":
			if _, seen := members[key]; seen {
				repeated = true
				return false
			}
			members[key] = json.RawMessage(obj[start:end])
		}
		return true
	})
	return members, err == nil && !repeated
}

// integerID is the number form an MCP request id takes: an integer without
// fraction or exponent.
var integerID = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// maxExactID is the largest integer id the SDK holds exactly (it makes
// numeric ids through float64).
const maxExactID = 1 << 53

// requestID is the id of a message: a string, or an integer the SDK holds
// exactly. Null (which MCP forbids), a fraction, an exponent, an integer
// beyond 2^53 and any other value are errors (-32600, id null: the SDK
// would otherwise take a null id for a notification, 1.5 for 1 and a long
// integer for another). The library's mcpr_message keeps integer ids of
// any length, byte for byte.
func requestID(raw []byte) (jsonrpc.ID, error) {
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonrpc.ID{}, err
		}
		return jsonrpc.MakeID(s)
	}
	if !integerID.Match(raw) {
		return jsonrpc.ID{}, errors.New("an id is a string or an integer")
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n > maxExactID || n < -maxExactID {
		return jsonrpc.ID{}, errors.New("an integer id beyond 2^53")
	}
	return jsonrpc.MakeID(float64(n))
}
