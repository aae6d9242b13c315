"""Flood fill, counts and generators as properties against brute-force references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mswp_gym import Board
from mswp_gym.cells import neighbours, region_around
from mswp_gym.floodfill import METHODS, flood_region
from mswp_gym.generators import check_mines, make_generator, max_mines


@st.composite
def layouts(draw: st.DrawFn) -> np.ndarray:
    rows = draw(st.integers(1, 12))
    cols = draw(st.integers(1, 12))
    cells = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    layout = np.array(cells, dtype=bool).reshape(rows, cols)
    layout.flat[draw(st.integers(0, rows * cols - 1))] = False  # at least one safe cell
    return layout


def brute_counts(layout: np.ndarray) -> np.ndarray:
    rows, cols = layout.shape
    out = np.zeros(layout.shape, dtype=int)
    for r in range(rows):
        for c in range(cols):
            out[r, c] = sum(layout[n] for n in neighbours((r, c), rows, cols))
    return out


def brute_reveal(layout: np.ndarray, start: tuple[int, int]) -> set[tuple[int, int]]:
    """Reference: repeat 'open every neighbour of an open zero' until nothing changes."""
    counts = brute_counts(layout)
    rows, cols = layout.shape
    opened = {start}
    changed = True
    while changed:
        changed = False
        for cell in list(opened):  # a copy: the set grows inside the loop
            if counts[cell] == 0:
                for n in neighbours(cell, rows, cols):
                    if n not in opened:
                        opened.add(n)
                        changed = True
    return opened


@settings(max_examples=150, deadline=None)
@given(layouts())
def test_counts__match_brute_force(layout: np.ndarray) -> None:
    assert np.array_equal(Board(layout).counts, brute_counts(layout))


@settings(max_examples=150, deadline=None)
@given(layouts(), st.data(), st.sampled_from(["rings", "walk", "layers"]))
def test_flood_fill__matches_brute_force(
    layout: np.ndarray, data: st.DataObject, method: str
) -> None:
    safe = list(zip(*np.nonzero(~layout), strict=True))
    start = data.draw(st.sampled_from(safe))
    board = Board(layout)
    row, col = int(start[0]), int(start[1])
    opened = flood_region(board.counts, board.revealed, row, col, method=method)
    expected = brute_reveal(layout, (row, col))
    assert {divmod(int(i), board.cols) for i in opened} == expected
    assert len(opened) == len(expected)
    assert not board.revealed.any()  # pure: the board is untouched
    assert board.reveal(row, col) == len(expected)
    assert set(zip(*np.nonzero(board.revealed), strict=True)) == expected
    assert not (board.revealed & layout).any()
    assert np.array_equal(board.visible[board.revealed], board.counts[board.revealed])


@pytest.mark.parametrize(
    ("rows", "cols", "density"), [(3, 4, 0.1), (9, 9, 0.12), (16, 30, 0.2), (70, 70, 0.1)]
)
def test_board_reveal__agrees_with_every_flood_method_on_random_games(
    rows: int, cols: int, density: float
) -> None:
    # Board.reveal opens a clue itself and a zero through flood_region's size-picked method: on
    # random games (mid-game states, flags included) it opens exactly the cells every method finds.
    rng = np.random.default_rng(rows * 1000 + cols)
    games = 6 if rows * cols > 1000 else 40
    for _ in range(games):
        board = Board(rng.random((rows, cols)) < density)
        while not board.done:
            hidden = np.flatnonzero(~board.revealed)
            index = int(rng.choice(hidden))
            row, col = divmod(index, cols)
            if rng.random() < 0.2:
                board.toggle_flag(row, col)
                continue
            before = board.revealed.copy()
            found = [
                sorted(flood_region(board.counts, board.revealed, row, col, method=m).tolist())
                for m in METHODS
            ]
            opened = board.reveal(row, col)
            newly = sorted(np.flatnonzero(board.revealed & ~before).tolist())
            assert opened == len(newly)
            if not board.mines[row, col]:
                assert all(cells == newly for cells in found)
                assert np.array_equal(board.visible[board.revealed], board.counts[board.revealed])
                assert not (board.flagged & board.revealed).any()


@settings(max_examples=60, deadline=None)
@given(layouts(), st.data())
def test_flood_fill__second_click_only_opens_new_cells(
    layout: np.ndarray, data: st.DataObject
) -> None:
    safe = list(zip(*np.nonzero(~layout), strict=True))
    first, second = data.draw(st.sampled_from(safe)), data.draw(st.sampled_from(safe))
    board = Board(layout)
    board.reveal(int(first[0]), int(first[1]))
    before = int(board.revealed.sum())
    opened = board.reveal(int(second[0]), int(second[1]))
    assert int(board.revealed.sum()) == before + opened


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 10), st.integers(1, 10), st.sampled_from(["any", "safe", "opening"]), st.data()
)
def test_generators__rules_hold(rows: int, cols: int, rule: str, data: st.DataObject) -> None:
    limit = max_mines(rule, rows, cols)
    if limit < 0:
        return
    mines = data.draw(st.integers(0, limit))
    click = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    layout = make_generator(rule).layout(rows, cols, mines, rng, click)
    assert layout.shape == (rows, cols)
    assert int(layout.sum()) == mines
    if rule == "safe":
        assert not layout[click]
    if rule == "opening":
        assert not any(layout[cell] for cell in region_around(click, rows, cols))
        assert Board(layout).counts[click] == 0


def test_generators__placement_is_uniform() -> None:
    rng = np.random.default_rng(7)
    generator = make_generator("opening")
    totals = np.zeros((5, 5))
    games = 20000
    for _ in range(games):
        totals += generator.layout(5, 5, 4, rng, (0, 0))
    allowed = np.ones((5, 5), dtype=bool)
    for cell in region_around((0, 0), 5, 5):
        allowed[cell] = False
    assert totals[~allowed].sum() == 0
    expected = games * 4 / allowed.sum()
    # Each allowed cell is a mine with probability 4/21; a 5-sigma band keeps this test honest
    # without making it flaky.
    sigma = np.sqrt(games * (4 / 21) * (17 / 21))
    assert np.all(np.abs(totals[allowed] - expected) < 5 * sigma)


def test_generators__same_rng_same_layout() -> None:
    a = make_generator("safe").layout(9, 9, 10, np.random.default_rng(3), (4, 4))
    b = make_generator("safe").layout(9, 9, 10, np.random.default_rng(3), (4, 4))
    assert np.array_equal(a, b)


@pytest.mark.parametrize(
    ("rule", "rows", "cols", "mines", "message"),
    [
        ("any", 3, 3, 9, "mines=9 leaves no safe cell on a 3x3 board"),
        ("safe", 2, 2, 4, "mines=4 leaves no safe cell"),
        ("any", 3, 3, -1, "mines must be >= 0, got -1"),
        ("opening", 4, 4, 8, "holds at most 7 mines; got mines=8"),
        ("opening", 1, 5, 3, "holds at most 2 mines; got mines=3"),
    ],
)
def test_generators__impossible_requests_name_the_values(
    rule: str, rows: int, cols: int, mines: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        check_mines(rule, rows, cols, mines)


def test_generators__unknown_rule_and_bad_layouts() -> None:
    with pytest.raises(ValueError, match="unknown first_click rule 'first'"):
        make_generator("first")
    with pytest.raises(ValueError, match="needs a layout"):
        make_generator("fixed")
    with pytest.raises(ValueError, match="all mines"):
        make_generator("fixed", np.ones((2, 2), dtype=bool))
    with pytest.raises(ValueError, match="use first_click='fixed'"):
        make_generator("safe", "..")
