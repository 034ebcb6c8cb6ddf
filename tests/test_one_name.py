"""One name per service (issue 40, point 1): base URLs that make the same request URLs are one service in the
journal, `--changed-only`, `diff`, guards and history; a base URL that cannot name a service is refused; an
older journal's spellings are read as one and folded by the first writer."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ari_cli.sandbox import Sandbox
from ari_cli.wire.url import canonical_base_url, identity_problem
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

TODAY = ["--today", PINNED_TODAY]
HEAD = "propertyid,roomid,start,end,threshold\n"
FIXTURE = Path(__file__).parent / "data" / "two-spellings.sqlite3"


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("HTTP://127.0.0.1:8080/.", "http://127.0.0.1:8080"),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"),
        ("https://Push.Example.COM:443/ari/", "https://push.example.com/ari"),
        ("http://LOCALHOST:80/a/./b/../c//", "http://localhost/a/c"),
        ("https://push.example.com/%7eari/%41PI/%2f/%c3%bc", "https://push.example.com/~ari/API/%2F/%C3%BC"),
        ("https://push.example.com/Ari/Push", "https://push.example.com/Ari/Push"),  # the path's case is kept
        ("https://BÜCHER.example/ü", "https://xn--bcher-kva.example/%C3%BC"),
        ("http://[::1]:8080/x/..", "http://[::1]:8080"),
        ("https://push.example.com:8443", "https://push.example.com:8443"),
    ],
)
def test_a_base_url_has_one_canonical_spelling(given: str, canonical: str) -> None:
    assert canonical_base_url(given) == canonical
    assert canonical_base_url(canonical) == canonical


@pytest.mark.parametrize(
    ("given", "problem"),
    [
        ("https://user:secret@push.example.com", "holds a user name or password"),
        ("https://@push.example.com", "holds a user name or password"),
        ("https://push.example.com/?key=secret", "holds a query"),
        ("https://push.example.com?", "holds a query"),
        ("https://push.example.com/#top", "holds a fragment"),
        ("https://user:pa55/word@push.example.com", "holds a user name or password"),  # "/" ends the host
        ("https://push.example.com/ari", None),
    ],
)
def test_what_cannot_name_a_service(given: str, problem: str | None) -> None:
    found = identity_problem(given)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(problem)


def _write(path: Path, *lines: str) -> Path:
    path.write_text(HEAD + "".join(line + "\n" for line in lines))
    return path


def _env(sb: Sandbox, base_url: str) -> dict[str, str]:
    return {**sandbox_env(sb), "ARI_BASE_URL": base_url}


def _other_spelling(sb: Sandbox) -> str:
    return sb.base_url.replace("http://", "HTTP://") + "/."


def test_changed_only_under_another_spelling_sends_what_changed(sb: Sandbox, tmp_path: Path) -> None:
    # The failing case: 3 pushed under one spelling, then 5 under another; the file of 3 again with
    # --changed-only under the first spelling was skipped as unchanged, the service keeping 5, exit 0.
    five = _write(tmp_path / "five.csv", "HTL001,DBL,2027-01-07,2027-01-07,5")
    three = _write(tmp_path / "three.csv", "HTL001,DBL,2027-01-07,2027-01-07,3")
    assert invoke(["threshold", "push", str(three), *TODAY], env=_env(sb, _other_spelling(sb))).exit_code == 0
    assert invoke(["threshold", "push", str(five), *TODAY], env=_env(sb, sb.base_url)).exit_code == 0
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-07"] == "5"
    sent_before = len(sb.received)

    pushed = invoke(["threshold", "push", str(three), *TODAY, "--changed-only", "-o", "json"],
                    env=_env(sb, _other_spelling(sb)))  # fmt: skip

    assert pushed.exit_code == 0, pushed.output
    document = json.loads(pushed.stdout)
    assert [row["status"] for row in document["rows"]] == ["ok"]
    assert "notes" not in document  # the same service: nothing to say of another
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-07"] == "3"
    # The same request URL as under the first spelling.
    paths = {received.path for received in sb.received}
    assert len(sb.received) == sent_before + 1 and paths == {f"/v2/push_ari/{sb.source_id}/sellthresholdupdate"}
    # One service in the journal, named in its one spelling; history and the calendar see both runs there.
    runs = json.loads(invoke(["history", "-o", "json"]).stdout)["runs"]
    assert [run["base_url"] for run in runs] == [sb.base_url] * 3
    calendar = invoke(["calendar", "threshold", "--property", "HTL001", "--room", "DBL", "--from", "2027-01-07",
                       "--to", "2027-01-07", "-o", "json"], env=_env(sb, sb.base_url + "/"))  # fmt: skip
    assert calendar.exit_code == 0, calendar.output
    assert json.loads(calendar.stdout)["keys"][0]["values"] == {"2027-01-07": "3"}


def test_a_guard_under_another_spelling_judges_against_the_journaled_value(sb: Sandbox, tmp_path: Path) -> None:
    five = _write(tmp_path / "five.csv", "HTL001,DBL,2027-01-07,2027-01-07,5")
    nine = _write(tmp_path / "nine.csv", "HTL001,DBL,2027-01-07,2027-01-07,9")
    assert invoke(["threshold", "push", str(five), *TODAY], env=_env(sb, sb.base_url)).exit_code == 0
    sent_before = len(sb.received)

    guarded = invoke(["threshold", "push", str(nine), *TODAY, "--max-step", "3"], env=_env(sb, _other_spelling(sb)))

    assert guarded.exit_code == 5, guarded.output
    assert guarded.stdout == ""
    assert "--max-step: a value would move by 4, over the limit of 3" in guarded.stderr
    assert len(sb.received) == sent_before
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-07"] == "5"


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("flag", "the base URL (flag --base-url) holds a user name or password"),
        ("env", "the base URL (env ARI_BASE_URL) holds a user name or password"),
        ("profile", "the base URL (profile main in "),
    ],
)
@pytest.mark.parametrize("password", ["hunter2", "hun/ter2"])  # a "/" ends the host for urllib
def test_a_base_url_with_a_password_is_refused_wherever_it_comes_from(
    sb: Sandbox, tmp_path: Path, journal_home: Path, where: str, said: str, password: str
) -> None:
    secret_url = sb.base_url.replace("http://", f"http://ops:{password}@")
    data = _write(tmp_path / "a.csv", "HTL001,DBL,2027-01-07,2027-01-07,5")
    env = {"ARI_API_KEY": sb.api_key, "ARI_SOURCE_ID": sb.source_id}
    args = ["threshold", "push", str(data), *TODAY]
    if where == "flag":
        args += ["--base-url", secret_url]
    elif where == "env":
        env["ARI_BASE_URL"] = secret_url
    else:
        config = tmp_path / "config.toml"
        config.write_text(f'[profiles.main]\nbase_url = "{secret_url}"\n')
        args += ["--config", str(config), "--profile", "main"]

    for output in ([], ["-o", "json"]):
        refused = invoke(args + output, env=env)

        assert refused.exit_code == 2, refused.output
        assert said in refused.stderr
        assert "give the service's address alone, as https://host[/path]" in refused.stderr
        assert password not in refused.output and "ops:" not in refused.output and "ter2" not in refused.output
        assert "Traceback" not in refused.output
        if output:
            assert json.loads(refused.stdout)["error"]["kind"] == "usage"
    assert sb.received == []
    assert not (journal_home / "journal.sqlite3").exists()


def test_a_base_url_with_a_query_or_fragment_is_refused(sb: Sandbox, tmp_path: Path) -> None:
    data = _write(tmp_path / "a.csv", "HTL001,DBL,2027-01-07,2027-01-07,5")
    for url, said in ((sb.base_url + "/?token=abc", "holds a query"), (sb.base_url + "#x", "holds a fragment")):
        refused = invoke(["threshold", "diff", str(data), *TODAY], env=_env(sb, url))
        assert refused.exit_code == 2, refused.output
        assert f"error: the base URL (env ARI_BASE_URL) {said}" in refused.stderr
        assert "token=abc" not in refused.output
    assert sb.received == []


def _fixture(home: Path) -> Path:
    path = home / "journal.sqlite3"
    shutil.copyfile(FIXTURE, path)
    return path


# The fixture's service (tests/data/make_two_spellings_journal.py): what it holds of HTL001, both spellings merged.
FIXTURE_BASE = "http://127.0.0.1:47811"
HELD = {"DBL": ["5", "5", "6", "9", "5"], "TWN": ["7"] * 5}


def _diff(data: Path, base_url: str) -> dict[str, Any]:
    env = {"ARI_BASE_URL": base_url, "ARI_SOURCE_ID": "cpbA1"}
    result = invoke(["threshold", "diff", str(data), *TODAY, "--show", "all", "-o", "json"], env=env)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _befores(document: dict[str, Any]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for change in document["changes"]:
        days = int(change["end"][-2:]) - int(change["start"][-2:]) + 1
        found.setdefault(change["roomid"], []).extend([str(change["before"])] * days)
    return found


def test_a_journal_of_two_spellings_is_read_as_one_service_and_folded_by_the_first_writer(
    tmp_path: Path, journal_home: Path
) -> None:
    path = _fixture(journal_home)
    data = _write(tmp_path / "five.csv", "HTL001,DBL,2027-01-01,2027-01-05,5", "HTL001,TWN,2027-01-01,2027-01-05,7")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()

    # Before any write: a reader takes both spellings as one service, the later acknowledgements painting over.
    for spelling in (FIXTURE_BASE, "HTTP://127.0.0.1:47811/."):
        document = _diff(data, spelling)
        assert _befores(document) == HELD
        assert document["base_url"] == FIXTURE_BASE
        assert document["summary"]["changed"] == {"ranges": 2, "dates": 2}  # DBL's 6 and 9 go back to 5
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest  # a reader changes nothing

    # One write (a --changed-only dry run opens the journal to write) folds the spellings into one service.
    env = {"ARI_BASE_URL": "HTTP://127.0.0.1:47811/.", "ARI_SOURCE_ID": "cpbA1", "ARI_API_KEY": "sandbox-key-0001"}
    dry = invoke(["threshold", "push", str(data), *TODAY, "--changed-only", "--dry-run", "-o", "json"], env=env)
    assert dry.exit_code == 0, dry.output
    requests = json.loads(dry.stdout)["requests"]
    assert [(r["propertyid"], r["records"]) for r in requests] == [("HTL001", 1)]
    assert [(v["roomid"], v["startdateymd"], v["enddateymd"]) for v in requests[0]["body"]["data"]] == [
        ("DBL", "2027-01-03", "2027-01-04")
    ]

    db = sqlite3.connect(path)
    assert db.execute("SELECT operation, base_url, source_id FROM services").fetchall() == [
        ("threshold", FIXTURE_BASE, "cpbA1")
    ]
    assert db.execute("SELECT id, base_url FROM runs ORDER BY id").fetchall() == [
        (1, FIXTURE_BASE), (2, FIXTURE_BASE), (3, FIXTURE_BASE)
    ]  # fmt: skip
    assert db.execute("SELECT roomid, start, end, value, run FROM acked ORDER BY roomid, start").fetchall() == [
        ("DBL", "2027-01-01", "2027-01-02", "5", 1),
        ("DBL", "2027-01-03", "2027-01-03", "6", 2),
        ("DBL", "2027-01-04", "2027-01-04", "9", 3),
        ("DBL", "2027-01-05", "2027-01-05", "5", 1),
        ("TWN", "2027-01-01", "2027-01-05", "7", 2),
    ]
    # The URLs of the requests are kept as they were sent.
    sent = {url.split("/v2/")[0] for (url,) in db.execute("SELECT url FROM requests")}
    assert sent == {FIXTURE_BASE, "HTTP://127.0.0.1:47811/."}
    db.close()
    assert _befores(_diff(data, FIXTURE_BASE)) == HELD


def test_another_host_stays_another_service_and_is_named(sb: Sandbox, tmp_path: Path) -> None:
    five = _write(tmp_path / "five.csv", "HTL001,DBL,2027-01-07,2027-01-07,5")
    assert invoke(["threshold", "push", str(five), *TODAY], env=_env(sb, sb.base_url)).exit_code == 0
    localhost = sb.base_url.replace("127.0.0.1", "localhost")
    said = (
        f"the journal holds no threshold value of these properties that {localhost} (source {sb.source_id}) "
        f"acknowledged, but holds some from {sb.base_url} with that source id: compared with {localhost}, every "
        f"date is new; if {sb.base_url} is the same service, give --base-url {sb.base_url}"
    )

    diffed = invoke(["threshold", "diff", str(five), *TODAY, "-o", "json"], env=_env(sb, localhost))
    assert diffed.exit_code == 0, diffed.output
    assert said in " ".join(diffed.stderr.split())
    document = json.loads(diffed.stdout)
    assert document["notes"] == [said]
    assert document["summary"]["new"] == {"ranges": 1, "dates": 1}

    for extra in (["--changed-only"], ["--max-step", "3"]):
        dry = invoke(["threshold", "push", str(five), *TODAY, "--dry-run", "--quiet", "-o", "json", *extra],
                     env=_env(sb, localhost))  # fmt: skip
        assert dry.exit_code == 0, dry.output
        assert f"warning: {said}" in " ".join(dry.stderr.split())
        assert json.loads(dry.stdout)["notes"] == [said]

    # Under its own base URL nothing is said.
    same = invoke(["threshold", "diff", str(five), *TODAY, "-o", "json"], env=_env(sb, sb.base_url))
    assert "notes" not in json.loads(same.stdout) and "holds no threshold value" not in same.stderr


def test_the_config_commands_keep_one_spelling_and_never_show_a_password(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[profiles.main]\nbase_url = "https://ops:hunter2@push.example.com"\nsource_id = "cpbA1"\n'
                      '[profiles.other]\nbase_url = "HTTPS://Push.Example.COM:443/ari/./"\nsource_id = "cpbA1"\n')  # fmt: skip

    listed = invoke(["config", "profiles", "--config", str(config), "-o", "json"])
    assert listed.exit_code == 0, listed.output
    urls = {p["name"]: p["base_url"] for p in json.loads(listed.stdout)["profiles"]}
    assert urls == {"main": "(refused: it holds a user name or password)", "other": "https://push.example.com/ari"}
    assert "hunter2" not in listed.output

    shown = invoke(["config", "show", "--config", str(config), "--profile", "main"])
    assert shown.exit_code == 2
    assert f"error: the base URL (profile main in {config}) holds a user name or password" in shown.stderr
    assert "hunter2" not in shown.output

    other = invoke(["config", "show", "--config", str(config), "--profile", "other", "-o", "json"],
                   env={"ARI_API_KEY": "k" * 12})  # fmt: skip
    assert other.exit_code == 0, other.output
    assert "https://push.example.com/ari" in other.stdout and "Push.Example" not in other.stdout

    saved = invoke(["config", "set", "base_url", "HTTPS://Push.Example.COM/./", "--config", str(config),
                    "--profile", "other"])  # fmt: skip
    assert saved.exit_code == 0, saved.output
    assert 'base_url = "https://push.example.com"' in config.read_text()
    refused = invoke(["config", "set", "base_url", "https://push.example.com/?k=1", "--config", str(config),
                      "--profile", "other"])  # fmt: skip
    assert refused.exit_code == 2 and "holds a query" in refused.stderr


def test_revert_puts_back_what_another_spelling_of_the_service_set(journal_home: Path) -> None:
    path = _fixture(journal_home)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    # Run 3 set DBL 2027-01-04 to 9 over run 2's 6, which run 2 sent under the other spelling.
    result = invoke(["revert", "3", "--dry-run", *TODAY, "-o", "json"], env={"ARI_API_KEY": "sandbox-key-0001"})
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [(c["roomid"], c["start"], c["end"], c["kind"], c["before"], c["after"]) for c in document["changes"]] == [
        ("DBL", "2027-01-04", "2027-01-04", "changed", "9", "6")
    ]
    assert document["base_url"] == FIXTURE_BASE
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest  # a dry run only reads


@pytest.mark.parametrize("command", [["threshold", "push"], ["threshold", "diff"]])
def test_a_base_url_that_is_not_a_url_is_a_configuration_error(
    sb: Sandbox, tmp_path: Path, journal_home: Path, command: list[str]
) -> None:
    data = _write(tmp_path / "a.csv", "HTL001,DBL,2027-01-07,2027-01-07,5")
    env = {"ARI_API_KEY": sb.api_key, "ARI_SOURCE_ID": sb.source_id, "ARI_BASE_URL": "http://[::1"}
    done = invoke([*command, str(data), *TODAY], env=env)
    assert done.exit_code == 4, done.output
    assert done.stderr.startswith("error: base URL 'http://[::1' is not an http(s) URL")
    assert "internal error" not in done.output and "Traceback" not in done.output
    assert sb.received == []
