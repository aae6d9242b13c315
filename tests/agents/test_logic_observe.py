"""The observation -> ``add_knowledge`` adapter."""

from __future__ import annotations

import pytest

from agents import IndexedMinesweeperAI, MinesweeperAI, ObservationFeeder, Sentence
from mswp_gym.pictures import view_from_text


@pytest.mark.parametrize("ai_class", [MinesweeperAI, IndexedMinesweeperAI])
def test_feeder__feeds_each_revealed_cell_once(ai_class: type) -> None:
    ai = ai_class(3, 3)
    feeder = ObservationFeeder(ai, (3, 3))
    assert feeder.feed(view_from_text("###\n#1#\n###")) == [(1, 1)]
    assert Sentence({(r, c) for r in range(3) for c in range(3)} - {(1, 1)}, 1) in ai.knowledge
    assert feeder.feed(view_from_text("###\n#1#\n###")) == []
    assert feeder.feed(view_from_text("###\n#11\n###")) == [(1, 2)]
    assert ai.moves_made == {(1, 1), (1, 2)}


@pytest.mark.parametrize("ai_class", [MinesweeperAI, IndexedMinesweeperAI])
def test_feeder__exploded_is_a_mine_and_no_clue_is_safe(ai_class: type) -> None:
    ai = ai_class(2, 3)
    feeder = ObservationFeeder(ai, (2, 3))
    feeder.feed(view_from_text("X?#\n#2#"))
    assert (0, 0) in ai.mines and (0, 1) in ai.safes
    assert {(0, 0), (0, 1), (1, 1)} == ai.moves_made
    # (1,1)=2 with (0,0) a mine leaves {(0,2),(1,0),(1,2)} = 1.
    assert Sentence({(0, 2), (1, 0), (1, 2)}, 1) in ai.knowledge


def test_feeder__flags_are_not_knowledge() -> None:
    ai = IndexedMinesweeperAI(2, 2)
    feeder = ObservationFeeder(ai, (2, 2))
    assert feeder.feed(view_from_text("F#\n##")) == []
    assert ai.mines == set() and ai.moves_made == set()


def test_feeder__rejects_wrong_shape() -> None:
    feeder = ObservationFeeder(IndexedMinesweeperAI(2, 2), (2, 2))
    with pytest.raises(ValueError, match=r"\(2, 2\)"):
        feeder.feed(view_from_text("###"))
