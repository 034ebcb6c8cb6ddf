"""The option groups (`cli/options.py`) and how a command takes them (`cli/groups.py`).

A group's defaults are its option object's: a command that takes part of a group, and `ari_cli.push()`, which
builds the objects itself, must mean the same by an option left out. What a command sees and what Typer sees is
held by the console script's own tests (every push, send, retry, revert, replay, diff and calendar test).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from ari_cli.app.options import (
    ConnectionOptions,
    GuardOptions,
    InputOptions,
    OutputOptions,
    PlanOptions,
    SendTuning,
)
from ari_cli.cli.groups import only, takes
from ari_cli.cli.options import (
    connection_options,
    guard_options,
    input_options,
    output_options,
    plan_options,
    send_tuning,
)

GROUPS: list[tuple[Callable[..., Any], Any]] = [
    (output_options, OutputOptions()),
    (input_options, InputOptions()),
    (plan_options, PlanOptions()),
    (send_tuning, SendTuning()),
    (connection_options, ConnectionOptions()),
    (guard_options, GuardOptions()),
]


@pytest.mark.parametrize(("group", "defaults"), GROUPS, ids=[g.__name__ for g, _ in GROUPS])
def test_a_group_left_at_its_defaults_is_its_option_object_at_its_defaults(
    group: Callable[..., Any], defaults: Any
) -> None:
    assert group() == defaults


def test_a_command_sees_the_object_and_typer_sees_the_options() -> None:
    seen: list[Any] = []

    @takes(sending=only(send_tuning, "timeout", "retries"), connection=connection_options)
    def command(run: int, *, sending: SendTuning, connection: ConnectionOptions) -> None:
        seen.append((run, sending, connection))

    parameters = list(inspect.signature(command).parameters)
    assert parameters == ["run", "timeout", "retries", *inspect.signature(connection_options).parameters]
    command(run=7, timeout=5.0, retries=0, sandbox=True, profile="prod", config=None, base_url=None,
            source_id=None, api_key_file=None, path_segment=None)  # fmt: skip
    assert seen == [(7, SendTuning(timeout=5.0, retries=0), ConnectionOptions(sandbox=True, profile="prod"))]


def test_a_part_names_only_options_of_its_group() -> None:
    with pytest.raises(ValueError, match="send_tuning has no options"):
        only(send_tuning, "timeout", "sandbox")


def test_a_group_goes_in_place_of_a_parameter_the_command_has() -> None:
    def command(run: int) -> None: ...

    with pytest.raises(TypeError, match="no parameters"):
        takes(connection=connection_options)(command)


def test_two_groups_with_an_option_of_the_same_name_are_refused() -> None:
    def command(*, output: OutputOptions, also: OutputOptions) -> None: ...

    with pytest.raises(ValueError, match="duplicate parameter name"):
        takes(output=output_options, also=only(output_options, "quiet"))(command)
