"""Worker processes that die with the process that started them (no orphans after ``kill -9``).

A pool worker calls :func:`die_with_parent` first thing: on Linux ``prctl(PR_SET_PDEATHSIG)``,
everywhere a daemon thread that checks the parent still lives. Processes we do not start
ourselves (a local Ray instance) are covered by :func:`start_reaper`, a watchdog that kills a
pid's descendants once it has died (Linux ``/proc``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1
POLL_SECONDS = 0.5


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by its parent, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else (pid reused): treat as gone
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):  # no /proc: trust os.kill
        return True


def _watch(parent: int) -> None:
    while True:
        time.sleep(POLL_SECONDS)
        if not _alive(parent):
            os._exit(1)


def die_with_parent(parent: int | None = None) -> None:
    """Make this process exit when ``parent`` (default: its parent process) dies.

    Args:
        parent: the pid to follow, captured in the parent with ``os.getpid()`` (needed when the
            worker is started by a forkserver). Already gone: exit now.
    """
    parent = os.getppid() if parent is None else parent
    direct = os.getppid() == parent
    if sys.platform.startswith("linux") and direct:
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if (direct and os.getppid() != parent) or not _alive(parent):  # died before prctl took hold
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="die-with-parent", daemon=True).start()


def _start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def descendants(pid: int) -> set[int]:
    """Every living descendant of ``pid`` (Linux ``/proc``; empty elsewhere)."""
    found: set[int] = set()
    frontier = [pid]
    while frontier:
        for task in Path(f"/proc/{frontier.pop()}/task").glob("*"):
            try:
                kids = {int(k) for k in (task / "children").read_text().split()} - found
            except OSError:
                continue
            frontier.extend(kids)
            found |= kids
    return found


def reap_after(pid: int) -> None:
    """Watch ``pid``; once it is dead, SIGKILL every descendant it had (the watchdog's body)."""
    seen: dict[int, str | None] = {}
    me = os.getpid()
    while _alive(pid):
        for child in descendants(pid) - {me}:
            seen.setdefault(child, _start_time(child))
        time.sleep(POLL_SECONDS)
    for child, started in seen.items():
        if started is not None and _start_time(child) == started:  # not a reused pid
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)


def start_reaper(pid: int | None = None) -> subprocess.Popen[bytes] | None:
    """Start a watchdog that kills ``pid``'s (default: this process's) descendants after it dies.

    Returns:
        The watchdog process, or None where there is no ``/proc`` to follow descendants.
    """
    if not Path("/proc/self/task").is_dir():
        return None
    pid = os.getpid() if pid is None else pid
    code = f"from common.lifetime import reap_after; reap_after({pid})"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(
                None,
                [str(Path(__file__).resolve().parent.parent), os.environ.get("PYTHONPATH", "")],
            )
        ),
    }
    return subprocess.Popen(
        [sys.executable, "-c", code],
        env=env,
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
