"""`--report` never overwrites a file the run needs: the key file, the config file, the journal and its notes, an
input. Refused with exit 2 before anything is read or sent, through links and other spellings of the path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.test_faults import clean_env, run_cli

ROWS = "propertyid,roomid,date,threshold\nHTL001,DBL,2027-01-02,1\n"


@pytest.fixture
def place(tmp_path: Path) -> dict[str, Path]:
    """A key file named like a report, a config naming another, a journal folder and an input."""
    (tmp_path / "keys").mkdir()
    key = tmp_path / "keys" / "key.csv"
    config = tmp_path / "config.toml"
    profile_key = tmp_path / "keys" / "profile-key.json"
    home = tmp_path / "home"
    home.mkdir()
    rows = tmp_path / "rows.csv"
    rows.write_text(ROWS)
    return {"key": key, "config": config, "profile_key": profile_key, "home": home, "rows": rows, "tmp": tmp_path}


def _links(tmp: Path, target: Path, name: str) -> Path:
    link = tmp / name
    link.symlink_to(target)
    return link


CASES = {
    "the key file": lambda p: p["key"],
    "the key file, spelled otherwise": lambda p: p["tmp"] / "keys" / ".." / "keys" / "." / "key.csv",
    "the key file through a link": lambda p: _links(p["tmp"], p["key"], "report.csv"),
    "the key file through a linked folder": lambda p: _links(p["tmp"], p["tmp"] / "keys", "linked") / "key.csv",
    "a key file the config names": lambda p: p["profile_key"],
    "the config file through a link": lambda p: _links(p["tmp"], p["config"], "config.json"),
    "the journal through a link": lambda p: _links(p["tmp"], p["home"] / "journal.sqlite3", "journal.csv"),
    "a note of the journal, not there yet": lambda p: p["home"] / "journal.sqlite3.run7.pending.csv",
    "an input through a hard link": lambda p: Path(os.link(p["rows"], p["tmp"] / "hard.csv") or p["tmp"] / "hard.csv"),
    "an input, spelled relative": lambda p: Path(os.path.relpath(p["rows"])),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_report_over_a_file_the_run_needs_is_refused_before_anything_is_sent(
    place: dict[str, Path], case: str
) -> None:
    with Sandbox(today=PINNED_TODAY) as sb:
        place["key"].write_text(sb.api_key + "\n")
        place["profile_key"].write_text(sb.api_key + "\n")
        for key in (place["key"], place["profile_key"]):
            key.chmod(0o600)
        place["config"].write_text(f'[profiles.default]\nbase_url = "{sb.base_url}"\nsource_id = "{sb.source_id}"\n'
                                   f'api_key_file = "{place["profile_key"]}"\n')  # fmt: skip
        place["config"].chmod(0o600)
        journal = place["home"] / "journal.sqlite3"
        env = clean_env(place["tmp"], ARI_HOME=str(place["home"]), ARI_CONFIG=str(place["config"]))
        first = run_cli(["threshold", "push", str(place["rows"]), "--today", PINNED_TODAY], env)
        assert first.returncode == 0, first.stderr
        received = len(sb.received)
        report = CASES[case](place)
        kept = {path: path.read_bytes() for path in (place["key"], place["config"], place["profile_key"], journal,
                                                      place["rows"])}  # fmt: skip
        args = ["threshold", "push", str(place["rows"]), "--today", PINNED_TODAY, "--report", str(report)]
        key_flag = ["--api-key-file", str(place["key"])] if "the key file" in case else []
        pushed = run_cli([*args, *key_flag], env)
        assert pushed.returncode == 2, (pushed.stdout, pushed.stderr)
        assert f"error: --report {report} is " in pushed.stderr and "the report would overwrite it" in pushed.stderr
        assert "hint: choose another path for the report" in pushed.stderr
        assert pushed.stdout == ""
        assert len(sb.received) == received  # nothing sent
        assert {path: path.read_bytes() for path in kept} == kept
        if "input" not in case:  # a retry reads no input
            retried = run_cli(["retry", "1", "--report", str(report), *key_flag], env)
            assert retried.returncode == 2 and "the report would overwrite it" in retried.stderr, retried.stderr
