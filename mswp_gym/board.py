"""The Minesweeper board, plain NumPy: the truth and the player's view, no rewards or spaces."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mswp_gym.cells import SMALL_BOARD_CELLS, neighbour_counts, neighbour_counts_of
from mswp_gym.clues import EXACT, ClueModel
from mswp_gym.constants import CLEARED, EXPLODED, FLAGGED, HIDDEN, LOST, PLAYING, WON, Outcome
from mswp_gym.floodfill import flood_region
from mswp_gym.pictures import parse_picture, render_picture

_NO_CELLS = np.zeros(0, dtype=np.intp)
_NO_CELLS.flags.writeable = False


@lru_cache(maxsize=16)
def _hidden_template(rows: int, cols: int) -> np.ndarray:
    template = np.full((rows, cols), HIDDEN, dtype=np.int8)
    template.flags.writeable = False
    return template


def hidden_view(rows: int, cols: int) -> np.ndarray:
    """A fresh ``(rows, cols)`` int8 visible board with every cell ``HIDDEN`` (a writable copy)."""
    return _hidden_template(rows, cols).copy()


class Board:
    """One game's state.

    Attributes:
        mines: ``(rows, cols)`` bool, the truth. Read-only by contract.
        counts: ``(rows, cols)`` int8, each cell's number of neighbouring mines (``0..8``).
        count_bytes: ``counts`` as bytes in flat order (fast element reads for cell-by-cell walks).
        revealed: ``(rows, cols)`` bool, cells the player has opened (including exploded mines).
        flagged: ``(rows, cols)`` bool, the player's flags (notes only).
        visible: ``(rows, cols)`` int8, the player's view in the codes of
            :mod:`mswp_gym.constants`. Kept up to date by every move; treat as read-only.
        outcome: where the game stands.
        score_mode: if True, a revealed mine shows as ``EXPLODED`` and the game goes on until every
            safe cell is revealed (the CS520 report's scoring).
        last_opened: ``(n,)`` intp flat cells opened by the last flood fill (empty before one).
    """

    def __init__(
        self,
        mines: np.ndarray,
        *,
        score_mode: bool = False,
        clues: ClueModel = EXACT,
        rng: np.random.Generator | None = None,
    ) -> None:
        """Start a game on the given layout with nothing revealed.

        Any non-zero entry of ``mines`` is a mine; ``rng`` draws the clues unless ``clues``
        (:mod:`mswp_gym.clues`) is exact.

        Raises:
            ValueError: if ``mines`` is not two-dimensional, is empty, or has no safe cell.
        """
        layout = np.asarray(mines)
        if layout.ndim != 2 or layout.shape[0] < 1 or layout.shape[1] < 1:
            raise ValueError(f"a layout must be a non-empty 2-D array, got shape {layout.shape}")
        self.mines: np.ndarray = layout.astype(bool)  # (rows, cols) bool
        rows, cols = self.mines.shape
        self.rows: int = rows
        self.cols: int = cols
        cells = rows * cols
        self.counts: np.ndarray  # (rows, cols) int8
        if cells <= SMALL_BOARD_CELLS:
            mine_cells = self.mines.ravel().nonzero()[0]
            self.mine_count = len(mine_cells)
            self.counts = neighbour_counts_of(mine_cells, rows, cols)
        else:
            self.mine_count = int(np.count_nonzero(self.mines))
            self.counts = neighbour_counts(self.mines)
        if self.mine_count >= cells:
            raise ValueError(
                f"a layout needs at least one safe cell: {self.mine_count} mines on {rows}x{cols}"
            )
        exact = clues.exact
        if not exact and rng is None:
            raise ValueError("uncertain clues need an rng to draw them from")
        self.revealed: np.ndarray = np.zeros((rows, cols), dtype=bool)  # (rows, cols) bool
        self.flagged: np.ndarray = np.zeros((rows, cols), dtype=bool)  # (rows, cols) bool
        self.visible: np.ndarray = hidden_view(rows, cols)  # (rows, cols) int8
        self.score_mode = score_mode
        self.outcome: Outcome = PLAYING
        self.safe_total = cells - self.mine_count
        self.safe_revealed = 0
        self.exploded = 0
        # The truth never changes: bytes copies give fast element reads on the hot path.
        self._mine_bytes = self.mines.tobytes()
        self.count_bytes: bytes = self.counts.tobytes()  # (rows * cols,) the clues, one byte each
        self.last_opened: np.ndarray = _NO_CELLS  # (n,) intp
        self.clues = clues
        self._exact = exact
        self.rng = rng

    # ------------------------------------------------------------------ moves
    def reveal(self, row: int, col: int) -> int:
        """Open ``(row, col)``; a zero opens its whole zero region and that region's border.

        A flagged cell is unflagged first (the click is taken as deliberate). Revealing an already
        revealed cell, or any move after the game ended, changes nothing.

        Returns:
            The number of cells newly revealed (a mine counts as one).

        Raises:
            IndexError: if the cell is off the board.
        """
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            self._check_cell(row, col)
        if self.outcome != PLAYING or self.revealed[row, col]:
            return 0
        index = row * self.cols + col
        if self._mine_bytes[index]:
            self.flagged[row, col] = False
            self.revealed[row, col] = True
            if self.score_mode:
                self.visible[row, col] = EXPLODED
                self.exploded += 1
            else:
                self.outcome = LOST
            return 1
        if self._exact:
            opened = self._open_safe(row, col, index)
        else:
            opened = self._reveal_one_uncertain(row, col)
        self.safe_revealed += opened
        if self.safe_revealed == self.safe_total:
            self.outcome = WON if self.exploded == 0 else CLEARED
        return opened

    def _open_safe(self, row: int, col: int, index: int) -> int:
        """Open the hidden safe cell ``(row, col)`` (flat ``index``) under exact clues.

        A zero opens what :func:`~mswp_gym.floodfill.flood_region` finds, flags included.
        """
        count = self.count_bytes[index]
        if count:  # a clue opens only itself: the common move, without flood_region's arrays
            self.revealed[row, col] = True
            self.visible[row, col] = count
            self.flagged[row, col] = False
            return 1
        opened = flood_region(self.counts, self.revealed, row, col, count_bytes=self.count_bytes)
        self.revealed.ravel()[opened] = True
        self.visible.ravel()[opened] = self.counts.ravel()[opened]
        self.flagged.ravel()[opened] = False
        self.last_opened = opened
        return len(opened)

    def _reveal_one_uncertain(self, row: int, col: int) -> int:
        assert self.rng is not None
        around = (min(row + 2, self.rows) - max(row - 1, 0)) * (
            min(col + 2, self.cols) - max(col - 1, 0)
        ) - 1
        self.revealed[row, col] = True
        self.flagged[row, col] = False
        self.visible[row, col] = self.clues.shown(int(self.counts[row, col]), around, self.rng)
        return 1

    def toggle_flag(self, row: int, col: int) -> bool:
        """Flag or unflag a hidden cell. Returns whether the cell is flagged afterwards.

        Revealed cells cannot be flagged; toggling one (or any cell after the end) changes nothing.

        Raises:
            IndexError: if the cell is off the board.
        """
        self._check_cell(row, col)
        if self.outcome != PLAYING or self.revealed[row, col]:
            return bool(self.flagged[row, col])
        now = not self.flagged[row, col]
        self.flagged[row, col] = now
        self.visible[row, col] = FLAGGED if now else HIDDEN
        return now

    # ---------------------------------------------------------------- queries
    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    @property
    def done(self) -> bool:
        """Whether the game has ended."""
        return self.outcome != PLAYING

    @property
    def flags(self) -> int:
        """How many flags are placed."""
        return int(self.flagged.sum())

    def _check_cell(self, row: int, col: int) -> None:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"cell ({row}, {col}) is off the {self.rows}x{self.cols} board")

    # --------------------------------------------------------------- pictures
    @classmethod
    def from_text(cls, picture: str, *, score_mode: bool = False) -> Board:
        """Build a board from a text picture (see :mod:`mswp_gym.pictures` for the symbols).

        Revealed cells in the picture are revealed on the board; their digits must match the
        layout, so a picture cannot lie about the truth.

        Raises:
            ValueError: on an unknown symbol, ragged rows, or a digit that disagrees with the mines.
        """
        state = parse_picture(picture)
        board = cls(state.mines, score_mode=score_mode)
        safe_cells = state.revealed & ~state.mines
        for row, col in zip(*np.nonzero(safe_cells), strict=True):
            expected = state.digits[row, col]
            actual = board.counts[row, col]
            if expected >= 0 and expected != actual:
                raise ValueError(
                    f"picture shows {expected} at ({row}, {col}) "
                    f"but the mines around it make {actual}"
                )
        board.revealed |= safe_cells
        board.visible[safe_cells] = board.counts[safe_cells]
        board.safe_revealed = int(safe_cells.sum())
        exploded = state.revealed & state.mines
        if exploded.any():
            board.score_mode = True
            board.revealed |= exploded
            board.visible[exploded] = EXPLODED
            board.exploded = int(exploded.sum())
        board.flagged = state.flagged & ~board.revealed
        board.visible[board.flagged] = FLAGGED
        if board.safe_revealed == board.safe_total:
            board.outcome = WON if board.exploded == 0 else CLEARED
        return board

    def to_text(self, *, show_mines: bool = True) -> str:
        """A text picture of the board; ``Board.from_text`` of it gives back an equal board.

        ``show_mines`` False draws only what the player sees.
        """
        return render_picture(self.mines, self.revealed, self.flagged, self.counts, show_mines)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            np.array_equal(self.mines, other.mines)
            and np.array_equal(self.revealed, other.revealed)
            and np.array_equal(self.flagged, other.flagged)
            and self.outcome == other.outcome
        )

    def __repr__(self) -> str:
        return f"Board({self.rows}x{self.cols}, {self.mine_count} mines, {self.outcome.name})"
