"""What `history show RUN`'s table is drawn from, without drawing it: open the run, read the requests it lists
whole, derive the rows it lists (over 50: those that did not go well). Seconds and peak traced memory.

    ARI_HOME=FOLDER/home python benchmarks/history_datapath.py [RUN]
"""

from __future__ import annotations

import os
import sys
import time
import tracemalloc

from ari_cli.app.history import opened_run
from ari_cli.app.world import World
from ari_cli.journal.rows import INTERESTING
from ari_cli.render.history.detail import SHOW_ALL_UP_TO, shown_requests


def main() -> None:
    tracemalloc.start()
    started = time.perf_counter()
    with opened_run(sys.argv[1] if len(sys.argv) > 1 else "1", World(os.environ)) as run:
        opened = time.perf_counter() - started
        shown = list(run.completed(shown_requests(run.whole, None), False))
        requests = time.perf_counter() - started
        statuses = None if run.rows.total <= SHOW_ALL_UP_TO else INTERESTING
        rows = sum(1 for _ in run.rows.rows(statuses))
    print(
        f"opened {opened:.1f} s; {len(shown)} requests read whole by {requests:.1f} s; {rows} rows derived by "
        f"{time.perf_counter() - started:.1f} s; peak traced {tracemalloc.get_traced_memory()[1] / 2**20:.0f} MiB"
    )


if __name__ == "__main__":
    main()
