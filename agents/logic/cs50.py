"""The CS50 AI "Minesweeper" knowledge-based player, with that course's exact API.

The plain reference algorithm of cs50.harvard.edu/ai/projects/1/minesweeper (every pair of
sentences compared on every pass); :mod:`agents.logic.indexed` reaches the same conclusions
faster. ``make_safe_move`` returns the smallest safe cell in row-major order and
``make_random_move`` draws with a seeded numpy ``Generator``, so games are reproducible.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np

from mswp_gym.cells import Cell, neighbours


class Sentence:
    """A logical statement: exactly ``count`` of ``cells`` are mines.

    Args:
        cells: any iterable of ``(row, col)`` cells; stored as a set.
        count: how many of them are mines.
    """

    def __init__(self, cells: Iterable[Cell], count: int) -> None:
        self.cells: set[Cell] = set(cells)
        self.count: int = count

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sentence):
            return NotImplemented
        return self.cells == other.cells and self.count == other.count

    # Sentences are mutable, so (as in the course's code) they are not hashable.
    __hash__ = None  # type: ignore[assignment]  # mutable: unhashable, as in CS50

    def __str__(self) -> str:
        return f"{self.cells} = {self.count}"

    def __repr__(self) -> str:
        return f"Sentence({sorted(self.cells)!r}, {self.count})"

    def known_mines(self) -> set[Cell]:
        """The cells this sentence alone proves to be mines (all of them when count == len)."""
        if self.cells and len(self.cells) == self.count:
            return set(self.cells)
        return set()

    def known_safes(self) -> set[Cell]:
        """The cells this sentence alone proves safe (all of them when count == 0)."""
        if self.count == 0:
            return set(self.cells)
        return set()

    def mark_mine(self, cell: Cell) -> None:
        """Record that ``cell`` is a mine: drop it and decrement the count (no-op if absent)."""
        if cell in self.cells:
            self.cells.remove(cell)
            self.count -= 1

    def mark_safe(self, cell: Cell) -> None:
        """Record that ``cell`` is safe: drop it, count unchanged (no-op if absent)."""
        if cell in self.cells:
            self.cells.remove(cell)


def check_clue(cell: Cell, count: int, height: int, width: int) -> None:
    """Raise ValueError unless ``cell`` is on the ``height x width`` board and ``count`` in 0..8."""
    if not (0 <= cell[0] < height and 0 <= cell[1] < width):
        raise ValueError(f"cell {cell!r} is off the {height}x{width} board")
    if not 0 <= count <= 8:
        raise ValueError(f"count must be in 0..8, got {count!r} for cell {cell!r}")


def undetermined_neighbours(
    cell: Cell, count: int, height: int, width: int, mines: set[Cell], safes: set[Cell]
) -> tuple[set[Cell], int]:
    """``cell``'s neighbours not known to be mines or safe, and ``count`` less its known mines."""
    around = list(neighbours(cell, height, width))
    undetermined = {n for n in around if n not in mines and n not in safes}
    return undetermined, count - sum(n in mines for n in around)


class MoveChoices:
    """The board, the known cells and the two move choices of the CS50 API, shared by the plain
    and the indexed engines (which differ only in how they keep and use knowledge)."""

    height: int
    width: int
    safes: set[Cell]
    mines: set[Cell]
    moves_made: set[Cell]
    rng: np.random.Generator

    def __init__(
        self, height: int = 8, width: int = 8, rng: np.random.Generator | int | None = None
    ) -> None:
        for name, value in (("height", height), ("width", width)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        self.height = height
        self.width = width
        self.moves_made: set[Cell] = set()
        self.mines: set[Cell] = set()
        self.safes: set[Cell] = set()
        self.rng = np.random.default_rng(rng)

    def make_safe_move(self) -> Cell | None:
        """A known-safe cell not yet played (the first in row-major order), else None.

        Changes nothing.
        """
        candidates = self.safes - self.moves_made
        return min(candidates) if candidates else None

    def make_random_move(self) -> Cell | None:
        """A random cell neither played nor known to be a mine, else None."""
        candidates = [
            cell
            for cell in itertools.product(range(self.height), range(self.width))
            if cell not in self.moves_made and cell not in self.mines
        ]
        if not candidates:
            return None
        return candidates[int(self.rng.integers(len(candidates)))]


class MinesweeperAI(MoveChoices):
    """The CS50 Minesweeper player (plain reference algorithm).

    Attributes:
        height, width: board size.
        moves_made: cells already played (clicked or revealed).
        mines: cells known to be mines.
        safes: cells known to be safe.
        knowledge: the list of :class:`Sentence` known true.
        rng: the numpy Generator behind ``make_random_move``.

    Args:
        rng: a seed or ``numpy.random.Generator`` for random moves (fresh entropy if None).
    """

    def __init__(
        self, height: int = 8, width: int = 8, rng: np.random.Generator | int | None = None
    ) -> None:
        super().__init__(height, width, rng)
        self.knowledge: list[Sentence] = []

    def mark_mine(self, cell: Cell) -> None:
        """Record ``cell`` as a mine in ``self.mines`` and in every sentence."""
        self.mines.add(cell)
        for sentence in self.knowledge:
            sentence.mark_mine(cell)

    def mark_safe(self, cell: Cell) -> None:
        """Record ``cell`` as safe in ``self.safes`` and in every sentence."""
        self.safes.add(cell)
        for sentence in self.knowledge:
            sentence.mark_safe(cell)

    def add_knowledge(self, cell: Cell, count: int) -> None:
        """Learn that the safe ``cell`` was played and shows ``count`` neighbouring mines.

        Records the move, marks the cell safe, adds a sentence over its neighbours whose state
        is not yet known (``self.mines`` and ``self.safes`` are read as they are now), then
        draws every conclusion the knowledge base allows (see :meth:`infer`).

        Raises:
            ValueError: ``cell`` is off the board or ``count`` is not in ``0..8``.
        """
        check_clue(cell, count, self.height, self.width)
        self.moves_made.add(cell)
        self.mark_safe(cell)
        undetermined, count = undetermined_neighbours(
            cell, count, self.height, self.width, self.mines, self.safes
        )
        self.knowledge.append(Sentence(undetermined, count))
        self.infer()

    def infer(self) -> None:
        """Mark every cell a sentence proves and add every subset-rule sentence, to a fixpoint.

        Each pass first applies ``self.mines`` / ``self.safes`` to every sentence (so cells a
        caller put there directly count too) and drops empty sentences; then marks the cells
        each sentence proves; then, for every pair with ``A.cells < B.cells``, adds
        ``Sentence(B.cells - A.cells, B.count - A.count)`` unless already known.
        """
        changed = True
        while changed:
            self._apply_known_cells()
            marked = self._mark_proven_cells()
            derived = self._add_subset_sentences()
            changed = marked or derived

    def _apply_known_cells(self) -> None:
        """Take ``self.mines`` and ``self.safes`` out of every sentence; drop the empty ones."""
        for sentence in self.knowledge:
            for mine in sentence.cells & self.mines:
                sentence.mark_mine(mine)
            for safe in sentence.cells & self.safes:
                sentence.mark_safe(safe)
        self.knowledge = [s for s in self.knowledge if s.cells]

    def _mark_proven_cells(self) -> bool:
        """Mark the cells each sentence proves; True if any was new."""
        changed = False
        for sentence in list(self.knowledge):
            for mine in sentence.known_mines():
                if mine not in self.mines:
                    self.mark_mine(mine)
                    changed = True
            for safe in sentence.known_safes():
                if safe not in self.safes:
                    self.mark_safe(safe)
                    changed = True
        return changed

    def _add_subset_sentences(self) -> bool:
        """Add ``B.cells - A.cells = B.count - A.count`` for every ``A.cells < B.cells``; True if
        any sentence was new."""
        changed = False
        for smaller in list(self.knowledge):
            for larger in list(self.knowledge):
                if smaller.cells and smaller.cells < larger.cells:
                    derived = Sentence(larger.cells - smaller.cells, larger.count - smaller.count)
                    if derived not in self.knowledge:
                        self.knowledge.append(derived)
                        changed = True
        return changed

    def sentence_items(self) -> list[tuple[set[Cell], int]]:
        """``(cells, count)`` of every non-empty sentence (for the guess policies)."""
        return [(s.cells, s.count) for s in self.knowledge if s.cells]

    def sentence_count(self) -> int:
        """How many non-empty sentences the knowledge holds."""
        return sum(1 for s in self.knowledge if s.cells)
