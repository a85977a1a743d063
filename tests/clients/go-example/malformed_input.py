"""End-to-end check that a Go server on mcpsdk.StdioTransport survives
malformed stdio input: it feeds the server binary lines that are not
JSON-RPC messages (garbage, a NUL byte, nesting of 1,000 and of 10,001
levels, a batch, a bare value), before and after initialize, asserts the
JSON-RPC answer each gets (-32700 for what is not JSON, -32600 for JSON that
is no JSON-RPC message, id null), and after each one that the server still
answers a valid request correctly.

Usage: malformed_input.py SERVER_BINARY URI TEXT
       (URI is a resource the server serves with the text body TEXT)

Exits non-zero on the first failure (the server exiting is one).
"""

import json
import queue
import subprocess
import sys
import threading

SERVER, URI, TEXT = sys.argv[1], sys.argv[2], sys.argv[3]

PARSE_ERROR = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
INVALID_REQUEST = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}

MALFORMED = [
    (b"garbage", PARSE_ERROR),
    (b"\x00", PARSE_ERROR),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping"', PARSE_ERROR),
    (b"[" * 10001 + b"]" * 10001, PARSE_ERROR),
    (b"[" * 1000 + b"]" * 1000, INVALID_REQUEST),
    (b'{"a":' * 1000 + b"1" + b"}" * 1000, INVALID_REQUEST),
    (b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', INVALID_REQUEST),
    (b"42", INVALID_REQUEST),
    (b"", None),  # a blank line: ignored
]


def check(cond, what):
    if not cond:
        raise AssertionError(f"[malformed input {SERVER}] {what}")


proc = subprocess.Popen([SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
lines = queue.Queue()


def pump():
    for line in proc.stdout:
        lines.put(line)
    lines.put(None)


threading.Thread(target=pump, daemon=True).start()


def send(raw):
    proc.stdin.write(raw + b"\n")
    proc.stdin.flush()


def recv(what):
    try:
        line = lines.get(timeout=30)
    except queue.Empty:
        raise AssertionError(f"[malformed input {SERVER}] {what}: no answer")
    check(line is not None, f"{what}: the server ended (exit status {proc.poll()})")
    return json.loads(line)


next_id = 0


def call(method, params, what):
    global next_id
    next_id += 1
    send(json.dumps({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}).encode())
    resp = recv(what)
    check(resp.get("id") == next_id, f"{what}: answer {resp}")
    return resp


def feed_malformed(stage):
    for raw, answer in MALFORMED:
        send(raw)
        if answer is not None:
            got = recv(f"{stage}: {raw[:20]!r}")
            check(got == answer, f"{stage}: {raw[:20]!r} answered {got}, want {answer}")


def read_ok(stage):
    resp = call("resources/read", {"uri": URI}, f"{stage}: read")
    contents = resp.get("result", {}).get("contents", [])
    check(len(contents) == 1 and contents[0].get("text") == TEXT, f"{stage}: read {resp}")


try:
    feed_malformed("before initialize")
    init = call(
        "initialize",
        {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "malformed", "version": "1"}},
        "initialize",
    )
    check(init.get("result", {}).get("protocolVersion") == "2025-11-25", f"initialize {init}")
    send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    read_ok("after initialize")
    for raw, answer in MALFORMED:
        send(raw)
        if answer is not None:
            got = recv(f"in session: {raw[:20]!r}")
            check(got == answer, f"in session: {raw[:20]!r} answered {got}, want {answer}")
        read_ok(f"after {raw[:20]!r}")
    check(proc.poll() is None, "the server exited")
finally:
    proc.stdin.close()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
print(f"malformed input, {SERVER.rsplit('/', 1)[-1]}: all checks passed")
