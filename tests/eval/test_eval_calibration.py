"""Calibration of risk maps against the exact probabilities: figures, beliefs read, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.base import Explanation
from agents.baselines import RandomAgent
from eval.agent_specs import AgentSpec, parse_agent_spec
from eval.calibration import agent_beliefs, calibrate
from eval.cli import main
from eval.settings import Setting

BEGINNER = Setting(9, 9, 10, name="beginner")
SEEDS = [11, 12, 13]


class HalfRiskAgent(RandomAgent):
    """Plays at random and believes every cell is a mine with probability 1/2."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.shape = observation.shape
        return super().act(observation, action_mask)

    def explain(self) -> Explanation:
        return Explanation(risk=np.full(self.shape, 0.5))


class HalfRiskSpec(AgentSpec):
    def build(self) -> HalfRiskAgent:
        return HalfRiskAgent()


def test_calibrate__the_exact_solver_has_no_error() -> None:
    result = calibrate(parse_agent_spec("solver"), BEGINNER, SEEDS)
    assert result.positions > 0 and result.cells > result.positions
    assert result.mae == pytest.approx(0.0, abs=1e-6)
    assert result.brier == pytest.approx(result.exact_brier)


def test_calibrate__a_constant_half_scores_a_quarter_brier() -> None:
    result = calibrate(HalfRiskSpec("half", "half"), BEGINNER, SEEDS)
    assert result.brier == pytest.approx(0.25)
    assert result.mae is not None and 0.3 < result.mae < 0.5
    assert result.exact_brier is not None and result.exact_brier < 0.25


def test_calibrate__an_agent_without_a_risk_map_has_no_figures() -> None:
    result = calibrate(parse_agent_spec("random"), BEGINNER, SEEDS[:1])
    assert (result.positions, result.mae, result.brier) == (0, None, None)
    assert result.row().endswith("no risk map")


def test_agent_beliefs__proven_cells_override_the_risk_map() -> None:
    risk = np.full((2, 2), 0.3)
    beliefs = agent_beliefs(Explanation.of([(0, 0)], [(1, 1)], risk=risk), (2, 2))
    assert beliefs is not None
    assert beliefs.tolist() == [[0.0, 0.3], [0.3, 1.0]]
    assert agent_beliefs(Explanation(), (2, 2)) is None


def test_eval_cli__calibration_prints_a_row_per_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--calibration", "--agents", "solver,random", "--games", "2"]) == 0
    header, solver, random = capsys.readouterr().out.strip().splitlines()
    assert header.split()[:4] == ["agent", "setting", "games", "positions"]
    assert solver.startswith("solver") and solver.split()[-3] == "0.0000"
    assert random.startswith("random") and random.endswith("no risk map")


def test_eval_cli__calibration_writes_its_results_to_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["--calibration", "--agents", "solver", "--games", "2", "--out", str(out)]) == 0
    (result,) = json.loads((out / "calibration.json").read_text())
    assert result["agent"] == "solver" and result["games"] == 2 and result["mae"] < 1e-6
    assert f"wrote {out / 'calibration.json'}" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == ["calibration.json"]


@pytest.mark.parametrize(
    "flags",
    [
        ["--by", "3bv"],
        ["--workers", "2"],
        ["--backend", "ray"],
        ["--backend", "ray", "--ray-address", "127.0.0.1:1"],
        ["--compare", "solver", "random"],
    ],
    ids=" ".join,
)
def test_eval_cli__calibration_refuses_flags_it_would_ignore_in_one_line(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--calibration", "--agents", "solver,random", "--out", str(tmp_path / "out")]
    assert main([*argv, "--games", "2", *flags]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(
        f"mswp-eval: error: --calibration plays in one local process and takes no {flags[0]}"
    )
    assert list(tmp_path.iterdir()) == []
