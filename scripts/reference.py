"""Make the reference of every command from the commands themselves: docs/reference.md and docs/man/*.1.

    python scripts/reference.py           # write them again (after changing a command's options or help)
    python scripts/reference.py --check   # exit 1, naming the stale files, when they are not what it would write

docs/reference.md is Typer's own Markdown (`typer ari_cli.cli utils docs --name ari-cli` makes the same page,
through the function used here). The man pages, one per command and group as gh has them
(`ari-cli-threshold-push.1`), are written here from the same command tree: Typer makes no man pages, and
click-man needs Click's own classes, which Typer 0.29 vendors. A page is plain roff (NAME, SYNOPSIS,
DESCRIPTION, OPTIONS, COMMANDS, EXIT STATUS, SEE ALSO), so nothing but Python is needed to make or check it.
Neither holds a version or a date, so that they change only when a command does.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
import typer.cli
import typer.core
import typer.main

from ari_cli.cli import app
from ari_cli.cli.exitcodes import exit_codes_line
from ari_cli.cli.helptext import EXAMPLES_MARK, examples_of

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = Path("docs/reference.md")
MAN = Path("docs/man")
PROGRAM = "ari-cli"


def root_context() -> tuple[Any, Any]:
    """The root command and a context for it, its markup mode set as `typer ... utils docs` sets it."""
    command = typer.main.get_command(app)
    ctx = context(command, PROGRAM, None)
    ctx.ensure_object(dict)
    ctx.obj[typer.core.MARKUP_MODE_KEY] = app.rich_markup_mode
    return command, ctx


def commands(command: Any, ctx: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    """Every command and group that help shows, with its path after the program's name and its context."""
    yield path, command, ctx
    for name in getattr(command, "list_commands", lambda _: [])(ctx):
        sub = command.get_command(ctx, name)
        if sub is None or sub.hidden:
            continue
        yield from commands(sub, context(sub, name, ctx), (*path, name))


def context(command: Any, name: str, parent: Any) -> Any:
    """A context as the command line makes one, with the command's settings (`-h` beside `--help`): Click keeps
    the help option it makes from the first context it is shown, so a context without them would lose `-h`
    for every later call in the process (the tests')."""
    return typer.Context(command, info_name=name, parent=parent, **command.context_settings)


def reference() -> str:
    command, ctx = root_context()
    return typer.cli.get_docs_for_click(obj=command, ctx=ctx, name=PROGRAM).strip() + "\n"


def roff(text: str) -> str:
    """Plain text, and Rich's [bold] markup, as roff: backslashes and hyphens escaped, bold as \\fB...\\fR."""
    text = text.replace("\\[", "[").replace("\\", "\\e").replace("-", "\\-")
    text = re.sub(r"\[bold\](.*?)\[/bold\]", r"\\fB\1\\fR", text)
    # A line starting with a dot or a quote would be read as a request.
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def paragraphs(text: str) -> list[str]:
    """Help text as roff: paragraphs (.PP), and indented lines (example files, columns) kept as written (.nf)."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.splitlines()
        if all(line.startswith("  ") for line in lines):
            out += [".PP", ".nf", *(roff(line) for line in lines), ".fi"]
        else:
            # A heading line (`Columns:`) over indented lines: the heading a paragraph, the lines kept.
            prose = [line for line in lines if not line.startswith("  ")]
            kept = lines[len(prose) :]
            out += [".PP", roff(" ".join(prose))]
            if kept:
                out += [".nf", *(roff(line) for line in kept), ".fi"]
    return out


def man_page(path: tuple[str, ...], command: Any, ctx: Any) -> str:
    name = "-".join((PROGRAM, *path))
    help_text = (command.help or "").partition(EXAMPLES_MARK)[0]
    lines = [
        f'.TH "{name.upper()}" "1" "" "{PROGRAM}" "{PROGRAM} manual"',
        ".SH NAME",
        f"{roff(name)} \\- {roff(command.get_short_help_str(limit=200))}",
        ".SH SYNOPSIS",
        f".B {roff(' '.join((PROGRAM, *path)))}",
        roff(" ".join(command.collect_usage_pieces(ctx)).replace("{", "").replace("}", "")),
        ".SH DESCRIPTION",
        *paragraphs(help_text),
    ]
    examples = examples_of(command.help)
    if examples:
        lines += [".SH EXAMPLES", *paragraphs("\n".join(examples))]
    options = [record for param in command.get_params(ctx) if (record := param.get_help_record(ctx))]
    if options:
        lines.append(".SH OPTIONS")
        for names, help_line in options:
            lines += [".TP", f"\\fB{roff(names)}\\fR", roff(help_line)]
    subcommands = [(p, c) for p, c, _ in commands(command, ctx, path) if len(p) == len(path) + 1]
    if subcommands:
        lines.append(".SH COMMANDS")
        for sub_path, sub in subcommands:
            sub_name = "-".join((PROGRAM, *sub_path))
            lines += [".TP", f"\\fB{roff(' '.join(sub_path))}\\fR", f"{roff(sub.get_short_help_str(limit=200))}"]
            lines.append(f"See \\fB{roff(sub_name)}\\fR(1).")
    lines += [".SH EXIT STATUS", roff(exit_codes_line(" ".join(path)))]
    see_also = [PROGRAM] + ["-".join((PROGRAM, *path[:end])) for end in range(1, len(path))]
    if path:
        lines += [".SH SEE ALSO", ", ".join(f"\\fB{roff(page)}\\fR(1)" for page in see_also)]
    return "\n".join(lines) + "\n"


def made() -> dict[Path, str]:
    """Every file this script writes, by its path under the repository, with its text."""
    files = {REFERENCE: reference()}
    root, ctx = root_context()
    for path, command, command_ctx in commands(root, ctx):
        files[MAN / ("-".join((PROGRAM, *path)) + ".1")] = man_page(path, command, command_ctx)
    return files


def stale(files: dict[Path, str], root: Path | None = None) -> list[str]:
    """The files that differ from what would be written, and man pages no command makes any more."""
    root = root or ROOT
    found = [str(p) for p, text in files.items() if not (root / p).is_file() or (root / p).read_text("utf-8") != text]
    extra = [str(p.relative_to(root)) for p in sorted((root / MAN).glob("*.1")) if p.relative_to(root) not in files]
    return found + [f"{p} (no command makes it)" for p in extra]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the files are stale; write nothing")
    check = parser.parse_args(argv).check
    files = made()
    if check:
        found = stale(files)
        if found:
            print("stale, run: python scripts/reference.py\n  " + "\n  ".join(found), file=sys.stderr)
            return 1
        return 0
    for extra in sorted((ROOT / MAN).glob("*.1")):
        if extra.relative_to(ROOT) not in files:
            extra.unlink()
    for path, text in files.items():
        (ROOT / path).parent.mkdir(parents=True, exist_ok=True)
        (ROOT / path).write_text(text, encoding="utf-8")
    print(f"wrote {REFERENCE} and {len(files) - 1} man pages in {MAN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
