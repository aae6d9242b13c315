"""Many Minesweeper boards of one size stepped together: plain NumPy, no Gymnasium.

:class:`BatchBoards` is the batched counterpart of :class:`mswp_gym.board.Board`: the same rules
(reveal, flood fill, flags, win/loss, score mode) applied to ``k`` boards per call with whole-batch
array operations, never a Python loop over boards. Boards are flat: cell ``row*cols + col``.
Who places the mines is the caller's business (:mod:`mswp_gym.batch_place`); this module only
takes finished layouts.
"""

from __future__ import annotations

import numpy as np

from mswp_gym.batch_flood import MAX_BITS_COLS, flood_bits, flood_dense, pack_rows
from mswp_gym.batch_place import batch_neighbour_counts, block_table
from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, Outcome

FLOOD_METHODS: tuple[str, ...] = ("bits", "dense")


class BatchBoards:
    """The state of ``num_boards`` games on ``rows x cols`` boards.

    Attributes (all read-only by contract outside this class):
        mines: ``(B, rows*cols)`` bool, the truth (all False until a board is placed).
        counts: ``(B, rows*cols)`` int8 clues.
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

        Args:
            num_boards: B, at least 1.
            rows: board rows, at least 1.
            cols: board columns, at least 1.
            score_mode: a revealed mine shows ``EXPLODED`` and the game goes on.
            flood: ``"bits"`` (boards up to 64 columns) or ``"dense"``; None picks ``bits``
                when it fits.

        Raises:
            ValueError: for a bad size or flood method.
        """
        for name, value in (("num_boards", num_boards), ("rows", rows), ("cols", cols)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        if flood is None:
            flood = "bits" if cols <= MAX_BITS_COLS else "dense"
        if flood not in FLOOD_METHODS:
            raise ValueError(
                f"unknown flood method {flood!r}; choose one of {', '.join(FLOOD_METHODS)}"
            )
        if flood == "bits" and cols > MAX_BITS_COLS:
            raise ValueError(
                f"flood='bits' handles at most {MAX_BITS_COLS} columns, got cols={cols}"
            )
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
        # Safe zero cells, kept per board in the flood fill's own format.
        if flood == "bits":
            self._zeros = np.zeros((self.num_boards, self.rows + 2), dtype=np.uint64)
        else:
            self._zeros = np.zeros(shape, dtype=bool)
        # Neighbours of each cell (the cell itself where off the board): column 0 is the cell.
        self._around = block_table(self.rows, self.cols)[:, 1:]

    # ------------------------------------------------------------ lifecycle
    def clear(self, boards: np.ndarray) -> None:
        """Start new, unplaced games on ``boards`` (index array or (B,) bool mask)."""
        self.mines[boards] = False
        self.counts[boards] = 0
        self.revealed[boards] = False
        self.flagged[boards] = False
        self.visible[boards] = HIDDEN
        self.outcome[boards] = Outcome.PLAYING
        self.placed[boards] = False
        self.safe_total[boards] = 0
        self.safe_revealed[boards] = 0
        self.exploded[boards] = 0
        self._zeros[boards] = 0

    def lay(self, boards: np.ndarray, layouts: np.ndarray) -> None:
        """Put the mines of ``boards`` (index array) down; flags already placed stay.

        Args:
            boards: ``(k,)`` board indices, unplaced and with nothing revealed.
            layouts: ``(k, rows*cols)`` bool, each with at least one safe cell.
        """
        counts = batch_neighbour_counts(layouts, self.rows, self.cols)
        self.mines[boards] = layouts
        self.counts[boards] = counts
        self.placed[boards] = True
        self.safe_total[boards] = self.cells - layouts.sum(axis=1, dtype=np.int32)
        zero = (counts == 0) & ~layouts
        self._zeros[boards] = (
            pack_rows(zero, self.rows, self.cols) if self.flood == "bits" else zero
        )

    # ---------------------------------------------------------------- moves
    def has_revealed_neighbour(self, boards: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """``(k,)`` bool: whether each hidden ``cells[j]`` of ``boards[j]`` touches a revealed cell."""
        return self.revealed[boards[:, None], self._around[cells]].any(axis=1)

    def reveal(self, boards: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Open one hidden, placed cell on each of ``boards`` (one click per board).

        A mine ends the game (``LOST``) or, in score mode, shows ``EXPLODED``; a safe zero opens
        its region (flags inside it are removed); revealing the last safe cell makes the game
        ``WON`` (``CLEARED`` in score mode after an explosion).

        Args:
            boards: ``(k,)`` distinct board indices of live, placed games.
            cells: ``(k,)`` flat cells, each hidden on its board.

        Returns:
            ``(opened, hit_mine)``: ``(k,)`` int32 cells newly revealed (a mine counts as one) and
            ``(k,)`` bool whether the click was a mine.
        """
        hit_mine = self.mines[boards, cells]
        opened = np.ones(boards.size, dtype=np.int32)
        if hit_mine.any():
            mine_boards, mine_cells = boards[hit_mine], cells[hit_mine]
            self.revealed[mine_boards, mine_cells] = True
            if self.score_mode:
                self.visible[mine_boards, mine_cells] = EXPLODED
                self.exploded[mine_boards] += 1
            else:
                self.outcome[mine_boards] = Outcome.LOST
        safe = ~hit_mine
        safe_boards, safe_cells = boards[safe], cells[safe]
        clues = self.counts[safe_boards, safe_cells]
        single = clues > 0
        one_boards, one_cells = safe_boards[single], safe_cells[single]
        self.revealed[one_boards, one_cells] = True
        self.visible[one_boards, one_cells] = clues[single]
        self.flagged[one_boards, one_cells] = False
        gained = np.ones(safe_boards.size, dtype=np.int32)
        if not single.all():
            zero = ~single
            gained[zero] = self._open_regions(safe_boards[zero], safe_cells[zero])
        opened[safe] = gained
        self.safe_revealed[safe_boards] += gained
        cleared = safe_boards[self.safe_revealed[safe_boards] == self.safe_total[safe_boards]]
        if cleared.size:
            self.outcome[cleared] = np.where(
                self.exploded[cleared] == 0, Outcome.WON, Outcome.CLEARED
            )
        return opened, hit_mine

    def toggle_flags(self, boards: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Flag or unflag one hidden cell per board (callers skip revealed cells).

        Returns:
            ``(k,)`` bool: whether each cell is flagged afterwards.
        """
        now = ~self.flagged[boards, cells]
        self.flagged[boards, cells] = now
        self.visible[boards, cells] = np.where(now, FLAGGED, HIDDEN)
        return now

    def _open_regions(self, boards: np.ndarray, starts: np.ndarray) -> np.ndarray:
        if self.flood == "bits":
            region = flood_bits(self._zeros[boards], starts, self.rows, self.cols)
        else:
            region = flood_dense(self._zeros[boards], starts, self.rows, self.cols)
        new = region & ~self.revealed[boards]
        self.revealed[boards] |= region
        self.visible[boards] = np.where(new, self.counts[boards], self.visible[boards])
        self.flagged[boards] &= ~region
        return new.sum(axis=1, dtype=np.int32)
