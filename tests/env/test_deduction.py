"""mswp_gym.deduction: the bitboard rules on hand-made boards, and soundness against exact play."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.solver.agent import SolverAgent
from mswp_gym.board import Board
from mswp_gym.deduction import grid, pair_rule, settle, solves
from mswp_gym.pictures import parse_picture
from mswp_gym.spec import GameSpec


def _mines(picture: str) -> np.ndarray:
    return parse_picture(picture).mines


@pytest.mark.parametrize(
    ("picture", "click", "solved"),
    [
        # a lone mine in a corner: the opening's border clues settle it
        ("....\n....\n....\n...*", (0, 0), True),
        # two cells, one mine, both seen by the same clues only: a 50/50
        ("...*\n....", (0, 0), False),
        # a chain of single clues along a wall of mines
        ("..*.\n..*.\n....", (0, 0), True),
        # the mine count settles the cells behind a wall of known mines: none left there
        ("...*.\n...*.\n...*.", (0, 0), True),
        # a mine under the click is never solved
        ("*...\n....", (0, 0), False),
    ],
)
def test_solves__hand_made_boards(picture: str, click: tuple[int, int], solved: bool) -> None:
    assert solves(_mines(picture), click) is solved


def test_pair_rule__one_two_one_settles_what_no_single_clue_does() -> None:
    # Revealed row 1 shows 1 2 1 under three unknown cells: no single clue settles any of them;
    # the pairs (1, 2) and (2, 1) mine the outer ones, and then the middle one is clear.
    mines = _mines("*.*\n...")
    g = grid(2, 3)
    layout = g.to_bits(mines)
    safe = g.to_bits(np.array([[False] * 3, [True] * 3]))
    unknown = g.valid & ~safe
    new_safe, new_mines = pair_rule(g, safe, unknown, layout)
    assert new_safe == 0
    assert g.from_bits(new_mines)[0].tolist() == [True, False, True]
    solved, known = settle(g, layout, safe, 0)
    assert solved == g.valid & ~layout and known == layout


def test_settle__keeps_known_cells_and_stops_at_a_fifty_fifty() -> None:
    mines = _mines("...*\n....")
    g = grid(*mines.shape)
    safe, known = settle(g, g.to_bits(mines), g.bit((0, 0)), 0)
    assert known == 0
    assert g.from_bits(safe).tolist() == [[True, True, True, False], [True, True, True, False]]


def _exact_certain_play(mines: np.ndarray, click: tuple[int, int]) -> np.ndarray:
    """The cells a player revealing only exactly-safe cells (mine count known) reaches."""
    board = Board(mines)
    board.reveal(*click)
    spec = GameSpec(*mines.shape, int(mines.sum()), "no-guess")
    agent = SolverAgent(spec=spec)
    agent.reset(0, spec)
    while not board.done:
        cells = agent.safe_cells(board.visible.copy())
        if not cells:
            break
        for cell in cells:
            board.reveal(*cell)
    return board.revealed


@settings(max_examples=150, deadline=None)
@given(
    rows=st.integers(2, 6),
    cols=st.integers(2, 7),
    density=st.floats(0.05, 0.45),
    seed=st.integers(0, 2**32 - 1),
)
def test_settle__reveals_only_what_exact_certain_play_reveals(
    rows: int, cols: int, density: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    mines = rng.random((rows, cols)) < density
    click = (int(rng.integers(rows)), int(rng.integers(cols)))
    mines[click] = False
    g = grid(rows, cols)
    layout = g.to_bits(mines)
    safe, known = settle(g, layout, g.bit(click), 0)
    assert safe & layout == 0 and known & ~layout == 0  # true, of course: the layout is read
    # ... and proven: a player who reveals only exactly-safe cells reaches every one of them
    reached = _exact_certain_play(mines, click)
    assert not (g.from_bits(safe) & ~reached).any()
