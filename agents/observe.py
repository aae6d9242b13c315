"""Turn visible boards into CS50 ``add_knowledge`` calls, so a ``MinesweeperAI`` plays the env.

The env reveals many cells per move (flood fill of zeros); the CS50 player learns one clue at a
time. :class:`ObservationFeeder` remembers which cells it has already fed and, for each newly
revealed cell in row-major order, tells the player what a human would read off the board.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from mswp_gym.cells import Cell
from mswp_gym.constants import NO_CLUE, is_revealed


class KnowledgeBase(Protocol):
    """What the feeder needs of a CS50 player (both engines in :mod:`agents` qualify)."""

    moves_made: set[Cell]

    def add_knowledge(self, cell: Cell, count: int) -> None: ...

    def mark_mine(self, cell: Cell) -> None: ...

    def mark_safe(self, cell: Cell) -> None: ...

    def infer(self) -> None: ...


class ObservationFeeder:
    """Feeds each newly revealed cell of a visible board to a CS50 player exactly once.

    * a clue ``0..8`` becomes ``add_knowledge(cell, clue)``;
    * ``NO_CLUE`` (revealed safe, clue withheld) records the move and marks the cell safe;
    * ``EXPLODED`` (score mode) records the move and marks the cell a mine;
    * hidden and flagged cells are not fed (flags are notes, not knowledge).
    """

    def __init__(self, ai: KnowledgeBase, shape: tuple[int, int]) -> None:
        self.ai = ai
        self.shape = shape
        self.fed = np.zeros(shape, dtype=bool)  # (rows, cols) bool: already told to the player

    def feed(self, board: np.ndarray) -> list[Cell]:
        """Tell the player about every cell of ``board`` revealed since the last call; returns
        them, in row-major order.

        Raises:
            ValueError: ``board`` has the wrong shape.
        """
        if board.shape != self.shape:
            raise ValueError(f"expected a board of shape {self.shape}, got {board.shape}")
        new = is_revealed(board) & ~self.fed
        cells = [(int(r), int(c)) for r, c in np.argwhere(new)]
        marked_only = False
        for cell in cells:
            code = int(board[cell])
            if code >= 0:
                self.ai.add_knowledge(cell, code)
                continue
            self.ai.moves_made.add(cell)
            (self.ai.mark_safe if code == NO_CLUE else self.ai.mark_mine)(cell)
            marked_only = True
        if marked_only:
            self.ai.infer()
        self.fed |= new
        return cells
