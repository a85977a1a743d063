package main

// The subscription end-to-end tests (tests/clients/go-example/*_subscriptions.*)
// run the example with flags:
//
//	example -control -tenant alpha [-listen SOCKET] [-transcript FILE]
//	example -join SOCKET -tenant beta
//
// The first serves its stdio session as tenant alpha and, with -listen,
// more sessions on a Unix socket: each connection starts with one line
// naming its tenant. The second is a relay: it connects to SOCKET, names
// its tenant, and copies its stdin and stdout to and from the socket, so
// that a second official client, started over stdio like the first, is a
// second session of the same server. -transcript writes every message
// the server sends (tenant, tab, the JSON line) for schema validation.
//
// A tenant discovers the shared catalogue and doc://tenant/<itself>/...
// only. The tools (the host's, next to the library's resources):
//
//	touch {uri}              the resource changed (Adapter.ResourceUpdated)
//	revoke {tenant, uri}     that tenant may no longer read uri
//	                         (Adapter.PermissionsChanged)
//	reload {tenant, name}    a new registry with doc://tenant/<tenant>/<name>
//	                         (Adapter.Reload)

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	mcpr "github.com/mcp-resources/mcp-resources/bindings/go"
	"github.com/mcp-resources/mcp-resources/bindings/go/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type tenantKey struct{}

// control is the tenants' state: who each session is, what was revoked,
// which tenant definitions exist.
type control struct {
	mu       sync.Mutex
	sessions map[*mcp.ServerSession]string
	revoked  map[string]bool // tenant + " " + uri
	extra    []string
	adapter  *mcpsdk.Adapter
	fallback string // the stdio session's tenant
}

func tenantOf(ctx context.Context) string { t, _ := ctx.Value(tenantKey{}).(string); return t }

// policy adds the tenants' rules to the example's policy.
func (c *control) policy(base mcpr.PolicyFuncs) mcpr.PolicyFuncs {
	discover := base.DiscoverFunc
	base.DiscoverFunc = func(ctx context.Context, d mcpr.Definition) error {
		if rest, ok := strings.CutPrefix(d.URI(), "doc://tenant/"); ok && !strings.HasPrefix(rest, tenantOf(ctx)+"/") {
			return mcpr.ErrUnavailable
		}
		return discover(ctx, d)
	}
	base.ReadFunc = func(ctx context.Context, t mcpr.Target) error {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.revoked[tenantOf(ctx)+" "+t.URI()] {
			return mcpr.ErrUnavailable
		}
		return nil
	}
	return base
}

func (c *control) definitions() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.extra...)
}

// middleware names each request's tenant in its context (the host's own
// authentication would, in a real server). It waits for connect to have
// recorded a new session (the same lock).
func (c *control) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		c.mu.Lock()
		tenant, ok := c.sessions[ss]
		c.mu.Unlock()
		if !ok {
			tenant = c.fallback
		}
		return next(context.WithValue(ctx, tenantKey{}, tenant), method, req)
	}
}

func (c *control) connect(server *mcp.Server, t mcp.Transport, tenant string) (*mcp.ServerSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ss, err := server.Connect(context.Background(), t, nil)
	if err == nil {
		c.sessions[ss] = tenant
	}
	return ss, err
}

type touchArgs struct {
	URI string `json:"uri"`
}

type revokeArgs struct {
	Tenant string `json:"tenant"`
	URI    string `json:"uri"`
}

type reloadArgs struct {
	Tenant string `json:"tenant"`
	Name   string `json:"name"`
}

func done(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func (c *control) tools(server *mcp.Server) {
	mcp.AddTool(server, &mcp.Tool{Name: "touch", Description: "the resource changed"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in touchArgs) (*mcp.CallToolResult, any, error) {
			return done("touched"), nil, c.adapter.ResourceUpdated(ctx, in.URI)
		})
	mcp.AddTool(server, &mcp.Tool{Name: "revoke", Description: "a tenant may no longer read a resource"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in revokeArgs) (*mcp.CallToolResult, any, error) {
			err := c.adapter.PermissionsChanged(ctx, func() {
				c.mu.Lock()
				c.revoked[in.Tenant+" "+in.URI] = true
				c.mu.Unlock()
			})
			return done("revoked"), nil, err
		})
	mcp.AddTool(server, &mcp.Tool{Name: "reload", Description: "a tenant's new definition"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in reloadArgs) (*mcp.CallToolResult, any, error) {
			c.mu.Lock()
			c.extra = append(c.extra, "doc://tenant/"+in.Tenant+"/"+in.Name)
			c.mu.Unlock()
			res, err := buildWith(c)
			if err != nil {
				return nil, nil, err
			}
			old, err := c.adapter.Reload(ctx, res)
			old.Close()
			return done("reloaded"), nil, err
		})
}

// transcript writes every line the server sends, with its tenant.
type transcript struct {
	mu sync.Mutex
	f  *os.File
}

type recorded struct {
	w      io.WriteCloser
	tenant string
	t      *transcript
}

func (r recorded) Write(p []byte) (int, error) {
	if r.t != nil {
		r.t.mu.Lock()
		for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
			fmt.Fprintf(r.t.f, "%s\t%s\n", r.tenant, line)
		}
		r.t.mu.Unlock()
	}
	return r.w.Write(p)
}

func (r recorded) Close() error { return r.w.Close() }

func runControlled(args []string) {
	fs := flag.NewFlagSet("example", flag.ExitOnError)
	controlled := fs.Bool("control", false, "tenants, notifications and the control tools")
	tenant := fs.String("tenant", "alpha", "the tenant of the stdio session")
	listen := fs.String("listen", "", "serve more sessions on this Unix socket")
	join := fs.String("join", "", "relay stdio to the server listening on this Unix socket")
	transcriptPath := fs.String("transcript", "", "write every message sent to this file")
	_ = fs.Parse(args)
	if *join != "" {
		relay(*join, *tenant)
		return
	}
	if !*controlled {
		log.Fatal("example: -control or -join")
	}
	c := &control{sessions: map[*mcp.ServerSession]string{}, revoked: map[string]bool{}, fallback: *tenant}
	res, err := buildWith(c)
	if err != nil {
		log.Fatal(err)
	}
	var tr *transcript
	if *transcriptPath != "" {
		f, err := os.Create(*transcriptPath)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		tr = &transcript{f: f}
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "mcp-resources-example", Version: mcpr.Version()}, nil)
	c.adapter = mcpsdk.Install(server, res, nil)
	server.AddReceivingMiddleware(c.middleware)
	c.tools(server)
	if *listen != "" {
		go c.accept(server, *listen, tr)
	}
	ss, err := c.connect(server, &mcpsdk.IOTransport{Reader: os.Stdin, Writer: recorded{w: os.Stdout, tenant: *tenant, t: tr}}, *tenant)
	if err != nil {
		log.Fatal(err)
	}
	_ = ss.Wait()
}

// accept serves each connection to the socket as a session of the tenant
// its first line names.
func (c *control) accept(server *mcp.Server, path string, tr *transcript) {
	// A socket left by an earlier process (a client may start the server
	// once to probe it) is replaced.
	_ = os.Remove(path)
	l, err := net.Listen("unix", path)
	if err != nil {
		log.Fatal(err)
	}
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			r := bufio.NewReader(conn)
			tenant, err := r.ReadString('\n')
			if err != nil {
				conn.Close()
				return
			}
			tenant = strings.TrimSpace(tenant)
			t := &mcpsdk.IOTransport{Reader: io.NopCloser(r), Writer: recorded{w: conn, tenant: tenant, t: tr}}
			if _, err := c.connect(server, t, tenant); err != nil {
				conn.Close()
			}
		}()
	}
}

// relay copies stdio to and from the socket of a -listen server.
func relay(path, tenant string) {
	var conn net.Conn
	var err error
	for i := 0; i < 100; i++ {
		if conn, err = net.Dial("unix", path); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		log.Fatal(err)
	}
	if _, err := fmt.Fprintf(conn, "%s\n", tenant); err != nil {
		log.Fatal(err)
	}
	go func() {
		_, _ = io.Copy(conn, os.Stdin)
		if uc, ok := conn.(*net.UnixConn); ok {
			_ = uc.CloseWrite()
		}
	}()
	_, _ = io.Copy(os.Stdout, conn)
}
