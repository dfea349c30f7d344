#!/usr/bin/env python3
"""One start of a language server over real JSON-RPC on stdio, timed from the `initialize` request.

Usage: lsp_start.py ROOT FILE -- SERVER_COMMAND...
Prints one JSON line: milliseconds from the `initialize` request to its response, to the first
`textDocument/publishDiagnostics` for FILE, to the first non-empty one, to the server's "scanned N files" log (the
project scan, Maven class path included, is done) and to the first publication after it (the file's complete
diagnostics), with the CPU time the server process had used by then; the scan's own log line (it names where the class path came from); the process start to `initialize`.
The file is opened right after `initialized`, as an editor opening a project with that file does.
"""
import json
import os
import subprocess
import sys
import threading
import time


def cpu_ms(pid):
    """CPU time (user + system) the process used so far, JIT and GC threads included: the work behind the wall time."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return round((int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK"))
    except OSError:
        return None


def main():
    root, file = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    command = sys.argv[sys.argv.index("--") + 1:]
    spawned = time.monotonic()
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None if os.environ.get("LSP_STDERR") else subprocess.DEVNULL)
    root_uri, file_uri = "file://" + root, "file://" + file
    marks = {}
    done = threading.Event()
    scan_line = []

    def send(message):
        body = json.dumps(message).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    def since_initialize():
        return round((time.monotonic() - marks["initialize"]) * 1000, 1)

    def read():
        out = server.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(out.read(length))
            method = message.get("method")
            if message.get("id") == 1 and "result" in message:
                marks["initialized"] = since_initialize()
                send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
                with open(file, encoding="utf-8") as f:
                    text = f.read()
                send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": file_uri, "languageId": "java", "version": 1, "text": text}}})
            elif "id" in message and method is not None:
                # a request from the server (configuration, capability registration): answer it empty
                send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif method == "window/logMessage" and "scanned" in message["params"]["message"] \
                    and "scanned" not in marks:
                marks["scanned"] = since_initialize()
                scan_line.append(message["params"]["message"])
            elif method == "textDocument/publishDiagnostics" and message["params"]["uri"] == file_uri:
                count = len(message["params"]["diagnostics"])
                marks.setdefault("firstDiagnostics", since_initialize())
                if count > 0:
                    marks.setdefault("firstNonEmpty", since_initialize())
                if "scanned" in marks and "complete" not in marks:
                    marks["complete"] = since_initialize()
                    marks["completeCount"] = count
                    marks["serverCpuMs"] = cpu_ms(server.pid)
                    done.set()

    reader = threading.Thread(target=read, daemon=True)
    marks["initialize"] = time.monotonic()
    marks["spawnToInitialize"] = round((marks["initialize"] - spawned) * 1000, 1)
    reader.start()
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": root_uri, "capabilities": {},
        "initializationOptions": {"racetriage": dict({"startDaemon": False}, **json.loads(os.environ.get("LSP_SETTINGS", "{}")))}}})
    finished = done.wait(120)
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    time.sleep(0.2)
    send({"jsonrpc": "2.0", "method": "exit", "params": None})
    try:
        server.wait(float(os.environ.get("LSP_EXIT_WAIT", "10")))
    except subprocess.TimeoutExpired:
        server.kill()
    del marks["initialize"]
    marks["timedOut"] = not finished
    marks["scanLog"] = scan_line[0] if scan_line else None
    print(json.dumps(marks))


if __name__ == "__main__":
    main()
