"""The logic agent on hand-made positions, and the guess policies' risk formulas."""

from __future__ import annotations

import numpy as np
import pytest

from agents import LocalRulesAgent, LogicAgent
from agents.logic.guessing import GUESS_POLICIES, least_risky, risk_map
from mswp_gym.cells import to_cell, to_index
from mswp_gym.masks import action_mask
from mswp_gym.pictures import view_from_text
from mswp_gym.spec import GameSpec

# Every clue alone is ambiguous; the subset rule gives (0,0) and (0,2) safe, (0,1) a mine.
ONE_ONE_ONE = """
###
111
000
"""

# The 1-2-1 pattern: the subset rule gives (0,0) and (0,2) mines, (0,1) safe.
ONE_TWO_ONE = """
###
121
000
"""

# (0,0) is a proven mine; columns 3-4 are hidden and touch no clue ("?" = revealed, no clue).
ISLAND = """
#1?##
11?##
00?##
"""


def agent_on(picture: str, mines: int, **kwargs: object) -> tuple[LogicAgent, tuple[int, int]]:
    """A fresh LogicAgent after one act on ``picture``; also the cell it chose."""
    view = view_from_text(picture)
    rows, cols = view.shape
    agent = LogicAgent(**kwargs)  # type: ignore[arg-type]
    agent.reset(0, GameSpec(rows, cols, mines))
    action = agent.act(view, action_mask(view))
    return agent, to_cell(action, cols)


@pytest.mark.parametrize("guess", GUESS_POLICIES)
def test_logic_agent__subset_rule_finds_safe_cells_in_1_1_1(guess: str) -> None:
    agent, cell = agent_on(ONE_ONE_ONE, mines=1, guess=guess)
    known = agent.explain()
    assert cell == (0, 0)
    assert known.certain is True
    assert known.mines == {(0, 1)}
    assert known.safe == {(0, 0), (0, 2)}


@pytest.mark.parametrize("engine", ["indexed", "plain"])
def test_logic_agent__subset_rule_solves_1_2_1(engine: str) -> None:
    agent, cell = agent_on(ONE_TWO_ONE, mines=2, engine=engine)
    known = agent.explain()
    assert cell == (0, 1)
    assert known.certain is True
    assert known.mines == {(0, 0), (0, 2)}


def test_local_rules_agent__cannot_solve_1_1_1_without_subset_rule() -> None:
    view = view_from_text(ONE_ONE_ONE)
    agent = LocalRulesAgent()
    agent.reset(0, GameSpec(3, 3, 1))
    agent.act(view, action_mask(view))
    assert agent.explain().certain is False
    assert agent.explain().mines == set()


def test_logic_agent__global_policy_uses_mine_total_to_prove_island_safe() -> None:
    agent, cell = agent_on(ISLAND, mines=1, guess="global")
    known = agent.explain()
    assert known.certain is True
    assert cell == (0, 3)
    assert {(r, c) for r in range(3) for c in (3, 4)} <= known.safe


def test_logic_agent__random_policy_must_guess_on_island() -> None:
    agent, cell = agent_on(ISLAND, mines=1, guess="random")
    known = agent.explain()
    assert known.certain is False
    assert known.risk is None
    assert cell != (0, 0)  # never a proven mine
    assert cell[1] in (3, 4)


def test_logic_agent__first_move_is_a_legal_guess() -> None:
    view = np.full((4, 5), -1, dtype=np.int8)
    agent = LogicAgent(guess="sentence-max")
    agent.reset(3, GameSpec(4, 5, 4))
    action = agent.act(view, action_mask(view))
    known = agent.explain()
    assert 0 <= action < 20
    assert known.certain is False
    assert known.sentences == 0
    assert np.allclose(known.risk, 4 / 20)


def test_logic_agent__same_seed_same_guesses() -> None:
    view = np.full((6, 6), -1, dtype=np.int8)
    spec = GameSpec(6, 6, 5)
    picks = []
    for _ in range(2):
        agent = LogicAgent()
        agent.reset(11, spec)
        picks.append([agent.act(view, action_mask(view)) for _ in range(5)])
    assert picks[0] == picks[1]


def test_logic_agent__rejects_unknown_policy_and_engine() -> None:
    with pytest.raises(ValueError, match="'bold'"):
        LogicAgent(guess="bold")
    with pytest.raises(ValueError, match="'quantum'"):
        LogicAgent(engine="quantum")


def test_logic_agent__rejects_board_not_matching_spec() -> None:
    agent = LogicAgent()
    agent.reset(0, GameSpec(3, 3, 1))
    view = np.full((4, 4), -1, dtype=np.int8)
    with pytest.raises(ValueError, match="spec"):
        agent.act(view, action_mask(view))


def test_logic_agent__explain_counts_sentences() -> None:
    agent, _ = agent_on("###\n#1#\n###", mines=1, guess="random")
    assert agent.explain().sentences == 1


# ---------------------------------------------------------------- risk formulas

SENTENCES = [({(0, 0), (0, 1)}, 1), ({(0, 1), (0, 2), (1, 2)}, 1)]


def test_risk_map__sentence_max_takes_largest_ratio_and_global_density() -> None:
    undetermined = np.ones((2, 3), dtype=bool)
    risk = risk_map("sentence-max", undetermined, SENTENCES, total_mines=3, known_mines=0)
    assert risk is not None
    expected = np.array([[0.5, 0.5, 1 / 3], [0.5, 0.5, 1 / 3]])
    assert np.allclose(risk, expected)


def test_risk_map__global_gives_free_cells_the_unexplained_density() -> None:
    # A = {(0,0),(0,1)} = 1 is packed (exactly 1 mine); (0,2) and (0,3) lie only in
    # B = {(0,1),(0,2),(0,3)} = 2 and add their sentence-max risk 2/3 each: E = 1 + 4/3.
    undetermined = np.ones((2, 4), dtype=bool)
    sentences = [({(0, 0), (0, 1)}, 1), ({(0, 1), (0, 2), (0, 3)}, 2)]
    risk = risk_map("global", undetermined, sentences, total_mines=4, known_mines=0)
    assert risk is not None
    free = (4 - (1 + 4 / 3)) / 4
    expected = np.array([[0.5, 2 / 3, 2 / 3, 2 / 3], [free] * 4])
    assert np.allclose(risk, expected)


def test_risk_map__global_density_is_clipped_at_zero() -> None:
    undetermined = np.ones((2, 3), dtype=bool)
    risk = risk_map("global", undetermined, SENTENCES, total_mines=1, known_mines=0)
    assert risk is not None
    assert risk[1, 0] == 0.0 and risk[1, 1] == 0.0


def test_risk_map__known_cells_count_against_remaining_mines() -> None:
    undetermined = np.ones((2, 3), dtype=bool)
    undetermined[0, 0] = False
    risk = risk_map("sentence-max", undetermined, [({(0, 1), (0, 2)}, 1)], 3, known_mines=1)
    assert risk is not None
    assert risk[0, 0] == 0.0
    assert np.isclose(risk[1, 0], 2 / 5)


def test_risk_map__random_policy_has_none() -> None:
    assert risk_map("random", np.ones((2, 2), dtype=bool), [], 1, 0) is None


def test_least_risky__picks_minimum_and_breaks_ties_with_rng() -> None:
    risk = np.array([[0.5, 0.2, 0.2], [0.9, 0.2, 0.1]])
    candidates = np.arange(6)
    assert least_risky(candidates, risk, np.random.default_rng(0)) == to_index((1, 2), 3)
    tied = np.array([0, 1, 2, 4])
    picks = {least_risky(tied, risk, np.random.default_rng(s)) for s in range(40)}
    assert picks == {1, 2, 4}


def test_least_risky__rejects_empty_candidates() -> None:
    with pytest.raises(ValueError, match="no candidate"):
        least_risky(np.array([], dtype=int), None, np.random.default_rng(0))
