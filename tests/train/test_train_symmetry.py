"""Tests of test-time averaging over board symmetries (train.symmetry and the agent's option)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch as th
from tiny_training import TINY_IMITATION

from mswp_gym.constants import HIDDEN
from mswp_gym.spec import GameSpec
from train import run as run_module
from train.agent import PolicyAgent, load_ppo_agent
from train.network import action_scores
from train.symmetry import (
    VIEW_TIE_TOLERANCE,
    BoardView,
    averaged_logits,
    board_views,
    first_best,
)


@pytest.mark.parametrize(("count", "rows", "cols"), [(8, 5, 5), (4, 3, 7), (2, 4, 6), (1, 2, 3)])
def test_board_views__distinct_shape_keeping_and_inverted(count: int, rows: int, cols: int) -> None:
    x = th.arange(2 * 3 * rows * cols, dtype=th.float32).view(2, 3, rows, cols)
    views = board_views(count)
    assert len(views) == count and views[0] == BoardView()
    seen = set()
    for view in views:
        moved = view.apply(x)
        assert moved.shape == x.shape
        assert th.equal(view.invert(moved), x)
        seen.add(tuple(moved.flatten().tolist()))
    assert len(seen) == count  # every view is another arrangement of the cells


def test_board_views__eight_of_a_board_that_is_not_square_transpose_its_shape() -> None:
    x = th.arange(2 * 3 * 15, dtype=th.float32).view(2, 3, 3, 5)
    views = board_views(8)
    seen = set()
    for view in views:
        moved = view.apply(x)
        assert moved.shape == ((2, 3, 5, 3) if view.transpose else x.shape)
        assert th.equal(view.invert(moved), x)
        seen.add((moved.shape, tuple(moved.flatten().tolist())))
    assert len(seen) == 8 and sum(view.transpose for view in views) == 4


@pytest.mark.parametrize("count", [0, 3, 16])
def test_board_views__refuses_bad_counts(count: int) -> None:
    with pytest.raises(ValueError, match=rf"symmetries must be one of \(1, 2, 4, 8\), got {count}"):
        board_views(count)


class _Positional(th.nn.Module):
    """A network that is not equivariant: each cell's logit is its code plus its own bias."""

    def __init__(self, rows: int, cols: int) -> None:
        super().__init__()
        self.bias = th.arange(rows * cols, dtype=th.float32).view(1, 1, rows, cols)

    def forward(self, board: th.Tensor, mines: int) -> th.Tensor:
        return board.unsqueeze(1) * mines + self.bias


def test_averaged_logits__mean_of_each_views_logits_mapped_back() -> None:
    net = _Positional(4, 4)
    board = th.arange(16, dtype=th.float32).view(1, 4, 4) % 5
    views = board_views(8)
    expected = th.stack([view.invert(net(view.apply(board), 2)) for view in views]).mean(dim=0)
    assert th.allclose(averaged_logits(net, board, 2, views), expected)
    # the board term is equivariant, so only the bias is averaged: the mean of all 16 biases
    # over the 8 views of a 4x4 board is not the identity's bias
    averaged = averaged_logits(net, board, 0, views)
    assert not th.allclose(averaged, net(board, 0))
    assert th.equal(averaged_logits(net, board, 2, views[:1]), net(board, 2))


class _RowBiased(th.nn.Module):
    """A network of any board shape that is not equivariant: each cell's logit is its code times
    ``mines`` plus its row index; it counts its calls."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def forward(self, board: th.Tensor, mines: int) -> th.Tensor:
        self.calls += 1
        rows = th.arange(board.shape[-2], dtype=th.float32).view(1, 1, -1, 1)
        return board.unsqueeze(1) * mines + rows


def test_averaged_logits__eight_views_of_a_board_that_is_not_square_in_two_passes() -> None:
    net = _RowBiased()
    board = th.arange(15, dtype=th.float32).view(1, 3, 5) % 4
    views = board_views(8)
    expected = th.stack([view.invert(net(view.apply(board), 2)) for view in views]).mean(dim=0)
    net.calls = 0
    averaged = averaged_logits(net, board, 2, views)
    assert net.calls == 2  # the mirror images, then the transposed ones
    assert averaged.shape == (1, 1, 3, 5) and th.allclose(averaged, expected)
    # the transposed views' row bias is the original's column index: it shows in the mean
    assert not th.allclose(averaged, averaged_logits(net, board, 2, views[:4]))
    net.calls = 0
    averaged_logits(net, th.zeros(1, 4, 4), 2, board_views(8))
    assert net.calls == 1  # a square board's eight views keep one shape: one pass


def test_policy_agent__symmetries_option_averages_and_is_checked(tmp_path: Path) -> None:
    settings = replace(TINY_IMITATION, out=str(tmp_path)).check()
    path = run_module.train(settings)
    plain = load_ppo_agent(path)
    averaged = load_ppo_agent(path, symmetries=8)
    assert isinstance(plain, PolicyAgent) and isinstance(averaged, PolicyAgent)
    spec = GameSpec(5, 5, 3)
    board = np.full((5, 5), HIDDEN, np.int8)
    board[0, :2] = (1, 2)
    legal = (board == HIDDEN).ravel()
    for agent in plain, averaged:
        agent.reset(0, spec)
        agent.act(board, legal)
    views = board_views(8)
    with th.no_grad():
        expected = averaged_logits(plain.net, th.as_tensor(board[None], dtype=th.float32), 3, views)
    risk = 1.0 / (1.0 + np.exp(-expected[0, 0].numpy().astype(np.float64)))
    assert averaged.explain().risk is not None and plain.explain().risk is not None
    assert np.allclose(averaged.explain().risk[board == HIDDEN], risk[board == HIDDEN])
    assert not np.allclose(averaged.explain().risk, plain.explain().risk, equal_nan=True)
    with pytest.raises(ValueError, match="symmetries must be one of"):
        load_ppo_agent(path, symmetries=3)


class _FarCorner(th.nn.Module):
    """A 5x5 network whose own choice on every board is the far corner (4, 4)."""

    def __init__(self, net: th.nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, board: th.Tensor, mines: int) -> th.Tensor:
        logits: th.Tensor = self.net(board, mines).clone()
        logits[:, 0, 4, 4] -= 50.0  # P(mine) near 0: the safest cell
        return logits


def test_evaluate_net__first_click_is_the_rules_like_the_agents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mswp_gym.constants import FirstClick
    from mswp_gym.env import MinesweeperEnv
    from train import evaluate
    from train.network import BoardTrunk, CellNet

    th.manual_seed(0)
    net = _FarCorner(CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 2, 1)))
    first_actions: dict[int, int] = {}
    step = MinesweeperEnv.step

    def recording_step(env: MinesweeperEnv, action: int):  # type: ignore[no-untyped-def]
        first_actions.setdefault(id(env), int(action))
        return step(env, action)

    monkeypatch.setattr(MinesweeperEnv, "step", recording_step)
    for rule, expected in (FirstClick.SAFE, 0), (FirstClick.OPENING, 2 * 5 + 2):
        first_actions.clear()
        result = evaluate.evaluate_net(
            net,  # type: ignore[arg-type]  # a CellNet with one logit pushed
            GameSpec(5, 5, 3, rule),
            6,
            opening_weight=0.5,
        )
        assert result.games == 6
        assert sorted(set(first_actions.values())) == [expected]


def test_policy_agent__a_generalist_plays_8_views_of_a_board_that_is_not_square() -> None:
    generalist = load_ppo_agent("generalist", symmetries=8)
    assert isinstance(generalist, PolicyAgent)
    spec = GameSpec(16, 30, 99)
    assert generalist.refusal(spec) is None
    generalist.reset(0, spec)
    board = np.full((16, 30), HIDDEN, np.int8)
    board[:3, :3] = ((0, 1, 1), (1, 2, 2), (1, 2, 3))
    legal = (board == HIDDEN).ravel()
    action = generalist.act(board, legal)
    assert legal[action]
    with th.no_grad():
        expected = averaged_logits(
            generalist.net, th.as_tensor(board[None], dtype=th.float32), 99, board_views(8)
        )
    risk = 1.0 / (1.0 + np.exp(-expected[0, 0].numpy().astype(np.float64)))
    shown = generalist.explain().risk
    assert shown is not None
    assert np.allclose(shown[board == HIDDEN], risk[board == HIDDEN])


def test_policy_agent__boards_any_lets_a_one_board_network_play_another_board() -> None:
    import agents
    from mswp_gym.env import MinesweeperEnv

    spec = GameSpec(16, 30, 99)
    own = load_ppo_agent("beginner")
    assert isinstance(own, PolicyAgent)
    reason = own.refusal(spec)
    assert reason is not None and "boards=any" in reason
    with pytest.raises(ValueError, match="it cannot play 16x30 with 99"):
        own.reset(0, spec)
    anywhere = agents.make("ppo:beginner", boards="any")
    assert isinstance(anywhere, PolicyAgent)
    assert anywhere.refusal(spec) is None
    anywhere.reset(0, spec)
    assert (anywhere.rows, anywhere.cols, anywhere.mines) == (16, 30, 99)
    env = MinesweeperEnv(rows=16, cols=30, mines=99, first_click="safe")
    observation, info = env.reset(seed=3)
    for _ in range(5):
        action = anywhere.act(observation, info["action_mask"])
        assert info["action_mask"][action]
        observation, _, terminated, _, info = env.step(action)
        if terminated:
            break
    with pytest.raises(ValueError, match=r"unknown boards 'all'; choose one of trained, any"):
        agents.make("ppo:beginner", boards="all")


def test_first_best__lowest_index_within_the_tolerance() -> None:
    scores = np.array([-np.inf, 0.5, 2.0 - 4e-6, 1.0, 2.0, 2.0])
    assert first_best(scores, 0.0) == 4  # np.argmax: the exact best, its first copy
    assert first_best(scores, 1e-5) == 2
    assert first_best(scores, 2.0) == 1
    with pytest.raises(ValueError, match=r"tolerance must be >= 0, got -1e-05"):
        first_best(scores, -1e-5)
    with pytest.raises(ValueError, match="no finite score among 2"):
        first_best(np.array([-np.inf, -np.inf]), 0.0)


@pytest.mark.parametrize("clue", [1, 2, 3])
@pytest.mark.parametrize(
    ("checkpoint", "side", "mines"),
    [("net:generalist", 20, 80), ("net:intermediate", 16, 40)],
    ids=["generalist-20x20", "intermediate-16x16"],
)
def test_policy_agent__views_break_mirror_ties_by_the_lowest_index_not_by_rounding(
    clue: int, checkpoint: str, side: int, mines: int
) -> None:
    """A corner clue on a square board is its own transpose: mirror-image cells deserve one
    score, though the eight views' rounding leaves them apart (by about 5e-7 in this build, where
    ``np.argmax`` picks the far corner (side - 1, 0) or (side - 1, side - 1) for these networks
    and boards); the agent plays the lowest index of the cells tied with the best, (0, side - 1)."""
    agent = load_ppo_agent(checkpoint, symmetries=8)
    assert isinstance(agent, PolicyAgent)
    agent.reset(0, GameSpec(side, side, mines))
    board = np.full((side, side), HIDDEN, np.int8)
    board[0, 0] = clue
    legal = (board == HIDDEN).ravel()
    action = agent.act(board, legal)
    with th.no_grad():
        logits = averaged_logits(
            agent.net, th.as_tensor(board[None], dtype=th.float32), mines, board_views(8)
        )
        scores = action_scores(logits, agent.policy.opening_weight)[0].numpy()
    scores = np.where(legal, scores.astype(np.float64), -np.inf)
    mirrored = scores.reshape(side, side).T.ravel()
    assert np.allclose(scores, mirrored, rtol=0.0, atol=VIEW_TIE_TOLERANCE)  # symmetric scores
    tied = np.flatnonzero(scores >= scores.max() - VIEW_TIE_TOLERANCE)
    assert action == tied[0]
    assert divmod(action, side) == (0, side - 1)  # the far corners tie; the lowest index wins
