"""A key in an answer that is not the service's JSON, or spelled as an HTML page escapes it, is masked everywhere.

The key holds a quote and a backslash (`sk-test-Quo"te\\Mixed`), so that quoting an answer (`repr`, JSON) doubles
its backslash: the answer's text is masked before it is quoted, and masking reads HTML's character references
(`&quot;`, `&#34;`, `&#x22;`, `&amp;quot;`), which gateways' error pages use. A loopback server refuses each
property in one of these ways; no output, report, `history` view or journal byte holds the key in any spelling.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import quote

from ari_cli.config.secrets import ESCAPE_DEPTH, remember
from tests.conftest import PINNED_TODAY
from tests.misbehaving import misbehaving
from tests.test_faults import clean_env, run_cli
from tests.test_key_spellings import _json, unmasked

KEY = 'sk-test-Quo"te\\Mixed'
MASKED = "sk-t…ixed"


def _entities(key: str) -> dict[str, str]:
    return {
        "&quot;": html.escape(key), "&#34;": key.replace('"', "&#34;"), "&#x22;": key.replace('"', "&#x22;"),
        "&amp;quot;": html.escape(html.escape(key)), "&#X22;": key.replace('"', "&#X22;"),
        "all numeric": "".join(f"&#{ord(c)};" for c in key), "&lt; &gt;": html.escape(f"<{key}>"),
    }  # fmt: skip


# propertyid -> (status, content type, body) with the key put in by `answer`. A gateway's 403 would stop the run's
# other requests (issue 40: it refuses the account), so the pages come with a 400, which refuses its request alone.
def answer(propertyid: str, key: str) -> tuple[int, str, str]:
    if propertyid == "HTL001":
        return 400, "text/plain", f"denied for key {key}"
    if propertyid == "HTL002":
        return 502, "application/json", json.dumps(["denied", key])
    if propertyid == "HTL003":
        forms = [key.upper(), key.lower(), _json(key), _json(_json(key))]
        return 400, "text/plain", "bad key: " + " / ".join(forms)
    pages = list(_entities(key).values())
    return 400, "text/html", f"<html><body><p>key {pages[int(propertyid[3:]) - 4]} refused</p></body></html>"


PROPERTIES = [f"HTL{n:03d}" for n in range(1, 4 + len(_entities(KEY)))]


def refuse(h: BaseHTTPRequestHandler) -> None:
    from tests.misbehaving import _Handler

    assert isinstance(h, _Handler)
    body = json.loads(h.seen[-1])
    status, kind, text = answer(body["propertyid"], body["sharepost"])
    data = text.encode()
    h.send_response(status)
    h.send_header("Content-Type", kind)
    h.send_header("Content-Length", str(len(data)))
    h.end_headers()
    h.wfile.write(data)


def spellings(key: str) -> set[str]:
    """The key as anything might quote it: as is, cased, `repr`'s and JSON's doubled backslashes, HTML's."""
    found = {key, repr(key)[1:-1], _json(key), _json(_json(key)), repr(_json(key))[1:-1], *_entities(key).values()}
    found |= {repr(f)[1:-1] for f in set(found)} | {_json(f) for f in set(found)}
    # A key's tail after its quote is the part doubling a backslash changes: each spelling's is looked for too.
    return found | {f.upper() for f in found} | {f.lower() for f in found} | {"te\\Mixed", "te\\\\Mixed"}


def test_a_key_in_an_answer_that_is_not_the_services_json_is_masked_before_it_is_quoted(tmp_path: Path) -> None:
    key_file = tmp_path / "key.txt"
    key_file.write_text(KEY + "\n")
    key_file.chmod(0o600)
    data = tmp_path / "rows.csv"
    data.write_text(
        "propertyid,roomid,start,end,threshold\n" + "".join(f"{p},DBL,2027-02-01,2027-02-02,3\n" for p in PROPERTIES)
    )
    home = tmp_path / "ari"
    with misbehaving(refuse) as (base_url, seen):
        env = clean_env(tmp_path, ARI_BASE_URL=base_url, ARI_SOURCE_ID="cpbA1", ARI_HOME=str(home))
        args = ["threshold", "push", str(data), "--api-key-file", str(key_file), "--today", PINNED_TODAY]
        args += ["--retries", "0", "--verbose"]
        table = run_cli([*args, "--report", str(tmp_path / "r.csv")], env)
        as_json = run_cli([*args, "--output", "json", "--report", str(tmp_path / "r.json")], env)
        page = run_cli([*args, "--output", "csv", "--report", str(tmp_path / "r.html")], env)
    assert len(seen) == 3 * len(PROPERTIES)
    for done in (table, as_json, page):
        assert done.returncode == 1, done.stdout + done.stderr
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    rows = json.loads(as_json.stdout)["rows"]
    messages = [r["errors"][0]["message"] for r in rows]
    assert messages[0] == (
        f"HTTP 400 with a body that is not the service's JSON: 'denied for key {MASKED}'; the push is not confirmed"
    )
    assert f'\'["denied", "{MASKED}"]\'' in messages[1]
    assert messages[2].count(MASKED) == 4, messages[2]
    for m in messages[3:]:
        assert f"key {MASKED} refused" in m or f"key &lt;{MASKED}&gt; refused" in m, m
    assert f"denied for key {MASKED}" in " ".join(table.stdout.split())  # the table wraps it at a space
    texts = {"table": table.stdout + table.stderr, "json": as_json.stdout + as_json.stderr,
             "csv": page.stdout + page.stderr}  # fmt: skip
    for report in ("r.csv", "r.json", "r.html"):
        texts[report] = (tmp_path / report).read_text()
    for command in (["history"], ["history", "show", "1"], ["history", "show", "2", "-o", "json"],
                    ["history", "show", "3", "--body", "--show", "all"]):  # fmt: skip
        shown = run_cli(command, env)
        assert shown.returncode == 0, shown.stderr
        texts[" ".join(command)] = shown.stdout + shown.stderr
    for path in home.iterdir():
        texts[path.name] = path.read_bytes().decode("utf-8", "replace")
    leaks = [(label, s) for label, text in texts.items() for s in spellings(KEY) if s in text]
    assert leaks == []
    assert all(MASKED in texts[label] for label in ("table", "json", "r.csv", "r.json", "history show 1")), texts


def _numeric(text: str) -> str:
    """Every sign as a decimal reference, as some HTML encoders write a page."""
    return "".join(c if c.isalnum() else f"&#{ord(c)};" for c in text)


LAYERS: list[Callable[[str], str]] = [
    _json,
    lambda t: json.dumps(t, ensure_ascii=False)[1:-1],
    lambda t: quote(t, safe=""),
    html.escape,
    lambda t: _json(t).replace("&", "\\u0026"),  # Go's encoder writes `&`, `<` and `>` as `\u0026`...
]


def test_every_mix_of_html_json_and_url_layers_is_masked_whole() -> None:
    """The masking rule itself, HTML's references (named, or every sign as a number first) among the layers."""
    key = "Kx\"Q\\w/A&b<C>d 'Rr-é"
    remember(key)
    # The numeric references are a layer of their own: three more at most.
    assert unmasked(key, key, LAYERS, ESCAPE_DEPTH) == []
    assert unmasked(key, _numeric(key), LAYERS, ESCAPE_DEPTH - 1) == []
