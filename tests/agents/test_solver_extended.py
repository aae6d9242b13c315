"""Extended 50/50 chains (agents.solver.extended), against every layout of small positions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from positions import layouts, live_order, walled_position

from agents.solver.agent import SolverAgent
from agents.solver.extended import extended_chains, extended_choice
from agents.solver.guess import forced_guess
from agents.solver.probability import RegionCache
from agents.solver.unavoidable import unavoidable_guess
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import HIDDEN, MINE, NO_CLUE

M, H = MINE, HIDDEN


# A chain of four down the left edge (found by the random search below): (0, 0)-(1, 1) are the
# only unknown cells of the clue (1, 0) = 1, (1, 1)-(3, 0) of (2, 0) = 1 (its (2, 1) is certainly
# safe), (3, 0)-(4, 0) of (4, 1) = 2 beside a shown mine. Every cell outside that can show a
# number sees one cell of each filling ({(0, 0), (3, 0)} and {(1, 1), (4, 0)}), and no pair of
# the four is walled in alone, so the pair rule finds nothing.
CHAIN_BOARD = np.array(
    [
        [H, 3, M, H, H],
        [1, H, H, H, H],
        [1, H, M, H, H],
        [H, 3, 4, H, 3],
        [H, 2, M, H, H],
    ],
    dtype=np.int8,
)


def test_extended_choice__a_closed_chain_of_four_down_the_edge_is_guessed_at_once() -> None:
    total = 9
    order, analysis = live_order(CHAIN_BOARD, total)
    assert unavoidable_guess(analysis, CHAIN_BOARD, order, total, RegionCache()) is None
    assert list(extended_chains(analysis, CHAIN_BOARD, order)) == [(0, 6, 15, 20)]
    choice = extended_choice(analysis, CHAIN_BOARD, order, total, RegionCache())
    assert choice is not None
    guess = choice.cells[0]
    assert guess in (0, 6, 15, 20)
    assert analysis.probability[guess] == pytest.approx(0.5)
    _check_sound(CHAIN_BOARD, total, set(layouts(CHAIN_BOARD, total)), guess, (0, 6, 15, 20))


@pytest.mark.parametrize("seed", range(4))
def test_extended_choice__is_sound_against_every_layout(seed: int) -> None:
    """Wherever a cell is guessed, its chain meets both conditions in every layout: a mine on it
    means the whole filling of its places, and swapping the two fillings gives a layout that fits
    the board and shows the same number on every other cell."""
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(2500):
        board, total = walled_position(rng, max_rows=5)
        try:
            order, analysis = live_order(board, total)
        except ValueError:
            continue
        choice = extended_choice(analysis, board, order, total, RegionCache())
        if choice is None:
            continue
        found += 1
        fits = set(layouts(board, total))
        for guess in choice.cells:  # every cell offered as free of extra risk
            _check_sound(board, total, fits, guess, choice.chain)
            assert abs(analysis.probability[guess] - _share_with(board, total, guess)) < 1e-9
    assert found >= 3, "the random positions should contain some extended chains"


def _check_sound(
    board: np.ndarray,
    total: int,
    fits: set[frozenset[int]],
    guess: int,
    chain: tuple[int, ...],
) -> None:
    rows, cols = board.shape
    table = neighbour_table(rows, cols)
    assert len(chain) >= 4 and len(chain) % 2 == 0
    place = chain.index(guess) % 2
    same, other = frozenset(chain[place::2]), frozenset(chain[1 - place :: 2])
    members = same | other
    for mines in fits:
        if guess in mines:
            assert mines & members == same
        filled = mines & members
        if filled not in (same, other):
            continue
        swapped = (mines - members) | (other if filled == same else same)
        assert swapped in fits
        for cell in range(rows * cols):
            if cell in members or cell in mines or board.ravel()[cell] == NO_CLUE:
                continue
            assert sum(n in mines for n in table[cell]) == sum(n in swapped for n in table[cell])
    # the two fillings are equally likely, and the guess is a mine exactly in its own
    with_same = sum(1 for m in fits if m & members == same)
    with_other = sum(1 for m in fits if m & members == other)
    assert with_same == with_other > 0
    assert sum(1 for m in fits if guess in m) == with_same


def _share_with(board: np.ndarray, total: int, guess: int) -> float:
    fits = set(layouts(board, total))
    return sum(1 for m in fits if guess in m) / len(fits)


def _solver_game(seed: int, **options: Any) -> list[int]:
    """The moves of an Expert game of ``seed`` played by ``SolverAgent(**options)``."""
    from mswp_gym.env import MinesweeperEnv
    from mswp_gym.spec import GameSpec

    spec = GameSpec(16, 30, 99, "safe")
    env = MinesweeperEnv(rows=16, cols=30, mines=99, first_click="safe")
    env.reset(seed=seed)
    agent = SolverAgent(spec=spec, **options)
    agent.reset(seed, spec)
    moves, done = [], False
    while not done:
        move = agent.act(env.visible, env.action_masks())
        moves.append(move)
        done = env.step(move)[2]
    return moves


def test_solver_agent__extended_is_on_by_default_and_plays_seeded() -> None:
    # the default takes the chains; the same seed plays the same game
    assert SolverAgent().extended is True
    assert _solver_game(3) == _solver_game(3, extended=True) == _solver_game(3)


@pytest.mark.parametrize("extended", [True, False])
def test_solver_agent__extended_reaches_every_guess(
    extended: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chains are rare in play (none in 60 Expert games), so the option is followed to the guess
    # routine, whose choice it changes (test_forced_guess__takes_the_chain_only_when_asked)
    from agents.solver import agent as agent_module

    seen: list[bool] = []
    choose = agent_module.choose_guess

    def spy(*args: Any) -> Any:
        seen.append(args[-1])
        return choose(*args)

    monkeypatch.setattr(agent_module, "choose_guess", spy)
    for seed in range(4):
        _solver_game(seed, extended=extended)
    assert seen and set(seen) == {extended}


def test_extended_choice__finds_no_chain_where_a_pair_rule_suffices() -> None:
    # a pair between mines on the edge is the pair rule's, not a chain of four
    board = np.array([[M, 3, 3, M], [M, H, H, M]], dtype=np.int8)
    order, analysis = live_order(board, 5)
    assert unavoidable_guess(analysis, board, order, 5, RegionCache()) in (5, 6)
    assert list(extended_chains(analysis, board, order)) == []


@pytest.mark.parametrize("depth", [0, 1])
def test_forced_guess__takes_the_chain_only_when_asked(depth: int) -> None:
    total = 9
    order, analysis = live_order(CHAIN_BOARD, total)
    legal = CHAIN_BOARD.ravel() == H
    off = forced_guess(analysis, CHAIN_BOARD, order, total, legal, depth, RegionCache(), False)
    assert off is None
    on = forced_guess(analysis, CHAIN_BOARD, order, total, legal, depth, RegionCache(), True)
    assert on is not None and on.forced and on.cell in (0, 6, 15, 20)
    assert on.risk == pytest.approx(0.5)
    assert on.tried == (4 if depth else 0)  # the look-ahead scores each of the four


@pytest.mark.parametrize("value", [1, "yes", None])
def test_solver_agent__extended_must_be_a_bool(value: Any) -> None:
    # the CLI's spec parser gives a bool for True/False; anything else is refused in one line
    with pytest.raises(ValueError, match=r"^extended=.* must be True or False$"):
        SolverAgent(extended=value)
