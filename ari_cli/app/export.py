"""What `ari-cli OPERATION export` does: the values the journal knows the service acknowledged, for the
properties asked for (every one it knows for the service when none is), over a window of dates, written to a
file that `push` reads back (`exportfile/`).

The push API has no read call: what is written is what was acknowledged to this journal, never a change made
elsewhere; the file's header says so, and names the last run it reflects."""

from __future__ import annotations

import datetime as dt

from ari_cli.app.history import journal_place
from ari_cli.app.listener import Listener
from ari_cli.app.options import MOST_DAYS, ExportRequest, Layout
from ari_cli.app.world import World
from ari_cli.config.settings import resolve
from ari_cli.exits import AriError, UsageProblem
from ari_cli.exportfile.exported import Exported
from ari_cli.exportfile.header import Header
from ari_cli.exportfile.tables import named, policies_toml, runs_of, tables
from ari_cli.exportfile.write import policies_path, write_csv, write_xlsx
from ari_cli.journal.queries import Key, Span, acknowledged, run_started
from ari_cli.journal.store import reading
from ari_cli.operations import of
from ari_cli.records.dates import parse_date

SUFFIXES = (".csv", ".xlsx")


def _day(text: str, option: str, today: dt.date) -> dt.date:
    try:
        return parse_date(text, today)
    except ValueError:
        raise UsageProblem(f'{option}: "{text}" is not a date', "give YYYY-MM-DD, today or today+N") from None


def _known(spans: dict[Key, list[Span]]) -> str:
    """What the journal does know: the properties and the dates of their values."""
    first = min(s.start for found in spans.values() for s in found)
    last = max(s.end for found in spans.values() for s in found)
    properties = " ".join(sorted({key[0] for key in spans}))
    return f"the journal knows {properties} from {first} to {last}"


def export(request: ExportRequest, listener: Listener, world: World) -> Exported:
    """Write the export; AriError (exit 1) when the window holds no value, UsageProblem (2) for the options,
    ConfigError (4) without a base URL and source id."""
    descriptor = of(request.operation)
    suffix = request.path.suffix.lower()
    if suffix not in SUFFIXES:
        raise UsageProblem(f"{request.path}: an export is a .csv or .xlsx file", "name the file FILE.xlsx or FILE.csv")
    if request.layout is Layout.ROOMS_ACROSS:
        raise UsageProblem("--layout rooms-across is read, not written", "give --layout dates-across or rows")
    settings = resolve(world.environ, request.connection)
    listener.notices(list(settings.warnings))
    base, source = settings.service()
    now = world.clock()
    today = now.astimezone().date()  # the local date, as every command's today
    hint = f"the journal is {journal_place(world.environ)}; `ari-cli history` lists the runs it holds"
    with reading(world.environ) as db:
        if db is None:
            raise AriError(f"the journal holds no {descriptor.name} value: it has no runs yet", hint)
        wanted = set(request.properties) if request.properties else None
        spans = acknowledged(db, descriptor.name, base, source, wanted)
        if not spans:
            asked = f" for {' '.join(request.properties)}" if request.properties else ""
            everything = acknowledged(db, descriptor.name, base, source)
            known = _known(everything) if everything else hint
            raise AriError(
                f"the journal holds no {descriptor.name} value that {base} (source {source}) acknowledged{asked}",
                known,
            )
        last = max(s.run for found in spans.values() for s in found)
        at = run_started(db, last)
    start = _day(request.start, "--from", today) if request.start else today
    end = _day(request.end, "--to", today) if request.end else max(s.end for f in spans.values() for s in f)
    if end < start and request.end:
        raise UsageProblem(f"--to {end} is before --from {start}")
    if (end - start).days >= MOST_DAYS:
        raise UsageProblem(f"{start}..{end} is more than {MOST_DAYS} days", "export a year at most at a time")
    runs = {key: runs_of(found, start, end) for key, found in spans.items()}
    if not any(runs.values()):
        raise AriError(f"the journal holds no {descriptor.name} value from {start} to {end}", _known(spans))
    names = named([v for found in runs.values() for _, _, v in found]) if descriptor.structured else {}
    laid = tables(descriptor, spans, start, end, request.layout, names)
    header = Header(
        descriptor.name, base, source, tuple(t.propertyid for t in laid), start, end,
        now.replace(microsecond=0), last, at,
    )  # fmt: skip
    policies = policies_toml(names) if names else None
    try:
        (write_csv if suffix == ".csv" else write_xlsx)(request.path, header, laid, policies)
    except OSError as problem:
        raise UsageProblem(
            f"cannot write {request.path}: {problem.strerror or problem}", "give a file in a folder you can write"
        ) from None
    values = sum((b - a).days + 1 for found in runs.values() for a, b, _ in found)
    beside = policies_path(request.path) if policies is not None and suffix == ".csv" else None
    return Exported(request.path, header, request.layout, sum(1 for r in runs.values() if r), values, beside)
