"""Which sheets of a workbook are read: those --sheet names (repeatable), every visible sheet that is the
operation's with --all-sheets, else the one visible sheet that is the operation's. Two or more visible sheets
that are the operation's, without either flag, are refused: reading the first alone (a sheet per hotel) would
leave the others' hotels as they were while the run says it succeeded. Hidden sheets are read only when named:
an old version kept out of sight must never be pushed instead of today's. A visible sheet that is the
operation's, though its header has problems (the column names a few lines down, a misspelt name), counts as
the operation's: its problems stop the run before a later sheet is looked at, and another sheet whose
columns happen to fit is never read in its place.

A workbook that `export` wrote says so in its first sheet, and is read whole without either flag (`_choose`)."""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import replace

from ari_cli.exits import InputError
from ari_cli.exportfile.header import POLICIES_SHEET, SHEET, is_mark, run_of
from ari_cli.inputs.model import ListedPart, Prepared, ReadOptions
from ari_cli.inputs.textio import Source
from ari_cli.inputs.xlsxfile import Book, EmptyHeaderRow, Look, open_book, read_sheet
from ari_cli.wire.operations import Operation

_BOTH_FLAGS = "give --all-sheets to read every one, or --sheet NAME for each sheet to read (repeatable)"


def _pick_sheet(workbook: Book, name: str, wanted: str | None) -> str:
    sheets = list(workbook.sheet_names)
    if not sheets:
        raise InputError(f"{name}: the workbook has no worksheet")
    if wanted is None:
        return sheets[0]
    if wanted in sheets:
        return wanted
    folded = [sheet for sheet in sheets if sheet.casefold() == wanted.strip().casefold()]
    if len(folded) == 1:
        return folded[0]
    listed = ", ".join(f'"{sheet}"' for sheet in sheets)
    raise InputError(f'{name}: no sheet named "{wanted}"; the workbook has {listed}', hint="give --sheet NAME")


def prepare_xlsx(source: Source, operation: Operation, options: ReadOptions) -> Prepared:
    """Read the sheets of a workbook that the options ask for: their headers now, their rows (empty ones
    skipped) as they are checked."""
    return prepare_sheet(open_book(source), source.name, operation, options)


def prepare_sheet(workbook: Book, source_name: str, operation: Operation, options: ReadOptions) -> Prepared:
    """The sheets the options name, or else the visible sheets that are the operation's, of a workbook just
    opened, which is closed here: the rows already begun outlive it."""
    try:
        if options.sheets:
            return _named(workbook, source_name, operation, options)
        return _choose(workbook, source_name, operation, options)
    finally:
        workbook.close()


def _named(workbook: Book, source_name: str, operation: Operation, options: ReadOptions) -> Prepared:
    """The sheets --sheet names, in the order given; a name given twice (or in another case) is read once."""
    titles = dict.fromkeys(_pick_sheet(workbook, source_name, wanted) for wanted in options.sheets)
    read: list[Prepared] = []
    for title in titles:
        prepared = read_sheet(workbook, source_name, title, operation, options).prepared
        how = workbook.hidden.get(title)
        if how is not None:
            prepared.notes.append(f'{source_name}: read the sheet "{title}", which is {how}, as --sheet names it')
        read.append(prepared)
    return _together(read)


def _listed(titles: Iterable[str]) -> str:
    return ", ".join(f'"{title}"' for title in titles)


def _together(read: list[Prepared]) -> Prepared:
    """Several sheets' reading as one file's: the first sheet's part, the others' after it."""
    if len(read) == 1:
        return read[0]
    parts = [prepared.part for prepared in read if prepared.part is not None]
    return Prepared(
        part=parts[0] if parts else None,
        also=parts[1:],
        warnings=[warning for prepared in read for warning in prepared.warnings],
        problems=[problem for prepared in read for problem in prepared.problems],
        notes=[note for prepared in read for note in prepared.notes],
        ignored=[column for prepared in read for column in prepared.ignored],
    )


def _exported(workbook: Book, source_name: str) -> bool:
    """Whether `export` wrote the workbook: its first sheet, named as export names it, says so in its first cell
    (`exportfile/header.py`). Only such a sheet is opened here: a reader builds a whole sheet to give its first
    row, and any other first sheet is read once, by `read_sheet`, which names what is wrong with it."""
    title = workbook.sheet_names[0]
    if title != SHEET or len(workbook.sheet_names) < 2:
        return False
    try:
        first = next(workbook.rows(title, f"{source_name}[{title}]"), None)
    except InputError:
        return False  # said when the sheet is read
    return first is not None and bool(first[1]) and is_mark(first[1][0])


def _policies(workbook: Book, source_name: str) -> tuple[str, str] | None:
    """An exported workbook's policies sheet, as the TOML text it holds a line per row (column A)."""
    if POLICIES_SHEET not in workbook.sheet_names:
        return None
    where = f"{source_name}[{POLICIES_SHEET}]"
    lines = (
        str(cells[0]) if cells and cells[0] is not None else "" for _, cells in workbook.rows(POLICIES_SHEET, where)
    )
    return where, "\n".join(lines)


def _choose(workbook: Book, source_name: str, operation: Operation, options: ReadOptions) -> Prepared:
    _pick_sheet(workbook, source_name, None)  # a workbook without sheets says so
    exported = _exported(workbook, source_name)
    if exported:
        # A sheet per property, as export wrote them: read whole, its header and policies sheets passed over.
        options = replace(options, all_sheets=True)
    visible = [sheet for sheet in workbook.sheet_names if sheet not in workbook.hidden]
    if exported:
        visible = [sheet for sheet in visible[1:] if sheet != POLICIES_SHEET]
        policies = _policies(workbook, source_name)  # read before the sheets: their rows outlive the reading
        prepared = _choose_among(workbook, source_name, operation, options, visible, "an export: read whole")
        prepared.policies = policies
        prepared.exported_run = run_of(cells for _, cells in workbook.rows(workbook.sheet_names[0], source_name))
        return prepared
    return _choose_among(workbook, source_name, operation, options, visible)


def _choose_among(
    workbook: Book, source_name: str, operation: Operation, options: ReadOptions, visible: list[str],
    why: str = "--all-sheets",
) -> Prepared:  # fmt: skip
    if not visible:
        listed = ", ".join(f'"{sheet}" ({workbook.hidden[sheet]})' for sheet in workbook.sheet_names)
        raise InputError(
            f"{source_name}: every sheet is hidden: {listed}; hidden sheets are read only when named",
            hint="give --sheet NAME to read a hidden sheet",
        )
    passed = [f'"{sheet}" ({workbook.hidden[sheet]})' for sheet in workbook.sheet_names if sheet in workbook.hidden]
    first: Look | EmptyHeaderRow | None = None
    ours: list[tuple[str, Look]] = []
    later: list[str] = []  # visible sheets after the first of the operation's that are not the operation's
    for title in visible:
        # A hint names --sheet for a sheet after the first visible one (an earlier one might be read without
        # it); never with --all-sheets, which --sheet cannot join.
        named = "" if title == visible[0] or options.all_sheets else title
        # Past the first sheet of the operation's, a sheet is looked at only to find a second one: one that
        # cannot be read is named as before, not refused (it would not be read).
        aside = bool(ours) and not options.all_sheets
        try:
            look = read_sheet(workbook, source_name, title, operation, options, named)
        except EmptyHeaderRow as empty:
            if empty.later is not None and aside:
                ours.append((title, Look(Prepared(None), empty.later, ours=True)))  # a second one: refused below
                continue
            if empty.later is not None:
                raise  # the sheet's columns are a few lines below the row named: it is the operation's
            # --header-row N is looked for on every visible sheet: a Readme first may end above line N.
            first = first or empty
            (later if aside else passed).append(f'"{title}" (line {options.header_row} is empty)')
            continue
        except InputError:
            if not aside:
                raise
            later.append(f'"{title}" (cannot be read)')
            continue
        if look.ours:
            ours.append((title, look))
            if look.prepared.problems and not options.all_sheets:
                break  # its problems stop the run, whatever the later sheets hold: they are said first
            continue
        first = first or look
        if aside:
            later.append(f'"{title}"')
            continue
        what = "empty" if isinstance(look.prepared.part, ListedPart) else f"not the columns of {operation.value}"
        passed.append(f'"{title}" ({what})')
    if not ours:
        assert first is not None
        return _none_fits(workbook, source_name, first, operation, options)
    if options.all_sheets:
        read = [look.prepared for _, look in ours]
        said = [f"read the sheet{'s' if len(ours) > 1 else ''} {_listed(title for title, _ in ours)}"]
        if passed:
            said.append(f"passed over {', '.join(passed)}")
        read[0].notes.insert(0, f"{source_name}: {'; '.join(said)} ({why})")
        return _together(read)
    if len(ours) > 1:  # the first of them has no problems: a second one is why the run stops
        raise InputError(
            f"{source_name}: {len(ours)} visible sheets have the columns of {operation.value}: "
            f"{_listed(title for title, _ in ours)}; "
            "reading one alone would leave the others as they are",
            hint=_BOTH_FLAGS,
        )
    title, look = ours[0]
    prepared = look.prepared
    if passed or later:
        said = [f'read the sheet "{title}"']
        if passed:
            said.append(f"passed over {', '.join(passed)}")
        if later:
            said.append(f"the workbook also has {', '.join(later)}")
        prepared.notes.insert(0, f"{source_name}: {'; '.join(said)} (give --sheet NAME)")
    return prepared


def _none_fits(
    workbook: Book, source_name: str, first: Look | EmptyHeaderRow, operation: Operation, options: ReadOptions
) -> Prepared:
    """No visible sheet is the operation's: the first one's problems say what is missing, and a hidden sheet
    that has the columns is named, with the --sheet that reads it."""
    found: list[str] = []
    for sheet in workbook.sheet_names:
        how = workbook.hidden.get(sheet)
        if how is None:
            continue
        try:
            look = read_sheet(workbook, source_name, sheet, operation, options)
        except EmptyHeaderRow as empty:
            look = Look(Prepared(None), empty.later, empty.later is not None)
        except InputError:
            continue  # only looked at, to name it: what is wrong with it is said if it is read
        if look.ours:
            below = f" --header-row {look.later}" if look.later is not None else ""
            found.append(
                f'{source_name}: passed over "{sheet}" ({how}), which has the columns of {operation.value}: '
                f"give --sheet {shlex.quote(sheet)}{below} to read it"
            )
    if isinstance(first, EmptyHeaderRow):
        if not found:
            raise first
        raise InputError("\n".join([first.message, *found]), hint=first.hint)
    part = first.prepared.part
    if found and part is not None:  # the first visible sheet is empty
        raise InputError("\n".join([f"{part.source}: the sheet is empty", *found]))
    first.prepared.problems.extend(found)
    return first.prepared
