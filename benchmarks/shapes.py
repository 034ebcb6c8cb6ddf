"""The worst shapes of issue 29, each planned as a dry run in its own process: wall time and peak memory.

    python benchmarks/shapes.py            # the issue's sizes (a few minutes on 2 cores)
    python benchmarks/shapes.py --quick    # small sizes, a smoke test

1. overlap: N rows of one room and one value whose 14-day ranges overlap (each starts a day after the one
   before, so every row overlaps 13 others), planned with merging; and the same with two values alternating
   under --overlaps last-wins (painted date by date). Starts wrap after 700 days, so past 700 rows each row
   repeats an earlier one exactly (a note each, of which 20 are shown).
2. named: P named policies in a --policies TOML file, and a policy file of P rows naming each once.
3. weekdays: R threshold rows of distinct rooms, each a two-year range kept to Sat-Sun (about 104 records a
   row): peak memory per record, against the same run of one row. 9,500 rows ask for about 997,000 records,
   near the bound of 1,000,000 that weekday filters may ask for (`plan.MAX_WEEKDAY_RECORDS`); 16,000 rows
   pass it and are refused (exit 3).
4. sparse sheet: an .xlsx whose cells sit only in columns A and XFD over 20,000 rows (170 KB): refused before
   the reader builds its grid (exit 3), in bytes and cells, never seconds.
5. ten megabytes: the most records a CSV file of under 10 MB can ask for within the bounds: 87 rows kept to
   Mon,Wed,Fri until 2099 (about 990,000 records, just under the weekday bound), then single-day rows of
   distinct rooms, values alternating so that nothing merges, up to 10 MB (about 250,000 more). A dry run;
   with `--push`, also a real push, journal on, to `ari-cli sandbox` (fixtures of every room; minutes).
6. rooms csv: single-day rows of distinct rooms, values alternating, as many as a CSV of 10 MB holds (short
   ids: about 460,000). A dry run; with `--push`, also a real push, journal on.
7. rooms sheet: single-day rows of distinct rooms as an .xlsx written as Excel writes cells (rooms, dates and
   values as numbers, the property a shared string; read as a stream, as it unpacks past 32 MiB): 510,000
   rows (9.9 MB) and 600,000 (11.7 MB, the row count of an earlier figure). A dry run.
8. bare sheet: the same rows in four columns (a `date` column) as an .xlsx whose cells leave out their optional
   references (`<c>` without `r=`, as some generators write them): 500,000 rows (`MAX_KEYS`, the most keys a run
   names: 1.4 MB) plan; 2,000,000 (5.6 MB, within the bound of cells a sheet) are refused at key 500,001. And
   the worst mix within both bounds: 87 rows kept to Mon,Wed,Fri until 2099 (about 990,000 records) and single-day
   rows of distinct rooms up to 500,000 keys (1.5 MB).

Nothing here asserts: it prints the figures (benchmarks/README.md keeps them). Tests never time anything.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from run import CLI, run_child, serving  # noqa: E402

START = dt.date.today() + dt.timedelta(days=1)
TODAY = START.isoformat()


def dry_run(*args: str) -> tuple[float, int, int]:
    """Wall seconds, exit code and peak RSS (MiB) of a dry run against the built-in sandbox."""
    seconds, code, kib = run_child([CLI, *args, "--dry-run", "--sandbox", "--today", TODAY, "--quiet",
                                    "--show", "failed", "--no-journal"])  # fmt: skip
    return seconds, code, kib // 1024


def overlap(folder: Path, rows: int, values: int) -> str:
    path = folder / f"overlap-{rows}-{values}.csv"
    with path.open("w") as out:
        out.write("propertyid,roomid,start,end,threshold\n")
        for i in range(rows):
            first = START + dt.timedelta(days=i % 700)
            out.write(f"HTL001,DBL,{first},{first + dt.timedelta(days=13)},{1 + i % values}\n")
    extra = ("--overlaps", "last-wins") if values > 1 else ()
    seconds, code, mib = dry_run("threshold", "push", str(path), *extra)
    return f"overlap: {rows:>7,} rows, {values} value(s): {seconds:6.2f} s, {mib:4} MiB, exit {code}"


DEPOSIT = 'deposit = { policy = "required", amount = 30, applied = 4, intervalunits = 0 }\n'


def named(folder: Path, count: int) -> str:
    toml, rows = folder / f"policies-{count}.toml", folder / f"named-{count}.csv"
    with toml.open("w") as out:
        for i in range(count):
            out.write(f"[policies.p{i}]\nrefundable = true\n{DEPOSIT}")
            out.write(f"[[policies.p{i}.levels]]\npolicyid = 2\ndayspriorcheckin = {1 + i % 30}\n")
            out.write("penaltyamount = 100\npenaltyapplied = 3\n\n")
    with rows.open("w") as out:
        out.write("propertyid,roomid,rateid,start,end,policy\n")
        for i in range(count):
            out.write(f"HTL001,R{i},BAR,{START},{START + dt.timedelta(days=30)},p{i}\n")
    seconds, code, mib = dry_run("policy", "push", str(rows), "--policies", str(toml))
    return f"named: {count:>7,} policies: {seconds:6.2f} s, {mib:4} MiB, exit {code}"


def weekdays(folder: Path, rows: int) -> tuple[str, int, int]:
    path = folder / f"weekdays-{rows}.csv"
    end = START + dt.timedelta(days=729)
    with path.open("w") as out:
        out.write("propertyid,roomid,start,end,days,threshold\n")
        for i in range(rows):
            out.write(f"HTL001,R{i},{START},{end},Sat-Sun,2\n")
    seconds, code, mib = dry_run("threshold", "push", str(path))
    records = rows * sum(1 for d in range(730) if (START + dt.timedelta(days=d)).weekday() == 5)
    line = f"weekdays: {rows:>7,} rows, about {records:,} records: {seconds:6.2f} s, {mib:4} MiB, exit {code}"
    return line, mib, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    shapes = ["overlap", "named", "weekdays", "sheet", "tenmb", "roomcsv", "roomsheet", "baresheet"]
    parser.add_argument("--only", choices=shapes)
    parser.add_argument("--push", action="store_true", help="tenmb, roomcsv, the bare mix: also a real push")
    args = parser.parse_args()
    quick = args.quick
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        if args.only in (None, "overlap"):
            for rows in (1_000, 4_000) if quick else (10_000, 40_000, 160_000):
                print(overlap(folder, rows, 1), flush=True)
            for rows in (1_000,) if quick else (10_000, 40_000):
                print(overlap(folder, rows, 2), flush=True)
        if args.only in (None, "named"):
            for count in (100, 400) if quick else (1_000, 4_000):
                print(named(folder, count), flush=True)
        if args.only in (None, "weekdays"):
            line, base, _ = weekdays(folder, 1)
            print(line, flush=True)
            line, mib, records = weekdays(folder, 1_000 if quick else 9_500)
            print(line, flush=True)
            print(f"weekdays: {(mib - base) * 2**20 / records:.0f} bytes a record over a run of one row", flush=True)
            if not quick:
                print(weekdays(folder, 16_000)[0], flush=True)
        if args.only in (None, "sheet"):
            print(sparse_sheet(folder, 2_000 if quick else 20_000), flush=True)
        if args.only in (None, "tenmb"):
            print(ten_megabytes(folder, 2**20 if quick else 10_000_000, args.push), flush=True)
        if args.only in (None, "roomcsv"):
            print(rooms_csv(folder, 2**20 if quick else 10_000_000, args.push), flush=True)
        if args.only in (None, "roomsheet"):
            for rows in (20_000,) if quick else (510_000, 600_000):
                print(rooms_sheet(folder, rows), flush=True)
        if args.only in (None, "baresheet"):
            for rows in (20_000,) if quick else (500_000, 2_000_000):
                print(bare_sheet(folder, rows), flush=True)
            print(bare_sheet(folder, 20_000 if quick else 500_000, weekday_rows=87, push=args.push), flush=True)


def sparse_sheet(folder: Path, rows: int) -> str:
    from tests.sheetxml import inline, row, write_workbook

    cells = (row(i, inline(f"A{i}", "x"), inline(f"XFD{i}", "y")) for i in range(1, rows + 1))
    path = write_workbook(folder / "sparse.xlsx", {"Rates": cells})
    seconds, code, mib = dry_run("threshold", "push", str(path))
    size = path.stat().st_size // 1024
    return f"sparse sheet: {rows:,} rows in A and XFD ({size} KB): {seconds:6.2f} s, {mib:4} MiB, exit {code}"


def rooms_csv(folder: Path, size: int, push: bool) -> str:
    path = folder / "rooms.csv"
    day = START + dt.timedelta(days=1)
    with path.open("w") as out:
        out.write("propertyid,roomid,date,threshold\n")
        rooms = 0
        while out.tell() < size - 30:
            out.write(f"P,{rooms},{day},{rooms % 2 + 1}\n")
            rooms += 1
    seconds, code, mib = dry_run("threshold", "push", str(path))
    line = f"rooms csv: {path.stat().st_size:,} bytes, {rooms:,} rows: dry run {seconds:6.2f} s, {mib:4} MiB"
    if not push:
        return f"{line}, exit {code}"
    pushed, code, mib = pushed_to_sandbox(folder, path, "P", [str(room) for room in range(rooms)])
    return f"{line}; pushed, journal on: {pushed:6.2f} s, {mib:4} MiB, exit {code}"


def pushed_to_sandbox(folder: Path, path: Path, propertyid: str, rooms: list[str]) -> tuple[float, int, int]:
    """Wall seconds, exit code and peak RSS (MiB) of a real push of `path`, journal on, to `ari-cli sandbox`
    with fixtures of these rooms."""
    fixtures = folder / f"{path.stem}.toml"
    names = ", ".join(f'"{room}"' for room in rooms)
    fixtures.write_text('[[accounts]]\nkey = "sandbox-key-0001"\nsource_id = "cpbA1"\ndefault = true\n\n'
                        f'[[properties]]\nid = "{propertyid}"\nrooms = [{names}]\nrates = ["BAR"]\n')  # fmt: skip
    with serving(fixtures, folder / f"home-{path.stem}") as env:
        push_args = [CLI, "threshold", "push", str(path), "--today", TODAY, "--quiet", "--concurrency", "8"]
        seconds, code, kib = run_child([*push_args, "--output", "json"], env)
    return seconds, code, kib // 1024


def rooms_sheet(folder: Path, rows: int) -> str:
    path = write_rooms_sheet(folder / "rooms.xlsx", rows)
    seconds, code, mib = dry_run("threshold", "push", str(path))
    size = path.stat().st_size
    return f"rooms sheet: {rows:,} rows of distinct rooms ({size:,} bytes): {seconds:6.2f} s, {mib:4} MiB, exit {code}"


def write_rooms_sheet(path: Path, rows: int) -> Path:
    """Single-day rows of distinct rooms, values alternating: rooms, dates and values are numbers."""
    from tests.sheetxml import date, number, row, shared, write_workbook

    day = START + dt.timedelta(days=1)
    head = row(1, *(shared(f"{column}1", i) for i, column in enumerate("ABCDE")))
    cells = (
        row(
            n,
            shared(f"A{n}", 5),
            number(f"B{n}", n),
            date(f"C{n}", day),
            date(f"D{n}", day),
            number(f"E{n}", n % 2 + 1),
        )
        for n in range(2, rows + 2)
    )
    strings = ["propertyid", "roomid", "start", "end", "threshold", "HTL001"]
    return write_workbook(path, {"Rates": itertools.chain([head], cells)}, strings=strings)


def bare_sheet(folder: Path, keys: int, weekday_rows: int = 0, push: bool = False) -> str:
    path = write_bare_sheet(folder / "bare.xlsx", keys, weekday_rows)
    seconds, code, mib = dry_run("threshold", "push", str(path))
    size = path.stat().st_size
    rows = f"{weekday_rows} weekday rows and " if weekday_rows else ""
    line = f"bare sheet: {rows}{keys:,} keys ({size:,} bytes): {seconds:6.2f} s, {mib:4} MiB, exit {code}"
    if not push:
        return line
    pushed, code, mib = pushed_to_sandbox(folder, path, "HTL001", [str(room) for room in range(keys)])
    return f"{line}; pushed, journal on: {pushed:6.2f} s, {mib:4} MiB, exit {code}"


def write_bare_sheet(path: Path, keys: int, weekday_rows: int) -> Path:
    """Rows of distinct rooms whose cells leave out their references (the property a shared string), the first
    `weekday_rows` kept to Mon,Wed,Fri until 2099: single-day rows have the same start and end and no days."""
    from tests.sheetxml import date, number, row, shared, write_workbook

    def bare(cell: str) -> str:
        return re.sub(r' r="[A-Z]+[0-9]+"', "", cell)

    day, last = START + dt.timedelta(days=1), dt.date(2099, 12, 31)

    def cells(n: int) -> list[str]:
        end, days = (last, 7) if n < weekday_rows else (day, 8)
        value = number("F1", n % 2 + 1)
        return [shared("A1", 6), number("B1", n), date("C1", day), date("D1", end), shared("E1", days), value]

    head = row(None, *(bare(shared("A1", i)) for i in range(6)))
    rows = (row(None, *map(bare, cells(n))) for n in range(keys))
    strings = ["propertyid", "roomid", "start", "end", "days", "threshold", "HTL001", "Mon,Wed,Fri", ""]
    return write_workbook(path, {"Rates": itertools.chain([head], rows)}, strings=strings)


def ten_megabytes(folder: Path, size: int, push: bool) -> str:
    path = folder / "tenmb.csv"
    with path.open("w") as out:
        out.write("propertyid,roomid,start,end,days,threshold\n")
        for i in range(87 if size >= 10_000_000 else 8):
            out.write(f'HTL001,W{i},{TODAY},2099-12-31,"Mon,Wed,Fri",2\n')
        rooms = 0
        while out.tell() < size - 100:
            out.write(f"HTL001,R{rooms},{TODAY},{TODAY},,{1 + rooms % 2}\n")
            rooms += 1
    seconds, code, mib = dry_run("threshold", "push", str(path))
    line = f"ten megabytes: {path.stat().st_size:,} bytes, {rooms:,} plain rows: dry run {seconds:6.2f} s, {mib:4} MiB"
    if not push:
        return f"{line}, exit {code}"
    rooms_named = [*(f"W{i}" for i in range(87)), *(f"R{i}" for i in range(rooms))]
    pushed, code, mib = pushed_to_sandbox(folder, path, "HTL001", rooms_named)
    return f"{line}; pushed, journal on: {pushed:6.2f} s, {mib:4} MiB, exit {code}"


if __name__ == "__main__":
    main()
