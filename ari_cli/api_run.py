"""What `ari_cli.push()` returns: a run's rows, summary and requests, typed for the scripts that read them.

Each part is made from the `--output json` document's own pieces (`render/push/run.py`), so an error's text
and a request's body are masked here as they are there; rows are made when read, as the command makes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from ari_cli.exits import AriError, ExitCode
from ari_cli.render.push.run import document, request_dict, row_dict
from ari_cli.results import RowResult, RowResults, Status

if TYPE_CHECKING:
    from ari_cli.app.push import Pushed
    from ari_cli.results import Run as Results


@dataclass(frozen=True, slots=True)
class Error:
    """One error of a row or request: the service's body code and message, and the HTTP status."""

    code: int | None
    message: str
    http_status: int | None

    @classmethod
    def of(cls, error: dict[str, Any]) -> Error:
        return cls(error["code"], error["message"], error["http_status"])


@dataclass(frozen=True, slots=True)
class Row:
    """The result of one input row (for `rows`, `source` is "<rows>" and `line` the place in the list, from 1)."""

    source: str
    line: int
    status: Status
    """ok, planned (a dry run's valid row), failed, not sent, invalid or skipped."""
    trackingids: tuple[str, ...]
    errors: tuple[Error, ...]
    note: str
    """Why a row is skipped or not sent, or what planning did to it; empty when there is nothing to say."""
    propertyid: str
    roomid: str
    rateid: str
    dates: str
    value: str


@dataclass(frozen=True, slots=True)
class Request:
    """One request: what it carried, how it went; `body` as sent, with `sharepost` masked."""

    id: int
    parent: int | None
    """The request this one was split from, after a record-level error."""
    propertyid: str
    records: int
    lines: tuple[int, ...]
    attempts: int
    http_status: int | None
    success: bool | None
    """None when it was not sent (a dry run, an interrupted run)."""
    trackingid: str | None
    errors: tuple[Error, ...]
    body: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Summary:
    """How many rows, records and requests the run had, and how many rows ended in each status."""

    rows: int
    records: int
    requests: int
    ok: int
    planned: int
    failed: int
    not_sent: int
    invalid: int
    skipped: int


class Rows(Sequence[Row]):
    """The run's rows in input order, each made when read: a big run keeps results per record, not per row."""

    def __init__(self, results: RowResults) -> None:
        self._results = results

    def __len__(self) -> int:
        return len(self._results)

    @overload
    def __getitem__(self, index: int) -> Row: ...

    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...

    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        if isinstance(index, slice):
            return [_row(r) for r in self._results[index]]
        return _row(self._results[index])

    def __iter__(self) -> Iterator[Row]:
        return map(_row, self._results)

    def __repr__(self) -> str:
        return f"<Rows: {len(self)}>"


def _row(result: RowResult) -> Row:
    shown, view = row_dict(result), result.view
    return Row(
        shown["source"], shown["line"], result.status, tuple(shown["trackingids"]),
        tuple(map(Error.of, shown["errors"])), shown["note"],
        view.propertyid, view.roomid, view.rateid, view.dates, view.value,
    )  # fmt: skip


@dataclass(frozen=True)
class Run:
    """A push done: its rows, summary and requests, and the exit code the command would give."""

    operation: str
    dry_run: bool
    rows: Rows = field(repr=False)
    summary: Summary
    requests: tuple[Request, ...] = field(repr=False)
    exit_code: ExitCode
    """0 every row ok, planned or skipped; 1 a row failed or was not sent; 3 invalid rows, nothing sent."""
    warnings: tuple[str, ...]
    """About the data and the settings (a column ignored, a range clipped, a config file others can read)."""
    notes: tuple[str, ...]
    """What reading found worth saying (rows skipped, the sheet read)."""
    journal_run: int | None
    """The journal's number of the run (`ari-cli history show N`, `ari-cli retry N`); None when not journaled."""
    _results: Results = field(repr=False, compare=False)

    @classmethod
    def of(cls, pushed: Pushed, code: ExitCode) -> Run:
        run = pushed.run
        requests = []
        for exchange in run.exchanges:
            shown = request_dict(run, exchange)
            shown.update(lines=tuple(shown["lines"]), errors=tuple(map(Error.of, shown["errors"])))
            requests.append(Request(**shown))
        counts = {name.replace(" ", "_"): number for name, number in run.summary().items()}
        return cls(
            run.operation.value, run.dry_run, Rows(run.rows), Summary(**counts), tuple(requests), code,
            tuple(pushed.warnings), tuple(pushed.notes), pushed.number, run,
        )  # fmt: skip

    @property
    def ok(self) -> bool:
        """The run's exit code is 0."""
        return self.exit_code is ExitCode.OK

    def document(self) -> dict[str, Any]:
        """The run as `--output json` writes it (the contract's document), ready for `json.dumps`."""
        return document(self._results)

    def raise_for_status(self) -> Run:
        """This run, if its exit code is 0; else raise RunFailed with that code (1 or 3) and this run."""
        if self.ok:
            return self
        counts = self.summary
        failed = f"{counts.failed} failed, {counts.not_sent} not sent, {counts.invalid} invalid"
        raise RunFailed(f"{self.operation} push: {failed} of {counts.rows} rows", self.exit_code, self)


class RunFailed(AriError):
    """From `Run.raise_for_status()`: a run whose rows did not all go through; `exit_code` is the run's."""

    def __init__(self, message: str, exit_code: ExitCode, run: Run) -> None:
        super().__init__(message, hint="run.rows says which rows and why; `ari-cli retry` re-sends what failed")
        self.exit_code = exit_code
        self.run = run
