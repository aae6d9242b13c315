"""Play one seeded game of any agent in any Minesweeper env and record what happened."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np

from agents.base import Agent, Explanation, ReportsCertainty
from mswp_gym.cells import Cell, to_cell
from mswp_gym.constants import NO_CLUE, Outcome, is_revealed_safe
from mswp_gym.encoding import board_from_observation
from mswp_gym.spec import GameSpec


class Resign(RuntimeError):
    """Raised by ``agent.act`` to give the game up: :func:`play_episode` ends it as a loss (a
    language model that used up its invalid replies does this)."""


@dataclass(frozen=True)
class MoveRecord:
    """One move of a game."""

    cell: Cell
    """The cell the action revealed (or flagged)."""
    certain: bool
    """Whether the agent had proven the cell safe before playing it."""
    clue: int | None
    """What the cell showed after the move: its clue ``0..8``, ``NO_CLUE``, or None for a mine."""
    flag: bool = False
    """True if the action was a flag toggle rather than a reveal."""


@dataclass
class EpisodeResult:
    """How one game went."""

    outcome: Outcome
    """Final outcome (PLAYING if truncated)."""
    won: bool
    """``outcome == Outcome.WON``."""
    steps: int
    """Number of actions taken."""
    cells_revealed: float
    """Fraction of the safe cells revealed at the end, in ``[0, 1]``."""
    moves: list[MoveRecord] = field(default_factory=list)
    """Every move, in order."""
    mines_exploded: int = 0
    """Mines stepped on (score mode; 1 for a lost normal game, else 0)."""
    wall_time: float = 0.0
    """Seconds spent in the whole episode (agent and env)."""
    agent_time: float = 0.0
    """Seconds spent inside ``agent.act`` and ``agent.explain``."""
    layout: np.ndarray | None = None
    """``(rows, cols)`` bool truth from ``info["layout"]`` at the end, for evaluation only."""
    seed: int | None = None
    """The seed the env and the agent were reset with."""

    @property
    def certain_moves(self) -> int:
        """How many moves were proven safe."""
        return sum(move.certain for move in self.moves)


MoveCallback = Callable[[MoveRecord, Agent, Explanation, np.ndarray], None]
"""``on_move(record, agent, explanation, board_after)``; ``explanation`` is ``agent.explain()``
taken before the move was played."""


def revealed_safe_fraction(board: np.ndarray, spec: GameSpec) -> float:
    """Share of the safe cells shown as revealed (clue or ``NO_CLUE``) on ``board``."""
    safe_total = spec.rows * spec.cols - spec.mines
    revealed = int(np.count_nonzero(is_revealed_safe(board)))
    return revealed / safe_total if safe_total else 1.0


def play_episode(
    env: gym.Env,
    agent: Agent,
    seed: int | None,
    *,
    on_move: MoveCallback | None = None,
    max_steps: int | None = None,
) -> EpisodeResult:
    """Play one game of ``agent`` in ``env`` from ``env.reset(seed=seed)``.

    The agent is reset with the same seed and the env's public ``GameSpec``; it sees each
    observation as the ``(rows, cols)`` board (any ``obs_mode``) and ``info["action_mask"]``.

    Args:
        seed: seeds both the board and the agent.
        on_move: called after every move (see :data:`MoveCallback`).
        max_steps: stop after this many actions (default ``10 * rows * cols``, a guard against
            agents that toggle flags forever).

    Returns:
        The :class:`EpisodeResult`.
    """
    start = time.perf_counter()
    observation, info = env.reset(seed=seed)
    spec: GameSpec = env.get_wrapper_attr("game_spec")
    agent.reset(seed, spec)
    limit = max_steps if max_steps is not None else 10 * spec.cells
    board = board_from_observation(observation)
    moves: list[MoveRecord] = []
    agent_time = 0.0
    done = resigned = False
    while not done and len(moves) < limit:
        tick = time.perf_counter()
        try:
            action = int(agent.act(board, np.asarray(info["action_mask"])))
        except Resign:
            agent_time += time.perf_counter() - tick
            resigned = True
            break
        if on_move is None and isinstance(agent, ReportsCertainty):
            explanation = Explanation()
            certain = bool(agent.last_move_certain)
        else:
            explanation = agent.explain()
            certain = explanation.certain
        agent_time += time.perf_counter() - tick
        observation, _, terminated, truncated, info = env.step(action)
        done = bool(terminated or truncated)
        board = board_from_observation(observation)
        cell = to_cell(action % spec.cells, spec.cols)
        shown = int(board[cell])
        record = MoveRecord(
            cell=cell,
            certain=certain,
            clue=shown if shown >= 0 or shown == NO_CLUE else None,
            flag=action >= spec.cells,
        )
        moves.append(record)
        if on_move is not None:
            on_move(record, agent, explanation, board)
    outcome = Outcome.LOST if resigned else Outcome(int(info["outcome"]))
    if "mines_exploded" in info and not resigned:
        exploded = int(info["mines_exploded"])
    else:
        exploded = int(outcome == Outcome.LOST)
    layout = info.get("layout")
    return EpisodeResult(
        outcome=outcome,
        won=outcome == Outcome.WON,
        steps=len(moves),
        cells_revealed=revealed_safe_fraction(board, spec),
        moves=moves,
        mines_exploded=exploded,
        wall_time=time.perf_counter() - start,
        agent_time=agent_time,
        layout=None if layout is None else np.asarray(layout, dtype=bool),
        seed=seed,
    )
