"""The sandbox's world: accounts (keys, source ids, flags) and properties (rooms, rates, flags), from TOML."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any

DEFAULT_FIXTURES = "fixtures.toml"

_ACCOUNT_FIELDS = {"key", "source_id", "endpoint_active", "blocked", "default"}
_PROPERTY_FIELDS = {"id", "active", "rooms", "rates", "inactive_rooms", "inactive_rates"}


class FixtureError(ValueError):
    """A fixtures file that cannot be read or does not describe a usable world."""


class MappingStatus(Enum):
    """How an id is mapped for a property."""

    ACTIVE = "active"
    INACTIVE = "inactive"
    UNMAPPED = "unmapped"


@dataclass(frozen=True, slots=True)
class Account:
    """A partner account: its key (`sharepost`), its source id and its switches."""

    key: str
    source_id: str
    endpoint_active: bool = True
    blocked: bool = False


@dataclass(frozen=True, slots=True)
class Property:
    """A mapped property with its mapped rooms and rates, active or switched off."""

    id: str
    active: bool = True
    rooms: frozenset[str] = field(default_factory=frozenset)
    rates: frozenset[str] = field(default_factory=frozenset)
    inactive_rooms: frozenset[str] = field(default_factory=frozenset)
    inactive_rates: frozenset[str] = field(default_factory=frozenset)

    def room(self, roomid: str) -> MappingStatus:
        """How `roomid` is mapped here."""
        return _mapping(roomid, self.rooms, self.inactive_rooms)

    def rate(self, rateid: str) -> MappingStatus:
        """How `rateid` is mapped here."""
        return _mapping(rateid, self.rates, self.inactive_rates)


def _mapping(value: str, active: frozenset[str], inactive: frozenset[str]) -> MappingStatus:
    if value in active:
        return MappingStatus.ACTIVE
    if value in inactive:
        return MappingStatus.INACTIVE
    return MappingStatus.UNMAPPED


@dataclass(frozen=True, slots=True)
class Fixtures:
    """Accounts and properties; the default account is the one the sandbox advertises."""

    accounts: tuple[Account, ...]
    properties: Mapping[str, Property]
    default_account: Account
    source: str = "<built-in>"

    def account(self, key: str) -> Account | None:
        """The account whose key is `key`, if any."""
        return next((a for a in self.accounts if a.key == key), None)


def load_fixtures(path: str | Path | None = None) -> Fixtures:
    """Read fixtures from a TOML file, or the built-in defaults when `path` is None."""
    if path is None:
        raw = resources.files(__package__).joinpath(DEFAULT_FIXTURES).read_bytes()
        source = "<built-in>"
    else:
        try:
            raw = Path(path).read_bytes()
        except OSError as problem:
            raise FixtureError(f"cannot read {path}: {problem.strerror or problem}") from None
        source = str(path)
    try:
        document = tomllib.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as problem:
        raise FixtureError(f"{source}: not valid TOML: {problem}") from None
    return parse_fixtures(document, source)


def parse_fixtures(document: Mapping[str, Any], source: str = "<fixtures>") -> Fixtures:
    """Fixtures from an already parsed TOML document."""
    unknown = set(document) - {"accounts", "properties"}
    if unknown:
        raise FixtureError(f"{source}: unknown top-level keys: {', '.join(sorted(unknown))}")
    accounts, default = _accounts(document.get("accounts"), source)
    properties = _properties(document.get("properties", []), source)
    return Fixtures(accounts=accounts, properties=properties, default_account=default, source=source)


def _tables(value: Any, name: str, source: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise FixtureError(f"{source}: `{name}` must be an array of tables ([[{name}]])")
    return value


def _check_fields(table: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise FixtureError(f"{where}: unknown fields: {', '.join(sorted(unknown))}")


def _text(table: dict[str, Any], name: str, where: str) -> str:
    value = table.get(name)
    if not isinstance(value, str) or not value:
        raise FixtureError(f"{where}: `{name}` must be a non-empty string")
    return value


def _flag(table: dict[str, Any], name: str, default: bool, where: str) -> bool:
    value = table.get(name, default)
    if not isinstance(value, bool):
        raise FixtureError(f"{where}: `{name}` must be true or false")
    return value


def _ids(table: dict[str, Any], name: str, where: str) -> frozenset[str]:
    value = table.get(name, [])
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise FixtureError(f"{where}: `{name}` must be an array of non-empty strings")
    return frozenset(value)


def _accounts(value: Any, source: str) -> tuple[tuple[Account, ...], Account]:
    if value is None:
        raise FixtureError(f"{source}: at least one [[accounts]] table is needed")
    accounts: list[Account] = []
    defaults: list[Account] = []
    for number, table in enumerate(_tables(value, "accounts", source), start=1):
        where = f"{source}: accounts #{number}"
        _check_fields(table, _ACCOUNT_FIELDS, where)
        account = Account(
            key=_text(table, "key", where),
            source_id=_text(table, "source_id", where),
            endpoint_active=_flag(table, "endpoint_active", True, where),
            blocked=_flag(table, "blocked", False, where),
        )
        if any(a.key == account.key for a in accounts):
            raise FixtureError(f"{where}: key {account.key!r} is used twice")
        accounts.append(account)
        if _flag(table, "default", False, where):
            defaults.append(account)
    if not accounts:
        raise FixtureError(f"{source}: at least one [[accounts]] table is needed")
    if len(defaults) > 1:
        raise FixtureError(f"{source}: only one account may have default = true")
    return tuple(accounts), (defaults or accounts)[0]


def _properties(value: Any, source: str) -> dict[str, Property]:
    properties: dict[str, Property] = {}
    for number, table in enumerate(_tables(value, "properties", source), start=1):
        where = f"{source}: properties #{number}"
        _check_fields(table, _PROPERTY_FIELDS, where)
        prop = Property(
            id=_text(table, "id", where),
            active=_flag(table, "active", True, where),
            rooms=_ids(table, "rooms", where),
            rates=_ids(table, "rates", where),
            inactive_rooms=_ids(table, "inactive_rooms", where),
            inactive_rates=_ids(table, "inactive_rates", where),
        )
        if prop.id in properties:
            raise FixtureError(f"{where}: id {prop.id!r} is used twice")
        both = sorted(prop.rooms & prop.inactive_rooms) + sorted(prop.rates & prop.inactive_rates)
        if both:
            raise FixtureError(f"{where}: {both[0]!r} is listed as active and as inactive")
        properties[prop.id] = prop
    return properties
