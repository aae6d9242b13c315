"""Process-tree helpers for the kill tests (Linux ``/proc``)."""

from __future__ import annotations

from pathlib import Path


def children(pid: int) -> set[int]:
    """Every descendant of ``pid`` (Linux /proc)."""
    found: set[int] = set()
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
            frontier.extend(kids - found)
            found |= kids
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"
