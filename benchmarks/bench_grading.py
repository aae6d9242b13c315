"""What grading one move of the text env costs, per preset.

    python benchmarks/bench_grading.py --games 50 --presets beginner,intermediate,expert

The exact solver plays ``--games`` seeded games per preset (first click safe); before each of
its moves :class:`agents.grading.ExactGrader` grades the move on the visible board, with one
region cache per game as ``Minesweeper-Text-v0`` keeps it. Prints, per preset, the moves graded
and the median and p95 milliseconds per grade: CPU time of this thread (``time.thread_time``),
which other work on a busy machine does not inflate. The first move of a game is left out (the
rule grades it, not the grader).
"""

from __future__ import annotations

import time

import gymnasium as gym
import numpy as np
from benchkit import preset_options

import mswp_gym  # noqa: F401  (registers the env ids)
from agents.grading import ExactGrader
from agents.solver import SolverAgent


def grade_costs(preset: str, games: int, seed: int) -> np.ndarray:
    """``(moves,)`` CPU milliseconds of grading each move but the first of ``games`` games."""
    env = gym.make(f"Minesweeper-{preset.capitalize()}-v0")
    spec = env.get_wrapper_attr("game_spec")
    agent, grader = SolverAgent(), ExactGrader()
    costs: list[float] = []
    for game in range(games):
        board, info = env.reset(seed=seed + game)
        agent.reset(seed + game, spec)
        grader.reset()
        done, first = False, True
        while not done:
            action = agent.act(board, info["action_mask"])
            if not first:
                started = time.thread_time()
                grader.grade(board, spec.mines, *divmod(action, spec.cols))
                costs.append(1e3 * (time.thread_time() - started))
            first = False
            board, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
    return np.array(costs)


def main(argv: list[str] | None = None) -> None:
    args, presets = preset_options(__file__, __doc__, argv)
    print(f"CPU ms per graded move over {args.games} solver games per preset (seed {args.seed})")
    print(f"{'preset':<13}{'moves':>7}{'median':>9}{'p95':>9}")
    for name in presets:
        costs = grade_costs(name, args.games, args.seed)
        median, p95 = np.median(costs), np.percentile(costs, 95)
        print(f"{name:<13}{len(costs):>7}{median:>9.3f}{p95:>9.3f}", flush=True)


if __name__ == "__main__":
    main()
