"""A loopback HTTP server that misbehaves on purpose: drips, stalls, floods, or asks for long waits.

Each connection is served by `behaviour(handler)`, which writes whatever it likes to the socket.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Behaviour = Callable[[BaseHTTPRequestHandler], None]


class _Handler(BaseHTTPRequestHandler):
    behaviour: Behaviour
    seen: list[bytes]

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", "0"))
        self.seen.append(self.rfile.read(length))
        with contextlib.suppress(OSError):  # the client went away: that is what these tests provoke
            self.behaviour(self)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def misbehaving(behaviour: Behaviour) -> Iterator[tuple[str, list[bytes]]]:
    """A started server and what it received: (base URL, bodies)."""
    seen: list[bytes] = []
    handler = type("Handler", (_Handler,), {"behaviour": staticmethod(behaviour), "seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.block_on_close = False  # a stalled handler must not hold the test
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


OK_BODY = b'{"success": true, "trackingid": "T1"}'


def drip(seconds_per_byte: float) -> Behaviour:
    """A success answer whose body arrives one byte at a time."""

    def behave(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(OK_BODY)))
        h.end_headers()
        for byte in OK_BODY:
            h.wfile.write(bytes([byte]))
            h.wfile.flush()
            time.sleep(seconds_per_byte)

    return behave


def answer(status: int, body: bytes, **headers: str) -> Behaviour:
    def behave(h: BaseHTTPRequestHandler) -> None:
        h.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            h.send_header(name.replace("_", "-"), value)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    return behave


def flood(total: int, chunked: bool) -> Behaviour:
    """A 200 answer of `total` bytes, its length declared or (chunked) not."""

    def behave(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        if chunked:
            h.send_header("Transfer-Encoding", "chunked")
        else:
            h.send_header("Content-Length", str(total))
        h.end_headers()
        block = b" " * 65_536
        sent = 0
        while sent < total:
            if chunked:
                h.wfile.write(b"%x\r\n%s\r\n" % (len(block), block))
            else:
                h.wfile.write(block)
            sent += len(block)
        if chunked:
            h.wfile.write(b"0\r\n\r\n")

    return behave


def stall(seconds: float) -> Behaviour:
    """Headers never come: the request waits for `seconds`, then the connection closes."""

    def behave(h: BaseHTTPRequestHandler) -> None:
        time.sleep(seconds)

    return behave
