"""A sign of life while reading: at a terminal, a read that takes over a second shows rows and bytes read on
stderr, in place, cleared when done; nothing without a terminal or with --quiet."""

from __future__ import annotations

import datetime as dt
import os
import pty
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from ari_cli.inputs.model import ReadMeter
from ari_cli.render.push.reading import said

ARI_CLI = str(Path(sys.executable).parent / "ari-cli")
DAY0 = dt.date(2027, 1, 1)
BATCHES, PER_BATCH, PAUSE = 25, 40, 0.1  # 1,000 rows over about 2.5 s
pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX pseudo-terminals and FIFOs")


def slow_rows(stream: IO[str]) -> None:
    """A slow export: the header, then rows a few dozen at a time."""
    stream.write("propertyid,roomid,date,threshold\n")
    for batch in range(BATCHES):
        for row in range(PER_BATCH):
            day = DAY0 + dt.timedelta(days=batch * PER_BATCH + row)
            stream.write(f"HTL001,DBL,{day.isoformat()},{day.day % 10}\n")
        stream.flush()
        time.sleep(PAUSE)
    stream.close()


def run(input_kind: str, tmp_path: Path, terminal: bool, *extra: str) -> tuple[int, str]:
    """`ari-cli threshold push <slow input> --dry-run -o json`, stderr a pseudo-terminal or a pipe: the exit
    code and what stderr got."""
    args = [ARI_CLI, "threshold", "push", "--dry-run", "-o", "json", "--today", DAY0.isoformat(), *extra]
    writer: Callable[[], None]
    if input_kind == "fifo":
        fifo = tmp_path / "export.csv"
        os.mkfifo(fifo)
        args.insert(3, str(fifo))
        stdin = subprocess.DEVNULL

        def writer() -> None:
            with fifo.open("w") as stream:
                slow_rows(stream)
    else:
        args.insert(3, "-")
        stdin = subprocess.PIPE
    main, child = pty.openpty() if terminal else (None, None)
    process = subprocess.Popen(
        args, stdin=stdin, stdout=subprocess.DEVNULL, stderr=child if terminal else subprocess.PIPE, text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("ARI_") or k == "ARI_HOME"},
    )  # fmt: skip
    if input_kind != "fifo":
        assert process.stdin is not None
        piped = process.stdin

        def writer() -> None:
            # Fed once the program waits on its standard input: a start-up slower than the whole feed (a loaded
            # machine) would otherwise find every row already there, and nothing to show as it reads.
            wchan = Path(f"/proc/{process.pid}/wchan")
            deadline = time.monotonic() + 60
            while wchan.exists() and "pipe" not in wchan.read_text() and time.monotonic() < deadline:
                time.sleep(0.05)
            slow_rows(piped)

    feeding = threading.Thread(target=writer)
    feeding.start()
    got = bytearray()
    if main is not None and child is not None:
        os.close(child)
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the program ended: the terminal's other end closed
                break
            if not chunk:
                break
            got += chunk
        os.close(main)
        said_on_stderr = got.decode()
    else:
        assert process.stderr is not None
        said_on_stderr = process.stderr.read()
    feeding.join(timeout=60)
    return process.wait(timeout=60), said_on_stderr


@pytest.mark.parametrize("input_kind", ["fifo", "stdin"])
def test_a_slow_read_at_a_terminal_shows_rows_and_bytes_in_place_then_clears(input_kind: str, tmp_path: Path) -> None:
    code, shown = run(input_kind, tmp_path, terminal=True)
    assert code == 0, shown
    name = "export.csv" if input_kind == "fifo" else "standard input"  # a file by its name, without its folder
    counts = re.findall(rf"reading {name}: ([\d,]+) rows, ([\d.]+ k?B)", shown)
    assert len({rows for rows, _ in counts}) >= 2, shown  # it moved as rows came
    rows = [int(r.replace(",", "")) for r, _ in counts]
    assert rows == sorted(rows) and 0 < rows[-1] <= 1 + BATCHES * PER_BATCH
    # Each update rewrites the one line; the last is erased and the cursor shown again.
    assert "\r\x1b[2K" in shown
    after = shown[shown.rindex("reading ") :]
    assert "\x1b[2K" in after and "\x1b[?25h" in after
    assert "Traceback" not in shown


@pytest.mark.parametrize("input_kind", ["fifo", "stdin"])
def test_nothing_without_a_terminal(input_kind: str, tmp_path: Path) -> None:
    code, stderr = run(input_kind, tmp_path, terminal=False)
    assert (code, stderr) == (0, "")


def test_nothing_with_quiet_at_a_terminal(tmp_path: Path) -> None:
    code, shown = run("fifo", tmp_path, True, "--quiet")
    assert code == 0, shown
    assert "reading" not in shown and "\x1b[" not in shown


def test_what_the_line_says() -> None:
    meter = ReadMeter()
    assert said(meter) == "reading…"
    meter.start("rates.csv", 12_000_000)
    assert said(meter) == "reading rates.csv…"
    meter.rows, meter.done = 120_000, 4_100_000
    assert said(meter) == "reading rates.csv: 120,000 rows, 4.1 MB of 12.0 MB"
    meter.start("/exports/today/<x>\x1b[2J\n[b].csv")
    meter.done = 2_500
    assert said(meter) == "reading <x>\\x1b[2J\\n[b].csv: 2.5 kB"


def test_each_reader_tells_the_meter_a_block_at_a_time(tmp_path: Path) -> None:
    import dataclasses

    from openpyxl import Workbook

    from ari_cli.inputs import ReadOptions, read_rows
    from ari_cli.wire.operations import Operation

    lines = ["propertyid,roomid,date,threshold"]
    lines += [f"HTL001,DBL,{(DAY0 + dt.timedelta(days=i)).isoformat()},{i % 10}" for i in range(5000)]
    csv_file = tmp_path / "rates.csv"
    csv_file.write_text("\n".join(lines) + "\n")
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Rates"
    for line in lines[:2100]:
        sheet.append(line.split(","))
    book.save(tmp_path / "rates.xlsx")
    (tmp_path / "rates.json").write_text('[{"propertyid": "H", "roomid": "D", "date": "2027-01-02", "threshold": 1}]')

    meter = ReadMeter()
    options = dataclasses.replace(ReadOptions(), meter=meter)
    for path, source, rows, done in [
        (csv_file, str(csv_file), 5000, csv_file.stat().st_size),
        (tmp_path / "rates.xlsx", f"{tmp_path / 'rates.xlsx'}[Rates]", 2048, 0),  # every 1,024 rows
        (tmp_path / "rates.json", str(tmp_path / "rates.json"), 1, (tmp_path / "rates.json").stat().st_size),
    ]:
        for part in read_rows([str(path)], Operation.THRESHOLD, options).parts:
            list(part.rows())
        assert (meter.source, meter.rows, meter.done) == (source, rows, done)
