"""Where a figure came from: the checkout's commit, for results files and checkpoints."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any


def git_state() -> dict[str, Any]:
    """The checkout's commit and whether it has uncommitted changes (empty if not in git)."""
    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str:
        run = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10)
        run.check_returncode()
        return run.stdout.strip()

    try:
        commit, dirty = git("rev-parse", "HEAD"), git("status", "--porcelain", "-uno")
    except (OSError, subprocess.SubprocessError):
        return {}
    return {"commit": commit, "dirty": bool(dirty)}
