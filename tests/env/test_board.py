"""The board engine on hand-made layouts: click -> expected visible board."""

from __future__ import annotations

import numpy as np
import pytest

from mswp_gym import Board, Outcome
from mswp_gym.constants import (
    EXPLODED,
    FLAGGED,
    HIDDEN,
    MINE,
    NO_CLUE,
    is_clue,
    is_revealed,
    is_revealed_safe,
    is_unknown,
)
from mswp_gym.pictures import view_from_text, view_to_text

LAYOUT = """
. . . . .
. . . . .
. . . * .
. . . . .
* . . . .
"""

# (click, expected player view after that single click on LAYOUT)
CLICK_TABLE = [
    (
        (0, 0),
        """
        0 0 0 0 0
        0 0 1 1 1
        0 0 1 # #
        1 1 1 # #
        # # # # #
        """,
    ),
    (
        (2, 2),
        """
        # # # # #
        # # # # #
        # # 1 # #
        # # # # #
        # # # # #
        """,
    ),
    (
        (4, 4),
        """
        # # # # #
        # # # # #
        # # # # #
        # 1 1 1 1
        # 1 0 0 0
        """,
    ),
]


@pytest.mark.parametrize(("click", "expected"), CLICK_TABLE)
def test_board__click_table(click: tuple[int, int], expected: str) -> None:
    board = Board.from_text(LAYOUT)
    board.reveal(*click)
    assert view_to_text(board.visible) == view_to_text(view_from_text(expected))


def test_board__counts_match_layout() -> None:
    board = Board.from_text(LAYOUT)
    assert board.counts.tolist() == [
        [0, 0, 0, 0, 0],
        [0, 0, 1, 1, 1],
        [0, 0, 1, 0, 1],
        [1, 1, 1, 1, 1],
        [0, 1, 0, 0, 0],
    ]


def test_board__win_when_every_safe_cell_revealed() -> None:
    board = Board.from_text("*.\n..")
    assert board.reveal(0, 1) == 1
    assert board.outcome == Outcome.PLAYING
    board.reveal(1, 0)
    board.reveal(1, 1)
    assert board.outcome == Outcome.WON
    assert board.done


def test_board__mine_loses_and_later_moves_change_nothing() -> None:
    board = Board.from_text("*.\n..")
    assert board.reveal(0, 0) == 1
    assert board.outcome == Outcome.LOST
    assert board.reveal(1, 1) == 0
    assert board.visible[1, 1] == HIDDEN


def test_board__score_mode_goes_on_after_a_mine() -> None:
    board = Board.from_text("*.\n..", score_mode=True)
    board.reveal(0, 0)
    assert board.outcome == Outcome.PLAYING
    assert board.visible[0, 0] == EXPLODED
    for cell in [(0, 1), (1, 0), (1, 1)]:
        board.reveal(*cell)
    assert board.outcome == Outcome.CLEARED
    assert board.exploded == 1


def test_board__flags_never_change_the_truth() -> None:
    board = Board.from_text(LAYOUT)
    assert board.toggle_flag(2, 3) is True
    assert board.visible[2, 3] == FLAGGED
    assert board.mines[2, 3]
    assert board.toggle_flag(0, 0) is True  # a wrong flag
    board.reveal(4, 4)  # the cascade opens nothing flagged here
    assert board.toggle_flag(2, 3) is False
    assert board.visible[2, 3] == HIDDEN


def test_board__cascade_opens_wrongly_flagged_safe_cells() -> None:
    board = Board.from_text(LAYOUT)
    board.toggle_flag(1, 1)
    board.reveal(0, 0)
    assert board.visible[1, 1] == 0
    assert not board.flagged[1, 1]


def test_board__revealed_cell_cannot_be_flagged() -> None:
    board = Board.from_text(LAYOUT)
    board.reveal(2, 2)
    assert board.toggle_flag(2, 2) is False


def test_board__one_by_one_board_without_mines_is_won_in_one_click() -> None:
    board = Board(np.zeros((1, 1), dtype=bool))
    assert board.reveal(0, 0) == 1
    assert board.outcome == Outcome.WON


def test_board__thousand_square_with_one_mine_opens_in_one_click() -> None:
    mines = np.zeros((1000, 1000), dtype=bool)
    mines[500, 500] = True
    board = Board(mines)
    assert board.reveal(0, 0) == 1000 * 1000 - 1
    assert board.outcome == Outcome.WON


def test_board__picture_round_trip() -> None:
    picture = "1*f\n.F.\nX2."
    with pytest.raises(ValueError, match="picture shows 1 at \\(0, 0\\)"):
        Board.from_text(picture)
    picture = "2*f\n.F.\nX.."
    board = Board.from_text(picture)
    assert board.to_text() == picture
    assert Board.from_text(board.to_text()) == board
    assert board.to_text(show_mines=False) == "2#F\n#F#\nX##"


@pytest.mark.parametrize(
    ("picture", "message"),
    [
        ("", "empty picture"),
        ("..\n...", "row 1 has 3 cells but row 0 has 2"),
        (".q", "unknown symbol 'q'"),
        ("**\n**", "at least one safe cell"),
    ],
)
def test_board__bad_pictures_are_named(picture: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Board.from_text(picture)


def test_board__off_board_click_names_the_cell() -> None:
    board = Board.from_text(LAYOUT)
    with pytest.raises(IndexError, match=r"cell \(5, 0\) is off the 5x5 board"):
        board.reveal(5, 0)


def test_view_pictures__round_trip_and_errors() -> None:
    view = view_from_text("#F\nX?\n*3")
    assert view_to_text(view) == "#F\nX?\n*3"
    with pytest.raises(ValueError, match="not a visible-board code"):
        view_to_text(np.array([[42]], dtype=np.int8))


def test_board__bad_layouts_and_options_are_named() -> None:
    from mswp_gym.clues import ClueModel
    from mswp_gym.floodfill import flood_region

    with pytest.raises(ValueError, match=r"non-empty 2-D array, got shape \(3,\)"):
        Board(np.zeros(3, dtype=bool))
    with pytest.raises(ValueError, match="uncertain clues need an rng"):
        Board(np.zeros((2, 2), dtype=bool), clues=ClueModel(noise="cautious"))
    with pytest.raises(ValueError, match="unknown flood-fill method 'bfs'"):
        counts, revealed = np.zeros((2, 2), dtype=np.int8), np.zeros((2, 2), dtype=bool)
        flood_region(counts, revealed, 0, 0, method="bfs")


@pytest.mark.parametrize(
    ("code", "unknown", "clue", "revealed_safe", "revealed"),
    [
        (HIDDEN, True, False, False, False),
        (FLAGGED, True, False, False, False),
        (EXPLODED, False, False, False, True),
        (NO_CLUE, False, False, True, True),
        (MINE, False, False, False, False),
        (0, False, True, True, True),
        (8, False, True, True, True),
    ],
)
def test_cell_predicates__classify_every_code(
    code: int, unknown: bool, clue: bool, revealed_safe: bool, revealed: bool
) -> None:
    board = np.full((2, 3), code, dtype=np.int8)
    expectations = [
        (is_unknown, unknown),
        (is_clue, clue),
        (is_revealed_safe, revealed_safe),
        (is_revealed, revealed),
    ]
    for predicate, expected in expectations:
        result = predicate(board)
        assert result.dtype == np.bool_ and result.shape == board.shape
        assert result.all() == expected and result.any() == expected, predicate.__name__
