"""The agent's ``ensemble`` option: several networks' view logits averaged into one player."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch as th

from agents import make
from eval.agent_specs import parse_agent_spec
from mswp_gym.constants import HIDDEN
from mswp_gym.spec import GameSpec
from train.agent import PolicyAgent, ensemble_policies, load_ppo_agent
from train.symmetry import averaged_logits, board_views

SPEC = GameSpec(5, 6, 6)
"""A board none of the shipped networks trained on (they all run on any board)."""


def _position() -> tuple[np.ndarray, np.ndarray]:
    board = np.full((SPEC.rows, SPEC.cols), HIDDEN, np.int8)
    board[0, :3] = (0, 1, 2)
    board[1, :2] = (1, 2)
    return board, (board == HIDDEN).ravel()


def _policy_agent(name: str, **options: object) -> PolicyAgent:
    agent = load_ppo_agent(name, boards="any", **options)
    assert isinstance(agent, PolicyAgent)
    agent.reset(0, SPEC)
    return agent


def _risk(logits: th.Tensor) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-logits[0, 0].numpy().astype(np.float64)))


@pytest.mark.parametrize("symmetries", [1, 4])
def test_ensemble__plays_the_mean_of_every_networks_view_logits(symmetries: int) -> None:
    board, legal = _position()
    views = board_views(symmetries)
    tensor = th.as_tensor(board[None], dtype=th.float32)
    alone = [_policy_agent(name) for name in ("generalist", "expert", "intermediate")]
    with th.no_grad():
        each = [averaged_logits(agent.net, tensor, SPEC.mines, views) for agent in alone]
    expected = _risk(th.stack(each).mean(dim=0))
    ensemble = _policy_agent("generalist", symmetries=symmetries, ensemble="expert+intermediate")
    ensemble.act(board, legal)
    shown = ensemble.explain().risk
    assert shown is not None
    hidden = board == HIDDEN
    assert np.allclose(shown[hidden], expected[hidden], atol=1e-6)
    assert not np.allclose(shown[hidden], _risk(each[0])[hidden], atol=1e-3)


def test_ensemble__a_network_beside_itself_plays_as_it_does_alone() -> None:
    board, legal = _position()
    alone = _policy_agent("expert", symmetries=2)
    doubled = _policy_agent("expert", symmetries=2, ensemble="expert")
    assert doubled.act(board, legal) == alone.act(board, legal)
    alone_risk, doubled_risk = alone.explain().risk, doubled.explain().risk
    assert alone_risk is not None and doubled_risk is not None
    assert np.allclose(doubled_risk, alone_risk, atol=1e-6, equal_nan=True)


def test_ensemble__sure_below_lets_the_first_networks_own_view_play_alone() -> None:
    board, legal = _position()
    own = _policy_agent("generalist")
    move = own.act(board, legal)
    own_risk = own.explain().risk
    assert own_risk is not None
    chosen = float(own_risk.ravel()[move])
    full = _policy_agent("generalist", symmetries=4, ensemble="expert")
    full.act(board, legal)
    full_risk = full.explain().risk
    assert full_risk is not None
    for symmetries in 1, 4:
        for sure_below, expected in ((chosen + (1 - chosen) / 2, own_risk), (chosen / 2, None)):
            quick = _policy_agent(
                "generalist", symmetries=symmetries, sure_below=sure_below, ensemble="expert"
            )
            quick.act(board, legal)
            shown = quick.explain().risk
            assert shown is not None
            if expected is None:  # not sure: every view of every network
                reference = _policy_agent("generalist", symmetries=symmetries, ensemble="expert")
                reference.act(board, legal)
                expected = reference.explain().risk
                assert expected is not None
                assert symmetries == 1 or np.allclose(expected, full_risk, equal_nan=True)
            assert np.allclose(shown, expected, atol=1e-6, equal_nan=True)


def test_ensemble__an_agent_spec_and_agents_make_pass_it_through() -> None:
    spec = parse_agent_spec("both=ppo:generalist:symmetries=2:ensemble=expert+intermediate")
    assert dict(spec.kwargs) == {"symmetries": 2, "ensemble": "expert+intermediate"}
    agent = make("ppo:generalist", ensemble="expert")
    assert isinstance(agent, PolicyAgent) and len(agent.partner_nets) == 1


@pytest.mark.parametrize(
    ("ensemble", "error", "message"),
    [
        ("", ValueError, "ensemble must be checkpoints .* got ''"),
        ("expert+", ValueError, "got 'expert\\+'"),
        ("nothing-here.zip", FileNotFoundError, "nothing-here.zip"),
        (
            "beginner-rl",
            ValueError,
            "ensemble partner .*beginner-rl.* has 2 output heads, .* has 3",
        ),
    ],
)
def test_ensemble__bad_entries_are_refused_naming_them(
    ensemble: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        load_ppo_agent("generalist", ensemble=ensemble)


def test_ensemble_policies__one_per_entry_in_order_with_its_file() -> None:
    partners = ensemble_policies("beginner+expert+beginner")
    assert [Path(partner.source).name for partner in partners] == [
        "beginner.zip",
        "expert.zip",
        "beginner.zip",
    ]
    boards = [partner.policy.board for partner in partners]
    assert boards[0] == boards[2] != boards[1]
