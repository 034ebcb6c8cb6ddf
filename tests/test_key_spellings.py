"""A service that echoes the key in every spelling it might use: upper- and lower-cased, JSON-escaped once and
twice or three times, URL-encoded, `\\uXXXX`-escaped. No output of the tool, and not the journal file, holds any
of them, nor any spelling of the key under up to four layers of JSON and URL escapes.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import quote, quote_plus

from ari_cli.config.secrets import remember, scrub
from tests.conftest import PINNED_TODAY
from tests.misbehaving import misbehaving
from tests.test_faults import clean_env, run_cli

# Quotes, backslashes, a slash, a space and mixed case: every escape has something to do.
KEY = "Kx\"Q\\w/Ab Cd-Zy9-'Rr"


def _json(text: str) -> str:
    return json.dumps(text)[1:-1]


def _u(text: str) -> str:
    return "".join(f"\\u{ord(c):04X}" for c in text)


def forms(key: str) -> dict[str, str]:
    """Every spelling the service below echoes (the string it means, before its answer JSON-escapes it)."""
    return {
        "upper": key.upper(), "lower": key.lower(), "json": _json(key), "json twice": _json(_json(key)),
        "json three times": _json(_json(_json(key))),
        "json upper": _json(key.upper()), "url": quote(key, safe=""), "url plus": quote_plus(key),
        "url in json": _json(quote(key, safe="")), "json in url": quote(_json(key), safe=""), "u-escaped": _u(key),
    }  # fmt: skip


def escaped_forms(key: str, layers: int = 4) -> set[str]:
    """The key, upper- or lower-cased, under up to `layers` layers of JSON and URL escapes in any order: what the
    answers above hold in their bytes (one layer more than they mean) and whatever the tool makes of them."""
    found = layer = {key, key.upper(), key.lower()}
    for _ in range(layers):
        layer = {e for text in layer for e in (_json(text), quote(text, safe=""), quote_plus(text))} - found
        found = found | layer
    return found | {_u(key), _u(key).lower()}


PROPERTIES = [f"HTL{n:03d}" for n in range(1, len(forms(KEY)) + 1)]


def echo(h: BaseHTTPRequestHandler) -> None:
    """Each property's answer echoes the key in one spelling: the first as a tracking id, the others in the
    message of an error, and every answer in a header too."""
    from tests.misbehaving import _Handler

    assert isinstance(h, _Handler)
    body = json.loads(h.seen[-1])
    named = list(forms(body["sharepost"]).items())
    name, form = named[PROPERTIES.index(body["propertyid"])]
    # Each form is the string the service means; it goes out JSON-escaped (the u-escaped one is that already).
    spelled = form if name == "u-escaped" else _json(form)
    if body["propertyid"] == PROPERTIES[0]:
        answer, status = '{"success": true, "trackingid": "' + spelled + '"}', 200
    else:
        answer = '{"success": false, "errors": [{"code": 452, "message": "bad key ' + spelled + '"}]}'
        status = 400
    data = answer.encode()
    h.send_response(status)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(data)))
    h.send_header("X-Echo", quote(body["sharepost"].upper(), safe=""))
    h.end_headers()
    h.wfile.write(data)


def test_the_key_echoed_in_every_spelling_is_in_no_output_and_not_in_the_journal(tmp_path: Path) -> None:
    data = tmp_path / "rows.csv"
    data.write_text(
        "propertyid,roomid,start,end,threshold\n" + "".join(f"{p},DBL,2027-02-01,2027-02-02,3\n" for p in PROPERTIES)
    )
    report = tmp_path / "report.csv"
    home = tmp_path / "ari"
    with misbehaving(echo) as (base_url, seen):
        env = clean_env(tmp_path, ARI_BASE_URL=base_url, ARI_API_KEY=KEY, ARI_SOURCE_ID="cpbA1", ARI_HOME=str(home))
        args = ["threshold", "push", str(data), "--today", PINNED_TODAY, "--retries", "0"]
        as_json = run_cli([*args, "--output", "json", "--report", str(report), "--verbose", "--curl"], env)
        table = run_cli([*args, "--verbose", "--curl"], env)
        retried = run_cli(["retry", "1", "--verbose"], env)
    assert len(seen) == 2 * len(PROPERTIES)  # the refusals are final: the retry sends nothing
    assert as_json.returncode == 1 and table.returncode == 1, as_json.stderr
    # The rows stay refused for their own data: retry sends nothing, and says so with exit 1 (issue 40).
    assert retried.returncode == 1 and "nothing left to send" in retried.stderr, retried.stderr
    assert "10 rows stay refused for their own data" in retried.stderr
    rows = json.loads(as_json.stdout)["rows"]
    assert rows[0]["status"] == "ok" and "…" in rows[0]["trackingids"][0]
    assert all(r["status"] == "failed" and r["errors"][0]["message"].startswith("bad key ") for r in rows[1:])
    texts = {
        "json stdout": as_json.stdout, "json stderr (--verbose, --curl)": as_json.stderr, "report": report.read_text(),
        "table": table.stdout + table.stderr, "retry": retried.stdout + retried.stderr,
    }  # fmt: skip
    for command in (["history"], ["history", "show", "1"], ["history", "show", "1", "-o", "json"],
                    ["history", "show", "1", "--body", "--show", "all"], ["history", "show", "1", "--body", "-o", "json"],
                    ["history", "find", "--property", PROPERTIES[1], "--date", "2027-02-01", "--body"]):  # fmt: skip
        shown = run_cli(command, env)
        assert shown.returncode == 0, shown.stderr
        texts[" ".join(command)] = shown.stdout + shown.stderr
    for path in home.iterdir():
        texts[path.name] = path.read_bytes().decode("utf-8", "replace")
    spellings = escaped_forms(KEY) | set(forms(KEY).values())
    leaks = [(label, s) for label, text in texts.items() for s in spellings if s.lower() in text.lower()]
    assert leaks == []
    # The masks are there instead: the test would pass on an output that said nothing.
    assert "…" in texts["json stdout"] and "…" in texts["history show 1"]


LAYERS: list[Callable[[str], str]] = [
    _json, lambda t: json.dumps(t, ensure_ascii=False)[1:-1], lambda t: _json(t).replace("/", "\\/"),
    lambda t: quote(t, safe=""), quote_plus,
]  # fmt: skip


def unmasked(key: str, first: str, layers: Sequence[Callable[[str], str]], most: int) -> list[str]:
    """The spellings of `key`, from `first` through every mix of up to `most` of `layers`, in any case, that
    masking leaves whole."""
    missed = []
    for depth in range(most + 1):
        for mix in itertools.product(layers, repeat=depth):
            text = first
            for layer in mix:
                text = layer(text)
            for spelled in (text, text.upper(), text.lower()):
                if scrub(f"<{spelled}>") != f"<{key[:4]}…{key[-4:]}>":
                    missed.append(spelled)
    return missed


def test_every_mix_of_up_to_four_escape_layers_is_masked_whole() -> None:
    """The masking rule itself, over every order of JSON (ASCII or not, `\\/`) and URL (`%20` or `+`) layers."""
    key = KEY + "é😀\n"
    remember(key)
    assert unmasked(key, key, LAYERS, 4) == []
