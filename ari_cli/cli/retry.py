"""`ari-cli retry RUN`: send again what a journaled run did not get acknowledged.

Only Typer is imported here; the work loads when the command runs.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ari_cli.cli.push import with_push_options

RETRY_SHARED = (
    "dry_run", "output", "report", "show", "curl", "quiet", "verbose", "no_journal", "concurrency", "rate", "timeout",
    "retries",
)  # fmt: skip

RETRY_HELP = """Send again what a journaled run did not get acknowledged, and nothing else.

That is: requests never sent, sent without an answer (the run was killed or interrupted), or failed for a passing reason (timeouts, connection errors, HTTP 500/502/503/504, code 408). Acknowledged requests are not sent twice, and refusals a second try would meet again (a wrong room id, a bad date) are listed, not re-sent.

RUN is a run number from `ari-cli history`. A run that was retried already is followed to its latest retry, so a retry of a retry works and `retry` can simply be run again. The requests go where the run sent them (its base URL and source id); the key comes from the configuration, as for push. The retry is a run of its own in the journal.

Exit codes: 0 everything acknowledged (or nothing left to send), 1 a request still failed, 2 no such run, 4 no key configured or no journal, 130 interrupted.

[bold]Examples[/bold]:

  ari-cli history
  ari-cli retry 42
  ari-cli retry 42 --dry-run
  ari-cli retry 42 --output json --report retry.csv
"""


@with_push_options(*RETRY_SHARED)
def retry(
    run: Annotated[int, typer.Argument(metavar="RUN", min=1, show_default=False, help="Run number, as `ari-cli history` lists it.")],
    **options: Any,
) -> None:  # fmt: skip
    from ari_cli.app.retry import run_retry

    run_retry(run, options)


def register(app: typer.Typer) -> None:
    app.command("retry", help=RETRY_HELP, no_args_is_help=True)(retry)
