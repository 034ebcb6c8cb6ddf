"""The values the commands' options offer (`--output table|json|csv`, ...) and the calendar's bound.

The commands declare their options with these on every start, `--help` included, so this module imports
nothing but `enum`. The option objects built from them when a command runs are in `options.py`.
"""

from enum import StrEnum


class OutputFormat(StrEnum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"


class InputFormat(StrEnum):
    CSV = "csv"
    JSON = "json"
    JSONL = "jsonl"


class Form(StrEnum):
    LIST = "list"
    OBJECT = "object"


class Overlaps(StrEnum):
    ERROR = "error"
    LAST_WINS = "last-wins"


class Layout(StrEnum):
    """How a file lays out its settings: a row per setting, or a grid (`inputs/grids.py`)."""

    ROWS = "rows"
    DATES_ACROSS = "dates-across"
    ROOMS_ACROSS = "rooms-across"


class HiddenRows(StrEnum):
    SKIP = "skip"
    INCLUDE = "include"


class Show(StrEnum):
    ALL = "all"
    FAILED = "failed"


class DiffShow(StrEnum):
    """Which ranges a diff lists: those that would change, or every one."""

    CHANGES = "changes"
    ALL = "all"


class ViewFormat(StrEnum):
    """What history, calendar and config print: a table, or one JSON document."""

    TABLE = "table"
    JSON = "json"


class DiffFormat(StrEnum):
    """What `diff` prints: a table, one JSON document, CSV, or an HTML page."""

    TABLE = "table"
    JSON = "json"
    CSV = "csv"
    HTML = "html"


class PageFormat(StrEnum):
    """What `calendar` and `history show` print: a table, one JSON document, or an HTML page."""

    TABLE = "table"
    JSON = "json"
    HTML = "html"


# The longest calendar shown at once.
MOST_DAYS = 366
