"""Running the console script where the file system fights back: a read-only folder, a disk that fills.

Where the machine lets a user make a mount namespace (`unshare -rm`), the folder is remounted
read-only, or a small tmpfs is mounted on it, for that one process only. Elsewhere a full disk is
a file-size limit (RLIMIT_FSIZE: files stop growing, as on a full disk, while what exists can be
rewritten), and a read-only folder is its permissions (which root ignores: then the test is skipped).
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


@functools.cache
def namespaces() -> bool:
    """Whether `unshare -rm` can mount here."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null || mount -t tmpfs -o size=64k tmpfs /tmp"],
        capture_output=True,
    )  # fmt: skip
    return probe.returncode == 0


def _run(
    command: list[str], env: dict[str, str] | None, preexec: Callable[[], None] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, env={**os.environ, "NO_COLOR": "1", **(env or {})}, capture_output=True, text=True,
        timeout=timeout, preexec_fn=preexec,
    )  # fmt: skip


def read_only(folder: Path, args: Sequence[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`ari-cli ARGS` with `folder` read-only."""
    ari = str(BIN / "ari-cli")
    if namespaces():
        script = 'mount --bind -o ro "$1" "$1" && shift && exec "$@"'
        return _run(["unshare", "-rm", "sh", "-c", script, "sh", str(folder), ari, *args], env)
    if os.geteuid() == 0:
        pytest.skip("no mount namespace, and root writes through permissions")
    modes = {path: path.stat().st_mode for path in [folder, *folder.iterdir()]}
    try:
        for path in modes:
            path.chmod(0o500 if path.is_dir() else 0o400)
        return _run([ari, *args], env)
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def small_disk(
    folder: Path, free_kib: int, command: Sequence[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """COMMAND (a list, run as is) with `folder` on a disk holding what `folder` held and `free_kib` KiB more.

    What the disk holds at the end is back in `folder` afterwards (on the real disk).
    """
    if namespaces():
        script = (
            'folder="$1" free="$2"; shift 2; src=$(mktemp -d) && cp -a "$folder"/. "$src"/ && '
            'used=$(du -sk "$src" | cut -f1) && mount -t tmpfs -o size=$((used + free))k tmpfs "$folder" && '
            'cp -a "$src"/. "$folder"/ && rm -rf "$src" && "$@"; code=$?; '
            'mkdir -p "$folder.after" && cp -a "$folder"/. "$folder.after"/; exit $code'
        )
        result = _run(["unshare", "-rm", "sh", "-c", script, "sh", str(folder), str(free_kib), *command], env)
        after = Path(f"{folder}.after")
        shutil.rmtree(folder)
        after.rename(folder)
        return result
    largest = max((f.stat().st_size for f in folder.iterdir()), default=0)
    limit = largest + free_kib * 1024

    def limited() -> None:
        # Files stop growing past the limit, as on a full disk; Python ignores SIGXFSZ, so writes just fail.
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return _run(list(command), env, preexec=limited)
