"""The shell completion scripts: made by Typer's own generator, and working in a real bash."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPLETIONS = ROOT / "completions"
BIN = Path(sys.executable).parent
BASH = shutil.which("bash")
needs_bash = pytest.mark.skipif(BASH is None or not (BIN / "ari-cli").exists(), reason="needs bash and ari-cli")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_completions", COMPLETIONS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATE = _generator()


@pytest.mark.parametrize("shell", sorted(GENERATE.SCRIPTS))
def test_script_is_what_typer_generates(shell: str) -> None:
    committed = (COMPLETIONS / GENERATE.SCRIPTS[shell]).read_bytes()
    assert committed == GENERATE.script(shell).encode(), f"run: python completions/generate.py ({shell} differs)"


@pytest.mark.skipif(not (BIN / "ari-cli").exists(), reason="needs the ari-cli console script")
@pytest.mark.parametrize("shell", sorted(GENERATE.SCRIPTS))
def test_show_completion_prints_the_same_script(shell: str) -> None:
    # The shell named wins over the one ari-cli runs in, without Typer's switch for its own tests.
    env = {k: v for k, v in os.environ.items() if not k.startswith("_TYPER_")}
    env["SHELL"] = "/bin/tcsh"
    shown = subprocess.run(
        [str(BIN / "ari-cli"), "--show-completion", shell],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        timeout=60,
    )
    assert shown.stdout.rstrip("\n") == GENERATE.script(shell).rstrip("\n")


def _bash_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARI_", "_ARI_", "BASH_ENV", "XDG_", "ZDOTDIR"))}
    return {**env, "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}", "HOME": str(tmp_path), "INPUTRC": "/dev/null"}


def _complete(line: str, tmp_path: Path) -> list[str]:
    """COMPREPLY of the sourced completion function for `line`, completing its last word."""
    words = line.split(" ")
    program = (
        f"source {COMPLETIONS / 'ari-cli.bash'}\n"
        f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        "_ari_cli_completion ari-cli\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    assert BASH is not None
    done = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", program],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_bash_env(tmp_path),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [word for word in done.stdout.splitlines() if word]


@needs_bash
def test_bash_completes_a_command(tmp_path: Path) -> None:
    assert _complete("ari-cli thr", tmp_path) == ["threshold"]
    assert "config" in _complete("ari-cli ", tmp_path)
    assert _complete("ari-cli threshold push --dry", tmp_path) == ["--dry-run"]


@needs_bash
def test_bash_leaves_push_files_to_its_own_file_completion(tmp_path: Path) -> None:
    # The script is installed with `complete -o default`: when ari-cli offers nothing, bash
    # completes file names itself, which keeps directories and odd names working.
    (tmp_path / "rooms.csv").write_text("propertyid\n")
    assert _complete("ari-cli threshold push ro", tmp_path) == []
    assert BASH is not None
    spec = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", f"source {COMPLETIONS / 'ari-cli.bash'}; complete -p ari-cli"],
        capture_output=True,
        text=True,
        env=_bash_env(tmp_path),
        timeout=60,
    )
    assert "-o default" in spec.stdout


def _interactive(keys: list[str], tmp_path: Path) -> list[str]:
    """Type each line of `keys` into an interactive bash; return what `echo OUT:` printed for each."""
    import pty
    import select

    assert BASH is not None
    main, child = pty.openpty()
    env = {**_bash_env(tmp_path), "PS1": "$ ", "TERM": "dumb"}
    shell = subprocess.Popen(
        [BASH, "--norc", "--noprofile", "-i"],
        stdin=child,
        stdout=child,
        stderr=child,
        cwd=tmp_path,
        env=env,
        start_new_session=True,
    )
    os.close(child)
    seen = b""
    try:
        os.write(main, f"source {COMPLETIONS / 'ari-cli.bash'}\n".encode())
        # TAB asks ari-cli; Ctrl-A then "echo OUT: " turns the completed line into output we can read.
        for line in keys:
            os.write(main, f"{line}\t\x01echo OUT: \r".encode())
        os.write(main, b"exit\r")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and seen.count(b"\nOUT:") < len(keys):
            ready, _, _ = select.select([main], [], [], 1)
            if ready:
                try:
                    seen += os.read(main, 4096)
                except OSError:
                    break
    finally:
        shell.kill()
        shell.wait(timeout=10)
        os.close(main)
    return [m.strip() for m in re.findall(r"\nOUT: ([^\r\n]*)", seen.decode(errors="replace"))]


@needs_bash
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_interactive_bash_completes_commands_and_file_paths(tmp_path: Path) -> None:
    (tmp_path / "rooms.csv").write_text("propertyid\n")
    lines = _interactive(["ari-cli thr", "ari-cli threshold push ro"], tmp_path)
    assert lines == ["ari-cli threshold", "ari-cli threshold push rooms.csv"]


# --- `ari-cli completion SHELL` (issue 33), loaded the way the README says, in real bash, zsh and fish ------

ZSH, FISH = shutil.which("zsh"), shutil.which("fish")
needs_cli = pytest.mark.skipif(not (BIN / "ari-cli").exists(), reason="needs the ari-cli console script")


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("_TYPER_", "ARI_", "_ARI_"))}
    return subprocess.run([str(BIN / "ari-cli"), *args], capture_output=True, text=True, env=env, timeout=60)


@needs_cli
@pytest.mark.parametrize("shell", [*sorted(GENERATE.SCRIPTS), "pwsh"])
def test_completion_prints_typers_script_for_the_shell(shell: str) -> None:
    shown = _run_cli("completion", shell)
    assert (shown.returncode, shown.stderr) == (0, "")
    assert shown.stdout == _run_cli("--show-completion", shell).stdout
    named = GENERATE.SCRIPTS.get(shell, GENERATE.SCRIPTS["powershell"])
    assert shown.stdout.rstrip("\n") == (COMPLETIONS / named).read_text(encoding="utf-8").rstrip("\n")


@needs_cli
def test_completion_of_an_unknown_shell_is_a_usage_error() -> None:
    shown = _run_cli("completion", "tcsh")
    assert (shown.returncode, shown.stdout) == (2, "")
    assert shown.stderr == (
        "error: Invalid value for 'SHELL': 'tcsh' is not one of bash, zsh, fish, powershell\n"
        "Usage: ari-cli completion [OPTIONS] {SHELL}   (-h for help)\n"
    )


def _typed(shell: list[str], setup: str, keys: list[str], tmp_path: Path) -> list[str]:
    """Start `shell` at a pseudo-terminal, run `setup`, then type each of `keys` and TAB; the lines as completed."""
    import pty
    import select

    main, child = pty.openpty()
    env = {**_bash_env(tmp_path), "PS1": "$ ", "TERM": "dumb"}
    process = subprocess.Popen(shell, stdin=child, stdout=child, stderr=child, cwd=tmp_path, env=env,
                               start_new_session=True)  # fmt: skip
    os.close(child)
    seen = b""
    try:
        if setup:
            os.write(main, f"{setup}\n".encode())
        # TAB asks ari-cli; Ctrl-A then "echo OUT: " turns the completed line into output we can read.
        for line in keys:
            os.write(main, f"{line}\t\x01echo OUT: \r".encode())
        os.write(main, b"exit\r")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and seen.count(b"\nOUT:") < len(keys):
            ready, _, _ = select.select([main], [], [], 1)
            if ready:
                try:
                    seen += os.read(main, 4096)
                except OSError:
                    break
    finally:
        process.kill()
        process.wait(timeout=10)
        os.close(main)
    return [m.strip() for m in re.findall(r"\nOUT: ([^\r\n]*)", seen.decode(errors="replace"))]


KEYS = ["ari-cli thr", "ari-cli threshold push --dry", "ari-cli compl"]
COMPLETED = ["ari-cli threshold", "ari-cli threshold push --dry-run", "ari-cli completion"]


def readme_line(shell: str) -> str:
    """The docs' install line for `shell`, from the table of shells in docs/configuration.md."""
    page = ROOT / "docs" / "configuration.md"
    found = re.search(rf"^\| {shell} \| `([^`]+)` \|$", page.read_text(encoding="utf-8"), re.M)
    assert found, f"docs/configuration.md has no install line for {shell}"
    return found.group(1)


def install(shell: str, tmp_path: Path) -> None:
    """Run the README's line in `shell`, in a fresh HOME (tmp_path)."""
    done = subprocess.run([shell, "-c", readme_line(Path(shell).name)], capture_output=True, text=True,
                          cwd=tmp_path, env=_bash_env(tmp_path), timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr


@needs_cli
@pytest.mark.skipif(BASH is None, reason="bash is not installed")
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_bash_completes_once_the_readme_line_ran(tmp_path: Path) -> None:
    assert BASH is not None
    install(BASH, tmp_path)
    assert (tmp_path / ".bashrc").read_text() == "source ~/.ari-cli.bash\n"
    bashrc = str(tmp_path / ".bashrc")
    assert _typed([BASH, "--noprofile", "--rcfile", bashrc, "-i"], "", KEYS, tmp_path) == COMPLETED


@needs_cli
@pytest.mark.skipif(ZSH is None, reason="zsh is not installed (CI installs it: apt-get install zsh)")
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_zsh_completes_once_the_readme_line_ran(tmp_path: Path) -> None:
    assert ZSH is not None
    # A usual ~/.zshrc runs compinit; the README's line adds its own line after it.
    (tmp_path / ".zshrc").write_text("bindkey -e\nautoload -Uz compinit && compinit -u\n")
    install(ZSH, tmp_path)
    assert (tmp_path / ".zshrc").read_text().endswith("compinit -u\nsource ~/.ari-cli.zsh\n")
    # -d: no system-wide start-up files, only the test's ~/.zshrc.
    assert _typed([ZSH, "-d", "-i"], "", KEYS, tmp_path) == COMPLETED


@needs_cli
@pytest.mark.skipif(FISH is None, reason="fish is not installed (CI installs it: apt-get install fish)")
def test_fish_completes_once_the_readme_line_ran(tmp_path: Path) -> None:
    assert FISH is not None
    install(FISH, tmp_path)
    # fish answers what TAB would offer with `complete -C`, without a terminal; it finds the script itself.
    program = "; ".join(f"complete -C '{line}'" for line in KEYS)
    done = subprocess.run([FISH, "-c", program], capture_output=True, text=True, cwd=tmp_path,
                          env=_bash_env(tmp_path), timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    offered = [line.split("\t")[0] for line in done.stdout.splitlines()]
    assert offered == ["threshold", "--dry-run", "completion"]
