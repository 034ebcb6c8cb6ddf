"""Checking every row of a run into a RowTable, and the settings its rows ask for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ari_cli.exits import InputError
from ari_cli.inputs import Part
from ari_cli.operations import of
from ari_cli.operations.descriptor import Level
from ari_cli.records.levels import LevelChecker
from ari_cli.records.policy import Policy, PolicyChecker
from ari_cli.records.rules import DateOptions
from ari_cli.records.table import RowTable, Settings, joined
from ari_cli.wire.operations import Operation


def check_rows(
    parts: Iterable[Part],
    operation: Operation,
    dates: DateOptions,
    single_level: bool = False,
    named: Mapping[str, Policy] | None = None,
    empty: list[str] | None = None,
    warnings: list[str] | None = None,
) -> tuple[RowTable, Settings]:
    """Every row of every part, checked; and the settings of the valid ones.

    `single_level` (--data-form object) refuses policies of two levels; `named` holds the policies of
    --policies, which a policy row may give by name. `empty` receives the sources of parts without rows;
    `warnings`, what valid rows say that a person rarely means.
    """
    table = RowTable()
    checker: PolicyChecker | LevelChecker
    # The descriptor's value rule says which checker reads its rows.
    rule = of(operation).rule
    if isinstance(rule, Level):
        checker = LevelChecker(operation, dates, table)
    else:
        checker = PolicyChecker(dates, table, single_level, named)
    layouts: list[str] = []
    pieces: list[tuple[int, int]] = []  # the table's rows of each segmented part: a grid's pieces
    for part in parts:
        before = len(table)
        checker.add_part(part)
        if empty is not None and len(table) == before:
            empty.append(part.source)
        if part.segmented and len(table) > before:
            pieces.append((before, len(table)))
        if (layout := checker.tally.uniform(part.source)) is not None:
            layouts.append(layout)
    if layouts:
        raise InputError("\n".join(layouts), hint="--date-format takes strptime codes: %d day, %m month, %Y year")
    if isinstance(checker, PolicyChecker):
        settings = checker.settings()
        if warnings is not None:
            warnings.extend(checker.warnings)
    else:
        settings = table.settings()
    return joined(table, settings, pieces) if pieces else (table, settings)
