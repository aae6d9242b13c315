"""Small-area deferral (agents.solver.space): which candidate guesses lie in a large area."""

from __future__ import annotations

import numpy as np
import pytest

from agents.solver.probability import analyse
from agents.solver.space import SMALL_AREA, in_large_areas
from mswp_gym.cells import neighbour_counts
from mswp_gym.constants import HIDDEN, MINE


def position(mines: list[tuple[int, int]], shown: str) -> tuple[np.ndarray, int]:
    """A board of ``shown`` (rows of ``#`` hidden, ``.`` revealed, ``M`` a mine shown) over a layout
    with ``mines``; every revealed cell shows its true number."""
    rows = shown.split()
    layout = np.zeros((len(rows), len(rows[0])), dtype=bool)
    for r, c in mines:
        layout[r, c] = True
    counts = neighbour_counts(layout)
    board = np.full(layout.shape, HIDDEN, dtype=np.int8)
    for r, line in enumerate(rows):
        for c, mark in enumerate(line):
            if mark == ".":
                assert not layout[r, c], f"revealed cell {(r, c)} holds a mine"
                board[r, c] = counts[r, c]
            elif mark == "M":
                assert layout[r, c], f"shown mine {(r, c)} holds no mine"
                board[r, c] = MINE
    return board, len(mines)


def hidden_cells(board: np.ndarray) -> list[int]:
    return np.flatnonzero(board.ravel() == HIDDEN).tolist()


# A 2x2 pocket walled off from the large area by two revealed rows and columns.
POCKET = """
##..####
##..####
....####
....####
########
########
"""
POCKET_CELLS = [0, 1, 8, 9]


def test_in_large_areas__a_walled_pocket_is_small_and_the_rest_large() -> None:
    board, total = position([(0, 0), (4, 0), (5, 7), (0, 7)], POCKET)
    analysis = analyse(board, total)
    cells = hidden_cells(board)
    large = in_large_areas(analysis, board, cells)
    assert large == [c for c in cells if c not in POCKET_CELLS]
    # the pocket's four cells reach the threshold when it is four
    assert in_large_areas(analysis, board, cells, threshold=4) == cells
    assert SMALL_AREA == 8


def test_in_large_areas__keeps_the_order_it_is_given() -> None:
    board, total = position([(0, 0), (4, 0), (5, 7), (0, 7)], POCKET)
    analysis = analyse(board, total)
    cells = hidden_cells(board)[::-1]
    assert in_large_areas(analysis, board, cells) == [c for c in cells if c not in POCKET_CELLS]


# The same pocket behind one revealed column and row: the area grows across a revealed number.
THIN = """
##.#####
##.#####
...#####
########
########
########
"""


def test_in_large_areas__grows_across_one_revealed_cell() -> None:
    board, total = position([(0, 0), (4, 0), (5, 7), (0, 7)], THIN)
    analysis = analyse(board, total)
    assert in_large_areas(analysis, board, [0]) == [0]


# A wall of shown mines does not let the area through, where a revealed number would.
MINE_WALL = """
##M#####
##M#####
MMM#####
########
########
########
"""


@pytest.mark.parametrize("wall_of", ["mines shown", "mines proven"])
def test_in_large_areas__a_certain_mine_is_a_wall(wall_of: str) -> None:
    wall = [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]
    board, total = position([(0, 0), *wall, (5, 7)], MINE_WALL)
    if wall_of == "mines proven":
        # the wall hidden again, but every layout of the board with this count puts a mine there:
        # all mines are in the pocket's corner and the wall (the rest shows as zeros)
        rest = [(r, c) for r in range(6) for c in range(8) if r > 2 or c > 2]
        board, total = position([(0, 0), *wall], _shown(rest, wall))
    analysis = analyse(board, total)
    assert in_large_areas(analysis, board, [0, 1, 8]) == []


def _shown(revealed: list[tuple[int, int]], hidden: list[tuple[int, int]]) -> str:
    """A picture for :func:`position`: ``revealed`` as ``.``, all else ``#``."""
    grid = [["#"] * 8 for _ in range(6)]
    for r, c in revealed:
        grid[r][c] = "."
    for r, c in hidden:
        grid[r][c] = "#"
    return "\n".join("".join(line) for line in grid)


def test_in_large_areas__nothing_large_returns_empty_so_callers_keep_all() -> None:
    board, total = position([(0, 0)], "##.\n##.\n...")
    analysis = analyse(board, total)
    assert in_large_areas(analysis, board, hidden_cells(board)) == []
