"""Which proxy a push goes through, against a loopback proxy that notes what came to it and refuses it.

A loopback or plain-http base URL never goes through one (test_sender_bounds.py); here, HTTPS to
another machine: `NO_PROXY`, a proxy's user and password, SOCKS, and a proxy ari-cli cannot use.
"""

from __future__ import annotations

import base64
import socketserver
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

from tests.conftest import PINNED_TODAY
from tests.test_faults import clean_env, rooms, run_cli

SERVICE = "https://push.example.invalid"


class _Proxy(BaseHTTPRequestHandler):
    came: ClassVar[list[tuple[str, str, str | None]]] = []

    def _note(self) -> None:
        self.came.append((self.command, self.path, self.headers.get("Proxy-Authorization")))
        self.send_error(502)

    do_GET = do_POST = do_CONNECT = _note

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def proxy() -> Iterator[str]:
    """A proxy on a loopback port: its address, host and port (`http://127.0.0.1:PORT`)."""
    _Proxy.came = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Proxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def env_for(tmp_path: Path, **proxies: str) -> dict[str, str]:
    """The child's environment with only the given proxy variables (the caller's own left out)."""
    env = clean_env(tmp_path, ARI_BASE_URL=SERVICE, ARI_API_KEY="proxy-key-0001", ARI_SOURCE_ID="cpbA1")
    return {**{k: v for k, v in env.items() if not k.lower().endswith("_proxy")}, **proxies}


def push(tmp_path: Path, env: dict[str, str]) -> tuple[int, str, str, float]:
    args = ["threshold", "push", str(rooms(tmp_path, 1)), "--today", PINNED_TODAY, "--retries", "0", "--timeout", "10"]
    started = time.monotonic()
    done = run_cli(args, env)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def test_no_proxy_naming_the_host_sends_it_direct(tmp_path: Path) -> None:
    with proxy() as address:
        code, out, err, took = push(
            tmp_path, env_for(tmp_path, HTTPS_PROXY=f"http://{address}", NO_PROXY="example.invalid")
        )
    assert _Proxy.came == []
    # Direct, the name does not resolve: the row fails as a connection that could not be made.
    assert code == 1, err
    assert f"cannot reach {SERVICE}" in out and "1 row: 0 ok, 1 failed" in out
    assert "Traceback" not in out + err
    assert took < 30, took


def test_a_proxy_user_and_password_go_to_the_proxy_and_nowhere_else(tmp_path: Path) -> None:
    with proxy() as address:
        code, out, err, _ = push(tmp_path, env_for(tmp_path, HTTPS_PROXY=f"http://ari%40hotel:s3cret@{address}"))
    expected = "Basic " + base64.b64encode(b"ari@hotel:s3cret").decode()
    assert _Proxy.came == [("CONNECT", "push.example.invalid:443", expected)]
    assert code == 1 and "1 row: 0 ok, 1 failed" in out
    assert "s3cret" not in out + err and "Traceback" not in out + err


class _Socks(socketserver.BaseRequestHandler):
    """A SOCKS5 proxy (RFC 1928, with RFC 1929's user and password) that notes what it is asked and refuses it."""

    came: ClassVar[list[tuple[str, str, int]]] = []

    def handle(self) -> None:
        read = self.request.recv
        _, methods = read(2)
        read(methods)
        self.request.sendall(b"\x05\x02")  # user and password, please
        _, size = read(2)
        user = read(size).decode()
        (size,) = read(1)
        read(size)
        self.request.sendall(b"\x01\x00")
        _, _, _, kind = read(4)
        (size,) = read(1) if kind == 3 else (4,)
        host = read(size).decode() if kind == 3 else ".".join(map(str, read(size)))
        port = int.from_bytes(read(2), "big")
        self.came.append((user, host, port))
        self.request.sendall(b"\x05\x04\x00\x01" + bytes(6))  # host unreachable


def test_a_socks_proxy_carries_the_request_and_its_password_stays_out_of_sight(tmp_path: Path) -> None:
    _Socks.came = []
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Socks)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"127.0.0.1:{server.server_address[1]}"
        code, out, err, _ = push(tmp_path, env_for(tmp_path, ALL_PROXY=f"socks5://user:s3cret@{address}"))
    finally:
        server.shutdown()
        server.server_close()
    assert _Socks.came == [("user", "push.example.invalid", 443)]
    # The proxy refused to reach the host: the row fails as a connection that could not be made.
    assert code == 1, out + err
    assert "1 row: 0 ok, 1 failed" in out
    assert "s3cret" not in out + err and "Traceback" not in out + err


def test_a_proxy_that_is_not_a_url_is_a_configuration_error_and_nothing_is_journaled(tmp_path: Path) -> None:
    with proxy() as address:
        code, out, err, _ = push(tmp_path, env_for(tmp_path, HTTPS_PROXY=f"ftp://user:s3cret@{address}"))
    assert code == 4, out + err
    assert out == ""
    assert "error: the proxy in HTTPS_PROXY or ALL_PROXY cannot be used" in err
    assert "hint: name an http://, https:// or socks5:// proxy as a URL" in err
    assert "s3cret" not in err and "Traceback" not in err
    assert _Proxy.came == []
    history = run_cli(["history"], env_for(tmp_path))
    assert "threshold push" not in history.stdout  # nothing journaled either
