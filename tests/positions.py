"""Random small Minesweeper positions from real layouts, for brute-force tests of the solver."""

from __future__ import annotations

import itertools

import numpy as np

from agents.solver.probability import Analysis, analyse
from mswp_gym.cells import neighbour_counts, neighbour_table
from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE


def random_position(
    rng: np.random.Generator,
    *,
    max_rows: int = 5,
    reveal: float = 0.55,
    shown_mines: float = 0.1,
    mine_code: int = EXPLODED,
    flags: float = 0.1,
) -> tuple[np.ndarray, int, np.ndarray]:
    """A position from a real game on a board of 2..``max_rows`` rows and 2..5 columns.

    Each safe cell is revealed with probability ``reveal`` (one in ten of those clue-less), each
    mine shown as ``mine_code`` with probability ``shown_mines``, and each hidden cell flagged with
    probability ``flags`` (flags may be wrong).

    Returns:
        ``(board, total_mines, layout)``.
    """
    rows, cols = int(rng.integers(2, max_rows + 1)), int(rng.integers(2, 6))
    cells = rows * cols
    total = int(rng.integers(1, max(2, cells // 2)))
    flat_layout = np.zeros(cells, dtype=bool)
    flat_layout[rng.choice(cells, total, replace=False)] = True
    layout = flat_layout.reshape(rows, cols)
    counts = neighbour_counts(layout)
    board = np.full((rows, cols), HIDDEN, dtype=np.int8)
    for r, c in np.argwhere(~layout):
        if rng.random() < reveal:
            board[r, c] = NO_CLUE if rng.random() < 0.1 else counts[r, c]
    for r, c in np.argwhere(layout):
        if rng.random() < shown_mines:
            board[r, c] = mine_code
    if flags > 0:
        for r, c in np.argwhere(board == HIDDEN):
            if rng.random() < flags:
                board[r, c] = FLAGGED
    return board, total, layout


def layouts(board: np.ndarray, total_mines: int) -> list[frozenset[int]]:
    """Every set of mine cells (visible ``MINE`` cells included) consistent with ``board``."""
    rows, cols = board.shape
    flat = board.ravel().tolist()
    unknown = [i for i, v in enumerate(flat) if v == HIDDEN]
    known = {i for i, v in enumerate(flat) if v == MINE}
    table = neighbour_table(rows, cols)
    clues = [(i, v) for i, v in enumerate(flat) if v >= 0]
    found = []
    for chosen in itertools.combinations(unknown, total_mines - len(known)):
        mines = set(chosen) | known
        if all(sum(n in mines for n in table[i]) == v for i, v in clues):
            found.append(frozenset(mines))
    return found


def walled_position(rng: np.random.Generator, max_rows: int = 4) -> tuple[np.ndarray, int]:
    """A small position with many mines shown as known (so that walled-in pairs and chains
    occur), no flags: ``(board, total_mines)``."""
    board, total, _ = random_position(
        rng, max_rows=max_rows, reveal=0.5, shown_mines=0.4, mine_code=MINE, flags=0.0
    )
    return board, total


def live_order(board: np.ndarray, total: int) -> tuple[list[int], Analysis]:
    """The undecided unknown cells of ``board`` (mine probability strictly between 0 and 1), in
    index order, and the analysis they come from."""
    analysis = analyse(board, total)
    order = [c for c in analysis.position.unknown if 0.0 < analysis.probability[c] < 1.0]
    return order, analysis
