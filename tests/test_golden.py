"""What the commands print, byte for byte, held against outputs recorded before a restructuring.

A restructuring (issue 41: settings resolved once, one descriptor per operation) must not change what a user sees.
This test runs one session of commands against a pinned sandbox, in order (later commands read the journal the
earlier ones wrote), and compares each command's standard output, standard error and exit code with
`tests/golden/NAME.txt`. What changes from run to run (the sandbox's port, tracking ids, run times, folders) is
replaced by placeholders first. A deliberate change of output is recorded again with `ARI_GOLDEN_UPDATE=1 pytest
tests/test_golden.py`, and the diff of `tests/golden/` is reviewed (and listed in CHANGELOG.md) like code.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
from pathlib import Path

import pytest
import typer

from ari_cli.cli import app
from ari_cli.sandbox import Sandbox
from tests.helpers import invoke, sandbox_env, subcommands

GOLDEN = Path(__file__).parent / "golden"
SAMPLES = Path(__file__).parent.parent / "samples"
TODAY = ["--today", "2027-01-01"]

# (name, arguments). {s} is the samples folder copied beside the test, {t} the test's folder.
SESSION: list[tuple[str, list[str]]] = [
    ("threshold-dry-table", ["threshold", "push", "{s}/threshold.csv", "--dry-run", *TODAY]),
    ("threshold-dry-json", ["threshold", "push", "{s}/threshold.csv", "--dry-run", "-o", "json", *TODAY]),
    ("threshold-dry-csv", ["threshold", "push", "{s}/threshold.xlsx", "--dry-run", "-o", "csv", *TODAY]),
    ("threshold-diff-first", ["threshold", "diff", "{s}/threshold.csv", *TODAY]),
    ("threshold-push", ["threshold", "push", "{s}/threshold.csv", "--report", "{t}/r1.csv", *TODAY]),
    ("threshold-push-jsonl", ["threshold", "push", "{s}/threshold.jsonl", "-o", "json", *TODAY]),
    ("threshold-push-weekdays", ["threshold", "push", "{s}/threshold-weekdays.csv", "--show", "all", *TODAY]),
    ("threshold-diff-daily", ["threshold", "diff", "{s}/threshold-daily.csv", *TODAY]),
    (
        "threshold-changed-only",
        [
            "threshold",
            "push",
            "{s}/threshold-daily.csv",
            "--changed-only",
            "-o",
            "json",
            "--report",
            "{t}/r2.json",
            *TODAY,
        ],
    ),
    ("threshold-guard", ["threshold", "push", "{t}/guard.csv", "--max-step", "1", "--max-changed", "1", *TODAY]),
    ("threshold-guard-json", ["threshold", "push", "{t}/guard.csv", "--max-changed", "5%", "-o", "json", *TODAY]),
    (
        "threshold-send",
        [
            "threshold",
            "send",
            "--property",
            "HTL001",
            "--room",
            "DBL",
            "--start",
            "2027-02-01",
            "--end",
            "2027-02-03",
            "--threshold",
            "4",
            *TODAY,
        ],
    ),
    ("maxadv-dry-table", ["maxadv", "push", "{s}/maxadv.csv", "--dry-run", *TODAY]),
    ("maxadv-push", ["maxadv", "push", "{s}/maxadv.json", "--report", "{t}/r3.html", *TODAY]),
    ("maxadv-diff", ["maxadv", "diff", "{s}/maxadv.xlsx", "-o", "json", *TODAY]),
    ("policy-dry-json", ["policy", "push", "{s}/policy.json", "--dry-run", "-o", "json", *TODAY]),
    ("policy-push", ["policy", "push", "{s}/policy.csv", *TODAY]),
    (
        "policy-named",
        ["policy", "push", "{s}/policy-named.csv", "--policies", "{s}/policies.toml", "-o", "csv", *TODAY],
    ),
    ("policy-xlsx-curl", ["policy", "push", "{s}/policy.xlsx", "--dry-run", "--curl", *TODAY]),
    (
        "calendar-threshold",
        ["calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-02-05"],
    ),
    ("calendar-maxadv-json", ["calendar", "maxadv", "--property", "HTL001", "--from", "2027-01-01", "-o", "json"]),
    (
        "calendar-policy-html",
        ["calendar", "policy", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-01-10", "-o", "html"],
    ),
    ("history", ["history", "-n", "0"]),
    ("history-json", ["history", "-o", "json"]),
    ("history-show-1", ["history", "show", "1"]),
    ("history-show-5-json", ["history", "show", "5", "-o", "json"]),
    ("history-find-date", ["history", "find", "--property", "HTL001", "--date", "2027-01-05"]),
    ("retry-finished", ["retry", "1"]),
    ("revert-dry", ["revert", "4", "--dry-run", *TODAY]),
    ("revert-json", ["revert", "5", "--yes", "--clear-unknown", "-o", "json", *TODAY]),
    ("history-show-revert", ["history", "show", "9"]),
    ("replay", ["replay", "{s}/partner-call.json", "--dry-run"]),
    ("replay-send", ["replay", "{s}/calls.jsonl", "-o", "json"]),
    ("explain-446", ["explain", "446"]),
    ("explain-http-503", ["explain", "503"]),
    ("errors", ["errors"]),
    ("errors-json", ["errors", "-o", "json"]),
    ("config-show", ["config", "show"]),
    ("config-show-json", ["config", "show", "-o", "json"]),
    ("bad-date", ["threshold", "push", "{t}/bad.csv", *TODAY]),
    ("bad-date-json", ["threshold", "push", "{t}/bad.csv", "-o", "json", *TODAY]),
    ("unknown-column", ["maxadv", "push", "{t}/bad.csv", "--dry-run", *TODAY]),
    ("no-profile", ["threshold", "push", "{s}/threshold.csv", "--profile", "nope", *TODAY]),
    ("bad-url", ["maxadv", "push", "{s}/maxadv.csv", "--base-url", "https://u:p@example.test/x", *TODAY]),
]

_VOLATILE = [
    (re.compile(r"sbx-[0-9a-f]{32}"), None),  # tracking ids: numbered in order of appearance
    (re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:?\d\d|Z)?"), "<time>"),
    (re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s)\b(?=[ ,)\"\n]|$)"), "<duration>"),
    (re.compile(r'"(elapsed|duration|seconds)(_s|_ms)?": [0-9.]+'), r'"\1\2": <duration>'),
    (re.compile(r"sha256 [0-9a-f]{12}"), "sha256 <hash>"),
    # An HTML page's time in the machine's zone: its name and offset are the zone's, not the tool's.
    (re.compile(r"<time> [A-Za-z0-9+-]* ?\(UTC[+-]\d\d:\d\d\)"), "<time> <zone>"),
]


def _normalise(text: str, replacements: dict[str, str]) -> str:
    for real, placeholder in replacements.items():
        text = text.replace(real, placeholder)
    seen: dict[str, str] = {}

    def _number(match: re.Match[str]) -> str:
        return seen.setdefault(match.group(0), f"<tracking {len(seen) + 1}>")

    for pattern, placeholder in _VOLATILE:
        text = pattern.sub(_number if placeholder is None else placeholder, text)
    return text


def _help_tree() -> list[tuple[str, list[str]]]:
    """`--help` of the root, every group and every command."""
    out: list[tuple[str, list[str]]] = [("help", ["--help"])]
    for name, command in sorted(subcommands(typer.main.get_command(app)).items()):
        out.append((f"help-{name}", [name, "--help"]))
        for sub in sorted(subcommands(command)):
            out.append((f"help-{name}-{sub}", [name, sub, "--help"]))
    return out


def test_outputs_are_as_recorded(
    same_length_folder: Path, tmp_path_factory: pytest.TempPathFactory, _no_user_config: Path
) -> None:
    # Tables wrap at the terminal's width, and they show file paths: the folder's path is as long in every run.
    tmp_path = same_length_folder
    samples = tmp_path / "samples"
    shutil.copytree(SAMPLES, samples)
    (tmp_path / "guard.csv").write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-10,9\n")
    (tmp_path / "bad.csv").write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-02-30,2027-03-01,2\n")
    update = os.environ.get("ARI_GOLDEN_UPDATE") == "1"
    mismatched: list[str] = []
    with Sandbox(today="2027-01-01") as sandbox:
        env = {**sandbox_env(sandbox), "COLUMNS": "120"}
        replacements = {
            sandbox.base_url: "<sandbox>",
            str(tmp_path): "<tmp>",
            sandbox.api_key: "<key>",
            os.environ["ARI_HOME"]: "<home>",
            # Numbered by how many tests ran before this one on its worker.
            str(_no_user_config.parent): "<user-config>",
            str(tmp_path_factory.getbasetemp()): "<pytest>",
        }
        for name, args in [*SESSION, *_help_tree()]:
            argv = [a.replace("{s}", str(samples)).replace("{t}", str(tmp_path)) for a in args]
            result = invoke(argv, env=env)
            shown = [f"$ ari-cli {' '.join(args)}", f"exit {result.exit_code}", "--- stdout", result.stdout,
                     "--- stderr", result.stderr]  # fmt: skip
            for report in sorted(tmp_path.glob("r*.*")):
                shown += [f"--- {report.name}", report.read_text()]
                report.unlink()
            text = _normalise("\n".join(shown), replacements)
            if name.startswith("help"):
                # Typer lays out its own panels (the gap after a command's name) differently from one version to
                # the next (CI's lowest versions): what --help says is held, not how Typer spaces its columns.
                text = re.sub(r" {2,}", " ", text)
            golden = GOLDEN / f"{name}.txt"
            if update:
                GOLDEN.mkdir(exist_ok=True)
                golden.write_text(text)
            elif not golden.exists() or golden.read_text() != text:
                before = golden.read_text().splitlines() if golden.exists() else []
                mismatched.append("\n".join(difflib.unified_diff(before, text.splitlines(), name, "now", lineterm="")))
    assert not mismatched, "outputs differ from tests/golden/:\n" + "\n".join(mismatched)[:6000]
