"""The random and local-rules baselines."""

from __future__ import annotations

import numpy as np
import pytest

from agents import LocalRulesAgent, RandomAgent
from mswp_gym.cells import to_cell
from mswp_gym.masks import action_mask
from mswp_gym.pictures import view_from_text
from mswp_gym.spec import GameSpec


def test_random_agent__plays_only_legal_cells_uniformly() -> None:
    view = view_from_text("#1#\n111\n000")
    mask = action_mask(view)
    agent = RandomAgent()
    agent.reset(5, GameSpec(3, 3, 1))
    picks = {agent.act(view, mask) for _ in range(60)}
    assert picks == {0, 2}


def test_random_agent__ignores_flag_half_of_mask() -> None:
    view = view_from_text("#1\n11")
    mask = action_mask(view, flag_actions=True)
    agent = RandomAgent(seed=1)
    agent.reset(None, GameSpec(2, 2, 1))
    assert {agent.act(view, mask) for _ in range(20)} == {0}


def test_random_agent__same_seed_same_moves() -> None:
    view = np.full((5, 5), -1, dtype=np.int8)
    runs = []
    for _ in range(2):
        agent = RandomAgent()
        agent.reset(42, GameSpec(5, 5, 3))
        runs.append([agent.act(view, action_mask(view)) for _ in range(10)])
    assert runs[0] == runs[1]


def test_random_agent__raises_when_nothing_is_legal() -> None:
    view = view_from_text("11\n11")
    agent = RandomAgent()
    agent.reset(0, GameSpec(2, 2, 0))
    with pytest.raises(ValueError, match="no legal"):
        agent.act(view, action_mask(view))


def test_local_rules_agent__clue_with_all_mines_known_frees_the_rest() -> None:
    # (1,0)=1 has the single hidden neighbour (0,0): a mine. Then (0,1)=1 is satisfied by it,
    # so its other hidden neighbour (0,2) is safe.
    view = view_from_text("#1#\n1?0\n0??")
    agent = LocalRulesAgent()
    agent.reset(0, GameSpec(3, 3, 1))
    action = agent.act(view, action_mask(view))
    assert to_cell(action, 3) == (0, 2)
    known = agent.explain()
    assert known.certain is True
    assert known.mines == {(0, 0)}


def test_local_rules_agent__zero_clue_gives_safe_cells() -> None:
    view = view_from_text("###\n#0#\n###")
    agent = LocalRulesAgent()
    agent.reset(0, GameSpec(3, 3, 0))
    action = agent.act(view, action_mask(view))
    assert action == 0
    assert agent.explain().safe == {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}


def test_local_rules_agent__guesses_away_from_known_mines() -> None:
    # (0,0) is a mine by (1,0)=1; no clue says anything about the other hidden cells.
    view = view_from_text("#?##\n1?##\n0?##")
    agent = LocalRulesAgent(seed=3)
    agent.reset(None, GameSpec(3, 4, 2))
    picks = {agent.act(view, action_mask(view)) for _ in range(40)}
    assert 0 not in picks
    assert agent.explain().certain is False


def test_reveal_mask__drops_flag_half_and_rejects_short_or_empty_masks() -> None:
    from agents.base import reveal_mask

    view = view_from_text("#1\n1#")
    mask = action_mask(view, flag_actions=True)
    assert reveal_mask(mask, 2, 2).tolist() == [True, False, False, True]
    with pytest.raises(ValueError, match="no legal"):
        reveal_mask(np.zeros(4, dtype=np.int8), 2, 2)
    with pytest.raises(ValueError, match="shorter"):
        reveal_mask(np.ones(3, dtype=np.int8), 2, 2)
