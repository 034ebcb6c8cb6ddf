"""Where the journal is: a path, without opening anything (and without loading SQLite).

A dry run asks where the journal is (so that `--report` never overwrites it) and must not load the journal
itself; `database.py` opens the file found here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import platformdirs

from ari_cli.config.file import APP_NAME

FILE_NAME = "journal.sqlite3"
HOME_VARIABLE = "ARI_HOME"


def default_home(env: Mapping[str, str]) -> Path:
    """`$ARI_HOME`, else the user data folder of this platform."""
    home = env.get(HOME_VARIABLE, "").strip()
    if home:
        return Path(home).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def journal_path(env: Mapping[str, str]) -> Path:
    """The journal's file (which may not exist yet)."""
    return default_home(env) / FILE_NAME
