"""The sandbox's HTTP transport: reads requests, writes answers, drops or holds connections.

It knows nothing of the push service: a `Responder` turns each request into an answer. Responses
are written in one piece (status line, headers and body in a single send, Nagle off) so that
keep-alive clients do not stall on delayed ACKs.

It guards itself as a service would: a body over `max_body` bytes is answered 413 without being
kept, and a client that stops sending (mid-headers, mid-body, or idle between requests) for
`request_timeout` seconds is disconnected, so that no handler thread waits for ever.
"""

from __future__ import annotations

import contextlib
import http
import json
import socket
import sys
import threading
import traceback
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

MAX_LINE = 65536
MAX_BODY = 1024 * 1024
REQUEST_TIMEOUT = 10.0
# An oversized body is read and dropped (so that the client, still sending, sees the 413 rather than
# a reset connection) up to this much; past it the connection is simply closed.
MAX_DRAIN = 64 * 1024 * 1024
_CHUNK = 65536


@dataclass(frozen=True, slots=True)
class Limits:
    """What the transport accepts: the largest body in bytes, and seconds a read may wait (None: for ever)."""

    max_body: int = MAX_BODY
    request_timeout: float | None = REQUEST_TIMEOUT

    def __post_init__(self) -> None:
        if self.max_body < 0:
            raise ValueError("max_body must not be negative")
        if self.request_timeout is not None and self.request_timeout <= 0:
            raise ValueError("request_timeout must be positive (or None for no limit)")


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request as received: method, target (path and query), lower-cased headers, raw body."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes
    client: str = "127.0.0.1"  # the address it came from


@dataclass(frozen=True, slots=True)
class Reply:
    """A response to write; Content-Length is added unless `headers` carries one."""

    status: int
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = field(default=(("Content-Type", "application/json"),))


@dataclass(frozen=True, slots=True)
class _Malformed:
    """A request whose body cannot be read as declared: answered 400 with `reason`."""

    reason: str


@dataclass(frozen=True, slots=True)
class Drop:
    """Close the connection without answering."""


@dataclass(frozen=True, slots=True)
class Hang:
    """Answer nothing for `seconds` (or until the sandbox stops), then close the connection."""

    seconds: float


Answer = Reply | Drop | Hang


class Responder(Protocol):
    """What the server asks for each request."""

    stopping: threading.Event

    def answer(self, exchange: Exchange) -> Answer: ...

    def internal_error(self) -> Reply: ...

    def too_large(self, exchange: Exchange, size: int | None, limit: int) -> Reply:
        """The answer to a body over the limit (`exchange.body` is empty; `size` None: unknown, chunked)."""
        ...


class SandboxHTTPServer(ThreadingHTTPServer):
    """A threaded server that remembers its open connections so that stopping can cut them."""

    daemon_threads = True
    # Not joining handler threads on close: a keep-alive connection can idle for ever.
    block_on_close = False
    request_queue_size = 128
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], responder: Responder, limits: Limits | None = None) -> None:
        self.responder = responder
        self.limits = limits or Limits()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()
        super().__init__(address, _Handler)

    def track(self, connection: socket.socket, open_: bool) -> None:
        """Note a connection opened or closed."""
        with self._connections_lock:
            if open_:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)

    def cut_connections(self) -> None:
        """Shut every open connection, waking handlers blocked on a read."""
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that went away, or a connection cut on stop, is not worth a traceback.
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


class _TooLarge(Exception):
    """A chunked body passed the limit while it was read."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: SandboxHTTPServer

    def setup(self) -> None:
        super().setup()
        # Every read then waits at most this long: a stalled client cannot hold this thread for ever.
        self.connection.settimeout(self.server.limits.request_timeout)
        self.server.track(self.connection, True)

    def finish(self) -> None:
        self.server.track(self.connection, False)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def handle_one_request(self) -> None:
        # Every method goes to `_serve`, so unknown methods get the service's answer, not a 501 page.
        try:
            self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
            if not self.raw_requestline or len(self.raw_requestline) > MAX_LINE:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            self._serve()
        except OSError:  # a stalled client timed out, or the client went away: nobody to answer
            self.close_connection = True

    def _serve(self) -> None:
        headers = {name.lower(): value for name, value in self.headers.items()}
        limit = self.server.limits.max_body
        ambiguous = self._framing()
        size = None if ambiguous else self._declared_size()
        if size is not None and size > limit:
            self._refuse(Exchange(self.command, self.path, headers, b""), size, drain=size)
            return
        try:
            body = ambiguous or self._read_body(limit)
        except _TooLarge:  # a chunked body that grew past the limit
            self._refuse(Exchange(self.command, self.path, headers, b""), None, drain=0)
            return
        if body is None:
            self.close_connection = True
            return
        if isinstance(body, _Malformed):
            # Whatever follows cannot be parsed as a request: answered, then the connection is closed.
            self.close_connection = True
            message = json.dumps({"success": False, "errors": [{"code": 400, "message": body.reason}]})
            self._write(Reply(400, message.encode()))
            return
        exchange = Exchange(self.command, self.path, headers, body, str(self.client_address[0]))
        responder = self.server.responder
        try:
            answer = responder.answer(exchange)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            answer = responder.internal_error()
        if isinstance(answer, Reply):
            self._write(answer)
            return
        if isinstance(answer, Hang):
            responder.stopping.wait(answer.seconds)
        self.close_connection = True

    def _codings(self) -> list[str]:
        listed = ",".join(self.headers.get_all("Transfer-Encoding") or [])
        return [coding.strip().lower() for coding in listed.split(",") if coding.strip()]

    def _chunked(self) -> bool:
        return self._codings() == ["chunked"]

    def _framing(self) -> _Malformed | None:
        """Headers that leave where the body ends open to two readings, refused before any of it is read (as
        RFC 9112 6.3 says; a proxy in front might read it the other way): a length beside chunked coding, lengths
        that differ, a length that is not plain digits (`+200`, `2_00`), a coding other than chunked."""
        codings = self._codings()
        lengths = {value.strip() for value in self.headers.get_all("Content-Length") or []}
        if codings and lengths:
            return _Malformed("Content-Length and Transfer-Encoding given together: where the body ends is ambiguous")
        if codings and codings != ["chunked"]:
            return _Malformed(f"Transfer-Encoding {', '.join(codings)} is not supported: send chunked, or a length")
        if len(lengths) > 1:
            return _Malformed(f"Content-Length given twice with different values: {', '.join(sorted(lengths))}")
        for length in lengths:
            if not (length.isascii() and length.isdigit()):
                return _Malformed(f"Content-Length {length!r} is not a number of bytes (digits only)")
        return None

    def _declared_size(self) -> int | None:
        """The Content-Length when it is a usable number (chunked bodies have none)."""
        if self._chunked():
            return None
        try:
            return int(self.headers.get("Content-Length", ""))
        except ValueError:
            return None

    def _refuse(self, exchange: Exchange, size: int | None, drain: int) -> None:
        if drain <= MAX_DRAIN:
            left = drain
            while left > 0:
                got = self.rfile.read(min(left, _CHUNK))
                if not got:
                    break
                left -= len(got)
        self.close_connection = True  # what is left of an oversized body cannot be parsed as a request
        self._write(self.server.responder.too_large(exchange, size, self.server.limits.max_body))

    def _read_body(self, limit: int) -> bytes | _Malformed | None:
        """The body (its framing checked: `_framing`); `_Malformed` (a 400) for a body shorter than declared once
        the client stops sending (the read timeout) or closes; None for a chunked body that is malformed."""
        if self._chunked():
            return self._read_chunked(limit)
        declared = self.headers.get("Content-Length")
        if declared is None:
            return b""
        length = int(declared)  # plain digits, one value: `_framing` saw to it
        parts: list[bytes] = []
        left = length
        try:
            while left > 0:
                got = self.rfile.read1(min(left, _CHUNK))
                if not got:
                    break
                parts.append(got)
                left -= len(got)
        except TimeoutError:
            pass
        if left:
            return _Malformed(f"the body ended after {length - left} of the {length} bytes its Content-Length declared")
        return b"".join(parts)

    def _read_chunked(self, limit: int) -> bytes | None:
        """The body, or None when malformed; raises _TooLarge as soon as it passes `limit`."""
        parts: list[bytes] = []
        total = 0
        try:
            while True:
                size = int(self.rfile.readline(MAX_LINE).split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline(MAX_LINE) not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(parts)
                if size < 0:
                    return None
                if total + size > limit:
                    raise _TooLarge
                parts.append(self.rfile.read(size))
                total += size
                self.rfile.readline(MAX_LINE)
        except ValueError:
            return None

    def _write(self, reply: Reply) -> None:
        try:
            reason = http.HTTPStatus(reply.status).phrase
        except ValueError:
            reason = ""
        headers = list(reply.headers)
        lengths = [value for name, value in headers if name.lower() == "content-length"]
        if not lengths:
            headers.append(("Content-Length", str(len(reply.body))))
        elif lengths != [str(len(reply.body))]:
            # A deliberately wrong length leaves the stream unusable: end it after this reply.
            self.close_connection = True
        if self.close_connection:
            headers.append(("Connection", "close"))
        head = f"{self.protocol_version} {reply.status} {reason}\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in headers) + "\r\n"
        payload = head.encode("latin-1")
        if self.command != "HEAD":
            payload += reply.body
        self.wfile.write(payload)
