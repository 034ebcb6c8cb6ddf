"""Write the shell completion scripts of this folder with Typer's own generator.

Run `python completions/generate.py` after upgrading Typer; tests/test_completions.py fails while a
script here differs from what the installed Typer makes. The scripts only call `ari-cli` back
(`_ARI_CLI_COMPLETE=complete_<shell>`), so they do not change when commands or options do.
"""

from __future__ import annotations

import sys
from pathlib import Path

PROG_NAME = "ari-cli"
HERE = Path(__file__).resolve().parent
# Each shell's usual file name: zsh autoloads `_ari-cli` from a folder of its $fpath.
SCRIPTS = {"bash": "ari-cli.bash", "zsh": "_ari-cli", "fish": "ari-cli.fish", "powershell": "ari-cli.ps1"}


def script(shell: str) -> str:
    """The completion script Typer makes for one shell: what `ari-cli completion SHELL` prints."""
    from typer.testing import CliRunner

    from ari_cli.cli import app

    shown = CliRunner().invoke(app, ["--show-completion", shell], prog_name=PROG_NAME)
    if shown.exit_code != 0:
        raise SystemExit(f"ari-cli --show-completion {shell} failed: {shown.output}")
    return shown.stdout


def main() -> int:
    for shell, name in SCRIPTS.items():
        (HERE / name).write_text(script(shell), encoding="utf-8", newline="\n")
        print(f"wrote {HERE / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
