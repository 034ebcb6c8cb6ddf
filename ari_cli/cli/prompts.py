"""`config init`'s questions at a terminal: `app/listener.py`'s `Questions`, answered through Typer's prompts."""

from __future__ import annotations

import sys

import typer

from ari_cli.render.printable import echo_err


class Prompts:
    """Ask on the terminal; a piped secret (scripts, tests) is read as it is, since getpass would warn."""

    def ask(self, question: str, default: str | None) -> str:
        answer: str = typer.prompt(question, default=default, show_default=default is not None)
        return answer

    def ask_secret(self, question: str) -> str:
        if sys.stdin.isatty():
            answer: str = typer.prompt(question, default="", show_default=False, hide_input=True)
            return answer
        typer.echo(f"{question}: ", nl=False)
        line = sys.stdin.readline()
        typer.echo()
        return line

    def wrong(self, message: str) -> None:
        echo_err(message)
