"""One step of policy improvement at a guess: the player's cell against its next candidates, each
played on by the player itself over the same layouts drawn from the position.

This is ``bench_variant_swap.py``'s ``rollout:CANDIDATES:LAYOUTS:MARGIN[:FROM]`` variant. At a guess
that the player's look-ahead makes (its endgame search silent, no forced pair or chain) once at
least the share ``FROM`` (default 0) of the safe cells is open, the candidates
are the player's own cell, then the cells its look-ahead scores (:func:`agents.solver.blended.
candidates`), then the rest in its guess order (lowest risk first), mirror images of a cell taken
already left out, up to ``CANDIDATES`` in all. Each is played, then the player to the end, on the
same ``LAYOUTS`` layouts drawn exactly from the position (every layout where no more fit). A
candidate replaces the player's cell only if it won more of them, by at least ``MARGIN`` times the
square root of the layouts on which the two differ (a sign test's z): with ``MARGIN`` 0, any lead
does.

The draws use a stream of their own (:data:`ROLLOUT_STREAM`), so the benchmark's valuation, which
plays both cells on other draws from the same position, measures the choice without its selection
bias. It is a probe of how much better the player's guesses could be, not a player: at 96 layouts
and four candidates it costs about 2 s of one core per Beginner guess.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hill_swap import GuessPosition, PlayerOptions, mirror_equivalent, play_on

from agents.base import MoveReason
from agents.solver import analyse
from agents.solver.agent import SolverAgent
from agents.solver.blended import candidates
from agents.solver.guess import guess_order
from agents.solver.posterior import all_layouts, draw_layout
from agents.solver.probability import RegionCache
from mswp_gym.spec import GameSpec

ROLLOUT_VARIANT = "rollout:CANDIDATES:LAYOUTS:MARGIN[:FROM]"
"""The form of the variant's name in ``bench_variant_swap.py``."""
ROLLOUT_STREAM = 7_2026
"""The first word of the draws' seed: the valuation's draws (``[seed, game, k]``) never use it."""


@dataclass(frozen=True)
class Rollout:
    """The settings of a ``rollout`` variant."""

    candidates: int
    """Cells compared at a guess, the player's own included (>= 2)."""
    layouts: int
    """Layouts drawn from the position to play each candidate on (>= 1)."""
    margin: float
    """How many standard errors of a sign test a candidate's lead must reach (>= 0)."""
    from_open: float = 0.0
    """The least share of the safe cells open at which the variant plays (0..1); earlier it
    plays as the player does (so a probe of late guesses costs little)."""


def parse_rollout(variant: str) -> Rollout | None:
    """The settings of ``variant`` if it is a ``rollout`` variant, else None.

    Raises:
        ValueError: a ``rollout:`` name with settings out of range (one line, naming it).
    """
    kind, _, settings = variant.partition(":")
    if kind != "rollout":
        return None
    parts = settings.split(":")
    problem = f"--variant {variant!r}: want {ROLLOUT_VARIANT} with CANDIDATES an integer >= 2, "
    problem += "LAYOUTS an integer >= 1, MARGIN a number >= 0 and FROM a number in [0, 1]"
    if len(parts) not in (3, 4) or not (parts[0].isdigit() and parts[1].isdigit()):
        raise ValueError(problem)
    try:
        margin = float(parts[2])
        from_open = float(parts[3]) if len(parts) == 4 else 0.0
    except ValueError:
        raise ValueError(problem) from None
    rollout = Rollout(int(parts[0]), int(parts[1]), margin, from_open)
    if rollout.candidates < 2 or rollout.layouts < 1 or not 0 <= margin < math.inf:
        raise ValueError(problem)
    if not 0 <= from_open <= 1:
        raise ValueError(problem)
    return rollout


def rollout_candidates(board: np.ndarray, ours: int, ranked: Sequence[int], size: int) -> list[int]:
    """``ours``, then the cells of ``ranked`` in order, leaving out repeats and mirror images of a
    cell already taken (:func:`bench_hill_swap.mirror_equivalent`), until ``size`` are taken."""
    chosen = [ours]
    for cell in ranked:
        if len(chosen) >= size:
            break
        if cell in chosen or any(mirror_equivalent(board, cell, c) for c in chosen):
            continue
        chosen.append(cell)
    return chosen


def best_by_rollouts(won: Sequence[Sequence[bool]], margin: float) -> int:
    """The index of the candidate to play: the one with the largest lead over candidate 0 (the
    player's) among those whose lead is positive and at least ``margin`` times the square root of
    the layouts where the two differ; 0 if none. Ties go to the earlier candidate.

    Args:
        won: Per candidate, whether the game was won on each layout (the same layouts for all).
        margin: See :attr:`Rollout.margin`.
    """
    base = won[0]
    best, best_lead = 0, 0
    for index in range(1, len(won)):
        lead = sum(won[index]) - sum(base)
        differ = sum(a != b for a, b in zip(won[index], base, strict=True))
        if lead > best_lead and lead >= margin * math.sqrt(differ):
            best, best_lead = index, lead
    return best


def rollout_move(
    board: np.ndarray,
    legal: np.ndarray,
    spec: GameSpec,
    deal_seed: int,
    position: GuessPosition,
    player: PlayerOptions,
    rollout: Rollout,
) -> int | None:
    """The rollout variant's cell at one of the player's guesses (see the module docstring), or
    None where it plays as the player does.

    Args:
        board: The visible position (``(rows, cols)`` codes), reached by ``position.clicks``.
        legal: ``(rows * cols,)`` action mask: nonzero where a cell may be revealed.
        spec: The game's spec.
        deal_seed: The game's seed (the env's and the player's, as ``play_on`` takes it).
        position: The guess: its clicks, the player's cell, and its key ``GAME.K``, which with
            :data:`ROLLOUT_STREAM` seeds the draws.
        player: The player's options.
        rollout: The variant's settings.
    """
    open_cells = int(np.count_nonzero(board >= 0))
    if open_cells < rollout.from_open * (spec.rows * spec.cols - spec.mines):
        return None
    agent = SolverAgent(**dict(player))
    agent.reset(deal_seed, spec)
    agent.act(board, legal)
    note = agent.explain()
    if note.move is None or note.move.reason != MoveReason.GUESS or note.approximate:
        return None  # its endgame search or a forced guess decides, or no exact posterior
    analysis = analyse(board, spec.mines)
    cache = RegionCache()
    order, openness = guess_order(analysis, board, legal)
    scored = candidates(analysis, board, order, openness) if agent.depth else []
    cells = rollout_candidates(board, position.ours, [*scored, *order], rollout.candidates)
    if len(cells) < 2:
        return None
    drawn = all_layouts(analysis, spec.mines, cache, rollout.layouts)
    if drawn is None:
        game, guess = (int(part) for part in position.key.split("."))
        rng = np.random.default_rng([ROLLOUT_STREAM, game, guess])
        drawn = [draw_layout(analysis, spec.mines, rng, cache) for _ in range(rollout.layouts)]
    won = [
        [play_on(layout, spec, deal_seed, position.clicks, cell, player)[0] for layout in drawn]
        for cell in cells
    ]
    best = best_by_rollouts(won, rollout.margin)
    return None if best == 0 else cells[best]
