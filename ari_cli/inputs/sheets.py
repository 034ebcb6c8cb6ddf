"""Which sheet of a workbook is read: the one --sheet names, else the first visible sheet that is the
operation's. Hidden sheets are read only when named: an old version kept out of sight must never be pushed
instead of today's. A visible sheet that is the operation's, though its header has problems (the column
names a few lines down, a misspelt name), is the one read: its problems stop the run, and a later sheet
whose columns happen to fit is never read in its place."""

from __future__ import annotations

import shlex

from ari_cli.exits import InputError
from ari_cli.inputs.model import ListedPart, Prepared, ReadOptions
from ari_cli.inputs.textio import Source
from ari_cli.inputs.xlsxfile import Book, EmptyHeaderRow, Look, open_book, read_sheet
from ari_cli.wire.operations import Operation


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
    """Read one sheet of a workbook: its header now, its rows (empty ones skipped) as they are checked."""
    return prepare_sheet(open_book(source), source.name, operation, options)


def prepare_sheet(workbook: Book, source_name: str, operation: Operation, options: ReadOptions) -> Prepared:
    """The sheet the options name, or else the first visible sheet that is the operation's, of a workbook
    just opened, which is closed here: the rows already begun outlive it."""
    try:
        if options.sheet is not None:
            title = _pick_sheet(workbook, source_name, options.sheet)
            prepared = read_sheet(workbook, source_name, title, operation, options).prepared
            how = workbook.hidden.get(title)
            if how is not None:
                prepared.notes.append(f'{source_name}: read the sheet "{title}", which is {how}, as --sheet names it')
            return prepared
        return _choose(workbook, source_name, operation, options)
    finally:
        workbook.close()


def _choose(workbook: Book, source_name: str, operation: Operation, options: ReadOptions) -> Prepared:
    _pick_sheet(workbook, source_name, None)  # a workbook without sheets says so
    visible = [sheet for sheet in workbook.sheet_names if sheet not in workbook.hidden]
    if not visible:
        listed = ", ".join(f'"{sheet}" ({workbook.hidden[sheet]})' for sheet in workbook.sheet_names)
        raise InputError(
            f"{source_name}: every sheet is hidden: {listed}; hidden sheets are read only when named",
            hint="give --sheet NAME to read a hidden sheet",
        )
    passed = [f'"{sheet}" ({workbook.hidden[sheet]})' for sheet in workbook.sheet_names if sheet in workbook.hidden]
    first: Look | EmptyHeaderRow | None = None
    tried: list[str] = []
    for title in visible:
        # A hint names --sheet for a sheet after the first visible one: an earlier one might be read without it.
        named = "" if title == visible[0] else title
        try:
            look = read_sheet(workbook, source_name, title, operation, options, named)
        except EmptyHeaderRow as empty:
            if empty.later is not None:
                raise  # the sheet's columns are a few lines below the row named: it is the operation's
            # --header-row N is looked for on every visible sheet: a Readme first may end above line N.
            first = first or empty
            tried.append(title)
            passed.append(f'"{title}" (line {options.header_row} is empty)')
            continue
        if look.ours:
            break
        first = first or look
        tried.append(title)
        what = "empty" if isinstance(look.prepared.part, ListedPart) else f"not the columns of {operation.value}"
        passed.append(f'"{title}" ({what})')
    else:
        assert first is not None
        return _none_fits(workbook, source_name, first, operation, options)
    prepared = look.prepared
    others = [f'"{sheet}"' for sheet in visible if sheet != title and sheet not in tried]
    if passed or others:
        said = [f'read the sheet "{title}"']
        if passed:
            said.append(f"passed over {', '.join(passed)}")
        if others:
            said.append(f"the workbook also has {', '.join(others)}")
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
