"""Settings and where each came from: flags over `ARI_*` variables over a profile over defaults.

`resolve` is the one place they are put in that order and read into their typed form (the connection's parts, the
tuning, the budget per property, the guards' limits), from the option objects (`options.py`) that hold only what
was given; the command line, `config show`, `ari_cli.push()` and `ari_cli.revert()` all come here.

Profiles live in a TOML file in the user's config folder (`--config` or `ARI_CONFIG` name another).
The key is remembered by `secrets` as soon as it is read, so that nothing can print it.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ari_cli.config.file import (
    COLUMNS_KEY,
    DEFAULT_PROFILE,
    IGNORE_KEY,
    ConfigFile,
    check_value,
    default_config_path,
    display,
    permission_warning,
    read_config,
    read_small,
)
from ari_cli.config.options import (
    CONNECTION_SETTINGS,
    Connection,
    ConnectionOptions,
    GuardOptions,
    PlanOptions,
    SendTuning,
)
from ari_cli.config.secrets import mask, remember
from ari_cli.config.tuning import GUARD_LIMITS, TUNING_DEFAULTS, Budget, parse_budget, parse_limit
from ari_cli.exits import AriError, ConfigError, UsageProblem
from ari_cli.wire.operations import SOURCE_ID_PATTERN, segment_problem
from ari_cli.wire.url import NotABaseUrl, canonical_base_url, identity_problem

NOT_SET = "not set"
# What `config show` lists, in this order.
SETTINGS = (*CONNECTION_SETTINGS, *TUNING_DEFAULTS)
ENV_VARS = {name: variable for name, (variable, _) in CONNECTION_SETTINGS.items()}
FLAGS = {name: "--" + name.replace("_", "-") for name in SETTINGS} | {"api_key": "--api-key-file"}

HOW_TO = (
    "give --base-url URL (or set ARI_BASE_URL), set ARI_API_KEY (or give --api-key-file PATH), "
    "and give --source-id ID (or set ARI_SOURCE_ID); or save them in a profile with `ari-cli config init`; "
    "or add --sandbox to push to the built-in emulator"
)
# What a command that only reads the journal (a diff) needs: where the acknowledgements came from, not the key.
SERVICE_HOW_TO = (
    "give --base-url URL and --source-id ID (or set ARI_BASE_URL and ARI_SOURCE_ID), or --profile NAME of a profile "
    "that has them: the values compared are those that service acknowledged"
)


@dataclass(frozen=True, slots=True)
class Sourced:
    """One effective setting and where it came from; a key or a guard's limit that could not be read keeps its
    error, raised where it is used (so a run says first what it says first without it)."""

    value: Any
    source: str
    problem: AriError | None = None

    def __repr__(self) -> str:
        shown = mask(self.value) if isinstance(self.value, str) else self.value
        return f"Sourced({shown!r}, {self.source!r})"


@dataclass(frozen=True, slots=True)
class Tuned:
    """The tuning in effect, typed: flag over profile over default, each read once."""

    batch_size: int
    data_form: str
    concurrency: int
    rate: float
    timeout: float
    retries: int
    rate_per_property: str | None
    """As given (`10/min`), for the journal; None: no budget."""
    per_property: Budget | None
    """The same, parsed."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Every effective setting with its source, and the file and profile they were looked up in."""

    values: dict[str, Sourced]
    tuned: Tuned
    path: Path
    path_source: str
    found: bool
    profile: str
    profile_source: str
    profiles: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    columns: Mapping[str, str] = field(default_factory=dict)
    """The profile's column mapping (field -> header); --column flags win over it field by field."""
    guards: Mapping[str, Sourced] = field(default_factory=dict)
    """The guards for unattended pushes that are set, their limits parsed (`Limit`): a flag's, else the profile's
    (`max_changed = "5%"`). A flag's limit that cannot be read keeps its `UsageProblem`."""
    ignore_columns: tuple[str, ...] = ()
    """The profile's columns left out with a warning (`ignore_columns = ["Departure"]`), with --ignore-column's."""

    def value(self, name: str) -> Any:
        return self.values[name].value

    def api_key(self) -> str:
        """The key alone (a retry goes where its run went), or a clear error."""
        key = self.values["api_key"]
        if key.problem is not None:
            raise key.problem
        if not key.value:
            raise ConfigError("no API key configured", "set ARI_API_KEY, or give --api-key-file PATH or --profile NAME")
        value: str = key.value
        return value

    def connection(self) -> Connection:
        """The connection, or a clear error naming what is missing or wrong."""
        key = self.values["api_key"]
        if key.problem is not None:
            raise key.problem
        base_url, source_id = self.value("base_url"), self.value("source_id")
        segment: str = self.value("path_segment")
        named = (("base URL", base_url), ("API key", key.value), ("source id", source_id))
        missing = [name for name, value in named if not value]
        if missing:
            raise ConfigError(f"no {', '.join(missing)} configured", self._missing_hint())
        check_source_id(source_id, self.values["source_id"].source)
        if not segment.strip("/"):
            raise ConfigError("the path segment is empty", "give --path-segment TEXT, e.g. {action}")
        if (problem := segment_problem(segment)) is not None:
            raise ConfigError(problem, f"fix path_segment ({self.values['path_segment'].source})")
        return self.connection_at(check_base_url(base_url, self.values["base_url"].source), source_id)

    def connection_at(self, base_url: str, source_id: str, **fixed: str) -> Connection:
        """The connection to `base_url` as `source_id` (where a journaled run went, for retry and revert), every
        other connection setting as in effect, `fixed` over them."""
        values = {name: self.value(name) for name in CONNECTION_SETTINGS}
        return Connection(
            **{**values, "api_key": self.api_key(), "base_url": base_url, "source_id": source_id, **fixed}
        )

    def service(self) -> tuple[str, str]:
        """The base URL and source id alone (where acknowledgements are filed in the journal), or a clear error."""
        base_url, source_id = self.value("base_url"), self.value("source_id")
        missing = [name for name, value in (("base URL", base_url), ("source id", source_id)) if not value]
        if missing:
            raise ConfigError(f"no {' and no '.join(missing)} configured", self._missing_hint(SERVICE_HOW_TO))
        base = check_base_url(base_url, self.values["base_url"].source)
        return base, check_source_id(source_id, self.values["source_id"].source)

    def _missing_hint(self, how: str = HOW_TO) -> str:
        if self.profiles and self.profile not in self.profiles:
            names = ", ".join(self.profiles)
            return f"{display(self.path)} has the profiles {names}: pick one with --profile NAME; or {how}"
        return how


def is_loopback(host: str) -> bool:
    """Whether a host name or address is this machine: the only place plain http may go."""
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    # ::ffff:127.0.0.1 is how a dual-stack socket names an IPv4 loopback client.
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return (mapped or address).is_loopback


def check_base_url(url: str, source: str | None = None) -> str:
    """The base URL in the one spelling of its service (`wire/url.py`); refused when it holds a user name or
    password, a query or a fragment (exit 2), or is not https, except plain http to a loopback host (exit 4)."""
    refuse_identity(url, source)
    try:
        canonical = canonical_base_url(url)
    except NotABaseUrl as problem:
        raise ConfigError(f"base URL {url!r} {problem}", "give it as https://host[/path]") from None
    host = urlsplit(canonical).hostname or ""
    if canonical.startswith("http:") and not is_loopback(host):
        raise ConfigError(
            f"plain http:// is refused for {host}: the API key would travel unencrypted",
            "use https://, or http:// only to a loopback address such as 127.0.0.1",
        )
    return canonical


def refuse_identity(url: str, source: str | None = None) -> None:
    """A base URL names the service in the journal, reports and messages: one with a user name or password, a
    query or a fragment is a usage error wherever it was given (flag, variable or profile), said without it."""
    problem = identity_problem(url)
    if problem is not None:
        origin = f" ({source})" if source else ""
        raise UsageProblem(
            f"the base URL{origin} {problem}, which a base URL may not",
            "give the service's address alone, as https://host[/path]: the API key goes in ARI_API_KEY, "
            "--api-key-file or the profile, never in the URL",
        )


def _canonical(setting: Sourced) -> Sourced:
    """The base URL setting in its service's one spelling, so that everything downstream sees one; refused at
    once when it cannot name a service. One that is not an http(s) URL is kept as given: `config show` lists it,
    and a command that uses it says what is wrong (`check_base_url`)."""
    if not isinstance(setting.value, str) or not setting.value:
        return setting
    refuse_identity(setting.value, setting.source)
    try:
        return Sourced(canonical_base_url(setting.value), setting.source)
    except NotABaseUrl:
        return setting


def check_source_id(source_id: str, source: str | None = None) -> str:
    """A source id of the service's form, or a ConfigError saying where the wrong one came from."""
    if not re.fullmatch(SOURCE_ID_PATTERN, source_id):
        origin = f" ({source})" if source else ""
        raise ConfigError(
            f"source id {source_id!r}{origin} is not of the form cpb followed by two characters (e.g. cpbA1)",
            "use the source id the service assigned to your account",
        )
    return source_id


KEY_LIMIT = 256


def not_utf8(text: str) -> bool:
    """Whether text holds a byte that was not UTF-8 (the environment, a file name and argv keep one as a lone
    surrogate): nothing can send it, show it or store it as it is."""
    return any("\ud800" <= c <= "\udfff" for c in text)


def check_key(key: str, where: str) -> str:
    """A key of one line of printable characters, at most KEY_LIMIT of them; anything else is a wrong file or
    variable. What is wrong is named, never the key."""
    if not_utf8(key):
        raise ConfigError(
            f"the API key ({where}) holds a byte that is not UTF-8",
            "set the key again as UTF-8 text, as the service gave it (check the terminal's or editor's encoding)",
        )
    if any(c in key for c in "\r\n"):
        raise ConfigError(f"the API key ({where}) has a line break inside", "the key is one line: check the file")
    control = next((c for c in key if unicodedata.category(c) in ("Cc", "Cf")), None)
    if control is not None:
        raise ConfigError(
            f"the API key ({where}) holds a control character (U+{ord(control):04X})",
            "the key is printable text: save it again holding the key alone",
        )
    if len(key) > KEY_LIMIT:
        raise ConfigError(f"the API key ({where}) is over {KEY_LIMIT} characters", "check that it holds the key alone")
    return key


def read_key_file(path: Path) -> str:
    """The key held in a file; surrounding whitespace, the final newline and a byte order mark (Windows Notepad
    writes one) do not count."""
    path = path.expanduser()
    try:
        key = read_small(path, "API key file").decode("utf-8-sig").strip()
    except (OSError, UnicodeDecodeError) as problem:
        reason = getattr(problem, "strerror", None) or "not UTF-8 text"
        raise ConfigError(f"cannot read the API key file {display(path)}: {reason}") from None
    if not key:
        raise ConfigError(f"the API key file {display(path)} is empty")
    remember(key)
    return check_key(key, f"file {display(path)}")


# --- resolving --------------------------------------------------------------------------------


def _env(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def config_location(config: Path | None, env: Mapping[str, str]) -> tuple[Path, str]:
    """The config file to read and what chose it: the flag, `ARI_CONFIG`, or the default place."""
    if config is not None:
        return config.expanduser(), "flag --config"
    named = _env(env, "ARI_CONFIG")
    if named:
        return Path(named).expanduser(), "env ARI_CONFIG"
    return default_config_path(), "default"


def profile_choice(profile: str | None, env: Mapping[str, str]) -> tuple[str, str]:
    """The profile to use and what chose it."""
    if profile:
        return profile, "flag --profile"
    named = _env(env, "ARI_PROFILE")
    if named:
        return named, "env ARI_PROFILE"
    return DEFAULT_PROFILE, "default"


def load_config(config: Path | None, env: Mapping[str, str]) -> tuple[ConfigFile | None, Path, str]:
    """The config file, if there is one; a file named by flag or environment must exist."""
    path, source = config_location(config, env)
    if source == "default" and not path.exists():
        return None, path, source
    return read_config(path), path, source


def _first(*candidates: tuple[Any, str]) -> Sourced:
    for value, source in candidates:
        if value is not None and value != "":
            return Sourced(value, source)
    return Sourced(None, NOT_SET)


def profile_key_file(profile: Mapping[str, Any], base: Path) -> Path:
    """The key file a profile names (it has api_key_file)."""
    # A relative path is taken from the config file's folder, so that cron's working folder does not matter.
    return base / Path(profile["api_key_file"]).expanduser()


def _checked(key: Sourced) -> Sourced:
    """A key from a variable or a profile, of the key's shape; else the error, kept for when it is used."""
    if key.problem is not None or not isinstance(key.value, str):
        return key
    remember(key.value)
    try:
        return Sourced(check_key(key.value, key.source), key.source)
    except ConfigError as problem:
        return Sourced(None, key.source, problem)


def _profile_key(profile: Mapping[str, Any], where: str, base: Path, env: Mapping[str, str]) -> Sourced:
    if "api_key" in profile:
        return Sourced(profile["api_key"], where)
    if "api_key_file" in profile:
        path = profile_key_file(profile, base)
        source = f"{where}, api_key_file {display(path)}"
        try:
            return Sourced(read_key_file(path), source)
        except ConfigError as problem:
            return Sourced(None, source, problem)
    if "api_key_env" in profile:
        var = profile["api_key_env"]
        key = _env(env, var)
        if key is None:
            unset = ConfigError(
                f"the profile takes the API key from ${var}, which is not set",
                f"export {var}=... before running ari-cli, or set ARI_API_KEY",
            )
            return Sourced(None, f"{where}, env {var}", unset)
        return Sourced(key, f"{where}, env {var}")
    return Sourced(None, NOT_SET)


def _check_utf8(setting: Sourced, what: str) -> None:
    """A setting that holds a byte that is not UTF-8 cannot be sent or kept: said where it is read."""
    if isinstance(setting.value, str) and not_utf8(setting.value):
        raise ConfigError(
            f"the {what} ({setting.source}) holds a byte that is not UTF-8",
            "set it again as UTF-8 text (check the encoding of the terminal or script that set it)",
        )


def resolve(
    env: Mapping[str, str],
    connection: ConnectionOptions = ConnectionOptions(),
    plan: PlanOptions = PlanOptions(),
    sending: SendTuning = SendTuning(),
    guards: GuardOptions = GuardOptions(),
) -> Settings:
    """Every setting, typed, with where it came from: what the option objects were given (flags, or the keywords
    of `ari_cli.push()`), then the `ARI_*` variables, then the profile, then the defaults.

    The one place settings are put in order and read into their typed form (the tuning, the budget per property,
    the guards' limits); a connection that is missing or wrong is said when a command needs it (`connection()`).
    """
    config, path, path_source = load_config(connection.config, env)
    name, name_source = profile_choice(connection.profile, env)
    profiles = config.profiles if config else {}
    if name not in profiles and name_source != "default":
        where = f"{display(path)} has the profiles {', '.join(profiles)}" if profiles else f"{display(path)} has none"
        raise ConfigError(
            f"no profile {name!r} ({name_source}): {where}",
            f"create it with `ari-cli config init --profile {name}`, or list them with `ari-cli config profiles`",
        )
    profile = profiles.get(name, {})
    where = f"profile {name} in {display(path)}"
    values: dict[str, Sourced] = {}
    for key, (variable, default) in CONNECTION_SETTINGS.items():
        if key == "api_key":
            continue
        values[key] = _first(
            (getattr(connection, key), f"flag {FLAGS[key]}"),
            (_env(env, variable), f"env {variable}"),
            (profile.get(key), where),
            (default, "default"),
        )
    for key in ("base_url", "path_segment"):
        _check_utf8(values[key], key.replace("_", " ").replace("base url", "base URL"))
    values["base_url"] = _canonical(values["base_url"])
    key_file: Path | None = None
    if connection.api_key is not None:
        values["api_key"] = _checked(Sourced(connection.api_key, "argument api_key"))
    elif connection.api_key_file is not None:
        key_file = connection.api_key_file.expanduser()
        try:
            values["api_key"] = Sourced(read_key_file(key_file), "flag --api-key-file")
        except ConfigError as problem:
            values["api_key"] = Sourced(None, "flag --api-key-file", problem)
    elif _env(env, "ARI_API_KEY"):
        values["api_key"] = _checked(Sourced(_env(env, "ARI_API_KEY"), "env ARI_API_KEY"))
    else:
        values["api_key"] = _checked(_profile_key(profile, where, path.parent, env))
        key_file = profile_key_file(profile, path.parent) if "api_key_file" in profile else None
    remember(values["api_key"].value)
    warnings = list(config.warnings if config else ())
    key_warning = permission_warning(key_file) if key_file is not None and values["api_key"].value else None
    given = {**plan._asdict(), **sending._asdict()}
    for key, default in TUNING_DEFAULTS.items():
        values[key] = _first((_given(key, given[key]), f"flag {FLAGS[key]}"), (profile.get(key), where),
                             (default, "default"))  # fmt: skip
    return Settings(
        values={key: values[key] for key in SETTINGS},
        tuned=_tuned(values),
        path=path,
        path_source=path_source,
        found=config is not None,
        profile=name,
        profile_source=name_source,
        profiles=tuple(profiles),
        warnings=(*warnings, *([key_warning] if key_warning else [])),
        columns=profile.get(COLUMNS_KEY, {}),
        guards=_guards(guards, profile, name),
        ignore_columns=tuple(profile.get(IGNORE_KEY, ())),
    )


def _given(key: str, value: Any) -> Any:
    """A tuning value given as a flag or keyword, checked as a profile's is (the command line's flags are bounded
    alike before they get here: this says what is wrong with a keyword of `ari_cli.push()`)."""
    if value is None:
        return None
    try:
        return check_value(key, value)
    except ValueError as expected:
        raise UsageProblem(f"{key}={value!r}: give {expected}") from None


def _tuned(values: Mapping[str, Sourced]) -> Tuned:
    budget = values["rate_per_property"].value or None
    return Tuned(
        batch_size=values["batch_size"].value,
        data_form=str(values["data_form"].value),
        concurrency=values["concurrency"].value,
        rate=values["rate"].value,
        timeout=values["timeout"].value,
        retries=values["retries"].value,
        rate_per_property=budget,
        per_property=parse_budget(budget),
    )


def _guards(flags: GuardOptions, profile: Mapping[str, Any], name: str) -> dict[str, Sourced]:
    """The guards set: each flag (its limit read here, or the problem kept) over the profile's (read with the
    file)."""
    found: dict[str, Sourced] = {}
    for key in GUARD_LIMITS:
        given, flag = getattr(flags, key), FLAGS_OF_GUARDS[key]
        if given is not None:
            try:
                found[key] = Sourced(parse_limit(key, given), f"flag {flag}")
            except ValueError as expected:
                found[key] = Sourced(None, f"flag {flag}", UsageProblem(f"{flag} {given!r}: give {expected}"))
        elif key in profile:
            found[key] = Sourced(profile[key], f"profile {name}")
    return found


FLAGS_OF_GUARDS = {name: "--" + name.replace("_", "-") for name in GUARD_LIMITS}
