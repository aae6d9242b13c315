"""Bounded sentences: sound inference when clues are lower or upper bounds (the CS520 noise models).

A sentence says ``lo <= mines(cells) <= hi``. A revealed clue ``k`` gives its undetermined
neighbours (known mines subtracted) ``k <= mines <= k`` under ``exact`` clues, ``k <= mines <=
len(cells)`` under ``optimistic`` ones, ``0 <= mines <= k`` under ``cautious`` ones; a
``NO_CLUE`` cell gives none (it is safe).

Rules, applied from a work queue to a fixed point: ``hi == 0`` makes every cell safe and ``lo ==
len(cells)`` every cell a mine; two sentences on one cell set intersect; for ``A`` a proper subset
of ``B``, ``mines(B - A)`` lies in ``[max(0, loB - hiA), min(|B - A|, hiB - loA)]`` and ``mines(A)``
in ``[max(loA, loB - |B - A|), min(hiA, hiB)]``. An empty intersection raises
:class:`~agents.logic.indexed.InconsistentKnowledge`.
"""

from __future__ import annotations

import numpy as np

from agents.logic.cs50 import check_clue, undetermined_neighbours
from agents.logic.indexed import InconsistentKnowledge
from agents.logic.sentence_index import CellSet, SentenceIndex
from mswp_gym.cells import Cell
from mswp_gym.choices import ClueNoise, parse_choice

Bounds = tuple[int, int]


def clue_bounds(noise: str, shown: int, cells: int) -> Bounds:
    """``(lo, hi)`` on the mines among ``cells`` undetermined neighbours, from a shown clue.

    ``shown`` is the clue minus the known mines around it (may be negative under optimistic).

    Raises:
        ValueError: unknown ``noise``.
    """
    if noise == "exact":
        return shown, shown
    if noise == "optimistic":
        return max(shown, 0), cells
    if noise == "cautious":
        return 0, min(shown, cells)
    raise ValueError(f"unknown clue noise {noise!r}; choose one of {', '.join(ClueNoise)}")


class BoundedKnowledge:
    """A CS50-style knowledge base whose sentences carry lower and upper mine bounds.

    Same surface as :class:`agents.logic.indexed.IndexedMinesweeperAI` where the logic agent and the
    :class:`agents.observe.ObservationFeeder` use it: ``moves_made``, ``mines``, ``safes``,
    ``add_knowledge``, ``mark_mine``, ``mark_safe``, ``infer``, ``sentence_items``,
    ``sentence_count``.

    ``rng`` is unused (the engines' constructor signature).

    Raises:
        ValueError: unknown ``noise`` or a bad board size.
    """

    def __init__(
        self,
        height: int,
        width: int,
        noise: str = "exact",
        rng: np.random.Generator | int | None = None,
    ) -> None:
        self.noise = parse_choice(ClueNoise, noise, "clue noise")
        if height < 1 or width < 1:
            raise ValueError(f"board size must be at least 1x1, got {height}x{width}")
        self.height = height
        self.width = width
        self.rng = np.random.default_rng(rng)
        self.moves_made: set[Cell] = set()
        self.mines: set[Cell] = set()
        self.safes: set[Cell] = set()
        self._index: SentenceIndex[Bounds] = SentenceIndex()
        # Short names for the index's parts, used throughout the inference loop.
        self._sentences = self._index.values
        self._by_cell = self._index.by_cell
        self._queue = self._index.queue

    # ------------------------------------------------------------------ reading
    def bounds(self) -> dict[CellSet, Bounds]:
        """A copy of every sentence: ``cells -> (lo, hi)``."""
        return dict(self._sentences)

    def sentence_items(self) -> list[tuple[CellSet, float]]:
        """``(cells, (lo + hi) / 2)`` per sentence: the guess policies' mine count (a heuristic)."""
        return [(cells, (lo + hi) / 2) for cells, (lo, hi) in self._sentences.items()]

    def sentence_count(self) -> int:
        """How many sentences are held."""
        return len(self._sentences)

    # ------------------------------------------------------------------ learning
    def mark_mine(self, cell: Cell) -> None:
        """Record ``cell`` as a mine and take it out of every sentence."""
        if cell in self.mines:
            return
        if cell in self.safes:
            raise InconsistentKnowledge(f"cell {cell} was proven safe and is now called a mine")
        self.mines.add(cell)
        self._remove(cell, 1)

    def mark_safe(self, cell: Cell) -> None:
        """Record ``cell`` as safe and take it out of every sentence."""
        if cell in self.safes:
            return
        if cell in self.mines:
            raise InconsistentKnowledge(f"cell {cell} was proven a mine and is now called safe")
        self.safes.add(cell)
        self._remove(cell, 0)

    def add_knowledge(self, cell: Cell, count: int) -> None:
        """Learn that the safe ``cell`` was played and shows ``count`` (read under the noise model).

        Raises:
            ValueError: ``cell`` off the board or ``count`` not in ``0..8``.
            InconsistentKnowledge: the clue contradicts what is known.
        """
        check_clue(cell, count, self.height, self.width)
        self.moves_made.add(cell)
        self.mark_safe(cell)
        undetermined, count = undetermined_neighbours(
            cell, count, self.height, self.width, self.mines, self.safes
        )
        if self.noise == "cautious" and count < 0:
            raise InconsistentKnowledge(f"cautious clue at {cell} is below its known mines")
        lo, hi = clue_bounds(self.noise, count, len(undetermined))
        self._add(frozenset(undetermined), lo, hi)
        self.infer()

    def infer(self) -> None:
        """Apply the rules (module docstring) until no sentence changes."""
        while self._queue:
            key = self._queue.popleft()
            found = self._sentences.get(key)
            if found is None:
                continue
            if not self._settle(key, *found):
                self._combine_with_overlapping(key)

    # ------------------------------------------------------------------ internals
    def _settle(self, key: CellSet, lo: int, hi: int) -> bool:
        """Mark every cell of ``key`` safe (``hi == 0``) or a mine (``lo == len(key)``); True if
        the sentence settled its cells."""
        if hi == 0:
            for cell in sorted(key):
                self.mark_safe(cell)
            return True
        if lo == len(key):
            for cell in sorted(key):
                self.mark_mine(cell)
            return True
        return False

    def _combine_with_overlapping(self, key: CellSet) -> None:
        """The subset rule between ``key`` and each sentence sharing a cell with it (while
        ``key`` is still a sentence)."""
        others: set[CellSet] = set()
        for cell in key:
            others.update(self._by_cell.get(cell, ()))
        others.discard(key)
        for other in others:
            if key not in self._sentences:
                break
            if other not in self._sentences:
                continue
            if other < key:
                self._subset(other, key)
            elif key < other:
                self._subset(key, other)

    def _subset(self, small: CellSet, big: CellSet) -> None:
        lo_a, hi_a = self._sentences[small]
        lo_b, hi_b = self._sentences[big]
        rest = big - small
        self._add(rest, max(0, lo_b - hi_a), min(len(rest), hi_b - lo_a))
        if small in self._sentences:
            self._add(small, max(lo_a, lo_b - len(rest)), min(hi_a, hi_b))

    def _add(self, cells: CellSet, lo: int, hi: int) -> None:
        """Add ``lo <= mines(cells) <= hi`` (intersected with what is known of the same set)."""
        lo, hi = max(lo, 0), min(hi, len(cells))
        if lo > hi:
            raise InconsistentKnowledge(f"{sorted(cells)} cannot hold between {lo} and {hi} mines")
        if not cells:
            return
        if lo == 0 and hi == len(cells):
            return  # says nothing
        known = self._sentences.get(cells)
        if known is not None:
            new_lo, new_hi = max(lo, known[0]), min(hi, known[1])
            if new_lo > new_hi:
                raise InconsistentKnowledge(
                    f"{sorted(cells)} was bounded {known} and now ({lo}, {hi})"
                )
            if (new_lo, new_hi) == known:
                return
            lo, hi = new_lo, new_hi
        self._index.store(cells, (lo, hi))

    def _remove(self, cell: Cell, mines_removed: int) -> None:
        for key, (lo, hi) in self._index.take_cell(cell):
            self._add(key - {cell}, lo - mines_removed, hi - mines_removed)
