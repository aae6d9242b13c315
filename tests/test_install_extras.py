"""What a user with fewer extras, or with their own train.py beside their script, sees: results
without plots (and the extra that adds them), and a one-line error naming a shadowing file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WITHOUT_MATPLOTLIB = "import sys; sys.modules['matplotlib'] = None; "


def python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter in ``cwd``, this checkout on the path after ``cwd``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_eval__without_matplotlib_writes_the_results_and_names_the_extra(tmp_path: Path) -> None:
    out = tmp_path / "ev"
    argv = ["--agents", "random,local", "--games", "3", "--workers", "1", "--quiet"]
    done = python(
        WITHOUT_MATPLOTLIB
        + f"from eval.cli import main; sys.exit(main({[*argv, '--out', str(out)]!r}))",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "pip install 'mswp-gym[eval]'" in done.stdout and "win rate" in done.stdout
    assert json.loads((out / "results.json").read_text())["config"]["agents"]
    assert not list(out.glob("*.png"))


def test_demo__without_matplotlib_runs_to_the_end(tmp_path: Path) -> None:
    argv = ["--games", "2", "--sweep-games", "2", "--workers", "1", "--quiet", "--out", "demo"]
    done = python(
        WITHOUT_MATPLOTLIB + f"from eval.demo import main; sys.exit(main({argv!r}))", tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "mswp-gym[eval]" in done.stdout
    assert (tmp_path / "demo" / "results.json").is_file()


def test_agents_make__names_a_train_py_that_shadows_the_package(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("print('my own training script')\n")
    done = python("import agents; agents.make('net:beginner')", tmp_path)
    last = done.stderr.strip().splitlines()[-1]
    assert "train.py" in last and "hides the package 'train'" in last, done.stderr


def test_eval__names_an_agents_folder_that_shadows_the_package(tmp_path: Path) -> None:
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("MY_AGENTS = []\n")
    argv = ["--agents", "random", "--games", "2", "--workers", "1", "--quiet"]
    done = python(f"import sys; from eval.cli import main; sys.exit(main({argv!r}))", tmp_path)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1] == (
        f"ImportError: {tmp_path / 'agents' / '__init__.py'} hides the package 'agents' of "
        f"mswp-gym; rename it"
    )
