"""What the tool knows of an operation, in one frozen object: `Descriptor`.

Every stage reads an operation's descriptor instead of asking which operation it is: the readers its columns
and aliases, the checkers its key fields and value rule, the planner and the journal its body layout, the
renderers its words. Only data and plain functions live here (no pydantic, nothing of the stages), so that
every stage can import it and `--help` stays light; a value rule's code lives in `records/`, named by the
rule's type (`Level`, `Terms`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ari_cli.wire.operations import Operation

WEEKDAY_FLAGS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
"""Seven columns of Y/N, one per weekday (an export's alternative to one `days` column); `weekdays.py`
turns them into the row's `days`."""
DATE_COLUMNS = ("start", "end", "date", "period", "days", *WEEKDAY_FLAGS)
"""The columns every operation reads after its key fields: the dates (start and end, one date, or a period: a
range in one cell) and the weekday filter."""
RATE = "rateid"

# A data record as the wire lays it out: its first and last day (ISO), the record's key and its value.
DataLayout = Callable[[str, str, tuple[str, ...], object], dict[str, str]]


@dataclass(frozen=True, slots=True)
class Level:
    """A value rule: a whole number from `low` to `high` in the column `field` (`records/levels.py`)."""

    field: str
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Terms:
    """A value rule: a policy of refundable, level and deposit columns, or a name of --policies
    (`records/policy.py`)."""

    named: str
    """The column naming a policy of --policies: what a grid's cell gives."""


@dataclass(frozen=True, slots=True)
class Words:
    """How an operation's values are named where they are shown."""

    heading: str
    """The value column's heading in a push's table."""
    many: str
    """The values in the plural, in a sentence: a calendar's title, a refusal."""


@dataclass(frozen=True, slots=True)
class Descriptor:
    """One operation: its name and action, what its rows hold, how its bodies are laid out, how it is shown."""

    operation: Operation
    key_fields: tuple[str, ...]
    """The ids a value is set for, in the journal's order: (propertyid, roomid) or (propertyid, roomid, rateid)."""
    rule: Level | Terms
    own_columns: tuple[str, ...]
    """The columns of its own value, which no other operation reads, after the key and date columns."""
    aliases: Mapping[str, tuple[str, ...]]
    """Other spellings of its own columns, as users write them."""
    optional: frozenset[str]
    """Its own columns that may be missing or empty."""
    body_keys: frozenset[str]
    """The keys (normalized) that make a request body this operation's: in its first `data` record when it is
    `batched`, else in the body itself."""
    layout: DataLayout | None
    """A `data` record of its request bodies, fields in the wire model's order; None: a request is one record's
    whole body (`planning/batch.py` builds it), sent one record at a time and kept by the journal as sent."""
    clearable: bool
    """Whether `n/a` clears a value (what `revert --clear-unknown` sends for dates never seen)."""
    words: Words = field(compare=False)
    needed_by: Mapping[str, str] = field(default_factory=dict)
    """Its own columns that only some rows need, each with the rows that do (the deposit's amount: a required
    deposit): a file may lack them, and a row that needs one is refused naming it (`records/`)."""
    abroad: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Its own columns by the words of the other languages of `inputs/languages.py`, as the README's table
    lists them."""
    books_ahead: bool = False
    """Whether a value is how many days before a night that night may be booked: `why` says the first day a guest
    can book it (the night minus that many days)."""

    @property
    def name(self) -> str:
        return self.operation.value

    @property
    def action(self) -> str:
        return self.operation.action

    @property
    def label(self) -> str:
        return self.operation.label

    @property
    def has_rate(self) -> bool:
        """Whether a value is set per rate as well as per room."""
        return RATE in self.key_fields

    @property
    def cell(self) -> str:
        """The column a grid's cell gives (`inputs/grids.py`): the value, or the name of a policy of --policies."""
        return self.rule.field if isinstance(self.rule, Level) else self.rule.named

    @property
    def columns(self) -> tuple[str, ...]:
        """Every canonical column it reads, in the order users see them."""
        return (*self.key_fields, *DATE_COLUMNS, *self.own_columns)

    @property
    def batched(self) -> bool:
        """Whether a request carries several records (a `data` list), up to the batch size."""
        return self.layout is not None

    @property
    def structured(self) -> bool:
        """Whether a value is a structure, kept as JSON text: shown in words, given as JSON in documents."""
        return isinstance(self.rule, Terms)

    @property
    def takes_named(self) -> bool:
        """Whether a row may give its value by a name of --policies."""
        return isinstance(self.rule, Terms)

    @property
    def steps(self) -> bool:
        """Whether a value is a number, whose step `--max-step` bounds."""
        return isinstance(self.rule, Level)
