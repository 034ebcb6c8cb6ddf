"""Profiles and settings: precedence, the config file's errors, `config show|init|profiles`, the key kept secret."""

from __future__ import annotations

import json
import os
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from ari_cli.config.file import profile_text
from ari_cli.config.options import ConnectionOptions, PlanOptions
from ari_cli.config.settings import resolve
from ari_cli.config.tuning import TUNING_DEFAULTS
from ari_cli.exits import ConfigError
from tests.helpers import invoke, sandbox_env
from tests.terminal import converse

KEY = "prod-key-9f8e7d6c5b4a"
ENV_KEY = "env-key-1234567890ab"
posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")


def write_config(path: Path, text: str, mode: int = 0o600) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def show(args: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    result = invoke(["config", "show", "--output", "json", *args], env=env)
    assert result.exit_code in (0, 4), result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def sources(document: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    return {name: (s["value"], s["source"]) for name, s in document["settings"].items()}


PROD = f"""\
# The team's settings.
[profiles.default]
base_url = "https://push.example.com"
source_id = "cpbP1"
api_key = "{KEY}"
batch_size = 7

[profiles.test]
base_url = "http://127.0.0.1:8765"
source_id = "cpbT1"
api_key_env = "ARI_TEST_KEY"
path_segment = "{{action}}/{{propertyid}}"
retries = 0
timeout = 5
"""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(tmp_path / "config.toml", PROD)


# --- precedence -------------------------------------------------------------------------------


def test_profile_over_defaults(config: Path) -> None:
    got = sources(show(["--config", str(config)]))
    where = f"profile default in {config}"
    assert got["base_url"] == ("https://push.example.com", where)
    assert got["source_id"] == ("cpbP1", where)
    assert got["api_key"] == ("prod…5b4a", where)
    assert got["batch_size"] == (7, where)
    assert got["path_segment"] == ("{action}", "default")
    assert got["concurrency"] == (TUNING_DEFAULTS["concurrency"], "default")


def test_environment_over_profile_and_flags_over_environment(config: Path) -> None:
    env = {"ARI_BASE_URL": "https://env.example.com", "ARI_SOURCE_ID": "cpbE1", "ARI_API_KEY": ENV_KEY}
    got = sources(show(["--config", str(config)], env))
    assert got["base_url"] == ("https://env.example.com", "env ARI_BASE_URL")
    assert got["source_id"] == ("cpbE1", "env ARI_SOURCE_ID")
    assert got["api_key"][1] == "env ARI_API_KEY"
    key_file = config.parent / "key.txt"
    key_file.write_text("flag-key-abcdefghijkl\n")
    flags = ["--base-url", "https://flag.example.com", "--source-id", "cpbF1", "--api-key-file", str(key_file)]
    got = sources(show(["--config", str(config), *flags, "--batch-size", "3"], env))
    assert got["base_url"] == ("https://flag.example.com", "flag --base-url")
    assert got["source_id"] == ("cpbF1", "flag --source-id")
    assert got["api_key"] == ("flag…ijkl", "flag --api-key-file")
    assert got["batch_size"] == (3, "flag --batch-size")


def test_profile_and_config_from_the_environment(config: Path) -> None:
    env = {"ARI_CONFIG": str(config), "ARI_PROFILE": "test", "ARI_TEST_KEY": ENV_KEY}
    document = show([], env)
    assert document["profile"] == "test" and document["profile_source"] == "env ARI_PROFILE"
    assert document["config_file_source"] == "env ARI_CONFIG"
    got = sources(document)
    assert got["api_key"] == ("env-…90ab", f"profile test in {config}, env ARI_TEST_KEY")
    assert got["path_segment"] == ("{action}/{propertyid}", f"profile test in {config}")
    assert got["retries"] == (0, f"profile test in {config}") and got["timeout"] == (5.0, f"profile test in {config}")
    # The flag names another profile than the environment does: the flag wins.
    assert show(["--profile", "default"], env)["profile"] == "default"


def test_the_user_config_file_is_read_without_being_named(_no_user_config: Path) -> None:
    write_config(_no_user_config, PROD)
    got = sources(show([]))
    assert got["base_url"] == ("https://push.example.com", f"profile default in {_no_user_config}")


def test_no_config_file_is_fine_with_flags_and_environment() -> None:
    env = {"ARI_BASE_URL": "https://env.example.com", "ARI_SOURCE_ID": "cpbE1", "ARI_API_KEY": ENV_KEY}
    result = invoke(["config", "show"], env=env)
    assert result.exit_code == 0, result.output
    assert "not found" in result.stdout


def test_resolve_takes_given_options_over_the_profile(config: Path) -> None:
    flags = ConnectionOptions(config=config)
    assert resolve({}, flags).tuned.batch_size == 7
    assert resolve({}, flags, PlanOptions(batch_size=50)).tuned.batch_size == 50


def _requests(result: Any) -> int:
    count: int = json.loads(result.stdout)["summary"]["requests"]
    return count


def test_push_uses_the_profile_and_an_explicit_flag_beats_it(tmp_path: Path) -> None:
    config = write_config(tmp_path / "c.toml", PROD.replace("batch_size = 7", "batch_size = 1"))
    rows = "\n".join(f"HTL001,R{i},2099-01-01,2099-01-02,3" for i in range(3))
    data = tmp_path / "rooms.csv"
    data.write_text("propertyid,roomid,start,end,threshold\n" + rows + "\n")
    base = ["threshold", "push", str(data), "--dry-run", "--output", "json", "--config", str(config)]
    assert _requests(invoke(base)) == 3
    # --batch-size 50 is also the default: given on the command line, it still wins over the profile.
    assert _requests(invoke([*base, "--batch-size", "50"])) == 1


def test_a_profile_pushes_to_the_sandbox(tmp_path: Path, sandbox: Any) -> None:
    env = sandbox_env(sandbox)
    text = f'[profiles.local]\nbase_url = "{env["ARI_BASE_URL"]}"\nsource_id = "{env["ARI_SOURCE_ID"]}"\n'
    config = write_config(tmp_path / "c.toml", text + 'api_key_file = "key.txt"\n')
    (tmp_path / "key.txt").write_text(env["ARI_API_KEY"] + "\n")  # relative to the config file's folder
    data = tmp_path / "rooms.csv"
    data.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,today+1,today+3,2\n")
    result = invoke(["threshold", "push", str(data), "--config", str(config), "--profile", "local"])
    assert result.exit_code == 0, result.output
    assert len(sandbox.received) == 1
    assert sandbox.api_key not in result.stdout + result.stderr


# --- errors of the file and of the profile ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[profiles.default]\nbase_url = https://x.example.com\n", "line 2, column 12: Invalid value"),
        ('[profiles.default]\nsource_id = "cpbA1"\nsource_id = "cpbA2"\n', "line 3"),
        ('[profiles.default\nbase_url = "https://x"\n', "line 1"),
        (f"[profiles.default]\napi_key = {KEY}\n", "line 2"),
    ],
)
def test_a_malformed_file_is_one_error_with_its_line(tmp_path: Path, text: str, expected: str) -> None:
    config = write_config(tmp_path / "c.toml", text)
    result = invoke(["config", "show", "--config", str(config)])
    assert result.exit_code == 4
    assert f"error: config file {config}, {expected}" in result.stderr
    assert "hint: text needs quotes" in result.stderr
    assert result.stderr.count("error:") == 1 and "Traceback" not in result.stderr
    assert KEY not in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("text", "expected", "hint"),
    [
        ('[profiles.default]\nbaseurl = "https://x"\n', "line 2: unknown setting 'baseurl'", "did you mean base_url?"),
        ("[profiles.default]\nbatch-size = 5\n", "unknown setting 'batch-size'", "did you mean batch_size?"),
        ('base_url = "https://x"\n', "line 1: unknown 'base_url'", "below a line [profiles.default]"),
        ('[default]\nbase_url = "https://x"\n', "line 1: unknown 'default'", "written [profiles.default]"),
        ("[profiles.default]\nbatch_size = 0\n", "line 2: batch_size must be a whole number, 1 to 1000, not 0", ""),
        ('[profiles.default]\ndata_form = "dict"\n', 'data_form must be "list" or "object"', ""),
        (f'[profiles.default]\napi_key = "{KEY}"\napi_key_env = "X"\n', "gives api_key and api_key_env", "keep one"),
        ("[profiles.default]\napi_key = 12345678901234\n", "line 2: api_key must be a text in quotes", ""),
    ],
)
def test_a_wrong_setting_names_the_key_and_suggests(tmp_path: Path, text: str, expected: str, hint: str) -> None:
    config = write_config(tmp_path / "c.toml", text)
    result = invoke(["config", "show", "--config", str(config)])
    assert result.exit_code == 4
    assert expected in result.stderr and hint in result.stderr
    assert "12345678901234" not in result.stderr and KEY not in result.stderr


def test_an_unknown_profile_lists_the_profiles(config: Path) -> None:
    result = invoke(["config", "show", "--config", str(config), "--profile", "prod"])
    assert result.exit_code == 4
    assert "no profile 'prod' (flag --profile)" in result.stderr and "default, test" in result.stderr


def test_a_named_config_file_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    for args, env in ((["--config", str(missing)], {}), ([], {"ARI_CONFIG": str(missing)})):
        result = invoke(["config", "show", *args], env=env)
        assert result.exit_code == 4 and f"config file {missing} does not exist" in result.stderr


def test_plain_http_in_a_profile_is_refused_for_a_remote_host(tmp_path: Path) -> None:
    text = f'[profiles.default]\nbase_url = "http://push.example.com"\nsource_id = "cpbA1"\napi_key = "{KEY}"\n'
    config = write_config(tmp_path / "c.toml", text)
    data = tmp_path / "r.csv"
    data.write_text("propertyid,roomid,start,end,threshold\nH,R,today+1,today+2,1\n")
    result = invoke(["threshold", "push", str(data), "--config", str(config)])
    assert result.exit_code == 4
    assert "plain http:// is refused for push.example.com" in result.stderr
    assert invoke(["config", "show", "--config", str(config)]).exit_code == 4


def test_an_unset_key_variable_is_named(config: Path) -> None:
    result = invoke(["config", "show", "--config", str(config), "--profile", "test"])
    assert result.exit_code == 4
    assert "$ARI_TEST_KEY, which is not set" in result.stderr


def test_a_missing_setting_is_named_with_how_to_set_it(tmp_path: Path) -> None:
    config = write_config(tmp_path / "c.toml", '[profiles.default]\nbase_url = "https://x.example.com"\n')
    result = invoke(["config", "show", "--config", str(config)])
    assert result.exit_code == 4 and "no API key, source id configured" in result.stderr
    assert "ari-cli config init" in result.stderr


# --- the key stays secret ---------------------------------------------------------------------


@pytest.mark.parametrize("output", ["table", "json"])
def test_config_show_never_shows_the_key(config: Path, output: str) -> None:
    key_file = config.parent / "k"
    key_file.write_text(ENV_KEY)
    for args, env in (
        ([], {}),
        (["--profile", "test"], {"ARI_TEST_KEY": ENV_KEY}),
        ([], {"ARI_API_KEY": ENV_KEY}),
        (["--api-key-file", str(key_file)], {}),
    ):
        result = invoke(["config", "show", "--config", str(config), "--output", output, *args], env=env)
        assert result.exit_code == 0, result.output
        shown = result.stdout + result.stderr
        assert KEY not in shown and ENV_KEY not in shown
        assert "…" in shown


def test_settings_repr_masks_the_key(config: Path) -> None:
    settings = resolve({}, ConnectionOptions(config=config))
    assert KEY not in repr(settings) and KEY not in repr(settings.connection())


# --- permissions ------------------------------------------------------------------------------


@posix_only
def test_a_config_file_others_can_read_gives_one_warning_with_the_fix(config: Path) -> None:
    config.chmod(0o644)
    result = invoke(["config", "show", "--config", str(config)])
    assert result.exit_code == 0
    assert result.stderr.count("warning:") == 1
    assert f"warning: {config} is readable by others (mode 644); run: chmod 600 {config}" in result.stderr
    config.chmod(0o600)
    assert "warning" not in invoke(["config", "show", "--config", str(config)]).stderr


@posix_only
def test_a_push_warns_about_a_readable_config_file(config: Path, tmp_path: Path) -> None:
    config.chmod(0o640)
    data = tmp_path / "r.csv"
    data.write_text("propertyid,roomid,start,end,threshold\nH,R,2099-01-01,2099-01-02,1\n")
    result = invoke(["threshold", "push", str(data), "--dry-run", "--config", str(config), "--quiet"])
    assert result.exit_code == 0, result.output
    assert f"chmod 600 {config}" in result.stderr


# --- config init ------------------------------------------------------------------------------

SCRIPTED = ["--base-url", "https://push.example.com", "--source-id", "cpbA1", "--api-key-env", "MY_ARI_KEY"]


@posix_only
def test_init_writes_a_private_file_and_will_not_overwrite_without_force(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    result = invoke(["config", "init", "--config", str(path), *SCRIPTED])
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    settings = resolve({"MY_ARI_KEY": ENV_KEY}, ConnectionOptions(config=path))
    assert settings.connection().api_key == ENV_KEY
    again = invoke(["config", "init", "--config", str(path), *SCRIPTED[:-1], "OTHER"])
    assert again.exit_code == 4 and "already exists" in again.stderr and "--force" in again.stderr
    assert "MY_ARI_KEY" in path.read_text()
    forced = invoke(["config", "init", "--config", str(path), "--force", *SCRIPTED[:-1], "OTHER"])
    assert forced.exit_code == 0 and "OTHER" in path.read_text() and "MY_ARI_KEY" not in path.read_text()


def test_init_adds_a_profile_and_keeps_the_others_with_their_comments(config: Path) -> None:
    before = config.read_text()
    result = invoke(["config", "init", "--config", str(config), "--profile", "staging", *SCRIPTED])
    assert result.exit_code == 0, result.output
    after = config.read_text()
    assert after.startswith(before.rstrip("\n")) and "[profiles.staging]" in after
    listed = invoke(["config", "profiles", "--config", str(config)]).stdout
    assert [line.split()[0] for line in listed.splitlines()[1:]] == ["*", "test", "staging"]
    assert "default" in listed and KEY not in listed


def test_init_with_force_replaces_only_its_profile(config: Path) -> None:
    result = invoke(["config", "init", "--config", str(config), "--profile", "default", "--force", *SCRIPTED])
    assert result.exit_code == 0, result.output
    text = config.read_text()
    assert KEY not in text and "# The team's settings." in text and "[profiles.test]" in text
    assert resolve({"ARI_TEST_KEY": ENV_KEY}, ConnectionOptions(config=config, profile="test")).value("retries") == 0


def test_init_with_a_key_file_saves_its_path_not_the_key(tmp_path: Path) -> None:
    key_file = tmp_path / "key.txt"
    key_file.write_text(KEY)
    path = tmp_path / "c.toml"
    args = ["--base-url", "https://push.example.com", "--source-id", "cpbA1", "--api-key-file", str(key_file)]
    result = invoke(["config", "init", "--config", str(path), *args])
    assert result.exit_code == 0, result.output
    assert KEY not in path.read_text() and str(key_file) in path.read_text()


@posix_only
def test_init_asks_for_each_setting_at_a_terminal_and_the_key_is_not_echoed(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    answers = [("Base URL", "http://push.example.com"), ("Base URL", "https://push.example.com"),
               ("Source id", "cpbA1"), ("API key", KEY), ("Last path segment", ""), ("Batch size", "20"),
               ("Data form", ""), ("Concurrency", ""), ("Rate", ""), ("Timeout", ""), ("Retries", "")]  # fmt: skip
    code, seen = converse(["config", "init", "--config", str(path)], answers)
    assert code == 0, seen
    assert "plain http:// is refused" in seen  # asked again
    assert KEY not in seen  # typed without echo
    for question in ("Base URL", "Source id", "API key", "Batch size", "Retries"):
        assert question in seen
    settings = resolve({}, ConnectionOptions(config=path))
    assert settings.connection().api_key == KEY and settings.value("batch_size") == 20
    assert settings.values["retries"].source == "default"


def test_init_refuses_a_bad_profile_name_and_two_key_sources(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    assert invoke(["config", "init", "--config", str(path), "--profile", "a b", *SCRIPTED]).exit_code == 2
    both = invoke(["config", "init", "--config", str(path), *SCRIPTED, "--api-key-file", "k"])
    assert both.exit_code == 2 and not path.exists()


def test_profile_text_round_trips_through_the_reader(tmp_path: Path) -> None:
    values = {
        "base_url": "https://x.example.com",
        "source_id": "cpbA1",
        "api_key": 'a"b\\c\x7f-long-enough',
        "rate": 2.5,
    }
    path = write_config(tmp_path / "c.toml", profile_text("p", values))
    # The text round-trips, its control character escaped...
    assert tomllib.loads(path.read_text(encoding="utf-8"))["profiles"]["p"] == values
    settings = resolve({}, ConnectionOptions(config=path, profile="p"))
    assert settings.value("rate") == 2.5
    # ...and a key holding one is refused where it is read (issue 30, round two): named, never shown.
    problem = settings.values["api_key"].problem
    assert problem is not None and problem.message.endswith("holds a control character (U+007F)")
    values["api_key"] = 'a"b\\c-long-enough'
    path = write_config(tmp_path / "d.toml", profile_text("p", values))
    assert resolve({}, ConnectionOptions(config=path, profile="p")).value("api_key") == values["api_key"]


def test_init_force_replaces_a_middle_profile_and_keeps_the_next_ones_comments(tmp_path: Path) -> None:
    text = "[profiles.default]\nretries = 1\n\n# about b\n[profiles.b]\nretries = 2\n"
    config = write_config(tmp_path / "c.toml", text)
    result = invoke(["config", "init", "--config", str(config), "--force", *SCRIPTED])
    assert result.exit_code == 0, result.stderr
    written = config.read_text(encoding="utf-8")
    assert written.startswith("[profiles.default]\nbase_url = ") and "retries" not in written.split("# about b")[0]
    assert written.endswith("\n\n# about b\n[profiles.b]\nretries = 2\n")


def test_an_inline_profile_is_replaced_in_its_own_form(tmp_path: Path) -> None:
    # Issue 33: tomlkit edits every way of writing a profile; before, this was "edit the file by hand".
    text = 'profiles = { default = { base_url = "https://x.example.com" } }  # one line\n'
    config = write_config(tmp_path / "c.toml", text)
    result = invoke(["config", "init", "--config", str(config), "--force", *SCRIPTED])
    assert result.exit_code == 0, result.stderr
    written = config.read_text(encoding="utf-8")
    assert written.startswith("profiles = { default = {") and written.endswith("}  # one line\n")
    assert written.count("\n") == 1
    found = resolve({"MY_ARI_KEY": "k" * 12}, ConnectionOptions(config=config))
    assert (found.value("base_url"), found.value("api_key")) == ("https://push.example.com", "k" * 12)


def test_config_profiles_without_a_file_says_how_to_make_one() -> None:
    result = invoke(["config", "profiles"])
    assert result.exit_code == 0 and result.stdout == "" and "ari-cli config init" in result.stderr
    assert json.loads(invoke(["config", "profiles", "--output", "json"]).stdout)["profiles"] == []


def test_a_config_error_from_resolve_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        resolve({}, ConnectionOptions(config=tmp_path / "missing.toml"))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX home folder")
def test_paths_under_home_are_shown_with_a_tilde(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ari_cli.config.file import display

    monkeypatch.setenv("HOME", str(tmp_path))
    assert display(tmp_path / ".config" / "ari-cli" / "config.toml") == "~/.config/ari-cli/config.toml"


def test_the_parsed_file_does_not_show_the_key_in_its_repr(config: Path) -> None:
    from ari_cli.config.file import read_config

    assert KEY not in repr(read_config(config))


# --- config init: asking only what it must ---------------------------------------------------------


@posix_only
def test_init_refuses_an_existing_profile_before_asking_anything(config: Path) -> None:
    before = config.read_text()
    code, seen = converse(["config", "init", "--config", str(config)], [])
    assert code == 4, seen
    assert "error: profile 'default' already exists in" in seen
    assert "config set KEY VALUE --profile default" in seen
    assert "Base URL" not in seen and "API key" not in seen  # nothing was asked
    assert config.read_text() == before


def test_init_without_a_terminal_names_the_missing_options(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    result = invoke(["config", "init", "--config", str(path)], input="")
    assert result.exit_code == 2
    assert result.stdout == ""  # no prompt
    assert "error: no terminal to ask at: give --base-url, --source-id and --api-key-file or --api-key-env" in (
        result.stderr
    )
    assert "the key itself is never given on the command line" in result.stderr
    assert "Aborted" not in result.stderr and not path.exists()
    some = invoke(["config", "init", "--config", str(path), "--base-url", "https://push.example.com",
                   "--api-key-env", "MY_ARI_KEY"])  # fmt: skip
    assert some.exit_code == 2 and "error: no terminal to ask at: give --source-id\n" in some.stderr
    assert not path.exists()


def test_init_refuses_a_key_file_that_does_not_exist(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    missing = tmp_path / "no-such-key.txt"
    args = ["--base-url", "https://push.example.com", "--source-id", "cpbA1", "--api-key-file", str(missing)]
    result = invoke(["config", "init", "--config", str(path), *args])
    assert result.exit_code == 2
    assert f"error: --api-key-file: cannot read the API key file {missing}: No such file or directory" in result.stderr
    assert not path.exists()
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    args[-1] = str(empty)
    assert invoke(["config", "init", "--config", str(path), *args]).exit_code == 2
    assert not path.exists()


# --- writing the file with tomlkit, and the folders ---------------------------------------------


def test_init_with_a_key_file_under_a_non_ascii_path_and_no_config_file(tmp_path: Path, _no_user_config: Path) -> None:
    key_file = tmp_path / "🔑" / "key"
    key_file.parent.mkdir()
    write_config(key_file, KEY)
    assert not _no_user_config.exists()
    args = ["--base-url", "https://push.example.com", "--source-id", "cpbA1", "--api-key-file", str(key_file)]
    result = invoke(["config", "init", *args])
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert result.stdout.startswith(f"Saved profile 'default' in {_no_user_config}")
    assert f'api_key_file = "{key_file}"' in _no_user_config.read_text(encoding="utf-8")
    shown = sources(show([]))
    assert shown["api_key"] == ("prod…5b4a", f"profile default in {_no_user_config}, api_key_file {key_file}")


def test_profile_text_escapes_every_value_and_writes_a_columns_table(tmp_path: Path) -> None:
    import tomllib

    values = {
        "base_url": "https://x.example.com/é",
        "source_id": "cpbA1",
        "api_key_file": '/tmp/🔑/"key"\\\t\x7f\x1b',
        "columns": {"threshold": 'Min "Rooms" 🔑', "days": "Jours\\"},
        "retries": 0,
    }
    text = profile_text("p", values)
    assert text.startswith("[profiles.p]\n") and "\n[profiles.p.columns]\n" in text
    assert "\x7f" not in text and "\x1b" not in text  # escaped, not raw (TOML allows a raw tab)
    assert tomllib.loads(text) == {"profiles": {"p": values}}
    assert "# batch_size = 50\n" in text and "# retries" not in text


def test_the_config_and_data_folders_both_come_from_platformdirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    from ari_cli.config import file
    from ari_cli.journal.place import default_home

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected_config = Path(platformdirs.user_config_dir("ari-cli", appauthor=False, roaming=True)) / "config.toml"
    assert file.default_config_path() == expected_config
    assert default_home({}) == Path(platformdirs.user_data_dir("ari-cli", appauthor=False))
    if sys.platform == "linux":
        assert expected_config == tmp_path / "config" / "ari-cli" / "config.toml"
        assert default_home({}) == tmp_path / "data" / "ari-cli"
