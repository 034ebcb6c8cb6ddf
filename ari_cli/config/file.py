"""The config file: where it lives, the keys a profile takes, and reading it with line-exact errors.

A new profile's text (`profile_text`) and the private write are here; changing a file as written is `edit.py`'s.
"""

from __future__ import annotations

import difflib
import math
import os
import re
import shlex
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from ari_cli.config.options import CONNECTION_SETTINGS
from ari_cli.config.secrets import remember
from ari_cli.config.tuning import GUARD_LIMITS, TUNING_DEFAULTS, TUNING_RANGES, parse_budget, parse_limit
from ari_cli.exits import ConfigError

APP_NAME = "ari-cli"
CONFIG_NAME = "config.toml"
DEFAULT_PROFILE = "default"

KEY_KEYS = ("api_key", "api_key_file", "api_key_env")
COLUMNS_KEY = "columns"
"""`[profiles.NAME.columns]`: field = "header", as --column FIELD=HEADER gives it."""
IGNORE_KEY = "ignore_columns"
"""`ignore_columns = ["Departure"]`: as --ignore-column NAME gives them."""
PROFILE_KEYS = (
    *(name for setting in CONNECTION_SETTINGS for name in (KEY_KEYS if setting == "api_key" else (setting,))),
    *TUNING_DEFAULTS,
    *GUARD_LIMITS,
    COLUMNS_KEY,
    IGNORE_KEY,
)
TOML_HINT = (
    'text needs quotes (base_url = "https://push.example.com"), and each profile starts with a line '
    "[profiles.NAME]; `ari-cli config init --help` shows a whole file"
)


@dataclass(frozen=True, slots=True)
class ConfigFile:
    """A parsed, checked config file."""

    path: Path
    # Kept out of repr: both may hold a key.
    text: str = field(repr=False)
    profiles: dict[str, dict[str, Any]] = field(repr=False)
    warnings: tuple[str, ...] = ()


def default_config_path() -> Path:
    """`config.toml` in the platform's user config folder (e.g. ~/.config/ari-cli on Linux).

    platformdirs picks it, as it picks the journal's data folder; roaming on Windows (%APPDATA%), where a
    config file has always been.
    """
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False, roaming=True)) / CONFIG_NAME


def display(path: Path) -> str:
    """A path as the user would type it: the home folder as `~`."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def permission_warning(path: Path) -> str | None:
    """A warning when others may read or change the file that can hold the key (POSIX only)."""
    if os.name == "nt":
        return None
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        return None
    if not mode & 0o077:
        return None
    what = "readable" if mode & 0o044 else "writable"
    return f"{display(path)} is {what} by others (mode {mode:o}); run: chmod 600 {shlex.quote(str(path))}"


# A key or a config file is a few hundred bytes; the cap keeps /dev/zero or a huge file from filling memory.
FILE_LIMIT = 1_048_576


def read_small(path: Path, what: str) -> bytes:
    """The bytes of a regular file of at most FILE_LIMIT bytes; a ConfigError naming `what` and the file if not.

    A FIFO or a device would block or never end: the file type is checked before it is opened.
    OSError (a missing file, no permission) is left to the caller to word.
    """
    shown = display(path)
    if not stat.S_ISREG(path.stat().st_mode):
        raise ConfigError(
            f"{what} {shown} is not a regular file", "give the path of a plain file, not a device, a pipe or a folder"
        )
    with path.open("rb") as stream:
        data = stream.read(FILE_LIMIT + 1)
    if len(data) > FILE_LIMIT:
        raise ConfigError(f"{what} {shown} is over 1 MiB", f"a {what} is a few lines; check the path")
    return data


# --- reading the file -------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")


def _table(header: str) -> str:
    """`profiles . "prod"` -> `profiles.prod`: header names as tomllib sees them, for simple cases."""
    return ".".join(part.strip().strip("\"'") for part in header.split("."))


def line_of(text: str, table: str | None, key: str | None = None) -> int | None:
    """The 1-based line of `[table]` (or of `key = ...` in it; table None is the top); None if not found."""
    current: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            current = _table(header.group(1))
            if key is None and current == table:
                return number
            continue
        if key is not None and current == table and re.match(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", line):
            return number
    return None


def _duplicate_line(text: str) -> int | None:
    """The line of the first key given twice in one table (tomllib reports those at the end)."""
    seen: set[tuple[str | None, str]] = set()
    current: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            current = _table(header.group(1))
            if (None, current) in seen:
                return number
            seen.add((None, current))
            continue
        assignment = re.match(r"^\s*[\"']?([A-Za-z0-9_-]+)[\"']?\s*=", line)
        if assignment:
            if (current, assignment.group(1)) in seen:
                return number
            seen.add((current, assignment.group(1)))
    return None


def _syntax_error(path: Path, text: str, problem: Exception) -> ConfigError:
    # tomllib (3.11-3.13) puts the position only in the message. The line's text is never
    # quoted back: a malformed line may be the one that holds the key.
    message = str(problem)
    found = re.search(r"^(.*) \(at line (\d+), column (\d+)\)$", message)
    if found:
        what, where = found.group(1), f"line {found.group(2)}, column {found.group(3)}"
    else:
        what = re.sub(r"\s*\(at end of document\)$", "", message)
        line = _duplicate_line(text) if "overwrite" in what else None
        where = f"line {line}" if line else f"line {len(text.splitlines()) or 1} (the end of the file)"
    return ConfigError(f"config file {display(path)}, {where}: {what}", TOML_HINT)


def _at(path: Path, line: int | None) -> str:
    return f"config file {display(path)}" + (f", line {line}" if line else "")


def check_value(key: str, value: Any) -> Any:
    """The value of a profile key, checked; a ValueError says what was expected."""
    if key in TUNING_RANGES:
        low, high = TUNING_RANGES[key]
        number = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        if isinstance(low, int):
            if not (number and isinstance(value, int) and low <= value <= high):
                raise ValueError(f"a whole number, {low} to {high}")
            return value
        if not (number and low <= value <= high):
            raise ValueError(f"a number, {low:g} to {high:g}")
        return float(value)
    if key in GUARD_LIMITS:
        return parse_limit(key, value)  # read once, into its typed form
    if key == COLUMNS_KEY:
        if not isinstance(value, dict) or not all(isinstance(v, str) and v.strip() for v in value.values()):
            raise ValueError('a table of field = "header" (write it as [profiles.NAME.columns])')
        return {str(name): header.strip() for name, header in value.items()}
    if key == "rate_per_property":
        if not isinstance(value, str):
            raise ValueError('a budget in quotes: "N/s" or "N/min"')
        budget = parse_budget(value)
        return "" if budget is None else value.replace(" ", "")
    if key == IGNORE_KEY:
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ValueError('a list of column names, e.g. ["Departure", "Notes"]')
        return [name.strip() for name in value]
    if key == "data_form":
        if value not in ("list", "object"):
            raise ValueError('"list" or "object"')
        return value
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a text in quotes")
    return value.strip()


def _number(key: str, value: Any) -> Any:
    """A tuning number written as text (`timeout = "12"`), as some files hold them, read as the number it says;
    anything else as it is, for `check_value` to judge."""
    if key not in TUNING_RANGES or not isinstance(value, str):
        return value
    whole = isinstance(TUNING_RANGES[key][0], int)
    try:
        return int(value.strip()) if whole else float(value.strip())
    except ValueError:
        return value


def _check_profile(path: Path, text: str, name: str, body: Any) -> dict[str, Any]:
    table = f"profiles.{name}"
    if not isinstance(body, dict):
        raise ConfigError(
            f"{_at(path, line_of(text, 'profiles', name))}: profile {name!r} is not a table",
            f"write it as a section: [profiles.{name}]",
        )
    checked: dict[str, Any] = {}
    for key, value in body.items():
        where = _at(path, line_of(text, table, key))
        if key not in PROFILE_KEYS:
            close = difflib.get_close_matches(key.replace("-", "_").lower(), PROFILE_KEYS, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]}?" if close else f"a profile takes: {', '.join(PROFILE_KEYS)}"
            raise ConfigError(f"{where}: unknown setting {key!r} in profile {name!r}", hint)
        try:
            checked[key] = check_value(key, _number(key, value))
        except ValueError as expected:
            # The key's own value is never repeated back.
            shown = "" if key in KEY_KEYS else f", not {value!r}"
            raise ConfigError(f"{where}: {key} must be {expected}{shown}") from None
    given = [key for key in KEY_KEYS if key in checked]
    if len(given) > 1:
        raise ConfigError(
            f"{_at(path, line_of(text, table))}: profile {name!r} gives {' and '.join(given)}",
            "keep one way of giving the key: api_key, api_key_file or api_key_env",
        )
    remember(checked.get("api_key"))
    return checked


def read_config(path: Path) -> ConfigFile:
    """Read and check a config file; every problem is a ConfigError naming the file and line."""
    try:
        raw = read_small(path, "config file")
    except FileNotFoundError:
        raise ConfigError(
            f"config file {display(path)} does not exist",
            f"create it with `ari-cli config init --config {shlex.quote(str(path))}`, or give another path",
        ) from None
    except OSError as problem:
        raise ConfigError(f"cannot read config file {display(path)}: {problem.strerror}") from None
    try:
        # utf-8-sig: editors on Windows may start the file with a byte order mark.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        line = raw[: problem.start].count(b"\n") + 1
        raise ConfigError(f"{_at(path, line)}: not UTF-8 text", "save the file as UTF-8") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise _syntax_error(path, text, problem) from None
    for key, value in document.items():
        if key != "profiles":
            hint = (
                f"settings belong to a profile: put them below a line [profiles.{DEFAULT_PROFILE}]"
                if key in PROFILE_KEYS
                else f"a profile is written [profiles.{key}]"
                if isinstance(value, dict)
                else "the file holds only profiles: [profiles.NAME] sections"
            )
            raise ConfigError(f"{_at(path, line_of(text, None, key) or line_of(text, key))}: unknown {key!r}", hint)
    profiles = document.get("profiles", {})
    if not isinstance(profiles, dict):
        raise ConfigError(f"{_at(path, line_of(text, None, 'profiles'))}: 'profiles' is not a table", TOML_HINT)
    checked = {name: _check_profile(path, text, name, body) for name, body in profiles.items()}
    warning = permission_warning(path)
    return ConfigFile(path, text, checked, (warning,) if warning else ())


# --- writing a profile ------------------------------------------------------------------------

PROFILE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def profile_text(name: str, values: Mapping[str, Any]) -> str:
    """The `[profiles.NAME]` section for `values`, written by tomlkit (which escapes every value); settings
    left at their defaults are shown commented out; a table (columns) follows as `[profiles.NAME.columns]`."""
    import tomlkit  # lazy: only a config edit writes TOML

    given = {key: values[key] for key in PROFILE_KEYS if values.get(key) is not None}
    scalars = {key: value for key, value in given.items() if not isinstance(value, Mapping)}
    text = tomlkit.dumps({"profiles": {name: scalars}})
    defaults = {key: default for key, default in TUNING_DEFAULTS.items() if values.get(key) is None}
    text += "".join(f"# {line}\n" for line in tomlkit.dumps(defaults).splitlines())
    tables = {key: value for key, value in given.items() if isinstance(value, Mapping)}
    if tables:
        text += "\n" + tomlkit.dumps({"profiles": {name: tables}})
    return text


def write_private(path: Path, text: str) -> None:
    """Write the file readable by its owner only, all at once: a reader never sees half of it.

    A symlink is followed: the file it points to is replaced and the link kept (a config file kept in a dotfiles
    repository and linked into place stays where it is).
    """
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def check_new_profile(path: Path, name: str, force: bool) -> ConfigFile | None:
    """The file as it is (None if there is none); refused when it has the profile and `force` is off.

    `config init` calls this before asking anything, so nobody types a key only to be refused.
    """
    existing = read_config(path) if path.exists() else None
    if existing is not None and name in existing.profiles and not force:
        raise ConfigError(
            f"profile {name!r} already exists in {display(path)}",
            f"give --force to replace it, ari-cli config set KEY VALUE --profile {name} to change one setting, "
            "or --profile NAME to add another",
        )
    return existing
