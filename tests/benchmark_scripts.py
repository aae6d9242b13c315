"""Load a script of ``benchmarks/`` or ``research/`` (neither a package) as a module, for the tests
of its parts."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
RESEARCH = ROOT / "research"
sys.path.insert(0, str(BENCHMARKS))  # as when a script runs: its shared module, benchkit


def script_path(name: str) -> Path:
    """``benchmarks/<name>.py``, or ``research/<name>.py`` where no benchmark has that name."""
    path = BENCHMARKS / f"{name}.py"
    return path if path.is_file() else RESEARCH / f"{name}.py"


def load_benchmark(name: str) -> ModuleType:
    """The script ``name`` (:func:`script_path`) as the module ``name``, registered in
    ``sys.modules`` (dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(name, script_path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def bad_input_lines(name: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The stderr lines of ``benchmarks/<name>.py``'s ``main(argv)``, which must exit with 2."""
    with pytest.raises(SystemExit) as stopped:
        load_benchmark(name).main(argv)
    assert stopped.value.code == 2
    return capsys.readouterr().err.strip().splitlines()


def bad_input_lines_in_a_process(name: str, argv: list[str]) -> list[str]:
    """The stderr lines of ``benchmarks/<name>.py argv`` run as a process, which must exit with 2
    and print no traceback."""
    done = subprocess.run(
        [sys.executable, str(script_path(name)), *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    return done.stderr.strip().splitlines()
