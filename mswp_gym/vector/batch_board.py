"""Many Minesweeper boards of one size stepped together: plain NumPy, no Gymnasium.

:class:`BatchBoards` applies the rules of :class:`mswp_gym.board.Board` to ``k`` boards per call
with whole-batch array operations. Boards are flat (cell ``row*cols + col``); the caller places
the mines (:mod:`mswp_gym.vector.batch_place`).
"""

from __future__ import annotations

import numpy as np

from mswp_gym.choices import BatchFlood, parse_choice
from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, Outcome
from mswp_gym.vector.batch_flood import flood_bigint, flood_dense
from mswp_gym.vector.batch_place import batch_neighbour_counts, block_table

MINE_COUNT = 9
"""``counts`` entry of a mine cell: above every clue (0..8)."""


class BatchBoards:
    """The state of ``num_boards`` games on ``rows x cols`` boards.

    Attributes (all read-only by contract outside this class):
        mines: ``(B, rows*cols)`` bool, the truth (meaningful only where ``placed``).
        counts: ``(B, rows*cols)`` int8 clues of safe cells (meaningful only where ``placed``);
            a mine's entry is :data:`MINE_COUNT`, which no clue can be, so ``counts == 0`` alone
            finds the safe zeros.
        revealed: ``(B, rows*cols)`` bool, opened cells (exploded mines included).
        flagged: ``(B, rows*cols)`` bool, the player's flags.
        visible: ``(B, rows*cols)`` int8, the player's view in :mod:`mswp_gym.constants` codes.
        outcome: ``(B,)`` int8 :class:`~mswp_gym.constants.Outcome` values.
        placed: ``(B,)`` bool, whether the board's mines are laid.
        safe_total: ``(B,)`` int32 safe cells of each placed board.
        safe_revealed: ``(B,)`` int32 safe cells revealed so far.
        exploded: ``(B,)`` int32 mines stepped on (score mode).
    """

    def __init__(
        self,
        num_boards: int,
        rows: int,
        cols: int,
        *,
        score_mode: bool = False,
        flood: str | None = None,
    ) -> None:
        """Make ``num_boards`` empty, unplaced boards.

        ``flood``: ``"bigint"`` (default) or ``"dense"`` (:mod:`mswp_gym.vector.batch_flood`).

        Raises:
            ValueError: for a bad size or flood method.
        """
        for name, value in (("num_boards", num_boards), ("rows", rows), ("cols", cols)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        flood = parse_choice(BatchFlood, "bigint" if flood is None else flood, "flood method")
        self.num_boards, self.rows, self.cols = int(num_boards), int(rows), int(cols)
        self.cells = self.rows * self.cols
        self.score_mode = bool(score_mode)
        self.flood = flood
        shape = (self.num_boards, self.cells)
        self.mines = np.zeros(shape, dtype=bool)
        self.counts = np.zeros(shape, dtype=np.int8)
        self.revealed = np.zeros(shape, dtype=bool)
        self.flagged = np.zeros(shape, dtype=bool)
        self.visible = np.full(shape, HIDDEN, dtype=np.int8)
        self.outcome = np.zeros(self.num_boards, dtype=np.int8)
        self.placed = np.zeros(self.num_boards, dtype=bool)
        self.safe_total = np.zeros(self.num_boards, dtype=np.int32)
        self.safe_revealed = np.zeros(self.num_boards, dtype=np.int32)
        self.exploded = np.zeros(self.num_boards, dtype=np.int32)
        # Neighbours of each cell (the cell itself where off the board): column 0 is the cell.
        self._around = block_table(self.rows, self.cols)[:, 1:]
        self._make_flat_views()

    def _make_flat_views(self) -> None:
        # Flat views: one index ``board * cells + cell`` is much cheaper than a pair of arrays.
        self._flat_mines = self.mines.reshape(-1)
        self._flat_counts = self.counts.reshape(-1)
        self._flat_revealed = self.revealed.reshape(-1)
        self._flat_flagged = self.flagged.reshape(-1)
        self._flat_visible = self.visible.reshape(-1)

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_flat_")}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._make_flat_views()

    # ------------------------------------------------------------ lifecycle
    def clear(self, boards: np.ndarray) -> None:
        """Start new, unplaced games on ``boards`` (index array or (B,) bool mask).

        ``mines``, ``counts`` and ``safe_total`` keep stale values until :meth:`lay`.
        """
        self.revealed[boards] = False
        self.flagged[boards] = False
        self.visible[boards] = HIDDEN
        self.outcome[boards] = Outcome.PLAYING.value
        self.placed[boards] = False
        self.safe_revealed[boards] = 0
        self.exploded[boards] = 0

    def lay(self, boards: np.ndarray, layouts: np.ndarray) -> None:
        """Put the mines of ``boards`` (index array) down; flags already placed stay.

        ``boards`` are unplaced with nothing revealed; each layout has a safe cell."""
        counts = batch_neighbour_counts(layouts, self.rows, self.cols)
        np.putmask(counts, layouts, MINE_COUNT)
        self.mines[boards] = layouts
        self.counts[boards] = counts
        self.placed[boards] = True
        self.safe_total[boards] = self.cells - layouts.sum(axis=1, dtype=np.int32)

    # ---------------------------------------------------------------- moves
    def has_revealed_neighbour(self, boards: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """``(k,)`` bool: whether hidden ``cells[j]`` of ``boards[j]`` touches a revealed cell."""
        flat = (boards * self.cells)[:, None] + self._around[cells]
        touches: np.ndarray = self._flat_revealed[flat].any(axis=1)
        return touches

    def reveal(
        self, boards: np.ndarray, cells: np.ndarray, shown: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Open one hidden, placed cell on each of ``boards`` (one click per board).

        A mine ends the game (``LOST``) or, in score mode, shows ``EXPLODED``; a safe zero opens
        its region (flags inside it are removed); revealing the last safe cell makes the game
        ``WON`` (``CLEARED`` in score mode after an explosion).

        ``boards`` are distinct live, placed boards, ``cells`` hidden on them; ``shown``: the
        codes the safe cells show under uncertain clues (then nothing floods), None: exact.

        Returns:
            ``(opened, hit_mine)``: ``(k,)`` int32 cells newly revealed (a mine counts as one) and
            ``(k,)`` bool whether the click was a mine.
        """
        flat = boards * self.cells + cells
        hit_mine = self._flat_mines[flat]
        opened = np.ones(boards.size, dtype=np.int32)
        if hit_mine.any():
            mine_boards, mine_flat = boards[hit_mine], flat[hit_mine]
            self._flat_revealed[mine_flat] = True
            if self.score_mode:
                self._flat_visible[mine_flat] = EXPLODED
                self.exploded[mine_boards] += 1
            else:
                self.outcome[mine_boards] = Outcome.LOST.value
            safe = ~hit_mine
            safe_boards, safe_cells, safe_flat = boards[safe], cells[safe], flat[safe]
        else:
            safe = None
            safe_boards, safe_cells, safe_flat = boards, cells, flat
        if shown is not None:
            clues = shown if safe is None else shown[safe]
            single = np.ones(safe_flat.size, dtype=bool)
        else:
            clues = self._flat_counts[safe_flat]
            single = clues > 0
        one_flat = safe_flat[single]
        self._flat_revealed[one_flat] = True
        self._flat_visible[one_flat] = clues[single]
        self._flat_flagged[one_flat] = False
        gained = np.ones(safe_boards.size, dtype=np.int32)
        if not single.all():
            zero = ~single
            gained[zero] = self._open_regions(safe_boards[zero], safe_cells[zero])
        if safe is None:
            opened = gained
        else:
            opened[safe] = gained
        self.safe_revealed[safe_boards] += gained
        cleared = safe_boards[self.safe_revealed[safe_boards] == self.safe_total[safe_boards]]
        if cleared.size:
            self.outcome[cleared] = np.where(
                self.exploded[cleared] == 0, Outcome.WON.value, Outcome.CLEARED.value
            )
        return opened, hit_mine

    def toggle_flags(self, boards: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Flag or unflag one hidden cell per board (callers skip revealed cells).

        Returns:
            ``(k,)`` bool: whether each cell is flagged afterwards.
        """
        flat = boards * self.cells + cells
        now: np.ndarray = ~self._flat_flagged[flat]
        self._flat_flagged[flat] = now
        self._flat_visible[flat] = np.where(now, FLAGGED, HIDDEN)
        return now

    def _open_regions(self, boards: np.ndarray, starts: np.ndarray) -> np.ndarray:
        counts = self.counts[boards]
        zero = counts == 0
        if self.flood == "bigint":
            region = flood_bigint(zero, starts, self.rows, self.cols)
        else:
            region = flood_dense(zero, starts, self.rows, self.cols)
        region &= ~self.revealed[boards]
        opened = np.flatnonzero(region)
        which = opened // self.cells
        flat = opened + (boards[which] - which) * self.cells
        self._flat_revealed[flat] = True
        self._flat_visible[flat] = counts.reshape(-1)[opened]
        self._flat_flagged[flat] = False
        opened_per_board: np.ndarray = region.sum(axis=1, dtype=np.int32)
        return opened_per_board
