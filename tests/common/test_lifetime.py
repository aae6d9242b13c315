"""Processes that must not outlive a ``kill -9`` of the process that started them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import alive

ROOT = Path(__file__).resolve().parents[2]
PARENT = """
import subprocess, sys, time
from common.lifetime import start_reaper
start_reaper()
time.sleep(1.5)  # the watchdog notes descendants every half second
child = subprocess.Popen(["sleep", "120"], start_new_session=True)  # nothing ties it to us
time.sleep(1.5)
print(child.pid, flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_start_reaper__kills_what_a_killed_process_left_running() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT],
        cwd=ROOT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert alive(child)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and alive(child):
        time.sleep(0.1)
    assert not alive(child)
