"""`config set|get|delete`: one setting changed without retyping the rest; TAB completes profiles and runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ari_cli.config.options import ConnectionOptions
from ari_cli.config.settings import resolve
from tests.helpers import invoke, sandbox_env
from tests.terminal import converse

KEY = "prod-key-9f8e7d6c5b4a"
ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX terminals")

TEAM = """# The team's settings.
[profiles.default]
base_url = "https://push.example.com"
source_id = "cpbA1"
api_key_env = "MY_ARI_KEY"
batch_size = 20

# Staging: a test account.
[profiles.staging]
base_url = "https://staging.example.com"
source_id = "cpbB2"
api_key_env = "STAGING_KEY"
"""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(TEAM, encoding="utf-8")
    path.chmod(0o600)
    return path


def settings(config: Path, profile: str = "default") -> dict[str, object]:
    found = resolve({"MY_ARI_KEY": "k" * 12}, ConnectionOptions(config=config, profile=profile))
    return {name: sourced.value for name, sourced in found.values.items()}


def test_set_changes_one_setting_and_keeps_the_rest_of_the_file(config: Path) -> None:
    result = invoke(["config", "set", "retries", "5", "--config", str(config), "--profile", "staging"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"Set retries = 5 in profile 'staging' of {config}.\n"
    text = config.read_text()
    assert text.startswith("# The team's settings.\n[profiles.default]\n") and "# Staging: a test account." in text
    assert settings(config, "staging")["retries"] == 5
    assert settings(config, "staging")["base_url"] == "https://staging.example.com"
    assert settings(config)["batch_size"] == 20  # the other profile untouched


def test_set_checks_the_value_as_init_does_and_changes_nothing_when_wrong(config: Path) -> None:
    for key, value, said in [
        ("batch_size", "0", "error: batch_size must be a whole number, 1 to 1000"),
        ("base_url", "http://push.example.com", "error: base_url: plain http:// is refused"),
        ("source_id", "xyz", "error: source_id: source id 'xyz' is not of the form cpb"),
        ("api_key_file", "/no/such/key", "error: api_key_file: cannot read the API key file /no/such/key"),
        ("colour", "red", "error: 'colour' is not a setting of a profile"),
    ]:
        result = invoke(["config", "set", key, value, "--config", str(config)])
        assert result.exit_code == 2, (key, result.stderr)
        assert said in result.stderr, result.stderr
        assert config.read_text() == TEAM


def test_the_key_is_never_taken_from_the_command_line(config: Path) -> None:
    result = invoke(["config", "set", "api_key", KEY, "--config", str(config)])
    assert result.exit_code == 2
    assert "error: the key is never given on the command line" in result.stderr
    assert "config set api_key_file PATH" in result.stderr and KEY not in result.stderr
    alone = invoke(["config", "set", "api_key", "--config", str(config)], input=KEY + "\n")
    assert alone.exit_code == 2 and "error: no terminal to ask for the key at" in alone.stderr
    assert config.read_text() == TEAM


@posix_only
def test_the_key_is_typed_hidden_at_a_terminal_and_replaces_the_other_key_source(config: Path) -> None:
    code, seen = converse(["config", "set", "api_key", "--config", str(config)], [("API key", KEY)])
    assert code == 0, seen
    assert KEY not in seen  # not echoed, and masked in the report
    assert "Set api_key = prod…5b4a in profile 'default'" in seen and "(was api_key_env = MY_ARI_KEY)" in seen
    assert settings(config)["api_key"] == KEY
    assert "MY_ARI_KEY" not in config.read_text().split("[profiles.staging]")[0]


def test_set_a_key_file_checks_it_and_drops_the_variable(config: Path, tmp_path: Path) -> None:
    key_file = tmp_path / "key.txt"
    key_file.write_text(KEY + "\n")
    result = invoke(["config", "set", "api_key_file", str(key_file), "--config", str(config)])
    assert result.exit_code == 0, result.stderr
    assert "(was api_key_env = MY_ARI_KEY)" in result.stdout
    assert settings(config)["api_key"] == KEY and KEY not in config.read_text()


def test_get_prints_a_setting_its_default_or_says_it_is_missing(config: Path) -> None:
    got = invoke(["config", "get", "batch_size", "--config", str(config)])
    assert (got.exit_code, got.stdout, got.stderr) == (0, "20\n", "")
    default = invoke(["config", "get", "retries", "--config", str(config), "--profile", "staging"])
    assert (default.exit_code, default.stdout) == (0, "3\n")
    assert "retries is not set in profile 'staging'; its default:" in default.stderr
    missing = invoke(["config", "get", "api_key_file", "--config", str(config)])
    assert missing.exit_code == 4 and missing.stdout == ""
    assert "error: api_key_file is not set in profile 'default'" in missing.stderr
    assert "hint: set it with: ari-cli config set api_key_file VALUE --profile default" in missing.stderr
    nobody = invoke(["config", "get", "base_url", "--config", str(config), "--profile", "prod"])
    assert nobody.exit_code == 4 and "error: no profile 'prod' in" in nobody.stderr
    assert "it has default, staging" in nobody.stderr


def test_get_masks_a_key_written_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(f'[profiles.default]\nbase_url = "https://x.example.com"\napi_key = "{KEY}"\n')
    path.chmod(0o600)
    got = invoke(["config", "get", "api_key", "--config", str(path)])
    assert got.exit_code == 0 and got.stdout == "prod…5b4a\n" and KEY not in got.stdout + got.stderr


def test_delete_removes_one_profile_and_keeps_the_rest(config: Path) -> None:
    result = invoke(["config", "delete", "staging", "--yes", "--config", str(config)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"Deleted profile 'staging' from {config}.\n"
    text = config.read_text()
    assert "[profiles.staging]" not in text and "STAGING_KEY" not in text and text.endswith("\n")
    assert text.startswith("# The team's settings.\n[profiles.default]")
    assert settings(config)["batch_size"] == 20
    again = invoke(["config", "delete", "staging", "--yes", "--config", str(config)])
    assert again.exit_code == 4 and "error: no profile 'staging'" in again.stderr
    assert "hint: create it with: ari-cli config init --profile staging" in again.stderr


def test_delete_without_a_terminal_needs_yes_and_deletes_nothing(config: Path) -> None:
    before = config.read_text()
    result = subprocess.run(
        [str(BIN / "ari-cli"), "config", "delete", "staging", "--config", str(config)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "error: config delete asks before deleting, and there is no terminal to ask at\n"
        "hint: give --yes to delete profile 'staging' without being asked\n"
    )
    assert config.read_text() == before


def test_delete_at_a_terminal_asks_and_no_keeps_the_profile(config: Path) -> None:
    before = config.read_text()
    code, seen = converse(["config", "delete", "staging", "--config", str(config)], [("Delete profile", "n")])
    assert code == 1 and "Delete profile 'staging'? [y/N]" in seen and "nothing deleted" in seen
    assert config.read_text() == before
    code, seen = converse(["config", "delete", "staging", "--config", str(config)], [("Delete profile", "y")])
    assert code == 0 and f"Deleted profile 'staging' from {config}." in seen
    assert "[profiles.staging]" not in config.read_text()


# --- completion ---------------------------------------------------------------------------------------

needs_bash = pytest.mark.skipif(shutil.which("bash") is None or not (BIN / "ari-cli").exists(), reason="needs bash")


def complete(line: str, tmp_path: Path, **env: str) -> list[str]:
    """What the installed bash completion offers for the last word of `line`."""
    words = line.split(" ")
    program = (
        f"source {ROOT / 'completions' / 'ari-cli.bash'}\n"
        f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        "_ari_cli_completion ari-cli\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ARI_", "_ARI_", "BASH_ENV"))}
    path = f"{BIN}{os.pathsep}{base.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True, cwd=tmp_path,
        env={**base, "PATH": path, "HOME": str(tmp_path), **env}, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [word for word in done.stdout.splitlines() if word]


@needs_bash
def test_tab_after_profile_offers_the_profiles_of_the_file(config: Path, tmp_path: Path) -> None:
    (tmp_path / "default-file-name.txt").write_text("")
    line = f"ari-cli threshold push rooms.csv --config {config} --profile "
    assert complete(line, tmp_path) == ["default", "staging"]
    assert complete(f"ari-cli config show --config {config} --profile st", tmp_path) == ["staging"]
    assert complete(f"ari-cli config delete --config {config} s", tmp_path) == ["staging"]
    assert complete("ari-cli config show --config /no/such.toml --profile ", tmp_path) == []  # nothing printed


@needs_bash
def test_tab_after_history_show_offers_run_numbers(tmp_path: Path, sandbox: object, journal_home: Path) -> None:
    rooms = tmp_path / "rooms.csv"
    rooms.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2099-01-01,2099-01-02,4\n")
    for _ in range(2):
        assert invoke(["threshold", "push", str(rooms)], env=sandbox_env(sandbox)).exit_code == 0
    offered = complete("ari-cli history show ", tmp_path, ARI_HOME=str(journal_home))
    assert offered == ["last", "2", "1"]
    assert complete("ari-cli history show 2", tmp_path, ARI_HOME=str(journal_home)) == ["2"]
    assert complete("ari-cli history show ", tmp_path, ARI_HOME=str(tmp_path / "empty")) == []


def test_getting_a_missing_key_hints_at_typing_it_hidden_never_on_the_command_line(config: Path) -> None:
    missing = invoke(["config", "get", "api_key", "--config", str(config)])
    assert missing.exit_code == 4
    assert "hint: set it with: ari-cli config set api_key --profile default (typed hidden)" in missing.stderr


def test_a_profile_with_a_columns_table_is_changed_and_deleted_whole(config: Path) -> None:
    with config.open("a", encoding="utf-8") as text:
        text.write(
            '\n[profiles.staging.columns]\nthreshold = "Min Rooms 🔑"\n\n# Last.\n[profiles.last]\nretries = 1\n'
        )
    changed = invoke(["config", "set", "retries", "5", "--config", str(config), "--profile", "staging"])
    assert changed.exit_code == 0, changed.stderr
    staging = settings(config, "staging")
    assert staging["retries"] == 5
    found = resolve({}, ConnectionOptions(config=config, profile="staging"))
    assert found.columns == {"threshold": "Min Rooms 🔑"}
    assert config.read_text(encoding="utf-8").count("[profiles.staging.columns]") == 1
    deleted = invoke(["config", "delete", "staging", "--yes", "--config", str(config)])
    assert deleted.exit_code == 0, deleted.stderr
    text = config.read_text(encoding="utf-8")
    assert "staging" not in text and "Min Rooms" not in text and "# Last.\n[profiles.last]\nretries = 1\n" in text


def test_set_columns_says_where_a_table_goes(config: Path) -> None:
    result = invoke(["config", "set", "columns", "threshold=Min", "--config", str(config)])
    assert result.exit_code == 2
    assert result.stderr == (
        'error: columns is a table of FIELD = "HEADER" lines, not one value\n'
        f"hint: write it in the config file under [profiles.default.columns] ({config}), or give --column "
        "FIELD=HEADER to a push\n"
    )
    assert config.read_text() == TEAM


# --- every way of writing a profile, edited as written (tomlkit) --------------------------------------

# Each form with a comment above, one at the end of a line and one that introduces the next profile;
# `other` must come out byte for byte as it went in.
FORMS = {
    "sections": (
        '# The team.\n[profiles.a]\nbase_url = "https://a.example.com"  # the old host\nretries = 1\n\n'
        "# Staging, below.\n[profiles.other]\nretries = 2\n"
    ),
    "dotted keys": (
        '# The team.\nprofiles.a.base_url = "https://a.example.com"  # the old host\nprofiles.a.retries = 1\n'
        "# Staging, below.\nprofiles.other.retries = 2\n"
    ),
    "inline": (
        '# The team.\nprofiles = { a = { base_url = "https://a.example.com", retries = 1 }, other = { retries = 2 } }'
        "  # one line\n"
    ),
    "columns table": (
        '# The team.\n[profiles.a]\nbase_url = "https://a.example.com"  # the old host\nretries = 1\n\n'
        '[profiles.a.columns]\nthreshold = "Min Rooms"\n\n# Staging, below.\n[profiles.other]\nretries = 2\n'
    ),
}
SET = {
    "sections": (
        '# The team.\n[profiles.a]\nbase_url = "https://a.example.com"  # the old host\nretries = 1\n'
        'source_id = "cpbZZ"\n\n# Staging, below.\n[profiles.other]\nretries = 2\n'
    ),
    "dotted keys": (
        '# The team.\nprofiles.a.base_url = "https://a.example.com"  # the old host\nprofiles.a.source_id = "cpbZZ"\n'
        "profiles.a.retries = 1\n# Staging, below.\nprofiles.other.retries = 2\n"
    ),
    "inline": (
        '# The team.\nprofiles = { a = { base_url = "https://a.example.com", retries = 1, source_id = "cpbZZ"}, '
        "other = { retries = 2 } }  # one line\n"
    ),
    "columns table": (
        '# The team.\n[profiles.a]\nbase_url = "https://a.example.com"  # the old host\nretries = 1\n'
        'source_id = "cpbZZ"\n\n[profiles.a.columns]\nthreshold = "Min Rooms"\n\n# Staging, below.\n'
        "[profiles.other]\nretries = 2\n"
    ),
}
DELETED = {
    "sections": "# The team.\n# Staging, below.\n[profiles.other]\nretries = 2\n",
    "dotted keys": "# The team.\n# Staging, below.\nprofiles.other.retries = 2\n",
    "inline": "# The team.\nprofiles = {  other = { retries = 2 } }  # one line\n",
    "columns table": "# The team.\n# Staging, below.\n[profiles.other]\nretries = 2\n",
}


def form(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(FORMS[name], encoding="utf-8")
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("name", sorted(FORMS))
def test_set_changes_a_profile_in_the_form_it_is_written(tmp_path: Path, name: str) -> None:
    path = form(tmp_path, name)
    result = invoke(["config", "set", "source_id", "cpbZZ", "--config", str(path), "--profile", "a"])
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert result.stdout == f"Set source_id = cpbZZ in profile 'a' of {path}.\n"
    assert path.read_text(encoding="utf-8") == SET[name]
    changed = invoke(["config", "set", "retries", "7", "--config", str(path), "--profile", "a"])
    assert changed.exit_code == 0, changed.stderr
    assert path.read_text(encoding="utf-8") == SET[name].replace("retries = 1", "retries = 7")
    assert settings(path, "a")["retries"] == 7 and settings(path, "other")["retries"] == 2


@pytest.mark.parametrize("name", sorted(FORMS))
def test_delete_removes_a_profile_in_any_form_and_keeps_the_comments(tmp_path: Path, name: str) -> None:
    path = form(tmp_path, name)
    result = invoke(["config", "delete", "a", "--yes", "--config", str(path)])
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert path.read_text(encoding="utf-8") == DELETED[name]
    assert invoke(["config", "get", "retries", "--config", str(path), "--profile", "other"]).stdout == "2\n"


@pytest.mark.parametrize("name", sorted(FORMS))
def test_init_adds_a_profile_beside_any_form_and_leaves_it_byte_for_byte(tmp_path: Path, name: str) -> None:
    path = form(tmp_path, name)
    args = ["--base-url", "https://new.example.com", "--source-id", "cpbN1", "--api-key-env", "NEW_KEY"]
    result = invoke(["config", "init", "--config", str(path), "--profile", "new", *args])
    assert result.exit_code == 0, result.stderr
    text = path.read_text(encoding="utf-8")
    if name == "inline":  # a table written on one line takes the new profile in the same line
        assert text == FORMS[name].replace(
            "} }  # one line",
            '}, new = {base_url = "https://new.example.com", source_id = "cpbN1", api_key_env = "NEW_KEY"}}  # one line',
        )
    else:
        assert text.startswith(FORMS[name] + "\n[profiles.new]\n")
    found = resolve({"NEW_KEY": "n" * 12}, ConnectionOptions(config=path, profile="new"))
    assert found.value("source_id") == "cpbN1"
    assert settings(path, "a")["base_url"] == "https://a.example.com"


def test_an_edit_tomlkit_cannot_make_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    # A profile whose columns are dotted keys under [profiles]: tomlkit 0.13.3 to 0.15.2 fail to rewrite it whole.
    text = '[profiles]\ndefault.columns.threshold = "Min"\ndefault.retries = 1\nother.retries = 2\n'
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    args = ["--base-url", "https://new.example.com", "--source-id", "cpbN1", "--api-key-env", "NEW_KEY"]
    result = invoke(["config", "init", "--config", str(path), "--force", *args])
    assert result.exit_code == 4 and result.stdout == ""
    assert result.stderr == (
        f"error: cannot write profile 'default' in {path} automatically\n"
        "hint: edit the file by hand, or give --config PATH to write a new file\n"
    )
    assert path.read_text(encoding="utf-8") == text
    # What tomlkit can do on the same file still works.
    assert invoke(["config", "set", "retries", "4", "--config", str(path)]).exit_code == 0
    assert path.read_text(encoding="utf-8") == text.replace("default.retries = 1", "default.retries = 4")


def test_every_setting_of_a_profile_can_be_set() -> None:
    # `config set KEY VALUE` reads each value by its key's rule: a setting without one ended in "internal error:
    # KeyError". Connection settings take theirs from CONNECTION_SETTINGS, so a new one has a rule from the start.
    from ari_cli.app.config_edit import CHECKS
    from ari_cli.config.file import COLUMNS_KEY, PROFILE_KEYS

    assert set(PROFILE_KEYS) - {"api_key", COLUMNS_KEY} <= set(CHECKS)
