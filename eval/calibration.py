"""How close an agent's risk map comes to the exact mine probabilities, over the positions it meets.

At every position after the first reveal, the agent's ``explain()`` risk map (proven cells at 0
and 1) is compared over the hidden cells with :class:`agents.beliefs.ExactBeliefs` and the truth:

* ``mae``: mean absolute difference from the exact probabilities (0 for an exact agent);
* ``brier``: mean squared difference from the truth (1 for a mine, else 0), the Brier score;
* ``exact_brier``: the Brier score of the exact probabilities on the same cells, the floor any
  agent's Brier score is measured against.

An agent without a risk map (``explain().risk`` is None) has no figures.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from agents.base import Explanation
from agents.beliefs import INFO_KEY, ExactBeliefs
from common.atomic import check_output_folder, write_text_atomic
from eval.agent_specs import AgentSpec
from eval.config import EvalConfig, game_seeds
from eval.settings import Setting
from mswp_gym.constants import is_revealed_safe, is_unknown
from mswp_gym.encoding import board_from_observation


@dataclass(frozen=True)
class Calibration:
    """One agent's calibration on one setting (figures None without a risk map)."""

    agent: str
    setting: str
    games: int
    positions: int
    """Positions with a risk map that were scored."""
    cells: int
    """Hidden cells scored over those positions."""
    mae: float | None
    brier: float | None
    exact_brier: float | None

    def row(self) -> str:
        """One line of :func:`calibration_table`."""
        head = f"{self.agent:<24} {self.setting:<28} {self.games:>6} {self.positions:>9}"
        if self.mae is None or self.brier is None or self.exact_brier is None:
            return f"{head}  no risk map"
        return f"{head} {self.mae:>8.4f} {self.brier:>8.4f} {self.exact_brier:>12.4f}"


def agent_beliefs(explanation: Explanation, shape: tuple[int, int]) -> np.ndarray | None:
    """``(rows, cols)`` float64 P(mine) an agent holds: its risk map, 0 on the cells it proved
    safe, 1 on those it proved mines; None without a risk map."""
    if explanation.risk is None:
        return None
    beliefs = np.array(explanation.risk, dtype=np.float64).reshape(shape)
    for cells, value in ((explanation.safe, 0.0), (explanation.mines, 1.0)):
        if cells:
            beliefs[tuple(np.array(sorted(cells)).T)] = value
    return beliefs


def calibrate(agent_spec: AgentSpec, setting: Setting, seeds: Sequence[int]) -> Calibration:
    """Play one game of ``agent_spec`` per seed on ``setting`` and score its beliefs (see the
    module docstring)."""
    env = ExactBeliefs(setting.make_env())
    agent = agent_spec.build()
    spec = env.get_wrapper_attr("game_spec")
    errors = squared = exact_squared = 0.0
    positions = cells = 0
    try:
        for seed in seeds:
            observation, info = env.reset(seed=seed)
            agent.reset(seed, spec)
            met: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
            done = False
            while not done:
                board = board_from_observation(observation)
                action = agent.act(board, np.asarray(info["action_mask"]))
                beliefs = agent_beliefs(agent.explain(), board.shape)
                hidden = is_unknown(board)
                if beliefs is not None and is_revealed_safe(board).any() and hidden.any():
                    met.append((hidden, beliefs[hidden], info[INFO_KEY][hidden]))
                observation, _, terminated, truncated, info = env.step(action)
                done = bool(terminated or truncated)
            truth = np.asarray(info["layout"], dtype=np.float64)
            for hidden, believed, exact in met:
                mines = truth[hidden]
                errors += float(np.abs(believed - exact).sum())
                squared += float(((believed - mines) ** 2).sum())
                exact_squared += float(((exact - mines) ** 2).sum())
                positions += 1
                cells += int(hidden.sum())
    finally:
        env.close()
    scored = cells > 0
    return Calibration(
        agent_spec.label,
        setting.label,
        len(seeds),
        positions,
        cells,
        errors / cells if scored else None,
        squared / cells if scored else None,
        exact_squared / cells if scored else None,
    )


def calibration_table(results: Sequence[Calibration]) -> str:
    """A text table of ``results``: MAE against the exact probabilities, Brier scores."""
    head = f"{'agent':<24} {'setting':<28} {'games':>6} {'positions':>9}"
    lines = [f"{head} {'MAE':>8} {'Brier':>8} {'exact Brier':>12}"]
    return "\n".join([*lines, *(result.row() for result in results)])


def write_calibration(config: EvalConfig, out: Path | None = None) -> str:
    """:func:`calibrate` every agent of ``config`` on every setting, on the evaluation's seeds;
    returns the table, having written the results to ``out/calibration.json`` if given."""
    seeds = game_seeds(config.seed, config.games)
    results = [calibrate(a, setting, seeds) for setting in config.settings for a in config.agents]
    if out is None:
        return calibration_table(results)
    path = check_output_folder(out) / "calibration.json"
    write_text_atomic(path, json.dumps([asdict(result) for result in results], indent=1))
    return f"{calibration_table(results)}\n\nwrote {path}"
