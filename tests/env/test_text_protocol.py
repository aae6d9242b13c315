"""The text protocol: render and parse are a pair, and every reply has a defined outcome."""

from __future__ import annotations

import time

import numpy as np
import pytest

from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE
from mswp_gym.text.protocol import (
    MAX_REPLY_CHARS,
    InvalidReply,
    Move,
    MoveKind,
    TextRules,
    check_move,
    format_move,
    parse_board,
    parse_move,
    render_board,
    system_prompt,
)

ZERO, ONE = TextRules(), TextRules(one_based=True)
CODES = np.array([HIDDEN, FLAGGED, EXPLODED, NO_CLUE, MINE, *range(9)], dtype=np.int8)


@pytest.mark.parametrize("shape", [(1, 1), (9, 9), (16, 16), (16, 30), (3, 101), (12, 5)])
@pytest.mark.parametrize("rules", [ZERO, ONE])
def test_render_board__parses_back_to_the_same_board(
    shape: tuple[int, int], rules: TextRules
) -> None:
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    for _ in range(5):
        board = rng.choice(CODES, size=shape)
        text = render_board(board, 10, rules)
        assert text == render_board(board.copy(), 10, rules)  # deterministic
        parsed = parse_board(text)
        assert parsed.dtype == np.int8
        np.testing.assert_array_equal(parsed, board)


def test_render_board__parses_back_from_real_games_inside_longer_text() -> None:
    import gymnasium as gym

    import mswp_gym  # noqa: F401 - registers the envs

    env = gym.make("Minesweeper-Expert-v0", flag_actions=True)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    for _ in range(30):
        legal = np.flatnonzero(info["action_mask"])
        obs, _, terminated, _, info = env.step(int(rng.choice(legal)))
        text = "Feedback first.\n\n" + render_board(obs, 99, ONE) + "\nYour move?"
        np.testing.assert_array_equal(parse_board(text), obs)
        if terminated:
            obs, info = env.reset(seed=int(rng.integers(1000)))


def test_render_board__states_mines_left_and_numbers_rows_and_columns() -> None:
    board = np.full((2, 12), HIDDEN, dtype=np.int8)
    board[0, 0] = FLAGGED
    text = render_board(board, 5, ONE)
    assert "mines left (mines minus flags): 4" in text
    assert " 1 |  F" in text and "12" in text.splitlines()[1]
    assert "Legend" in text


def test_parse_board__refuses_text_without_a_grid_and_unknown_symbols() -> None:
    with pytest.raises(ValueError, match="no board grid"):
        parse_board("hello")
    with pytest.raises(ValueError, match="unknown cell symbol 'Z'"):
        parse_board("0 | # Z")


def test_system_prompt__states_the_indexing_the_formats_and_the_rule() -> None:
    zero = system_prompt(9, 9, 10, "no-guess", ZERO)
    one = system_prompt(9, 9, 10, "safe", TextRules(one_based=True, allow_flags=False))
    assert "0-8" in zero and "0-based" in zero and "without guessing" in zero
    assert "1-9" in one and "1-based" in one and "never a mine" in one
    assert "flag ROW COL" in zero and "flag ROW COL" not in one
    for formats in ("reveal ROW COL", "(ROW, COL)", '"action": "reveal"', "<answer>"):
        assert formats in zero


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("reveal 3 4", Move(MoveKind.REVEAL, 3, 4)),
        ("flag 3 4", Move(MoveKind.FLAG, 3, 4)),
        ("(3, 4)", Move(MoveKind.REVEAL, 3, 4)),
        ("(3,4)", Move(MoveKind.REVEAL, 3, 4)),
        ("  REVEAL 3 4.  ", Move(MoveKind.REVEAL, 3, 4)),
        ("Reveal (3, 4)", Move(MoveKind.REVEAL, 3, 4)),
        ('{"action": "reveal", "row": 3, "col": 4}', Move(MoveKind.REVEAL, 3, 4)),
        ('{"action": "FLAG", "row": 0, "col": 8}', Move(MoveKind.FLAG, 0, 8)),
        ('{"row": 3, "col": 4}', Move(MoveKind.REVEAL, 3, 4)),
        ("I think so.\n<answer>reveal 3 4</answer>", Move(MoveKind.REVEAL, 3, 4)),
        ("<answer>(1, 1)</answer> then <ANSWER> flag 2 5 </ANSWER>", Move(MoveKind.FLAG, 2, 5)),
        ('<answer>{"action": "reveal", "row": 7, "col": 0}</answer>', Move(MoveKind.REVEAL, 7, 0)),
        ("<answer>\n```\nreveal 3 4\n```\n</answer>", Move(MoveKind.REVEAL, 3, 4)),
        ("<think>reveal 1 1? no.</think>\nreveal 2 2", Move(MoveKind.REVEAL, 2, 2)),
    ],
)
def test_parse_move__accepts_every_format(reply: str, expected: Move) -> None:
    assert parse_move(reply, 9, 9, ZERO) == expected


def test_parse_move__one_based_indexing_shifts_to_zero_based_inside() -> None:
    assert parse_move("reveal 1 9", 9, 9, ONE) == Move(MoveKind.REVEAL, 0, 8)
    assert isinstance(parse_move("reveal 0 3", 9, 9, ONE), InvalidReply)
    assert isinstance(parse_move("reveal 3 10", 9, 9, ONE), InvalidReply)


@pytest.mark.parametrize("rules", [ZERO, ONE, TextRules(allow_flags=False)])
def test_format_move__parses_back_to_the_same_move(rules: TextRules) -> None:
    kinds = [MoveKind.REVEAL] if not rules.allow_flags else list(MoveKind)
    for kind in kinds:
        for row, col in ((0, 0), (15, 29), (7, 3)):
            move = Move(kind, row, col)
            assert parse_move(format_move(move, rules), 16, 30, rules) == move
    assert format_move(Move(MoveKind.REVEAL, 0, 2), ONE) == "reveal 1 3"


def _invalid(reply: str, rules: TextRules = ZERO) -> str:
    result = parse_move(reply, 9, 9, rules)
    assert isinstance(result, InvalidReply), result
    assert 0 < len(result.reason) <= 120
    return result.reason


def test_parse_move__refuses_unparseable_text() -> None:
    for reply in ("", "   ", "hello", "reveal", "reveal 3", "reveal 3 4 5", "open 3 4", "3"):
        assert "no move found" in _invalid(reply)
    assert "no move found" in _invalid("reveal 3 4 or maybe reveal 5 5")


def test_parse_move__refuses_a_cell_out_of_range() -> None:
    assert "off the board (rows 0-8, columns 0-8)" in _invalid("reveal 9 0")
    assert "off the board" in _invalid("(0, 12)")
    assert "off the board" in _invalid('{"action": "reveal", "row": -1, "col": 2}')
    assert "no move found" in _invalid("reveal 9999999 1")  # more digits than any board
    assert "no move found" in _invalid("reveal -1 2")


def test_check_move__refuses_a_revealed_cell_and_a_reveal_under_a_flag() -> None:
    board = np.full((9, 9), HIDDEN, dtype=np.int8)
    board[0, 0], board[1, 1], board[2, 2] = 0, FLAGGED, NO_CLUE
    assert "already revealed" in check_move(Move(MoveKind.REVEAL, 0, 0), board, ONE).reason  # type: ignore[union-attr]
    assert "cell 1 1 is already" in check_move(Move(MoveKind.FLAG, 0, 0), board, ONE).reason  # type: ignore[union-attr]
    assert isinstance(check_move(Move(MoveKind.REVEAL, 2, 2), board, ZERO), InvalidReply)
    assert "flagged" in check_move(Move(MoveKind.REVEAL, 1, 1), board, ZERO).reason  # type: ignore[union-attr]
    for move in (Move(MoveKind.FLAG, 1, 1), Move(MoveKind.REVEAL, 4, 4)):
        assert check_move(move, board, ZERO) == move


def test_parse_move__refuses_a_megabyte_reply_in_bounded_time() -> None:
    for reply in (
        "reveal 3 4 " * 100_000,
        "a" * 1_000_000 + "<answer>reveal 3 4</answer>",
        "<answer>" * (MAX_REPLY_CHARS // 8),
        "reveal" + " " * (MAX_REPLY_CHARS - 10) + "x",
        "<think>" * (MAX_REPLY_CHARS // 7),
        "[1" * (MAX_REPLY_CHARS // 2),
    ):
        tick = time.process_time()
        _invalid(reply)
        # A loose bound (a quadratic parse takes minutes), not a timing test.
        assert time.process_time() - tick < 2.0


def test_parse_move__refuses_other_scripts() -> None:
    for reply in (
        "reveal ٣ ٤",  # Arabic-Indic digits
        "reveal \uff13 \uff14",  # full-width digits
        "揭开第三行第四列",  # Chinese
        "揭开 三 四",
        "افتح 3 4",  # Arabic words around ASCII digits
        "раскрыть 3 4",  # Cyrillic
        '{"action": "揭开", "row": 3, "col": 4}',
    ):
        _invalid(reply)


def test_parse_move__refuses_bad_json_and_flags_when_off() -> None:
    assert "does not parse" in _invalid('{"action": "reveal", "row": 3,')
    assert "does not parse" in _invalid("{" * 100 + "}" * 100)
    assert "whole numbers" in _invalid('{"action": "reveal", "row": "3", "col": 4}')
    assert "whole numbers" in _invalid('{"action": "reveal", "row": 3.0, "col": 4}')
    assert "whole numbers" in _invalid('{"action": "reveal", "row": true, "col": 4}')
    assert "unknown action" in _invalid('{"action": "dig", "row": 3, "col": 4}')
    assert "flags are off" in _invalid("flag 3 4", TextRules(allow_flags=False))


def test_parse_move__never_raises_on_any_str() -> None:
    rng = np.random.default_rng(1)
    alphabet = [*"reveal flag(),{}[]<>/answer:\"' 0123456789\n\t.-٣三", "</think>"]
    for _ in range(2000):
        reply = "".join(rng.choice(alphabet, size=int(rng.integers(0, 40))))
        assert isinstance(parse_move(reply, 9, 9, ZERO), (Move, InvalidReply))
    assert isinstance(parse_move(None, 9, 9, ZERO), InvalidReply)  # type: ignore[arg-type]


def test_text_rules__refuses_a_bad_invalid_limit() -> None:
    with pytest.raises(ValueError, match="max_invalid must be an integer >= 1, got 0"):
        TextRules(max_invalid=0)
    with pytest.raises(ValueError, match="max_invalid"):
        TextRules(max_invalid=True)
