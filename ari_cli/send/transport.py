"""One POST on the wire through httpx, bounded in time and size: the only module that talks HTTP.

The client is httpx's own (`httpx.AsyncClient`), made here for a base URL or given by an integrator.
Whatever client sends, the bounds are ours and wrap it: a whole-request timeout, an answer read no
further than `ANSWER_LIMIT`, and what the answer means (`answers.py`: `Retry-After` capped, the key
masked).

Trust and proxies are httpx's: `SSL_CERT_FILE`, `SSL_CERT_DIR`, else certifi's authorities; the usual
proxy variables (SOCKS through the `httpx[socks]` extra). One rule is ours: a loopback or plain-http
base URL never goes through a proxy (through one, plain http carries the key in clear; loopback is this
machine), so its client is made without reading the proxy variables at all, and a bad one cannot stop
a run it would not be used for. The environment's mistakes are configuration errors, said before
anything is sent.
"""

from __future__ import annotations

import asyncio
import os
import re
import ssl
import time
import urllib.request
from collections.abc import Callable
from urllib.parse import urlsplit

import httpx

from ari_cli import __version__
from ari_cli.config.settings import is_loopback
from ari_cli.exits import ConfigError
from ari_cli.send.answers import ANSWER_LIMIT, interpret, too_large
from ari_cli.send.exchange import Outcome, Problem, Sent, Trace
from ari_cli.wire.models import REQUEST_HEADERS

# Every failure of a request that did not get its answer: httpx's, and the socket's and TLS's own
# (an injected transport may let those through unwrapped).
FAILURES = (httpx.TransportError, OSError)
RESPONSE_KEPT = 65_536
# Who is calling, for the service's logs and support: never the HTTP library's own name.
CLIENT_HEADERS = {"user-agent": f"ari-cli/{__version__}"}
HEADERS = {**CLIENT_HEADERS, **REQUEST_HEADERS}


def proxy_allowed(url: str) -> bool:
    """Whether the usual proxy variables may apply: HTTPS to another machine only."""
    parts = urlsplit(url)
    return parts.scheme == "https" and not is_loopback(parts.hostname or "")


def _trust() -> ssl.SSLContext:
    """The authorities HTTPS trusts, as httpx reads them; a variable naming nothing usable is the user's to fix
    (either of them: httpx reads the folder only without the file, but a wrong one is a mistake all the same)."""
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
        where = os.environ.get(name)
        if not where:
            continue
        wanted = os.path.isfile if name == "SSL_CERT_FILE" else os.path.isdir
        if not wanted(where) or not os.access(where, os.R_OK | (os.X_OK if name == "SSL_CERT_DIR" else 0)):
            kind = "file" if name == "SSL_CERT_FILE" else "folder"
            raise ConfigError(
                f"{name} names {where!r}, which is not a readable {kind}",
                f"point {name} at a readable {kind} of PEM certificates, or unset it to trust certifi's authorities",
            )
    try:
        return httpx.create_ssl_context(trust_env=True)
    except (OSError, ssl.SSLError) as problem:
        raise ConfigError(
            f"the certificates named by SSL_CERT_FILE or SSL_CERT_DIR cannot be loaded: {problem}",
            "point it at PEM certificates, or unset it to trust certifi's authorities",
        ) from None


def open_clients(base_url: str, count: int) -> list[httpx.AsyncClient]:
    """`count` httpx clients for requests to `base_url`, each with one connection: HTTP/1.1, no redirects.

    One client a sending slot: httpcore's pool walks every connection it holds on each request
    (encode/httpcore#1035), so a pool shared by 32 requests at a time made each one dearer than at 4. They
    share one TLS context (loading the authorities once). A configuration error (exit 4) when the environment
    names certificates or a proxy that cannot be used.
    """
    secure = urlsplit(base_url).scheme == "https"
    # Plain http never starts TLS (no redirects are followed, no proxy is used): a context without authorities
    # costs nothing to make, and would refuse any certificate if TLS were ever asked of it.
    trusted = _trust() if secure else ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    proxied = proxy_allowed(base_url)
    try:
        if proxied:
            _check_proxies()
        # The timeout is ours (`post`), over the whole request; httpx's per-phase ones would add nothing.
        return [httpx.AsyncClient(verify=trusted, trust_env=proxied, limits=limits, timeout=None) for _ in range(count)]
    except (ValueError, ImportError, httpx.InvalidURL) as problem:
        raise ConfigError(
            f"the proxy in HTTPS_PROXY or ALL_PROXY cannot be used: {_masked(problem)}",
            PROXY_HINT,
        ) from None


PROXY_HINT = "name an http://, https:// or socks5:// proxy as a URL, or add the service's host to NO_PROXY"
_HOST_PORT = re.compile(r"[^\s/:@]+:[0-9]+")  # proxy.corp:3128


def _check_proxies() -> None:
    """A proxy variable httpx would read for HTTPS that is not a whole URL: httpx would take `not-a-url` for a
    host name (`http://not-a-url`) and a run would fail row by row as unreachable, so it is a mistake said now.
    A proxy URL has a scheme, a host, and a port from 1 to 65535 if any; `HOST:PORT` without a scheme is read as
    `http://HOST:PORT`, as curl and httpx read it (proxies are often set so)."""
    for scheme in ("https", "all"):
        url = urllib.request.getproxies_environment().get(scheme)
        if not url:
            continue
        if "://" not in url and _HOST_PORT.fullmatch(url):
            url = "http://" + url
        parsed = httpx.URL(url)  # InvalidURL: not a URL at all, said by the caller
        if "://" not in url or not parsed.scheme:
            problem = "it has no scheme (and no port)"
        elif not parsed.host:
            problem = "it names no host"
        elif parsed.port is not None and not 0 < parsed.port < 65536:
            problem = f"its port {parsed.port} is not from 1 to 65535"
        else:
            continue
        raise ConfigError(f"the proxy in HTTPS_PROXY or ALL_PROXY cannot be used: {problem}", PROXY_HINT)


def check_environment(base_url: str) -> None:
    """Say the environment's mistakes for `base_url` (certificates, proxy) before anything is read or sent."""
    open_clients(base_url, 1)  # made and dropped: no connection is opened until a request


def _masked(problem: Exception) -> str:
    """The proxy error without a password the URL may hold."""
    text = str(problem)
    for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "http_proxy"):
        try:
            password = urlsplit(os.environ.get(name, "")).password
        except ValueError:  # not a URL at all: whatever it holds is not shown
            return "it is not a URL"
        if password:
            text = text.replace(password, "***")
    return text


UNREACHED = "check the base URL and your network"


def _transport_failure(error: Exception, base_url: str, timeout: float) -> Outcome:
    timed_out = isinstance(error, httpx.TimeoutException | TimeoutError)
    if timed_out:
        message = f"no answer from {base_url} within {timeout:g} s"
    elif isinstance(error, httpx.ConnectError | ssl.SSLError | ConnectionRefusedError):
        message = f"cannot reach {base_url}: {error or 'connection refused'}"
    else:
        message = f"the connection to {base_url} broke before an answer ({type(error).__name__})"
    # Whether it was retried is the sender's to say (send/http.py: `tried`): with --retries 0 it was not.
    hint = UNREACHED if not timed_out else "the service is slow or down; raise --timeout, or try again later"
    return Outcome(None, False, errors=(Problem(None, message, None, hint),), transient=True)


class _TooLarge(Exception):
    def __init__(self, head: bytes) -> None:
        self.head = head


async def _read_bounded(response: httpx.Response) -> bytes:
    """The answer's body, or _TooLarge as soon as it passes ANSWER_LIMIT (read no further)."""
    declared = response.headers.get("content-length") or ""
    if declared.isdigit() and int(declared) > ANSWER_LIMIT:
        raise _TooLarge(b"")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        chunks.append(chunk)
        if size > ANSWER_LIMIT:
            raise _TooLarge(b"".join(chunks)[:RESPONSE_KEPT])
    return b"".join(chunks)


def _pairs(headers: httpx.Headers) -> tuple[tuple[str, str], ...]:
    return tuple((key.lower(), value) for key, value in headers.multi_items())


class _Writing:
    """httpcore's trace of one request (httpx's `trace` request extension), heard for the moment its first byte
    goes on its connection: the moment the service's budget counts it from."""

    def __init__(self, on_write: Callable[[], None]) -> None:
        self.on_write = on_write
        self.traced = False
        self.told = False

    async def __call__(self, event: str, info: dict[str, object]) -> None:
        self.traced = True
        if not self.told and event.endswith(".send_request_headers.started"):
            self.tell()

    def tell(self) -> None:
        self.told = True
        self.on_write()

    def after(self) -> None:
        """A transport that traces nothing (an integrator's own) may have sent it: counted, to be safe."""
        if not self.traced and not self.told:
            self.tell()


async def post(
    client: httpx.AsyncClient,
    url: str,
    content: bytes,
    base_url: str,
    timeout: float,
    on_write: Callable[[], None] | None = None,
) -> Sent:
    """POST bytes once; what went over the wire and what it means.

    `timeout` bounds the whole request: connecting, sending, waiting and reading (a per-read bound
    would let an answer dripped a byte at a time go on for ever). `on_write` is called once, as the request's
    first byte goes on its connection; never when no connection could be had.
    """
    writing = _Writing(on_write or (lambda: None))
    request = client.build_request("POST", url, content=content, headers=HEADERS, extensions={"trace": writing})
    sent_headers = _pairs(request.headers)
    status: int | None = None
    answer_headers: tuple[tuple[str, str], ...] = ()
    started = time.monotonic()
    try:
        async with asyncio.timeout(timeout):
            response = await client.send(request, stream=True, follow_redirects=False)
            try:
                status, answer_headers = response.status_code, _pairs(response.headers)
                body = await _read_bounded(response)
            finally:
                await response.aclose()
    except _TooLarge as large:
        assert status is not None
        outcome = too_large(status, base_url)
        trace = Trace("POST", url, sent_headers, content, time.monotonic() - started, status,
                      answer_headers, large.head, error=outcome.errors[0].message)  # fmt: skip
        return Sent(trace, outcome)
    except FAILURES as error:
        outcome = _transport_failure(error, base_url, timeout)
        trace = Trace("POST", url, sent_headers, content, time.monotonic() - started, error=outcome.errors[0].message)
        return Sent(trace, outcome)
    finally:
        writing.after()
    assert status is not None
    retry_after = dict(answer_headers).get("retry-after")
    trace = Trace("POST", url, sent_headers, content, time.monotonic() - started, status, answer_headers, body)
    return Sent(trace, interpret(status, body, retry_after))
