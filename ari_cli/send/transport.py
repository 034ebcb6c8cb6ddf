"""One POST on the wire, bounded in time and size: the only module that talks HTTP.

httpcore's connection pool is used directly: httpx's client layer on top of it (building a request,
merging URLs and headers, cookies, three stream wrappers closed in turn) cost a third of a
request's CPU, and a push of one-record requests is bound by that CPU. What the client layer did
for us is here instead, once per URL: the headers, TLS trust (`SSL_CERT_FILE`, `SSL_CERT_DIR`, else
certifi's authorities, as httpx) and the proxy (HTTPS to another machine only, from the usual
variables).
"""

from __future__ import annotations

import asyncio
import functools
import os
import ssl
import time
import urllib.request
from urllib.parse import unquote, urlsplit

import httpcore

from ari_cli import __version__
from ari_cli.config.settings import is_loopback
from ari_cli.exits import ConfigError
from ari_cli.send.answers import ANSWER_LIMIT, interpret, too_large
from ari_cli.send.exchange import Outcome, Problem, Sent, Trace
from ari_cli.wire.models import REQUEST_HEADERS

# Everything httpcore raises for a request that did not get its answer (they share no base class); and the
# socket's and TLS's own errors, which httpcore 1.0.5 (the oldest allowed) lets through unwrapped.
FAILURES = (httpcore.NetworkError, httpcore.TimeoutException, httpcore.ProtocolError, httpcore.ProxyError,
            httpcore.UnsupportedProtocol, OSError)  # fmt: skip
RESPONSE_KEPT = 65_536
# Who is calling, for the service's logs and support: never the HTTP library's own name.
CLIENT_HEADERS = {"user-agent": f"ari-cli/{__version__}"}

Pool = httpcore.AsyncConnectionPool


def say_asyncio() -> None:
    """Tell sniffio, for the task this is called in (and those it starts), that this is asyncio.

    httpcore and anyio ask sniffio which event loop runs several times a request; asyncio does not
    say so itself, so sniffio found out each time by importing asyncio and asking for the current
    task (an eighth of a run's CPU). Set in the task's own context: nothing outside it is changed.
    """
    import sniffio

    sniffio.current_async_library_cvar.set("asyncio")


def proxy_allowed(url: str) -> bool:
    """Whether the usual proxy variables may apply: HTTPS to another machine only.

    Through a proxy, plain http carries the key in clear; and loopback is this machine.
    """
    parts = urlsplit(url)
    return parts.scheme == "https" and not is_loopback(parts.hostname or "")


def proxy_for(url: str) -> str | None:
    """The proxy a request to `url` goes through: `HTTPS_PROXY` (else `ALL_PROXY`) unless `NO_PROXY` names
    the host, for HTTPS to another machine only; None: direct."""
    if not proxy_allowed(url):
        return None
    proxies = urllib.request.getproxies_environment()
    proxy = proxies.get("https") or proxies.get("all")
    if not proxy or urllib.request.proxy_bypass(urlsplit(url).hostname or ""):
        return None
    if urlsplit(proxy).scheme not in ("http", "https"):
        raise ConfigError(
            f"the proxy in HTTPS_PROXY or ALL_PROXY is a {urlsplit(proxy).scheme or 'schemeless'} proxy, "
            "which ari-cli cannot use",
            "name an http:// or https:// proxy, or add the service's host to NO_PROXY",
        )
    return proxy


def tls_context() -> ssl.SSLContext:
    """The authorities HTTPS trusts: `SSL_CERT_FILE`, else `SSL_CERT_DIR`, else certifi's (as httpx does)."""
    if os.environ.get("SSL_CERT_FILE"):
        return ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    if os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context(capath=os.environ["SSL_CERT_DIR"])
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def open_pool(url: str, connections: int, tls: ssl.SSLContext | None) -> Pool:
    """A pool of up to `connections` HTTP/1.1 connections for requests to `url`'s service."""
    proxy = proxy_for(url)
    if proxy is None:
        return httpcore.AsyncConnectionPool(ssl_context=tls, max_connections=connections, http2=False)
    parts = urlsplit(proxy)
    auth = (unquote(parts.username), unquote(parts.password or "")) if parts.username else None
    return httpcore.AsyncHTTPProxy(
        proxy_url=f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}", proxy_auth=auth, ssl_context=tls,
        max_connections=connections, http2=False,
    )  # fmt: skip


def needs_tls(urls: list[str]) -> bool:
    return any(urlsplit(url).scheme == "https" for url in urls)


@functools.lru_cache(maxsize=64)
def _target(url: str) -> tuple[httpcore.URL, tuple[tuple[str, str], ...]]:
    """A URL parsed once, and the headers every request to it carries (all but its length)."""
    host = urlsplit(url).netloc.rpartition("@")[2]
    return httpcore.URL(url), (("host", host), *CLIENT_HEADERS.items(), *REQUEST_HEADERS.items())


def _transport_failure(error: Exception, base_url: str, timeout: float) -> Outcome:
    timed_out = isinstance(error, httpcore.TimeoutException | TimeoutError)
    if timed_out:
        message = f"no answer from {base_url} within {timeout:g} s"
    elif isinstance(error, httpcore.ConnectError | ssl.SSLError):
        message = f"cannot reach {base_url}: {error or 'connection refused'}"
    else:
        message = f"the connection to {base_url} broke before an answer ({type(error).__name__})"
    hint = (
        "check the base URL and your network; the request was retried"
        if not timed_out
        else "the service is slow or down; raise --timeout, or try again later"
    )
    return Outcome(None, False, errors=(Problem(None, message, None, hint),), transient=True)


class _TooLarge(Exception):
    def __init__(self, head: bytes) -> None:
        self.head = head


def _header(headers: list[tuple[str, str]], name: str) -> str | None:
    return next((value for key, value in headers if key == name), None)


async def _read_bounded(response: httpcore.Response, headers: list[tuple[str, str]]) -> bytes:
    """The answer's body, or _TooLarge as soon as it passes ANSWER_LIMIT (as it came: nothing asks for gzip)."""
    declared = _header(headers, "content-length") or ""
    if declared.isdigit() and int(declared) > ANSWER_LIMIT:
        raise _TooLarge(b"")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_stream():
        size += len(chunk)
        chunks.append(chunk)
        if size > ANSWER_LIMIT:
            raise _TooLarge(b"".join(chunks)[:RESPONSE_KEPT])
    return b"".join(chunks)


async def post(pool: Pool, url: str, content: bytes, base_url: str, timeout: float) -> Sent:
    """POST bytes once; what went over the wire and what it means.

    `timeout` bounds the whole request: connecting, sending, waiting and reading (a per-read bound
    would let an answer dripped a byte at a time go on for ever).
    """
    target, fixed = _target(url)
    sent_headers = (*fixed, ("content-length", str(len(content))))
    status, answer_headers = None, []
    started = time.monotonic()
    try:
        async with asyncio.timeout(timeout):
            async with pool.stream("POST", target, headers=list(sent_headers), content=content) as response:
                status = response.status
                answer_headers = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in response.headers]
                body = await _read_bounded(response, answer_headers)
    except _TooLarge as large:
        assert status is not None
        outcome = too_large(status, base_url)
        trace = Trace("POST", url, sent_headers, content, time.monotonic() - started, status,
                      tuple(answer_headers), large.head, error=outcome.errors[0].message)  # fmt: skip
        return Sent(trace, outcome)
    except FAILURES as error:
        outcome = _transport_failure(error, base_url, timeout)
        trace = Trace("POST", url, sent_headers, content, time.monotonic() - started, error=outcome.errors[0].message)
        return Sent(trace, outcome)
    assert status is not None
    trace = Trace("POST", url, sent_headers, content, time.monotonic() - started, status, tuple(answer_headers), body)
    return Sent(trace, interpret(status, body, _header(answer_headers, "retry-after")))
