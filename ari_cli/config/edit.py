"""Changing the config file as it is written: one setting, a whole profile, or deleting a profile.

tomlkit keeps the file as its author wrote it (comments, order, spacing, and every way of writing a profile:
`[profiles.x]` sections, `profiles.x.key = ...` dotted keys, `profiles = { x = {...} }` inline tables), so
only what changes is touched. Every edit is read back with tomllib before the file is replaced: when the
result does not hold exactly what was intended (the other profiles as they were, this one as asked), nothing
is written.

Each edit holds the file's lock (`locked`) from before it reads the file until it has replaced it, so that two
edits at once (ten `config set` in a script, each on another key) both land instead of one writing over the
other. The lock is a file beside the config file's target (`.config.toml.lock`, through filelock: flock on Unix,
a Windows lock there), let go when the edit ends or its process dies.
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import tomlkit
from filelock import FileLock, Timeout
from tomlkit.container import Container
from tomlkit.items import Comment, InlineTable, Table, Whitespace
from tomlkit.toml_document import TOMLDocument

from ari_cli.config.file import (
    KEY_KEYS,
    ConfigFile,
    check_new_profile,
    display,
    profile_text,
    read_config,
    write_private,
)
from ari_cli.exits import ConfigError

BY_HAND = "edit the file by hand, or give --config PATH to write a new file"
LOCK_WAIT = 20.0
"""Seconds an edit waits for another one to finish: an edit takes milliseconds, so only a stuck one takes this."""


@contextlib.contextmanager
def locked(path: Path, create: bool = False) -> Iterator[None]:
    """Hold the config file's lock while it is read, changed and written; `create` makes its folder first.

    The lock sits beside the file a symlink points to, where the file is written: edits through two links to one
    file take the same lock. Without the folder (and not `create`) there is no file to edit: the caller says so.
    """
    target = path.resolve()
    if create:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    elif not target.parent.is_dir():
        yield
        return
    lock = FileLock(target.with_name(f".{target.name}.lock"), timeout=LOCK_WAIT, mode=0o600)
    try:
        lock.acquire()
    except Timeout:
        raise ConfigError(
            f"another ari-cli has been changing {display(path)} for {LOCK_WAIT:g} s",
            "try again when it is done",
        ) from None
    except OSError as problem:
        raise ConfigError(
            f"cannot lock config file {display(path)} to change it: {problem.strerror or problem}",
            f"make {display(target.parent)} writable, or give --config PATH to write a new file",
        ) from None
    try:
        yield
    finally:
        lock.release()


def _whole(value: Any) -> Any:
    """A whole number given as a float, written as the integer a person writes (`timeout = 12`, not `12.0`): it
    reads back as the same number."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def existing_profile(path: Path, name: str) -> tuple[ConfigFile, dict[str, Any]]:
    """The file and the profile's settings; a ConfigError naming the profiles there are when it lacks it."""
    found = read_config(path) if path.exists() else None
    if found is None:
        raise ConfigError(f"no config file at {display(path)}", "create one with: ari-cli config init")
    if name not in found.profiles:
        there = f"it has {', '.join(found.profiles)}" if found.profiles else "it has none"
        raise ConfigError(
            f"no profile {name!r} in {display(path)}: {there}", f"create it with: ari-cli config init --profile {name}"
        )
    return found, dict(found.profiles[name])


def set_value(path: Path, name: str, key: str, value: Any) -> dict[str, Any]:
    """Set one setting of an existing profile; a new way of giving the key replaces the old one.

    Returns the settings it replaced or dropped, with their values.
    """
    with locked(path):
        return _set_value(path, name, key, _whole(value))


def _set_value(path: Path, name: str, key: str, value: Any) -> dict[str, Any]:
    found, values = existing_profile(path, name)
    dropped = KEY_KEYS if key in KEY_KEYS else (key,)
    document, raw = _parsed(found)
    intended = {k: v for k, v in raw[name].items() if k not in dropped} | {key: value}

    def change() -> None:
        profile = document["profiles"][name]
        _keep_comments_in_place(profile)
        for old in dropped:
            if old != key and old in profile:
                del profile[old]
        profile[key] = value  # in its place when it is there

    _write_edited(path, document, change, raw | {name: intended}, f"change profile {name!r}")
    return {k: values[k] for k in dropped if k in values}


def delete_profile(path: Path, name: str) -> None:
    """Remove a profile, whichever way it is written; the other profiles and the comments are kept."""
    with locked(path):
        _delete_profile(path, name)


def _delete_profile(path: Path, name: str) -> None:
    found, _ = existing_profile(path, name)
    document, raw = _parsed(found)

    def change() -> None:
        _move_closing_comments(document, name)
        del document["profiles"][name]

    _write_edited(path, document, change, {k: v for k, v in raw.items() if k != name}, f"remove profile {name!r}")


def save_profile(path: Path, name: str, values: Mapping[str, Any], force: bool) -> bool:
    """Add or (with force) replace one profile, keeping the rest of the file; True if it replaced one."""
    with locked(path, create=True):
        return _save_profile(path, name, {k: _whole(v) for k, v in values.items() if v is not None}, force)


def _save_profile(path: Path, name: str, given: dict[str, Any], force: bool) -> bool:
    existing = check_new_profile(path, name, force)
    if existing is None:
        write_private(path, profile_text(name, given))
        return False
    document, raw = _parsed(existing)
    intended = raw | {name: given}
    if name in existing.profiles:
        _write_edited(path, document, lambda: _replace(document, name, given), intended, f"write profile {name!r}")
        return True
    if isinstance(document.get("profiles"), InlineTable):
        inline = tomlkit.inline_table()
        inline.update(given)  # spaced as TOML is usually written: {a = 1, b = 2}
        _write_edited(path, document, lambda: document["profiles"].update({name: inline}), intended,
                      f"write profile {name!r}")  # fmt: skip
        return False
    # A new section at the end, with the defaults shown commented out, as in a new file; after
    # `profiles.x.key = ...` dotted keys too, which TOML allows.
    body = existing.text.rstrip("\n")
    text = (body + "\n\n" if body else "") + profile_text(name, given)
    _check(path, text, intended, f"write profile {name!r}")
    write_private(path, text)
    return False


def _replace(document: TOMLDocument, name: str, given: dict[str, Any]) -> None:
    """The profile's settings become `given`, in the form the profile is written in."""
    profile = document["profiles"][name]
    if any(isinstance(profile[k], Table) for k in profile if k not in given):
        _move_closing_comments(document, name)  # a sub-table that goes (columns) may hold them
    _keep_comments_in_place(profile)
    for old in [k for k in profile if k not in given]:
        del profile[old]
    for key, value in given.items():
        if profile.get(key) != value:
            profile[key] = value


def _parsed(found: ConfigFile) -> tuple[TOMLDocument, dict[str, Any]]:
    """The file as tomlkit keeps it, and its profiles as tomllib reads them (what the result is checked against)."""
    return tomlkit.parse(found.text), dict(tomllib.loads(found.text).get("profiles", {}))


def _check(path: Path, text: str, intended: dict[str, Any], what: str) -> None:
    """Refuse an edit whose text does not read back as exactly the intended profiles."""
    try:
        read = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        read = None
    if read is None or set(read) - {"profiles"} or read.get("profiles", {}) != intended:
        raise ConfigError(f"cannot {what} in {display(path)} automatically: the result would not read back", BY_HAND)


def _write_edited(
    path: Path, document: TOMLDocument, change: Callable[[], None], intended: dict[str, Any], what: str
) -> None:
    """Make the change in the document, check what it reads back as, and only then replace the file."""
    try:
        change()
        text = tomlkit.dumps(document)
    except Exception:
        # tomlkit fails on some rare layouts (a dotted sub-table of a profile written out of order): the
        # edit is refused like one that would not read back, and nothing is written.
        raise ConfigError(f"cannot {what} in {display(path)} automatically", BY_HAND) from None
    _check(path, text, intended, what)
    write_private(path, text)


# --- the comments that introduce the next section ----------------------------------------------------
# tomlkit keeps the comment lines above a `[section]` header in the body of the section before it. Such
# lines are about the next section: a setting added to the one before must go above them, and deleting the
# one before must not take them along.


def _last_body(table: Table) -> Container | None:
    """The body the next section's comments sit in: the table's own, or its last sub-table's (`.columns`)."""
    if isinstance(table, InlineTable) or not isinstance(table, Table):
        return None
    body = table.value
    last = body.body[-1][1] if body.body else None
    if isinstance(last, Table) and not isinstance(last, InlineTable):
        return _last_body(last)
    return body


def _closing(body: Container) -> int:
    """Where the comments and blank lines that end `body` start."""
    items = body.body
    start = len(items)
    while start and items[start - 1][0] is None and isinstance(items[start - 1][1], Whitespace | Comment):
        start -= 1
    return start


def _keep_comments_in_place(profile: Any) -> None:
    """Let tomlkit add settings above the closing comments: they become blank text of the same bytes."""
    body = _last_body(profile)
    if body is None:
        return
    items = body.body
    for index in range(_closing(body), len(items)):
        item = items[index][1]
        if isinstance(item, Comment):
            # Same index and no key: tomlkit's map of keys to positions is unchanged.
            items[index] = (None, Whitespace(item.as_string()))


def _move_closing_comments(document: TOMLDocument, name: str) -> None:
    """Before a section is deleted, hand the comments that close it to the section that follows."""
    profiles = document["profiles"]
    body = _last_body(profiles[name]) if isinstance(profiles, Table) else None
    if body is None:
        return
    items = body.body
    start = _closing(body)
    first = next((i for i in range(start, len(items)) if isinstance(items[i][1], Comment)), None)
    following = _following_table(document, name)
    if first is None or following is None:
        return
    following.trivia.indent = "".join(item.as_string() for _, item in items[first:]) + following.trivia.indent


def _following_table(document: TOMLDocument, name: str) -> Table | None:
    """The section written after profile `name`'s, if it is one with a header of its own."""
    keyed = [(key.key, item) for key, item in document["profiles"].value.body if key is not None]
    names = [key for key, _ in keyed]
    after = [item for _, item in keyed[names.index(name) + 1 :]] if name in names else []
    found = after[0] if after else None
    return found if isinstance(found, Table) and not isinstance(found, InlineTable) else None
