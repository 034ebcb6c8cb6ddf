"""How a command takes a group of options (`cli/options.py`) as one parameter.

Typer makes a command's options from its function's parameters, read with `inspect.signature`, and has no way
of its own to share a group of them between commands (fastapi/typer#153). `inspect.signature` honours a
function's `__signature__`, so `takes` gives the command a signature in which each group's parameter is
replaced by the group's options, in its place (their order is --help's), and calls the command with the
group's function applied to their values: the command sees one option object, Typer sees the options.

A group's option whose default is None ("not given": the profile's value, else the default, as the settings are
resolved) may show another default in --help (`shows`): Typer is given that one, and an option left at it is
handed to the group as None again, read from the command's context where the value came from.
"""

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import typer

Command = Callable[..., None]
Group = Callable[..., Any]


class Part(NamedTuple):
    """Some of a group's options: the object's defaults stand for the others."""

    group: Callable[..., Any]
    names: tuple[str, ...]


# Each group's options that show a default other than their own (None) in --help, by group.
_SHOWN: dict[Group, dict[str, Any]] = {}


def shows(defaults: Mapping[str, Any]) -> Callable[[Group], Group]:
    """The group, whose options named in `defaults` (None when not given) show those defaults in --help."""

    def mark(group: Group) -> Group:
        _SHOWN[group] = {name: defaults[name] for name in inspect.signature(group).parameters if name in defaults}
        return group

    return mark


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
        shown: dict[str, Any] = {}
        for group, options in made.values():
            defaults = _SHOWN.get(group, {})
            shown.update({option.name: defaults[option.name] for option in options if option.name in defaults})
        # Where each value came from is the command's context (every command that takes such options has one);
        # a command called from Python without one is given its values as they are.
        context = next((p.name for p in own.values() if p.annotation in (typer.Context, "typer.Context")), None)
        parameters: list[inspect.Parameter] = []
        for parameter in own.values():
            parameters += made[parameter.name][1] if parameter.name in made else [parameter]
        # Typer passes every value by name; keyword-only lets a group's options (with defaults) come anywhere.
        # inspect.Signature refuses two options of one name.
        signature = inspect.Signature(
            [p.replace(kind=inspect.Parameter.KEYWORD_ONLY, default=shown.get(p.name, p.default)) for p in parameters]
        )

        @functools.wraps(command)
        def run(**values: Any) -> None:
            ctx = values.get(context) if context is not None else None
            if ctx is not None:
                for name in shown:
                    source = ctx.get_parameter_source(name)
                    if source is None or source.name == "DEFAULT":
                        values[name] = None  # not given: the profile's value, else the default
            for name, (group, options) in made.items():
                values[name] = group(**{option.name: values.pop(option.name) for option in options})
            command(**values)

        run.__signature__ = signature  # type: ignore[attr-defined]  # read by inspect.signature, hence by Typer
        # Typer reads the parameters' types from the annotations too: those of the signature Typer sees.
        run.__annotations__ = {p.name: p.annotation for p in parameters if p.annotation is not p.empty}
        return run

    return decorate
