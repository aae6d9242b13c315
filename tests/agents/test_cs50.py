"""A CS50 AI "Minesweeper" student-style test suite, run unchanged against our classes.

Written like the public check50 checks and typical student pytest files: it only uses the
course's API. The ``ai_class`` fixture runs each AI test against the plain reference class and
the indexed engine; tests that edit ``ai.knowledge`` in place run on the plain class only (the
indexed engine's ``knowledge`` is a snapshot).
"""

from __future__ import annotations

import pytest

from agents import IndexedMinesweeperAI, MinesweeperAI, Sentence


@pytest.fixture(params=[MinesweeperAI, IndexedMinesweeperAI], ids=["plain", "indexed"])
def ai_class(request: pytest.FixtureRequest) -> type:
    return request.param


# ---------------------------------------------------------------- Sentence


def test_sentence__stores_cells_as_a_set_from_any_iterable() -> None:
    sentence = Sentence([(0, 0), (0, 1), (0, 1)], 1)
    assert sentence.cells == {(0, 0), (0, 1)}
    assert isinstance(sentence.cells, set)
    assert sentence.count == 1


def test_sentence__known_mines_when_count_equals_number_of_cells() -> None:
    sentence = Sentence({(0, 0), (0, 1), (1, 0)}, 3)
    assert sentence.known_mines() == {(0, 0), (0, 1), (1, 0)}
    assert sentence.known_safes() == set()


def test_sentence__no_known_mines_when_count_below_number_of_cells() -> None:
    sentence = Sentence({(0, 0), (0, 1), (1, 0)}, 2)
    assert sentence.known_mines() == set()
    assert sentence.known_safes() == set()


def test_sentence__known_safes_when_count_is_zero() -> None:
    sentence = Sentence({(2, 2), (2, 3)}, 0)
    assert sentence.known_safes() == {(2, 2), (2, 3)}
    assert sentence.known_mines() == set()


def test_sentence__known_sets_are_sets() -> None:
    assert isinstance(Sentence({(1, 1)}, 1).known_mines(), set)
    assert isinstance(Sentence({(1, 1)}, 0).known_safes(), set)


def test_sentence__mark_mine_removes_cell_and_decrements_count() -> None:
    sentence = Sentence({(0, 0), (0, 1), (1, 0)}, 2)
    sentence.mark_mine((0, 0))
    assert sentence.cells == {(0, 1), (1, 0)}
    assert sentence.count == 1


def test_sentence__mark_mine_of_absent_cell_changes_nothing() -> None:
    sentence = Sentence({(0, 0), (0, 1)}, 1)
    sentence.mark_mine((5, 5))
    assert sentence == Sentence({(0, 0), (0, 1)}, 1)


def test_sentence__mark_safe_removes_cell_and_keeps_count() -> None:
    sentence = Sentence({(0, 0), (0, 1), (1, 0)}, 1)
    sentence.mark_safe((0, 1))
    assert sentence.cells == {(0, 0), (1, 0)}
    assert sentence.count == 1


def test_sentence__mark_safe_of_absent_cell_changes_nothing() -> None:
    sentence = Sentence({(0, 0)}, 1)
    sentence.mark_safe((3, 3))
    assert sentence == Sentence({(0, 0)}, 1)


def test_sentence__equality_compares_cells_and_count() -> None:
    assert Sentence({(0, 0), (0, 1)}, 1) == Sentence([(0, 1), (0, 0)], 1)
    assert Sentence({(0, 0), (0, 1)}, 1) != Sentence({(0, 0), (0, 1)}, 2)
    assert Sentence({(0, 0)}, 1) != Sentence({(0, 1)}, 1)


def test_sentence__str_shows_cells_and_count() -> None:
    assert str(Sentence({(1, 2)}, 1)) == "{(1, 2)} = 1"


# ---------------------------------------------------------------- MinesweeperAI basics


def test_ai__starts_empty(ai_class: type) -> None:
    ai = ai_class(height=8, width=8)
    assert (ai.height, ai.width) == (8, 8)
    assert ai.moves_made == set() and ai.mines == set() and ai.safes == set()
    assert ai.knowledge == []


def test_ai__default_size_is_8x8(ai_class: type) -> None:
    ai = ai_class()
    assert (ai.height, ai.width) == (8, 8)


def test_ai__mark_mine_and_mark_safe_update_sets_and_sentences(ai_class: type) -> None:
    ai = ai_class(4, 4)
    ai.add_knowledge((0, 0), 1)  # {(0,1),(1,0),(1,1)} = 1
    ai.mark_safe((0, 1))
    assert (0, 1) in ai.safes
    assert Sentence({(1, 0), (1, 1)}, 1) in ai.knowledge
    ai.mark_mine((1, 0))
    assert (1, 0) in ai.mines
    assert Sentence({(1, 1)}, 0) in ai.knowledge


def test_ai__add_knowledge_records_move_and_marks_cell_safe(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.add_knowledge((3, 3), 2)
    assert (3, 3) in ai.moves_made
    assert (3, 3) in ai.safes


def test_ai__add_knowledge_adds_sentence_over_neighbours(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.add_knowledge((3, 3), 2)
    neighbours = {(i, j) for i in (2, 3, 4) for j in (2, 3, 4)} - {(3, 3)}
    assert Sentence(neighbours, 2) in ai.knowledge


def test_ai__add_knowledge_corner_has_three_neighbours(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.add_knowledge((0, 0), 1)
    assert Sentence({(0, 1), (1, 0), (1, 1)}, 1) in ai.knowledge


def test_ai__add_knowledge_zero_marks_all_neighbours_safe(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.add_knowledge((4, 4), 0)
    expected = {(i, j) for i in (3, 4, 5) for j in (3, 4, 5)}
    assert ai.safes == expected
    assert ai.mines == set()
    assert ai.knowledge == []  # the sentence was used up


def test_ai__add_knowledge_ignores_mines_added_to_the_set(ai_class: type) -> None:
    ai = ai_class(height=4, width=5)
    ai.add_knowledge((0, 0), 3)
    ai.mines.update({(0, 1), (1, 0), (1, 1)})  # in case inference did not find them
    ai.add_knowledge((0, 2), 3)
    assert Sentence({(0, 3), (1, 2), (1, 3)}, 1) in ai.knowledge


def test_ai__knowledge_can_be_reset_to_empty(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.add_knowledge((0, 0), 1)
    ai.knowledge = []
    ai.add_knowledge((1, 1), 3)
    neighbours = {(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)}  # (0, 0) is safe
    assert ai.knowledge == [Sentence(neighbours, 3)]


def test_ai__add_knowledge_excludes_known_safes_from_sentence(ai_class: type) -> None:
    ai = ai_class(3, 3)
    ai.mark_safe((0, 1))
    ai.add_knowledge((0, 0), 1)
    assert Sentence({(1, 0), (1, 1)}, 1) in ai.knowledge


def test_ai__add_knowledge_subtracts_known_mines_from_count(ai_class: type) -> None:
    ai = ai_class(3, 3)
    ai.mark_mine((0, 1))
    ai.add_knowledge((0, 0), 2)
    assert Sentence({(1, 0), (1, 1)}, 1) in ai.knowledge


def test_ai__add_knowledge_reads_sets_changed_directly(ai_class: type) -> None:
    ai = ai_class(3, 3)
    ai.mines.add((0, 1))
    ai.safes.add((1, 0))
    ai.add_knowledge((0, 0), 2)
    # (0,1) is a known mine, (1,0) a known safe, so the one mine left is (1,1).
    assert (1, 1) in ai.mines


def test_ai__add_knowledge_infers_mines_when_count_fills_cells(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.add_knowledge((0, 0), 3)
    assert ai.mines == {(0, 1), (1, 0), (1, 1)}


def test_ai__add_knowledge_classic_3x3_one_mine_found(ai_class: type) -> None:
    # Mine at (0, 2). Clicks: (0,0)=0 opens (0,1),(1,0),(1,1) as safe; (0,1) shows 1;
    # (1,1) shows 1; (1,0)=0; (2,0)=0; (2,1)=0 -> (1,2),(2,2) safe -> (0,2) is the mine.
    ai = ai_class(3, 3)
    ai.add_knowledge((0, 0), 0)
    ai.add_knowledge((0, 1), 1)
    ai.add_knowledge((1, 1), 1)
    assert ai.safes >= {(0, 0), (0, 1), (1, 0), (1, 1)}
    ai.add_knowledge((2, 1), 0)
    assert {(1, 2), (2, 2)} <= ai.safes
    assert ai.mines == {(0, 2)}


def test_ai__add_knowledge_classic_3x3_infers_safe_from_two_clues(ai_class: type) -> None:
    # The only mine is (0, 1); row 2 shows zeros, row 1 shows ones.
    ai = ai_class(3, 3)
    ai.add_knowledge((2, 0), 0)  # (1,0),(1,1),(2,1) safe
    ai.add_knowledge((2, 2), 0)  # (1,1),(1,2),(2,1) safe
    ai.add_knowledge((1, 2), 1)  # {(0,1),(0,2)} = 1
    ai.add_knowledge((1, 0), 1)  # {(0,0),(0,1)} = 1
    ai.add_knowledge((1, 1), 1)  # {(0,0),(0,1),(0,2)} = 1
    # {(0,0),(0,1),(0,2)} = 1 minus {(0,1),(0,2)} = 1 gives {(0,0)} = 0, minus
    # {(0,0),(0,1)} = 1 gives {(0,2)} = 0, and then {(0,1)} = 1.
    assert ai.mines == {(0, 1)}
    assert {(0, 0), (0, 2)} <= ai.safes


def test_ai__subset_inference_adds_difference_sentence(ai_class: type) -> None:
    ai = ai_class(4, 4)
    # One layout that fits: a single mine at (2, 2).
    ai.add_knowledge((3, 3), 1)  # {(2,2),(2,3),(3,2)} = 1
    ai.add_knowledge((3, 1), 1)  # {(2,0),(2,1),(2,2),(3,0),(3,2)} = 1
    ai.mark_safe((2, 0))
    ai.mark_safe((2, 1))
    ai.mark_safe((3, 0))
    ai.add_knowledge((1, 3), 1)  # a fresh clue so inference runs again
    # Now {(2,2),(3,2)} = 1 is a subset of {(2,2),(2,3),(3,2)} = 1, so (2,3) is safe.
    assert (2, 3) in ai.safes


def test_ai__subset_rule_sentence_is_in_knowledge(ai_class: type) -> None:
    ai = ai_class(5, 5)
    ai.add_knowledge((0, 0), 1)  # {(0,1),(1,0),(1,1)} = 1
    ai.add_knowledge((0, 2), 2)  # {(0,1),(0,3),(1,1),(1,2),(1,3)} = 2
    ai.mark_safe((1, 0))  # now {(0,1),(1,1)} = 1 is a subset of the second sentence
    ai.add_knowledge((4, 4), 0)  # unrelated clue: triggers inference
    assert Sentence({(0, 3), (1, 2), (1, 3)}, 1) in ai.knowledge


def test_ai__make_safe_move_returns_known_safe_not_made(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.add_knowledge((0, 0), 0)
    move = ai.make_safe_move()
    assert move in {(0, 1), (1, 0), (1, 1)}
    assert move not in ai.moves_made


def test_ai__make_safe_move_excludes_moves_made(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.mark_safe((2, 2))
    ai.moves_made.add((2, 2))
    assert ai.make_safe_move() is None


def test_ai__make_safe_move_none_without_safe_cells(ai_class: type) -> None:
    assert ai_class(8, 8).make_safe_move() is None


def test_ai__make_safe_move_changes_nothing(ai_class: type) -> None:
    ai = ai_class(8, 8)
    ai.add_knowledge((0, 0), 0)
    before = (set(ai.moves_made), set(ai.safes), set(ai.mines))
    ai.make_safe_move()
    assert (ai.moves_made, ai.safes, ai.mines) == before


def test_ai__make_random_move_excludes_mines_and_moves_made(ai_class: type) -> None:
    ai = ai_class(3, 3, rng=0)
    ai.moves_made.update({(0, 0), (0, 1), (0, 2), (1, 0)})
    ai.mark_mine((1, 1))
    ai.mark_mine((2, 2))
    allowed = {(1, 2), (2, 0), (2, 1)}
    assert {ai.make_random_move() for _ in range(60)} == allowed


def test_ai__make_random_move_none_when_nothing_left(ai_class: type) -> None:
    ai = ai_class(2, 2)
    ai.moves_made.update({(0, 0), (0, 1), (1, 0)})
    ai.mark_mine((1, 1))
    assert ai.make_random_move() is None


def test_ai__make_random_move_is_on_board(ai_class: type) -> None:
    ai = ai_class(4, 6, rng=1)
    for _ in range(30):
        i, j = ai.make_random_move()
        assert 0 <= i < 4 and 0 <= j < 6


def test_ai__make_random_move_seeded_is_reproducible(ai_class: type) -> None:
    first = [ai_class(8, 8, rng=7).make_random_move() for _ in range(3)]
    assert first[0] == first[1] == first[2]


def test_ai__rejects_bad_clue_and_cell(ai_class: type) -> None:
    ai = ai_class(3, 3)
    with pytest.raises(ValueError, match="9"):
        ai.add_knowledge((0, 0), 9)
    with pytest.raises(ValueError, match=r"\(3, 0\)"):
        ai.add_knowledge((3, 0), 1)


def test_ai__rejects_bad_board_size(ai_class: type) -> None:
    with pytest.raises(ValueError, match="height"):
        ai_class(0, 8)


# ---------------------------------------------------------------- editing knowledge directly


def test_plain_ai__sentences_appended_by_hand_take_part_in_inference() -> None:
    ai = MinesweeperAI(4, 4)
    ai.knowledge.append(Sentence({(3, 2), (3, 3)}, 1))
    ai.add_knowledge((2, 3), 1)  # neighbours {(1,2),(1,3),(2,2),(3,2),(3,3)} = 1
    assert {(1, 2), (1, 3), (2, 2)} <= ai.safes
