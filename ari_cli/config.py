"""Where requests go and with which credentials: flags over `ARI_*` variables.

The key is remembered by `secrets` as soon as it is read, so that nothing can print it.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ari_cli.exits import ConfigError
from ari_cli.protocol import SOURCE_ID_PATTERN
from ari_cli.secrets import mask, remember

DEFAULT_SEGMENT = "{action}"
HOW_TO = (
    "give --base-url URL (or set ARI_BASE_URL), set ARI_API_KEY (or give --api-key-file PATH), "
    "and give --source-id ID (or set ARI_SOURCE_ID); or add --sandbox to push to the built-in emulator"
)


@dataclass(frozen=True, slots=True)
class ConnectionFlags:
    """What the command line said about the connection."""

    base_url: str | None = None
    source_id: str | None = None
    api_key_file: Path | None = None
    path_segment: str | None = None


@dataclass(frozen=True, slots=True)
class Connection:
    """A usable endpoint: base URL, key, source id and the last path segment's template."""

    base_url: str
    api_key: str
    source_id: str
    path_segment: str = DEFAULT_SEGMENT

    def __repr__(self) -> str:
        return (
            f"Connection(base_url={self.base_url!r}, api_key={mask(self.api_key)!r}, "
            f"source_id={self.source_id!r}, path_segment={self.path_segment!r})"
        )


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_base_url(url: str) -> str:
    """Refuse anything but https, except plain http to a loopback host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"base URL {url!r} is not an http(s) URL", "give it as https://host[/path]")
    if parts.scheme == "http" and not _is_loopback(parts.hostname):
        raise ConfigError(
            f"plain http:// is refused for {parts.hostname}: the API key would travel unencrypted",
            "use https://, or http:// only to a loopback address such as 127.0.0.1",
        )
    return url.rstrip("/")


def _read_key_file(path: Path) -> str:
    try:
        key = path.read_text(encoding="utf-8").strip()
    except OSError as problem:
        raise ConfigError(f"cannot read the API key file {path}: {problem.strerror}") from None
    if not key:
        raise ConfigError(f"the API key file {path} is empty")
    return key


def resolve_connection(flags: ConnectionFlags, env: Mapping[str, str]) -> Connection:
    """The connection from flags, then environment; a clear error naming what is missing."""
    base_url = flags.base_url or env.get("ARI_BASE_URL", "").strip()
    api_key = _read_key_file(flags.api_key_file) if flags.api_key_file else env.get("ARI_API_KEY", "").strip()
    remember(api_key)
    source_id = flags.source_id or env.get("ARI_SOURCE_ID", "").strip()
    segment = flags.path_segment or env.get("ARI_PATH_SEGMENT", "").strip() or DEFAULT_SEGMENT
    missing = [
        name for name, value in (("base URL", base_url), ("API key", api_key), ("source id", source_id)) if not value
    ]
    if missing:
        raise ConfigError(f"no {', '.join(missing)} configured", HOW_TO)
    if not re.fullmatch(SOURCE_ID_PATTERN, source_id):
        raise ConfigError(
            f"source id {source_id!r} is not of the form cpb followed by two characters (e.g. cpbA1)",
            "use the source id the service assigned to your account",
        )
    if not segment.strip("/"):
        raise ConfigError("the path segment is empty", "give --path-segment TEXT, e.g. {action}")
    return Connection(check_base_url(base_url), api_key, source_id, segment)
