"""Sentences keyed by their cell set and indexed by cell: the store behind the fast engines.

A new clue only touches the sentences it shares cells with, so inference stays fast on big
boards. Both :class:`agents.logic.indexed.IndexedMinesweeperAI` (exact counts) and
:class:`agents.logic.bounded.BoundedKnowledge` (lower and upper bounds) keep their sentences here.
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

from mswp_gym.cells import Cell

CellSet = frozenset[Cell]
V = TypeVar("V")


class SentenceIndex(Generic[V]):
    """Sentence values by cell set, the sets holding each cell, and a queue of sets to revisit.

    Attributes:
        values: the value (a count, or bounds) of each sentence, keyed by its cell set.
        by_cell: for each cell, the cell sets of the sentences that hold it.
        queue: cell sets stored since they were last taken off the queue.
    """

    def __init__(self) -> None:
        self.values: dict[CellSet, V] = {}
        self.by_cell: dict[Cell, set[CellSet]] = {}
        self.queue: deque[CellSet] = deque()

    def clear(self) -> None:
        """Forget every sentence."""
        self.values.clear()
        self.by_cell.clear()
        self.queue.clear()

    def store(self, cells: CellSet, value: V) -> None:
        """Set the value of the sentence over ``cells``, index it and queue it for inference."""
        self.values[cells] = value
        for cell in cells:
            self.by_cell.setdefault(cell, set()).add(cells)
        self.queue.append(cells)

    def take_cell(self, cell: Cell) -> list[tuple[CellSet, V]]:
        """Remove every sentence holding ``cell`` and return them as ``(cells, value)`` pairs."""
        holding = self.by_cell.pop(cell, None)
        if not holding:
            return []
        taken = []
        for key in holding:
            value = self.values.pop(key)
            for other_cell in key:
                if other_cell != cell:
                    self.by_cell[other_cell].discard(key)
            taken.append((key, value))
        return taken
