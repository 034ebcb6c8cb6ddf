"""How a command takes a group of options (`cli/options.py`) as one parameter.

Typer makes a command's options from its function's parameters, read with `inspect.signature`, and has no way
of its own to share a group of them between commands (fastapi/typer#153). `inspect.signature` honours a
function's `__signature__`, so `takes` gives the command a signature in which each group's parameter is
replaced by the group's options, in its place (their order is --help's), and calls the command with the
group's function applied to their values: the command sees one option object, Typer sees the options.
"""

import functools
import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

Command = Callable[..., None]


class Part(NamedTuple):
    """Some of a group's options: the object's defaults stand for the others."""

    group: Callable[..., Any]
    names: tuple[str, ...]


def only(group: Callable[..., Any], *names: str) -> Part:
    """The options `names` of `group`, for a command that takes no others of it."""
    unknown = set(names) - set(inspect.signature(group).parameters)
    if unknown:
        raise ValueError(f"{group.__name__} has no options {sorted(unknown)}")
    return Part(group, names)


def _options(taken: Callable[..., Any] | Part) -> tuple[Callable[..., Any], list[inspect.Parameter]]:
    group, names = (taken.group, taken.names) if isinstance(taken, Part) else (taken, None)
    options = inspect.signature(group).parameters.values()
    return group, [option for option in options if names is None or option.name in names]


def takes(**groups: Callable[..., Any] | Part) -> Callable[[Command], Command]:
    """The command with each named parameter replaced by the options of its group (or part of one)."""

    def decorate(command: Command) -> Command:
        own = inspect.signature(command).parameters
        missing = set(groups) - set(own)
        if missing:
            raise TypeError(f"{command.__name__} has no parameters {sorted(missing)} to take option groups")
        made = {name: _options(taken) for name, taken in groups.items()}
        parameters: list[inspect.Parameter] = []
        for parameter in own.values():
            parameters += made[parameter.name][1] if parameter.name in made else [parameter]
        # Typer passes every value by name; keyword-only lets a group's options (with defaults) come anywhere.
        # inspect.Signature refuses two options of one name.
        signature = inspect.Signature([p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in parameters])

        @functools.wraps(command)
        def run(**values: Any) -> None:
            for name, (group, options) in made.items():
                values[name] = group(**{option.name: values.pop(option.name) for option in options})
            command(**values)

        run.__signature__ = signature  # type: ignore[attr-defined]  # read by inspect.signature, hence by Typer
        # Typer reads the parameters' types from the annotations too: those of the signature Typer sees.
        run.__annotations__ = {p.name: p.annotation for p in parameters if p.annotation is not p.empty}
        return run

    return decorate
