"""How well networks know the mine count: P(mine) errors by stage of the game, against the solver.

    python benchmarks/bench_mine_count.py --board expert --games 100 \
        --checkpoints generalist,out/models/generalist_global_r11.zip

One data set for every checkpoint: ``--games`` games of the board (first click safe) played by
the first checkpoint through the training code's own collection
(:func:`train.rollout.collect_positions`, no random moves, every losing move replaced by a truly
safe one, so games run to their end), every position labelled with the solver's exact P(mine).
For each checkpoint and stage of the game (the share of the safe cells revealed: under 50%, 50 to
90%, 90% and more), over the positions after the first click:

- **cell error**: the mean of ``|P_net - P_exact|`` over the hidden cells;
- **count error**: the mean over positions of ``|sum P_net - mines left|`` over the hidden cells
  (the exact probabilities sum to the mines left, known mines included, in every position): how
  far the network's beliefs are from the mine count, which is public;
- **undecided error**: the same sum over the *undecided* hidden cells only (exact P strictly
  between 0 and 1): late in a game most hidden cells are settled mines, whose small errors
  fill the count error, while the mine count decides the undecided ones;
- **guess risk**: on the positions with no certainly safe cell, the exact P(mine) of the cell the
  network plays (its best action score) minus the lowest one, in points, with a 95% interval (a
  normal approximation over positions; positions of one game are correlated, so it is optimistic);
- **safest-cell risk**: the same for the hidden cell the network's *mine head* rates safest, and
  the share of guess positions where the two cells are the same. (Less risk per guess is not more
  wins: playing that cell from 90% revealed on lost games, docs/train.md.)

One torch thread; seeded by ``--seed``.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch as th

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mswp_gym.constants import HIDDEN
from mswp_gym.presets import PRESETS
from mswp_gym.spec import GameSpec
from train.agent import PolicyAgent, load_ppo_agent
from train.dataset import PositionSet
from train.network import MINE_HEAD, CellNet, action_scores
from train.rollout import RolloutConfig, collect_positions

STAGES: tuple[tuple[float, float, str], ...] = (
    (0.0, 0.5, "<50%"),
    (0.5, 0.9, "50-90%"),
    (0.9, 1.01, ">=90%"),
)
"""Stages of a game by the share of the safe cells revealed: ``[low, high)`` and a label."""
OPENING_WEIGHT = RolloutConfig().opening_weight


class BadInput(ValueError):
    """A command-line value the benchmark cannot use (one line, exit status 2)."""


@dataclass(frozen=True)
class StageErrors:
    """One checkpoint's errors on the positions of one stage."""

    positions: int
    cell_error: float
    count_error: float
    undecided_error: float
    guesses: int
    guess_risk: float
    """Mean excess P(mine) of the played cell on guess positions, in points (NaN: none)."""
    guess_half_width: float
    """Half-width of its 95% interval, in points."""
    safest_risk: float
    """Mean excess P(mine) of the mine head's safest hidden cell on guess positions, in points."""
    safest_half_width: float
    """Half-width of its 95% interval, in points."""
    same_cell: float
    """Share of guess positions where the played cell is the mine head's safest (NaN: none)."""


def parse_board(text: str) -> GameSpec:
    """A preset name (first click safe)."""
    found = PRESETS.get(text.lower())
    if found is None:
        raise BadInput(f"--board {text!r} is not one of {', '.join(PRESETS)}")
    return GameSpec(found.rows, found.cols, found.mines, "safe")


def load_net(name: str) -> CellNet:
    """The network of a shipped name or checkpoint file (one that plays any board)."""
    try:
        agent = load_ppo_agent(name, boards="any")
    except (FileNotFoundError, ValueError) as error:
        raise BadInput(f"--checkpoints: cannot load {name!r}: {error}") from None
    if not isinstance(agent, PolicyAgent):
        raise BadInput(f"--checkpoints: {name!r} is not a board-policy checkpoint")
    return agent.net


def network_beliefs(net: CellNet, boards: np.ndarray, mines: int) -> tuple[np.ndarray, np.ndarray]:
    """``(P(mine), action scores)`` of ``net`` on ``(N, rows, cols)`` boards, as float64."""
    risks, scores = [], []
    with th.no_grad():
        for start in range(0, len(boards), 128):
            logits = net(th.as_tensor(boards[start : start + 128], dtype=th.float32), mines)
            risks.append(th.sigmoid(logits[:, MINE_HEAD].double()).numpy())
            scores.append(action_scores(logits, OPENING_WEIGHT).double().numpy())
    return np.concatenate(risks), np.concatenate(scores)


def stage_errors(
    positions: PositionSet, risk: np.ndarray, scores: np.ndarray, selected: np.ndarray
) -> StageErrors:
    """The errors of one network (``risk``, ``scores`` over all positions) on ``selected``."""
    count = int(selected.sum())
    hidden = positions.mine_masks[selected].reshape(count, -1)
    exact = positions.mine_targets[selected].reshape(count, -1).astype(np.float64)
    belief = risk[selected].reshape(count, -1)
    cell_error = float(np.abs(belief - exact)[hidden].mean())
    count_error = float(np.abs(((belief - exact) * hidden).sum(axis=1)).mean())
    undecided = hidden & (exact > 0.0) & (exact < 1.0)
    undecided_error = float(np.abs(((belief - exact) * undecided).sum(axis=1)).mean())
    guessing = ~((exact == 0.0) & hidden).any(axis=1)
    played = np.where(hidden, scores[selected], -np.inf).argmax(axis=1)
    safest = np.where(hidden, belief, np.inf).argmin(axis=1)
    lowest = np.where(hidden, exact, np.inf).min(axis=1)
    excess = (exact[np.arange(count), played] - lowest)[guessing] * 100.0
    safest_excess = (exact[np.arange(count), safest] - lowest)[guessing] * 100.0
    guesses = int(excess.size)
    mean, half = _mean_and_half_width(excess)
    safest_mean, safest_half = _mean_and_half_width(safest_excess)
    same = float((played == safest)[guessing].mean()) if guesses else math.nan
    return StageErrors(
        count,
        cell_error,
        count_error,
        undecided_error,
        guesses,
        mean,
        half,
        safest_mean,
        safest_half,
        same,
    )


def _mean_and_half_width(values: np.ndarray) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval (NaN where undefined)."""
    mean = float(values.mean()) if values.size else math.nan
    half = (
        1.96 * float(values.std(ddof=1)) / math.sqrt(values.size) if values.size > 1 else math.nan
    )
    return mean, half


def _interval(mean: float, half: float) -> str:
    """``mean [low, high]`` in points, or ``-`` without an interval."""
    if math.isnan(half):
        return "-"
    return f"{mean:6.2f} [{mean - half:5.2f}, {mean + half:5.2f}]"


def run(argv: list[str] | None = None) -> list[tuple[str, str, StageErrors]]:
    """Measure and print; returns ``(checkpoint, stage label, errors)`` per printed row."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="expert", help=f"one of {', '.join(PRESETS)}")
    parser.add_argument(
        "--checkpoints",
        default="generalist",
        help="comma list of shipped names or checkpoint files; the first plays the games",
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1:
        raise BadInput(f"--games={args.games} must be >= 1")
    spec = parse_board(args.board)
    names = [name.strip() for name in args.checkpoints.split(",") if name.strip()]
    if not names:
        raise BadInput("--checkpoints is empty; give at least one shipped name or file")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise BadInput(f"--checkpoints lists {', '.join(twice)} more than once")
    th.set_num_threads(1)
    nets = {name: load_net(name) for name in names}
    config = RolloutConfig(epsilon=0.0, rescue=1.0)
    positions, _ = collect_positions(
        nets[names[0]], spec, args.games, np.random.default_rng([args.seed, 0]), config
    )
    positions = positions.select((positions.boards != HIDDEN).any(axis=(1, 2)))
    safe_cells = spec.rows * spec.cols - spec.mines
    revealed = 1.0 - (positions.mine_masks.sum(axis=(1, 2)) - spec.mines) / safe_cells
    print(
        f"board {spec.rows}x{spec.cols}/{spec.mines}, first click safe; {args.games} games played "
        f"by {names[0]} (losing moves replaced by safe ones); {len(positions):,} positions after "
        "the first click, solver labels"
    )
    print(
        f"{'checkpoint':<40} {'stage':<7} {'positions':>9} {'cell err':>9} {'count err':>9} "
        f"{'undecided':>9} {'guesses':>7} {'guess risk, points [95%]':>26} "
        f"{'safest-cell risk [95%]':>26} {'same':>5}"
    )
    rows: list[tuple[str, str, StageErrors]] = []
    for name, net in nets.items():
        risk, scores = network_beliefs(net, positions.boards, spec.mines)
        for low, high, label in STAGES:
            selected = (revealed >= low) & (revealed < high)
            if not selected.any():
                continue
            errors = stage_errors(positions, risk, scores, selected)
            rows.append((name, label, errors))
            played = _interval(errors.guess_risk, errors.guess_half_width)
            safest = _interval(errors.safest_risk, errors.safest_half_width)
            print(
                f"{name[-40:]:<40} {label:<7} {errors.positions:>9,} {errors.cell_error:9.4f} "
                f"{errors.count_error:9.3f} {errors.undecided_error:9.3f} {errors.guesses:>7} "
                f"{played:>26} {safest:>26} {errors.same_cell:5.2f}",
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    """:func:`run`, with a bad value as one line on stderr and exit status 2."""
    try:
        run(argv)
    except BadInput as error:
        print(f"bench_mine_count.py: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
