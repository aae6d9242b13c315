"""Collection split in two: the learner plays every game in one process, workers label.

:func:`train.rollout.collect_positions` labels each position as it is met, so each collection
worker plays its own share of the games on a CPU copy of the network. On a machine with a GPU
that leaves the GPU idle while the CPU cores run the network: on one H200 with 16 cores, a round
of 1500 Expert games spent 515-532 core-seconds in the CPU copies' forward passes against 22 s
of Adam steps on the GPU (docs/train.md). Here the learner plays every game in one batch on its
own device (:func:`play_unlabelled`) and only the labelling, the exact solver's part, goes to
the workers (:func:`label_played`).

The same seed gives the same positions with any number of workers and on either backend: each
position's move-label tie-break seed is drawn once, after play, from the run's generator, and
positions keep the order in which they were met.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

import numpy as np

from mswp_gym.board import Board
from mswp_gym.spec import GameSpec
from train.dataset import PositionSet
from train.network import CellNet
from train.rollout import (
    Labelled,
    RolloutConfig,
    label_position,
    labellers,
    play_games,
    position_set,
)

PLAY_PLACES: tuple[str, ...] = ("workers", "device")
"""Where the learner plays while collecting: ``workers`` (each collection job plays its share of
the games on a CPU copy of the network and labels them) or ``device`` (this process plays every
game in one batch on the training device; the jobs only label)."""
NOT_FIRST = -1
"""``PlayedPositions.first`` of a position that is not a board's laid-out start."""


@dataclass(frozen=True)
class PlayedPositions:
    """The positions a batch of games met, in order, with what their labels need."""

    visible: np.ndarray  # (N, rows, cols) int8: the board as the learner saw it
    game: np.ndarray  # (N,) int32: the position's game, an index into mines and counts
    first: np.ndarray  # (N,) int32: the flat first click that laid the board out, or NOT_FIRST
    seed: np.ndarray  # (N,) int64: the tie-break seed of the position's move label
    mines: np.ndarray  # (G, rows, cols) bool: each game's true layout
    counts: np.ndarray  # (G, rows, cols) int8: each game's clues

    def __len__(self) -> int:
        return int(self.visible.shape[0])

    def chunks(self, parts: int) -> list[PlayedPositions]:
        """Up to ``parts`` non-empty, strided shares of the positions: of ``k`` shares, share
        ``j`` holds positions ``j, j + k, j + 2k, ...`` in order (each keeps every game's layout:
        they are small beside the positions). :meth:`train.dataset.PositionSet.interleave`
        puts their labelled sets back in the positions' order.

        Strided, not contiguous: positions are met move by move across the batch of games, so
        the costly ones to label (the opening moves) lie together. In a round of 150 Expert
        games split 15 ways, the slowest contiguous run took 2.3-2.4 times the mean share's
        labelling time, the slowest strided share 1.3-1.4 times
        (``benchmarks/bench_label_shares.py``, two runs); a round waits for its slowest job.
        """
        count = min(parts, max(len(self), 1))
        return [
            PlayedPositions(
                self.visible[j::count],
                self.game[j::count],
                self.first[j::count],
                self.seed[j::count],
                self.mines,
                self.counts,
            )
            for j in range(count)
            if j < len(self)
        ]


def play_unlabelled(
    net: CellNet, spec: GameSpec, games: int, rng: np.random.Generator, config: RolloutConfig
) -> tuple[PlayedPositions, dict[str, float]]:
    """Play ``games`` games with ``net`` on its own device (:func:`train.rollout.play_games`)
    and keep every position unlabelled.

    Returns:
        The positions, then the move labels' seeds drawn from ``rng``; and the play's stats
        (``label_seconds`` is the time spent keeping positions).
    """
    visible: list[np.ndarray] = []
    game_of: list[int] = []
    first_of: list[int] = []

    def keep(game: int, board: Board, seen: np.ndarray, first: int | None) -> None:
        visible.append(seen.copy())
        game_of.append(game)
        first_of.append(NOT_FIRST if first is None else first)

    boards, stats = play_games(net, spec, games, rng, config, keep)
    count = len(visible)
    shape = (spec.rows, spec.cols)
    played = PlayedPositions(
        np.stack(visible) if visible else np.zeros((0, *shape), np.int8),
        np.array(game_of, np.int32),
        np.array(first_of, np.int32),
        rng.integers(0, 2**31, size=count, dtype=np.int64),
        np.stack([board.mines for board in boards]),
        np.stack([board.counts for board in boards]),
    )
    return played, stats


def label_played(
    played: PlayedPositions, spec: GameSpec, config: RolloutConfig
) -> tuple[PositionSet, float]:
    """Label ``played`` as :func:`train.rollout.collect_positions` labels positions (a move
    label's tie-breaks seeded by the position's own seed).

    Returns:
        The labelled positions, in order, and the seconds spent.
    """
    started = time.perf_counter()
    # Move labels take their seeds from the positions, so the labellers' own generator is unused.
    labeller, solver_moves = labellers(spec, np.random.default_rng(0), config)
    parts: list[Labelled] = []
    for index in range(len(played)):
        game = int(played.game[index])
        first = int(played.first[index])
        seed = int(played.seed[index])
        moves = None if solver_moves is None else partial(solver_moves, seed=seed)
        parts.append(
            label_position(
                played.mines[game],
                played.counts[game],
                played.visible[index],
                None if first == NOT_FIRST else first,
                spec,
                labeller,
                moves,
            )
        )
    return position_set(parts, spec.rows, spec.cols), time.perf_counter() - started
