"""The indexed CS50 inference engine: the API and conclusions of the plain one.

Sentences are keyed by their cell set (duplicates collapse), indexed by cell, and processed from a
work queue: a sentence is compared only with those sharing a cell with it, and only when it is new
or has changed. Every pair the plain loop examines at its fixpoint is examined here too, so both
reach the same mines and safes.
"""

from __future__ import annotations

import numpy as np

from agents.logic.cs50 import MoveChoices, Sentence, check_clue, undetermined_neighbours
from agents.logic.sentence_index import CellSet, SentenceIndex
from mswp_gym.cells import Cell


class InconsistentKnowledge(ValueError):
    """The clues contradict each other (two counts for one cell set, or a count out of range)."""


class IndexedMinesweeperAI(MoveChoices):
    """The CS50 Minesweeper player with sentences indexed by cell.

    Same public API as :class:`agents.logic.cs50.MinesweeperAI` (``height``, ``width``,
    ``moves_made``, ``mines``, ``safes``, ``knowledge``, ``mark_mine``, ``mark_safe``,
    ``add_knowledge``, ``make_safe_move``, ``make_random_move``) plus ``infer`` and
    ``sentence_items``. ``knowledge`` is a fresh list of :class:`Sentence` built on each access:
    a snapshot, editing it in place changes nothing (assigning a list to it replaces the
    sentences). Cells a caller adds to ``mines`` or ``safes``
    directly are applied to the sentences on the next ``add_knowledge`` or ``infer``.

    Args:
        rng: a seed or ``numpy.random.Generator`` for random moves (fresh entropy if None).
    """

    def __init__(
        self, height: int = 8, width: int = 8, rng: np.random.Generator | int | None = None
    ) -> None:
        super().__init__(height, width, rng)
        self._index: SentenceIndex[int] = SentenceIndex()
        # Short names for the index's parts, used throughout the inference loop.
        self._sentences = self._index.values
        self._by_cell = self._index.by_cell
        self._queue = self._index.queue
        self._applied_mines: set[Cell] = set()
        self._applied_safes: set[Cell] = set()

    @property
    def knowledge(self) -> list[Sentence]:
        """A snapshot of the sentences as CS50 :class:`Sentence` objects."""
        return [Sentence(cells, count) for cells, count in self._sentences.items()]

    @knowledge.setter
    def knowledge(self, sentences: list[Sentence]) -> None:
        """Replace every sentence (``ai.knowledge = []`` empties the knowledge, as in CS50)."""
        self._index.clear()
        for sentence in sentences:
            self._add_sentence(frozenset(sentence.cells), sentence.count)

    def sentence_items(self) -> list[tuple[CellSet, int]]:
        """``(cells, count)`` of every sentence (all non-empty)."""
        return list(self._sentences.items())

    def sentence_count(self) -> int:
        """How many sentences the knowledge holds (all non-empty, no duplicates)."""
        return len(self._sentences)

    def mark_mine(self, cell: Cell) -> None:
        """Record ``cell`` as a mine and take it out of every sentence (conclusions wait for
        :meth:`infer`)."""
        self.mines.add(cell)
        if cell not in self._applied_mines:
            self._applied_mines.add(cell)
            self._remove_from_sentences(cell, 1)

    def mark_safe(self, cell: Cell) -> None:
        """Record ``cell`` as safe and take it out of every sentence (conclusions wait for
        :meth:`infer`)."""
        self.safes.add(cell)
        if cell not in self._applied_safes:
            self._applied_safes.add(cell)
            self._remove_from_sentences(cell, 0)

    def add_knowledge(self, cell: Cell, count: int) -> None:
        """Learn that the safe ``cell`` was played and shows ``count`` neighbouring mines.

        Same contract as :meth:`agents.logic.cs50.MinesweeperAI.add_knowledge`.

        Raises:
            ValueError: ``cell`` is off the board or ``count`` is not in ``0..8``.
            InconsistentKnowledge: the clue contradicts what is known.
        """
        check_clue(cell, count, self.height, self.width)
        self._apply_direct_edits()
        self.moves_made.add(cell)
        self.mark_safe(cell)
        undetermined, count = undetermined_neighbours(
            cell, count, self.height, self.width, self.mines, self.safes
        )
        self._add_sentence(frozenset(undetermined), count)
        self.infer()

    def infer(self) -> None:
        """Draw every conclusion: process queued sentences until the queue is empty.

        A queued sentence that proves its cells marks them (which re-queues the sentences
        holding them); otherwise it is compared with each sentence sharing a cell, and the
        subset rule's difference is added (and queued) when new.
        """
        self._apply_direct_edits()
        sentences = self._sentences
        by_cell = self._by_cell
        while self._queue:
            key = self._queue.popleft()
            count = sentences.get(key)
            if count is None:
                continue
            if count == 0:
                for cell in key:
                    self.mark_safe(cell)
                continue
            if count == len(key):
                for cell in key:
                    self.mark_mine(cell)
                continue
            others: set[CellSet] = set()
            for cell in key:
                others.update(by_cell[cell])
            others.discard(key)
            for other in others:
                other_count = sentences[other]
                if other < key:
                    self._add_sentence(key - other, count - other_count)
                elif key < other:
                    self._add_sentence(other - key, other_count - count)

    def _apply_direct_edits(self) -> None:
        """Apply cells that callers put into ``mines`` / ``safes`` without the mark methods."""
        if len(self.mines) != len(self._applied_mines):
            for cell in sorted(self.mines - self._applied_mines):
                self.mark_mine(cell)
        if len(self.safes) != len(self._applied_safes):
            for cell in sorted(self.safes - self._applied_safes):
                self.mark_safe(cell)

    def _add_sentence(self, cells: CellSet, count: int) -> None:
        if not cells:
            if count != 0:
                raise InconsistentKnowledge(f"an empty cell set cannot hold {count} mines")
            return
        if not 0 <= count <= len(cells):
            raise InconsistentKnowledge(f"{sorted(cells)} cannot hold {count} mines")
        known = self._sentences.get(cells)
        if known is not None:
            if known != count:
                raise InconsistentKnowledge(
                    f"{sorted(cells)} was said to hold {known} mines and now {count}"
                )
            return
        self._index.store(cells, count)

    def _remove_from_sentences(self, cell: Cell, mines_removed: int) -> None:
        for key, count in self._index.take_cell(cell):
            self._add_sentence(key - {cell}, count - mines_removed)
