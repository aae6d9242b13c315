"""The learned agent's ``endgame_safest`` option: the mine head's safest cell late in a game."""

from __future__ import annotations

import numpy as np
import pytest

from mswp_gym.constants import HIDDEN
from mswp_gym.spec import GameSpec
from train.agent import PolicyAgent, load_ppo_agent

SPEC = GameSpec(16, 30, 99)
SAFE_CELLS = 16 * 30 - 99


def _late_board(revealed: int) -> np.ndarray:
    """An Expert board whose first ``revealed`` cells (row by row) show clues."""
    board = np.full(16 * 30, HIDDEN, np.int8)
    board[:revealed] = np.resize(np.array([1, 2, 1, 3, 2, 1], np.int8), revealed)
    return board.reshape(16, 30)


def _agent(**options: float) -> PolicyAgent:
    agent = load_ppo_agent("generalist", **options)
    assert isinstance(agent, PolicyAgent)
    agent.reset(0, SPEC)
    return agent


def test_endgame_safest__plays_the_safest_cell_once_the_share_is_revealed() -> None:
    first = int(np.ceil(0.9 * SAFE_CELLS))  # the first count of revealed cells that is 90%
    late, before = _late_board(first), _late_board(first - 1)
    for board, active in ((late, True), (before, False)):
        legal = (board == HIDDEN).ravel()
        plain, safest = _agent(), _agent(endgame_safest=0.9)
        move, chosen = plain.act(board, legal), safest.act(board, legal)
        risk = safest.explain().risk
        assert risk is not None
        lowest = int(np.nanargmin(np.where(legal, risk.ravel(), np.nan)))
        assert legal[chosen] and move != lowest  # the move head's cell is not the safest
        assert chosen == (lowest if active else move)


def test_endgame_safest__zero_changes_nothing_and_bad_values_are_refused() -> None:
    board = _late_board(SAFE_CELLS - 5)
    legal = (board == HIDDEN).ravel()
    assert _agent(endgame_safest=0.0).act(board, legal) == _agent().act(board, legal)
    for bad in (-0.1, 1.5, True):
        with pytest.raises(ValueError, match=rf"endgame_safest must lie in \[0, 1\], got {bad!r}"):
            load_ppo_agent("generalist", endgame_safest=bad)
