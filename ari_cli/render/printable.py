"""Text of outside origin made safe for a terminal: control characters shown as visible escapes.

Values from input files and bodies from the service reach the table, the warnings, the error
messages and the --verbose trace. Written raw, an ESC sequence could recolour the screen, move the
cursor, retitle the window or hide what came before it (`\\r`, `\\b`); a lone surrogate would make
the write fail. Every such character is shown as the escape a Python string would use instead.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from ari_cli.config.secrets import scrub

# C0 but tab and newline; DEL and C1 (0x9b is an 8-bit CSI to some terminals); the bidirectional
# embeddings, overrides and isolates, which can make text read in another order than it runs
# ("Trojan Source"); and surrogates, which no encoder writes.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\r":
        return "\\r"
    point = ord(char)
    return f"\\x{point:02x}" if point < 0x100 else f"\\u{point:04x}"


def printable(text: str) -> str:
    """`text` with every control character but tab and newline replaced by a visible escape (`\\x1b`)."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_escape, text)


def json_printable(text: str) -> str:
    """JSON text with every unsafe character inside its strings written as a JSON escape (`\\u009b`): the same
    document, and nothing in it drives a terminal."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def echo_err(message: Any) -> None:
    """Write one plain line to stderr, known keys hidden and control characters escaped."""
    sys.stderr.write(f"{printable(scrub(str(message)))}\n")
