"""Every benchmark without tests of its own runs end to end on a toy budget, so none of them rots.

Timings are never checked (they are not pass/fail); each run must exit 0 and print its table.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np
import pytest
from benchmark_scripts import ROOT, bad_input_lines_in_a_process, load_benchmark, script_path

RUNS = {
    "bench_env": ["--seconds", "0.1", "--boards", "beginner"],
    "bench_vector": ["--boards", "beginner", "--batch", "8", "--budget", "0.05", "--warmup", "0"],
    "bench_vecenv": ["--n-envs", "2", "--steps", "64", "--kinds", "dummy", "native"],
    "bench_ab": [
        "--against",
        "HEAD",
        "--rounds",
        "1",
        "--single-steps",
        "200",
        "--vector-steps",
        "2",
    ],
    "bench_agents": ["--games", "2", "--workers", "1", "--agents", "random", "logic"],
    "bench_eval": ["--agents", "logic", "--preset", "beginner", "--games", "2", "--workers", "1"],
    "bench_logic_big": ["--size", "12", "--mines", "20", "--games", "1"],
    "bench_llm": ["--games", "3", "--in-flight", "1", "3", "--delay", "0"],
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_benchmark__runs_on_a_toy_budget(name: str) -> None:
    done = subprocess.run(
        [sys.executable, str(script_path(name)), *RUNS[name]],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip()


def test_plot_density__writes_its_png_and_json(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "density.png"
    argv = ["--size", "6", "--densities", "0.1", "--agents", "logic", "--games", "2"]
    load_benchmark("plot_density").main([*argv, "--out", str(out)])
    assert out.is_file() and out.with_suffix(".json").is_file()


def test_bench_libraries__sb3_rows_on_a_toy_budget() -> None:
    pytest.importorskip("sb3_contrib")
    rows = load_benchmark("bench_libraries").sb3_rows(200, 64)
    assert rows and all(steps_per_s > 0 for _label, _venv, steps_per_s in rows)


def _with_fake_harness(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` loaded as the peers harness loads a plugin: ``bench_envs`` first
    injected into its globals (here a stand-in whose adapter returns the env factory)."""

    def adapter(factory: Any, **_kwargs: Any) -> Any:
        return factory

    spec = importlib.util.spec_from_file_location(name, script_path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__dict__["bench_envs"] = SimpleNamespace(gymnasium_adapter=adapter)
    spec.loader.exec_module(module)
    return module


def test_peers_plugin_env__its_envs_step_under_the_harness_adapter() -> None:
    plugin = _with_fake_harness("peers_plugin_env")
    for factory in plugin.ADAPTERS.values():
        env = factory(9, 9, 10)
        _obs, info = env.reset(seed=0)
        action = int(np.flatnonzero(info["action_mask"])[0])
        assert len(env.step(action)) == 5


def test_peers_solver_plugin__its_players_give_legal_cells() -> None:
    plugin = load_benchmark("peers_solver_plugin")
    for factory, _package, _about in plugin.SOLVERS.values():
        choose = factory(9, 9, 10, np.random.default_rng(0))
        cells = choose(np.full((9, 9), -1, dtype=np.int8))
        assert cells and all(0 <= r < 9 and 0 <= c < 9 for r, c in cells)


def test_peers_env_plugin__without_the_harness_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEERS_DIR", str(ROOT / "no-such-harness"))
    (line,) = bad_input_lines_in_a_process("peers_env_plugin", [])
    assert "PEERS_DIR" in line and "no-such-harness" in line


def test_bench_ab__an_unknown_commit_is_refused_with_exit_2() -> None:
    lines = bad_input_lines_in_a_process("bench_ab", ["--against", "no-such-commit"])
    assert lines == [
        "bench_ab.py: error: --against 'no-such-commit' is not a commit of this repo "
        "(see bench_ab.py --help)"
    ]
