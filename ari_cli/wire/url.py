"""One name per service: a base URL in its canonical form (RFC 3986, section 6.2.2).

Two base URLs name one service exactly when they make the same request URLs (`push_url`): the scheme and
host are compared without case, the scheme's default port is the same as none, `.` and `..` segments are
resolved, trailing slashes are dropped (`push_url` drops them), an unreserved character is the same whether
percent-encoded or not, and an internationalised host is sent in its ASCII (IDNA) form, as httpx sends it.
The path's case is kept: a server may tell `/Push` from `/push`. Hosts that may be other machines
(`localhost` and `127.0.0.1`) stay apart.

A base URL with a user name or password, a query or a fragment cannot name a service: it is refused
(`identity_problem`), so that none is journaled, shown or written to a report. Imports nothing heavy: every
command resolves its settings.
"""

from __future__ import annotations

import re
import string
from urllib.parse import quote, urlsplit

import idna

DEFAULT_PORTS = {"http": 80, "https": 443}
# RFC 3986 2.3: the characters that mean the same percent-encoded or not.
UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
# What a path keeps as written (RFC 3986 3.3: pchar and "/"); anything else is percent-encoded, as httpx does.
_PATH_SAFE = "-._~!$&'()*+,;=:@/%"
_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})")


class NotABaseUrl(ValueError):
    """Not an http(s) URL with a host (or a port or host name that cannot be sent to); its text completes
    "base URL X ..."."""


def identity_problem(url: str) -> str | None:
    """What makes `url` unfit to name a service (user name or password, query, fragment), else None.

    Said without the URL itself: a user name or password must not be shown either."""
    # An "@" anywhere before the query is taken for user information: a password may hold a "/", which ends
    # the host for `urlsplit` (`https://user:pa/ss@host` would be host `user` and a path holding the password).
    query, fragment = url.find("?"), url.find("#")
    before = min((at for at in (query, fragment) if at >= 0), default=len(url))
    if "@" in url[:before]:
        return "holds a user name or password"
    if query >= 0 and (fragment < 0 or query < fragment):
        return "holds a query (`?...`)"
    if fragment >= 0:
        return "holds a fragment (`#...`)"
    return None


def _decode_unreserved(text: str) -> str:
    """`%7E` as `~`, `%41` as `A`; every other percent-encoding kept, its hex digits upper-case."""

    def one(found: re.Match[str]) -> str:
        char = chr(int(found.group(1), 16))
        return char if char in UNRESERVED else "%" + found.group(1).upper()

    return _PERCENT.sub(one, text)


def remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4 for a path that starts with "/" (or is empty): `/a/./b/../c` is `/a/c`."""
    out: list[str] = []
    segments = path.split("/")[1:]
    for n, segment in enumerate(segments):
        last = n == len(segments) - 1
        if segment == "..":
            if out:
                out.pop()
            if last:
                out.append("")
        elif segment == ".":
            if last:
                out.append("")
        else:
            out.append(segment)
    return "".join("/" + segment for segment in out)


def _host(host: str) -> str:
    """The host lower-case, an internationalised name in its ASCII form as httpx sends it."""
    host = _decode_unreserved(host).lower()
    if host.isascii():
        return host

    try:
        return str(idna.encode(host).decode("ascii"))
    except idna.IDNAError as problem:
        raise NotABaseUrl(f"has a host that is not a valid internationalised name ({problem})") from None


def canonical_base_url(url: str) -> str:
    """`url` in the one spelling of its service: `HTTP://Example.COM:443/./a/` is `http://example.com:443/a`,
    `https://Example.com:443/a/` is `https://example.com/a`. NotABaseUrl when it is not an http(s) URL with a
    host; `identity_problem` is the caller's to check first."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # an unclosed "[" of an IPv6 host
        raise NotABaseUrl("is not an http(s) URL") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        raise NotABaseUrl("is not an http(s) URL")
    try:
        port = parts.port
    except ValueError:
        raise NotABaseUrl("has a port that is not a number from 0 to 65535") from None
    host = _host(parts.hostname)
    if ":" in host:  # an IPv6 address, bracketed in a URL
        host = f"[{host}]"
    if port is not None and port != DEFAULT_PORTS[scheme]:
        host = f"{host}:{port}"
    path = _decode_unreserved(quote(parts.path, safe=_PATH_SAFE))
    return f"{scheme}://{host}{remove_dot_segments(path).rstrip('/')}"


def same_service(one: str, other: str) -> bool:
    """Whether two base URLs (as stored: one may be of a journal written before spellings were folded) name
    the same service; a spelling that cannot be put in canonical form is only itself."""
    return canonical_or_same(one) == canonical_or_same(other)


def canonical_or_same(url: str) -> str:
    """The canonical form of a stored base URL, or the URL as it is when it has none (an older journal may
    hold a URL this version refuses)."""
    if identity_problem(url) is not None:
        return url
    try:
        return canonical_base_url(url)
    except NotABaseUrl:
        return url
