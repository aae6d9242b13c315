"""Worker processes that die with the process that started them (no orphans after ``kill -9``).

A pool worker calls :func:`die_with_parent` first thing. On Linux the kernel then SIGKILLs it when
its parent dies (``prctl(PR_SET_PDEATHSIG)``); everywhere, a daemon thread also checks twice a
second that the parent still lives, for platforms without ``prctl`` and for workers started
through an intermediary (a forkserver), whose direct parent is not the process to follow.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

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
