"""What a run's note asks of the system, on Unix and on Windows alike: a lock on its open file, writes at a place.

No module may import a Unix-only module unconditionally (the package says "OS Independent"): `fcntl` is imported
only where it exists. On Unix a note is locked with flock(2) on its own descriptor, exclusive while its run runs
and shared (or exclusive) to ask whether it still runs; the lock goes with the process, so a killed run's note
reads as ended. Windows has no flock: `msvcrt.locking` locks a byte far past anything a note holds (its locks
are mandatory, and a lock on the note's text would refuse a reader), and it has no shared lock, so a shared one
is taken exclusive there: two readers asking at the same instant may each see the other's question as a run
still running, and read the note as it is.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

# Where the Windows lock sits: past any note (one line per answer of each request is a few hundred bytes), and
# within the 31-bit file positions that the C runtime's locking() reaches.
_WINDOWS_LOCK_AT = 0x7FFF_FFF0


def lock(fd: int, shared: bool = False) -> None:
    """Lock the open file `fd` without waiting; OSError when another process holds a lock that excludes it."""
    if fcntl is not None:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    elif sys.platform == "win32":
        _windows_locking(fd, unlock=False)
    # Elsewhere (no such system runs CPython today) a note is not locked: a reader then takes every note as the
    # note of a run that ended.


def unlock(fd: int) -> None:
    """Let go of the lock before the file is closed (flock lets go at the close; Windows asks for it first)."""
    if fcntl is None and sys.platform == "win32":
        _windows_locking(fd, unlock=True)


def _windows_locking(fd: int, unlock: bool) -> None:
    if sys.platform == "win32":  # (for the type checker: msvcrt exists only there)
        import msvcrt  # lazy: Windows only; Unix has no such module

        at = os.lseek(fd, 0, os.SEEK_CUR)
        os.lseek(fd, _WINDOWS_LOCK_AT, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_UNLCK if unlock else msvcrt.LK_NBLCK, 1)
        finally:
            os.lseek(fd, at, os.SEEK_SET)


def pwrite(fd: int, data: bytes, at: int) -> int:
    """Write `data` at offset `at`; the number of bytes written. Windows has no pwrite: a seek and a write."""
    if hasattr(os, "pwrite"):
        return os.pwrite(fd, data, at)
    os.lseek(fd, at, os.SEEK_SET)
    return os.write(fd, data)


def unlink_open(path: Path) -> bool:
    """Delete a file this process holds open and locked: True when it is gone. On Unix it goes while still
    locked, so that no other process takes it in between; Windows will not delete an open file: False there,
    and the caller deletes it once it has closed it."""
    try:
        path.unlink()
    except PermissionError:
        if os.name != "nt":
            raise
        return False
    return True
