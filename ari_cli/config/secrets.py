"""Masking of the API key: the one helper every output path uses."""

from __future__ import annotations

import json
import re
from typing import Any

MASK = "…"


def mask(secret: str | None) -> str:
    """`sandbox-key-0001` -> `sand…0001`; short keys are hidden whole."""
    if not secret:
        return ""
    if len(secret) < 12:
        return MASK * 3
    return f"{secret[:4]}{MASK}{secret[-4:]}"


def masked_body(body: dict[str, Any]) -> dict[str, Any]:
    """A copy of a request body with `sharepost` masked."""
    key = body.get("sharepost")
    # `<API_KEY>` is the spec's placeholder, shown as is when nothing is configured.
    if not isinstance(key, str) or (key.startswith("<") and key.endswith(">")):
        return dict(body)
    return {**body, "sharepost": mask(body["sharepost"])}


_known: set[str] = set()
_pattern: re.Pattern[str] | None = None  # every known key in every spelling; rebuilt when one is added
_by_group: dict[str, str] = {}  # the pattern's group name -> the mask of its key

# How many layers of escaping masking sees through: a key JSON-escaped inside a JSON string inside a JSON answer
# is three; URL-encoding and HTML's character references count as layers too, in any order with JSON's.
ESCAPE_DEPTH = 4
# The short JSON escapes of control characters (`\n`).
_SHORT = {"\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t"}
# HTML's names for the characters a page escapes (a gateway's error page quoting what it was sent).
_NAMED = {'"': "quot", "&": "amp", "<": "lt", ">": "gt", "'": "apos", "\\": "bsol", "/": "sol"}


def remember(secret: str | None) -> None:
    """Note a key in use, so that `scrub` can hide it from any text, exceptions included."""
    global _pattern
    # Whatever its length: a short key echoed by the service is still the key.
    if secret and secret not in _known:
        _known.add(secret)
        _pattern = None


# A URL-encoding's `%`, or an HTML layer's reference to it (`&#37;22`).
_PERCENT_SIGN = f"(?:%|&(?:amp;){{0,{ESCAPE_DEPTH - 1}}}#(?:0*37|x0*25);?)"


def _percent(byte: int) -> str:
    """One byte URL-encoded, once or more (`%22`, `%2522`): each later URL layer encodes the `%` again."""
    return f"{_PERCENT_SIGN}(?:25){{0,{ESCAPE_DEPTH - 1}}}{byte:02x}"


# HTML's `&`, `#` and `;` as later layers may spell them: `&` re-escaped by HTML (`&amp;quot;`), URL-encoded, or
# written `\u0026` by JSON (as Go's encoder does); a browser reads a reference without its `;` too.
# A later HTML layer that references every sign writes them `&#59;`, `&#35;` and `&#38;`.
_SEMI = f"(?:;|{_percent(0x3B)}|&#0*59;?|&#x0*3b;?)?"
_HASH = f"(?:#|{_percent(0x23)}|&#0*35;?|&#x0*23;?)"
_AMP_SIGN = rf"(?:&|{_percent(0x26)}|(?:\\|{_percent(0x5C)}){{1,{2**ESCAPE_DEPTH}}}u0026)"
_AMP = f"{_AMP_SIGN}(?:(?:amp|#0*38|#x0*26){_SEMI}){{0,{ESCAPE_DEPTH - 1}}}"


def _named(c: str) -> str:
    """What follows a reference's `&` for one character: `#34`, `#x22` (any zeros before), or its name."""
    named = f"|{_NAMED[c]}" if c in _NAMED else ""
    return f"(?:{_HASH}(?:0*{ord(c)}|x0*{ord(c):x}){named}){_SEMI}"


# One backslash an escape wrote: as is, URL-encoded by a later layer (JSON leaves `%5C` alone), or an HTML reference.
_BACKSLASH = rf"(?:\\|{_percent(0x5C)}|{_AMP}{_named(chr(0x5C))})"


def _backslashes(count: int | str) -> str:
    return f"{_BACKSLASH}{{{count}}}"


def _reference(c: str) -> str:
    """One character as an HTML character reference: `&quot;`, `&#34;`, `&#x22;`, its `&` spelled by later layers."""
    return _AMP + _named(c)


def _char(c: str, depth: int) -> str:
    """A regex for one character of the key under `depth` JSON layers (then any URL layers): each JSON layer
    doubles the backslashes before what an earlier one escaped, so a `"` sits behind exactly 2**depth - 1 of them
    and a `\\` is 2**depth; a `/`, and any character as `\\uXXXX` or a short escape, behind some."""
    # Followed by a letter, a run of backslashes has one way to match: possessive, it is not tried again shorter.
    some = _backslashes(f"1,{2**ESCAPE_DEPTH}") + "+"
    # A lone surrogate (a byte that was not UTF-8, as Python reads one) is spelled as the codecs would let it.
    units = c.encode("utf-16-be", "surrogatepass")
    spellings = ["".join(f"{some}u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))]
    encoded = "".join(_percent(byte) for byte in c.encode("utf-8", "surrogatepass"))
    if c == "\\":
        spellings.append(_backslashes(2**depth))
    elif c == '"':
        spellings.append(_backslashes(2**depth - 1) + f'(?:"|{encoded})')
        # Made a reference by an HTML layer: behind the backslashes of the JSON layers before it, if any.
        spellings.append(_backslashes(f"0,{2**ESCAPE_DEPTH}") + _reference(c))
    elif c == "/":
        spellings.append(_backslashes(f"0,{2**depth - 1}") + f"(?:/|{encoded})")
    elif c in _SHORT and depth:
        spellings.append(some + _SHORT[c])
    else:
        spellings += [re.escape(c), encoded]
        if c == " ":
            spellings.append(rf"(?:\+|{_percent(0x2B)})")  # a form's space, `+`, itself encoded by a later layer
    if c != '"':
        spellings.append(_reference(c))
    return "(?:" + "|".join(spellings) + ")"


def _any_spelling(secret: str) -> str:
    """The key as up to ESCAPE_DEPTH layers of JSON and URL escapes may spell it: a regex per number of JSON
    layers, each counting its backslashes exactly so that a long run of them is not tried every way. What the
    depths spell alike (a key's letters) is written once, so that text without the key is passed over quickly."""
    spelled = [[_char(c, depth) for c in secret] for depth in range(ESCAPE_DEPTH + 1)]
    same = 0
    while same < len(secret) and all(s[same] == spelled[0][same] for s in spelled):
        same += 1
    rests = dict.fromkeys("".join(s[same:]) for s in spelled)
    return "".join(spelled[0][:same]) + ("(?:" + "|".join(rests) + ")" if len(rests) > 1 else "".join(rests))


def scrub(text: str) -> str:
    """Text with every known key replaced by its mask: in any case (a service may upper-case what it echoes), in
    any spelling JSON allows, URL-encoded, as HTML's character references, and escaped again and again (up to
    ESCAPE_DEPTH layers)."""
    global _pattern
    if not _known:
        return text
    if _pattern is None:
        # Longest first, so that a key inside another is not masked half.
        ordered = sorted(_known, key=len, reverse=True)
        _pattern = re.compile("|".join(f"(?P<k{i}>{_any_spelling(k)})" for i, k in enumerate(ordered)), re.IGNORECASE)
        _by_group.clear()
        _by_group.update({f"k{i}": mask(k) for i, k in enumerate(ordered)})
    return _pattern.sub(lambda m: _by_group[m.lastgroup or ""], text)


# The spec's placeholder for the key: not a secret, shown and sent as written.
KEY_PLACEHOLDER = "<API_KEY>"


def is_placeholder(value: str) -> bool:
    """Whether a `sharepost` value is the spec's `<API_KEY>` placeholder (any case)."""
    return value.strip().lower() == KEY_PLACEHOLDER.lower()


def keys_in(content: bytes) -> list[str]:
    """The `sharepost` values of a JSON body (an object or a list of them), placeholders left out."""
    try:
        document = json.loads(content)
    except (ValueError, RecursionError):
        return []
    bodies = document if isinstance(document, list) else [document]
    found = [b.get("sharepost") for b in bodies if isinstance(b, dict)]
    return list(dict.fromkeys(k for k in found if isinstance(k, str) and k and not is_placeholder(k)))


def spellings(secret: str) -> list[str]:
    """How a string can appear inside JSON text: as is, escaped, escaped to ASCII."""
    inner = json.dumps(secret, ensure_ascii=False)[1:-1]
    return list(dict.fromkeys((secret, inner, json.dumps(secret)[1:-1])))


def masked_text(content: bytes) -> str:
    """A request body as text, every key it carries (and every known key) masked."""
    text = content.decode("utf-8", "replace")
    for secret in keys_in(content):
        for spelling in spellings(secret):
            text = text.replace(spelling, mask(secret))
    return scrub(text)
