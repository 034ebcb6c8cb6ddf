"""How a value typed on the command line is read, and what a wrong one is told, in the tool's own words.

Typer reads a value by its type and says a wrong one in pydantic's words (`Value error, 'newest' is not one of
...`, `Input should be a valid integer, unable to parse string as an integer`). So every option or argument
whose type is a choice, a whole number or a number is declared with one of the readers here, through Typer's
documented `parser=` (and `metavar=`, what --help shows beside it): `typer.Option("--overlaps",
**choice(Overlaps), ...)`. A reader raises `typer.BadParameter`, which Typer says as `Invalid value for
'--overlaps': 'newest' is not one of error, last-wins`. tests/test_option_words.py tries a wrong value on every
option of every command.

Only Typer loads here: every command's declaration reads this module, --help included.
"""

import math
import re
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

import typer

E = TypeVar("E", bound=Enum)

_WHOLE = re.compile(r"[+-]?\d+")


def one_of(values: type[E]) -> str:
    """The values a choice takes, as help and errors write them: `error|last-wins`."""
    return "|".join(str(value.value) for value in values)


def choice(values: type[E], *, metavar: str | None = None) -> dict[str, Any]:
    """The `typer.Option` (or `typer.Argument`) arguments of a choice among `values`' values, shown as them
    (`error|last-wins`) or as `metavar`."""

    def read(given: Any) -> E:
        if isinstance(given, values):
            return given  # a default, already a value
        for value in values:
            if given == value.value:
                return value
        raise typer.BadParameter(f"{given!r} is not one of {one_of(values).replace('|', ', ')}")

    return {"parser": read, "metavar": metavar or one_of(values)}


def _within(low: float | None, high: float | None) -> str:
    """` from 0 to 20`, ` of 1 or more`, ` of 20 or less`: the bounds as an error says them."""
    if low is not None and high is not None:
        return f" from {low:g} to {high:g}"
    if low is not None:
        return f" of {low:g} or more"
    if high is not None:
        return f" of {high:g} or less"
    return ""


def _bounded(
    kind: str, read: Callable[[str], float | None], low: float | None, high: float | None, metavar: str
) -> dict[str, Any]:
    def parse(given: Any) -> Any:
        number = given if isinstance(given, int | float) and not isinstance(given, bool) else read(str(given))
        if number is None or (low is not None and number < low) or (high is not None and number > high):
            raise typer.BadParameter(f"{str(given)!r} is not {kind}{_within(low, high)}")
        return number

    # min= and max= only show the bounds in --help: with a parser, Typer leaves the checking to it.
    return {"parser": parse, "metavar": metavar, "min": low, "max": high}


def _whole(text: str) -> int | None:
    return int(text) if _WHOLE.fullmatch(text.strip()) else None


def _number(text: str) -> float | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None  # nan and inf are no count of anything


def whole(low: int | None = None, high: int | None = None, *, metavar: str = "N") -> dict[str, Any]:
    """The `typer.Option` (or `typer.Argument`) arguments of a whole number, within the bounds given."""
    return _bounded("a whole number", _whole, low, high, metavar)


def number(low: float | None = None, high: float | None = None, *, metavar: str = "N") -> dict[str, Any]:
    """The `typer.Option` arguments of a number (decimals allowed), within the bounds given."""
    return _bounded("a number", _number, low, high, metavar)
