"""The same hostile requests, sent to the C stdio server (examples/c/
stdio_server.c, on mcpr_message) and to the Go adapter's server
(bindings/go/mcpsdk/example, on mcpsdk.StdioTransport), get byte-identical
answers: every error object and every result object is the same bytes, and
a line one server leaves unanswered the other leaves unanswered too.

The two servers register the same resources where the requests look
(doc://item/NNN, doc://files/{name} and its completer); the requests are the
params-level ones of the Go adapter's own test (bindings/go/mcpsdk/
params_test.go: invalid UTF-8, lone surrogates, repeated members, 256 KiB,
deep nesting, wrong types, per-request revisions, ...) and envelope-level
ones (not JSON, batches, ids MCP does not allow, repeated JSON-RPC members,
responses, notifications). Each line is followed by a ping whose answer
marks the end of the line's answers.

Left out on purpose: results of stateless (2026-07-28) requests, to which
the Go SDK adds its serverInfo under `_meta` (the host's part of the
response: the library's result is the same, as params_test.go checks), and
list results (the two registries differ beyond the items).

Usage: compare_servers.py C_SERVER GO_SERVER. Prints "N passed, M failed"
and exits non-zero on any difference.
"""

import json
import queue
import re
import subprocess
import sys
import threading

C_SERVER, GO_SERVER = sys.argv[1], sys.argv[2]


class Server:
    def __init__(self, path):
        self.path = path
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip(b"\n"))
        self.lines.put(None)

    def send(self, raw):
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def _next(self, timeout):
        line = self.lines.get(timeout=timeout)
        if line is None:
            raise AssertionError(f"{self.path} ended (exit status {self.proc.poll()})")
        return line

    def answers(self, raw, mark):
        """The lines answering `raw`: those before the answer to the ping
        `mark`, and (the Go SDK serves requests concurrently, so a request's
        answer may come after the ping's) the answer carrying raw's own id
        when it had one, waited for up to 5 s."""
        self.send(raw)
        self.send(json.dumps({"jsonrpc": "2.0", "id": mark, "method": "ping"}).encode())
        out = []
        while True:
            line = self._next(30)
            if json.loads(line).get("id") == mark:
                break
            out.append(line)
        want = request_id(raw)
        if want is not None and not any(json.loads(a).get("id") == want for a in out):
            try:
                out.append(self._next(5))
            except queue.Empty:
                pass
        return out

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def request_id(raw):
    """The id of a request line that has a usable one (else None)."""
    try:
        message = json.loads(raw)
    except RecursionError:  # deeper than Python's parser goes: the id leads
        m = re.match(rb'\{"jsonrpc":"2.0","id":([0-9]+),"method":', raw)
        return int(m.group(1)) if m else None
    except ValueError:
        return None
    if not isinstance(message, dict) or "method" not in message:
        return None
    i = message.get("id")
    return i if isinstance(i, (str, int)) and not isinstance(i, bool) else None


def top_level_members(line):
    """The raw bytes of each top-level member of a JSON object line."""
    out, i, depth, start, key, in_string, escaped = {}, 0, 0, None, None, False, False
    key_start = None
    while i < len(line):
        c = line[i : i + 1]
        if in_string:
            if escaped:
                escaped = False
            elif c == b"\\":
                escaped = True
            elif c == b'"':
                in_string = False
                if depth == 1 and key is None and start is None:
                    key = json.loads(line[key_start : i + 1])
        elif c == b'"':
            in_string = True
            if depth == 1 and key is None and start is None:
                key_start = i
        elif c in (b"{", b"["):
            depth += 1
        elif c in (b"}", b"]"):
            if depth == 1 and start is not None:
                out[key], key, start = line[start:i].strip(), None, None
            depth -= 1
        elif c == b":" and depth == 1 and key is not None and start is None:
            start = i + 1
        elif c == b"," and depth == 1 and start is not None:
            out[key], key, start = line[start:i].strip(), None, None
        i += 1
    return out


def requests():
    pad = "x" * (300 * 1024)
    stateless = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
    ref = '"ref":{"type":"ref/resource","uri":"doc://files/{name}"}'
    params_level = [
        ("resources/read", b'{"uri":"doc://item/001"}'),
        ("resources/read", b'{"uri":"doc://files/a.txt"}'),
        ("completion/complete", ("{" + ref + ',"argument":{"name":"name","value":"a"}}').encode()),
        ("resources/read", b'{"uri":"doc://item/\xff"}'),
        ("resources/read", b'{"uri":"doc://item/001","x":"\xc3"}'),
        ("resources/read", b'{"uri":"doc://item/\\ud800"}'),
        ("resources/read", b'{"uri":"doc://item/001","uri":"doc://item/002"}'),
        ("resources/read", b'{"uri":"doc://item/001","_meta":{},"_meta":{}}'),
        ("resources/read", ('{"uri":"doc://item/001","pad":"' + pad + '"}').encode()),
        ("resources/read", ('{"uri":"doc://item/001","x":' + "[" * 1000 + "]" * 1000 + "}").encode()),
        ("resources/read", ('{"uri":"doc://item/001","_meta":{"x":' + "[" * 1000 + "]" * 1000 + "}}").encode()),
        ("resources/read", b'{"uri":5}'),
        ("resources/read", b'{"uri":null}'),
        ("resources/read", b"{}"),
        ("resources/read", b"[]"),
        ("resources/read", b'"doc://item/001"'),
        ("resources/read", b"null"),
        ("resources/read", None),
        ("resources/read", b'{"uri":"doc://item/001","_meta":5}'),
        ("resources/read", b'{"uri":"doc://item/001","_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}'),
        ("resources/read", b'{"uri":"doc://item/001","_meta":{"io.modelcontextprotocol/protocolVersion":5}}'),
        ("resources/read", b'{"uri":"doc://missing/\\u00e9"}'),
        ("resources/read", '{"uri":"doc://missing/é<&>"}'.encode()),
        ("resources/read", ('{"uri":"doc://missing/x",' + stateless + "}").encode()),
        ("resources/read", b'{"uri":"doc://item/\xff",' + stateless.encode() + b"}"),
        ("resources/list", b'{"cursor":5}'),
        ("resources/list", b'{"cursor":"a","cursor":"b"}'),
        ("resources/list", b'{"cursor":"\\udc00"}'),
        ("resources/templates/list", b'{"cursor":"forged"}'),
        ("resources/list", b"[1]"),
        ("resources/list", ('{"pad":"' + pad + '"}').encode()),
        ("completion/complete", ("{" + ref + ',"argument":{"name":"name","value":"a"},"argument":{"name":"name","value":"b"}}').encode()),
        ("completion/complete", b'{"ref":{"type":"ref/resource","uri":5},"argument":{"name":"name","value":""}}'),
        ("completion/complete", b'{"ref":{"type":"ref/nope"},"argument":{"name":"name","value":""}}'),
        ("completion/complete", ("{" + ref + ',"argument":{"name":"name","value":"\\ud800"}}').encode()),
        ("completion/complete", ("{" + ref + ',"argument":{"name":"name","value":"').encode() + b'\xfe"}}'),
        ("completion/complete", ("{" + ref + ',"argument":{"name":"name","value":""},"context":{"arguments":{"a":"1","a":"2"}}}').encode()),
        ("completion/complete", ("{" + ref + ',"argument":{"name":"name","value":""},"pad":"' + pad + '"}').encode()),
        ("completion/complete", ("{" + ref + ',"argument":{"name":"nope","value":""}}').encode()),
        ("completion/complete", None),
    ]
    lines = []
    for n, (method, params) in enumerate(params_level):
        head = b'{"jsonrpc":"2.0","id":' + str(100 + n).encode() + b',"method":"' + method.encode() + b'"'
        lines.append(head + (b',"params":' + params if params is not None else b"") + b"}")
    lines += [
        b"garbage",
        b"\x00",
        b'{"jsonrpc":"2.0",\x00}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping"',
        b"[" * 10001 + b"]" * 10001,
        b"[" * 1000 + b"]" * 1000,
        b'{"a":' * 1000 + b"1" + b"}" * 1000,
        b'{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"doc://item/001","x":' + b"[" * 9998 + b"]" * 9998 + b"}}",
        b'{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"doc://item/001","x":' + b"[" * 9999 + b"]" * 9999 + b"}}",
        b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
        b"[]",
        b"42",
        b'"text"',
        b"null",
        b"{}",
        b"",
        b"   \t",
        b'{"jsonrpc":"1.0","id":7,"method":"ping"}',
        b'{"id":7,"method":"resources/read","params":{"uri":"doc://item/001"}}',
        b'{"jsonrpc":"2.0","id":8,"method":5}',
        b'{"jsonrpc":"2.0","id":{},"method":"ping"}',
        b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":null,"method":"resources/read","params":{"uri":"doc://item/001"}}',
        b'{"jsonrpc":"2.0","id":1.5,"method":"resources/read","params":{"uri":"doc://item/001"}}',
        b'{"jsonrpc":"2.0","id":1e2,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"id":2,"method":"resources/read","params":{"uri":"doc://item/001"}}',
        b'{"jsonrpc":"2.0","id":4,"method":"resources/read","method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"doc://item/001"},"params":{}}',
        b'{"jsonrpc":"2.0","\\u0069d":6,"id":6,"method":"ping"}',
        b'{"jsonrpc":"2.0","result":{}}',
        b'{"jsonrpc":"2.0","id":9,"error":5}',
        b'{"jsonrpc":"2.0","id":10}',
        b'{"jsonrpc":"2.0","id":11,"result":{},"error":{"code":1,"message":"x"}}',
        b'{"jsonrpc":"2.0","id":12,"result":{}}',
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}',
        b'{"jsonrpc":"2.0","method":"resources/read","params":{"uri":"doc://item/001"}}',
        b'{"jsonrpc":"2.0","id":"s\\u0031","method":"resources/read","params":{"uri":"doc://item/001"},"extra":[1,{"y":null}]}',
        b'{"jsonrpc":"2.0","id":13,"method":"resources\\/read","params":{"uri":"doc://item/002"}}',
        b' {"jsonrpc":"2.0","id":14,"method":"resources/read","params":{"uri":"doc://item/003"}} ',
    ]
    return lines


def main():
    c, go = Server(C_SERVER), Server(GO_SERVER)
    passed = failed = 0
    try:
        init = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "compare", "version": "1"}}})
        for s in (c, go):
            s.answers(init.encode(), "init")
            s.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for n, raw in enumerate(requests()):
            mark = f"mark-{n}"
            got_c, got_go = c.answers(raw, mark), go.answers(raw, mark)
            what = repr(raw[:90])
            if len(got_c) != len(got_go):
                failed += 1
                print(f"FAIL {what}: C answered {len(got_c)} lines, Go {len(got_go)}: {got_c[:1]} / {got_go[:1]}")
                continue
            ok = True
            for a, b in zip(got_c, got_go):
                ma, mb = top_level_members(a), top_level_members(b)
                same_id = json.loads(ma.get("id", b"null")) == json.loads(mb.get("id", b"null"))
                key = "error" if "error" in ma else "result"
                if not same_id or key not in mb or ma[key] != mb[key]:
                    ok = False
                    print(f"FAIL {what}:\n  C:  {a[:300]!r}\n  Go: {b[:300]!r}")
            if ok:
                passed += 1
            else:
                failed += 1
    finally:
        c.close()
        go.close()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


main()
