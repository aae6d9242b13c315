"""Tests of move imitation: the solver player's moves as labels, the move head and its loss."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch as th
from tiny_training import TINY_BOARD, tweak

import agents
from agents.solver import SolverAgent
from mswp_gym.constants import HIDDEN, FirstClick
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec
from train import run as run_module
from train.agent import PolicyAgent, load_ppo_agent
from train.checkpoint import load_model
from train.dataset import (
    MOVE_ANY_SAFE,
    MOVE_NONE,
    PositionSet,
    load_positions,
    no_moves,
    save_positions,
)
from train.imitation import move_cross_entropy, move_targets, train_steps
from train.network import MINE_HEAD, MOVE_HEAD, BoardTrunk, CellNet, action_scores, safety_scores
from train.rollout import RolloutConfig, SolverMoves, collect_positions
from train.settings import TrainSettings

SPEC = GameSpec(5, 5, 3)


def _net(move_head: bool, seed: int = 0) -> CellNet:
    th.manual_seed(seed)
    return CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 3 if move_head else 2, 1)).eval()


@pytest.fixture(scope="module")
def labelled() -> PositionSet:
    positions, _ = collect_positions(
        _net(True), SPEC, 8, np.random.default_rng(0), RolloutConfig(move_labels=True)
    )
    return positions


def test_collect__every_position_gets_the_solver_players_move(labelled: PositionSet) -> None:
    assert labelled.move_cells.dtype == np.int32
    for board, mine, move in zip(
        labelled.boards, labelled.mine_targets, labelled.move_cells, strict=True
    ):
        hidden = board == HIDDEN
        certain = hidden & (mine == 0.0)
        if hidden.all():  # the first click: the solver's corner
            assert move == 0
        elif certain.any():
            assert move == MOVE_ANY_SAFE
        else:  # a guess: a hidden cell, the one a solver player picks
            assert move >= 0 and hidden.flat[move]
            player = SolverAgent(seed=0, spec=SPEC)
            risk = mine.flat[move]
            assert risk <= mine[hidden].min() + 0.5  # not a wild cell; ties may differ by seed
            assert player.act(board, hidden.ravel()) in np.flatnonzero(hidden)


def test_collect__without_move_labels_no_position_has_one() -> None:
    positions, _ = collect_positions(
        _net(False), SPEC, 4, np.random.default_rng(0), RolloutConfig(labels="truth")
    )
    assert (positions.move_cells == MOVE_NONE).all()
    with pytest.raises(ValueError, match="move labels need the solver"):
        collect_positions(
            _net(False),
            SPEC,
            1,
            np.random.default_rng(0),
            RolloutConfig(labels="truth", move_labels=True),
        )


def test_solver_moves__a_guess_is_what_the_solver_agent_plays() -> None:
    # 3x3, one mine, a 1 in the corner: no certain cell; the player's move is the label.
    board = np.full((3, 3), HIDDEN, np.int8)
    board[0, 0] = 1
    spec = GameSpec(3, 3, 1)
    mine = np.full((3, 3), 1 / 8, np.float32)
    label = SolverMoves(spec, np.random.default_rng(5))(board, mine, first_click=False)
    player = SolverAgent(spec=spec)
    player.reset(seed=int(np.random.default_rng(5).integers(2**31)), spec=spec)
    assert label == player.act(board, (board == HIDDEN).ravel())
    mine[2, 2] = 0.0
    assert SolverMoves(spec, np.random.default_rng(5))(board, mine, False) == MOVE_ANY_SAFE


def test_move_targets__one_hot_even_over_certain_cells_or_none() -> None:
    boards = np.full((3, 2, 2), HIDDEN, np.int8)
    mine = np.array([[[0.0, 0.5], [0.0, 0.5]], [[0.3, 0.3], [0.3, 0.3]], [[0, 0], [0, 0]]])
    masks = np.ones((3, 2, 2), bool)
    cells = np.array([MOVE_ANY_SAFE, 3, MOVE_NONE], np.int32)
    positions = PositionSet(
        boards, mine.astype(np.float32), masks, np.zeros_like(mine, np.float32), masks, cells
    )
    targets = move_targets(positions, np.arange(3))
    assert np.allclose(targets[0], [[0.5, 0.0], [0.5, 0.0]])
    assert np.allclose(targets[1], [[0, 0], [0, 1]])
    assert not targets[2].any()


def test_move_cross_entropy__ignores_masked_cells_and_unlabelled_positions() -> None:
    logits = th.tensor([[[0.0, 0.0], [0.0, 50.0]], [[9.0, 0.0], [0.0, 0.0]]])
    masks = th.tensor([[[True, True], [True, False]], [[True, True], [True, True]]])
    targets = th.tensor([[[1.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]])
    # The masked 50 does not count; the second position has no label.
    assert float(move_cross_entropy(logits, targets, masks)) == pytest.approx(np.log(3.0))


def test_train_steps__the_move_loss_falls_and_needs_a_move_head(labelled: PositionSet) -> None:
    net = _net(True, seed=1)
    optimizer = th.optim.Adam(net.parameters(), lr=1e-2)
    index = np.arange(len(labelled))
    targets = th.as_tensor(move_targets(labelled, index))
    masks = th.as_tensor(labelled.mine_masks)

    def move_loss() -> float:
        with th.no_grad():
            logits = net(th.as_tensor(labelled.boards, dtype=th.float32))
        return float(move_cross_entropy(logits[:, MOVE_HEAD], targets, masks))

    before = move_loss()
    train_steps(net, optimizer, labelled, 60, 32, np.random.default_rng(0), move_weight=1.0)
    assert move_loss() < before
    with pytest.raises(ValueError, match="needs a network with a move head"):
        train_steps(_net(False), optimizer, labelled, 1, 4, np.random.default_rng(0), 1.0)


def test_action_scores__a_move_head_plays_its_move_logits() -> None:
    logits = th.randn(2, 3, 4, 4)
    assert th.equal(action_scores(logits, 0.05), logits[:, MOVE_HEAD].flatten(1))
    assert th.equal(action_scores(logits[:, :2], 0.05), safety_scores(logits[:, :2], 0.05))


def test_dataset__move_labels_round_trip_and_format_1_loads_without_them(
    labelled: PositionSet, tmp_path: Path
) -> None:
    save_positions(tmp_path / "v2.npz", labelled, {"rows": 5})
    again, _ = load_positions(tmp_path / "v2.npz")
    assert np.array_equal(again.move_cells, labelled.move_cells)
    old = {name: getattr(labelled, name) for name in ("boards", "mine_targets", "mine_masks")}
    old |= {"open_targets": labelled.open_targets, "open_masks": labelled.open_masks}
    np.savez_compressed(tmp_path / "v1.npz", **old, meta=json.dumps({"format_version": 1}))
    v1, _ = load_positions(tmp_path / "v1.npz")
    assert np.array_equal(v1.move_cells, no_moves(len(labelled)))
    np.savez_compressed(tmp_path / "v9.npz", **old, meta=json.dumps({"format_version": 9}))
    with pytest.raises(ValueError, match=r"v9\.npz.* format 9, expected one of 1, 2"):
        load_positions(tmp_path / "v9.npz")


TINY = tweak(
    TINY_BOARD,
    imitation__games_per_round=8,
    imitation__gradient_steps=3,
    imitation__batch_size=16,
    imitation__rounds=1,
    eval_games=4,
    algo="imitation",
    imitation__move_weight=1.0,
)


def test_train__a_move_head_run_gives_an_agent_that_plays_its_moves(tmp_path: Path) -> None:
    run_dir = run_module.train(replace(TINY, out=str(tmp_path)).check())
    policy = load_model(run_dir).policy
    assert policy.move_head and policy.mlp_extractor.cell_head.out_channels == 3
    positions, _ = load_positions(next(run_dir.glob("positions-*.npz")))
    assert (positions.move_cells != MOVE_NONE).all()
    agent = load_ppo_agent(run_dir)
    env = MinesweeperEnv(rows=5, cols=5, mines=3)
    assert agents.play_episode(env, agent, 0).steps >= 1
    board = np.full((5, 5), HIDDEN, np.int8)
    board[4, 4] = 1  # past the first click, which follows the rule
    legal = (board == HIDDEN).ravel()
    with th.no_grad():
        logits = agent.net(th.as_tensor(board[None], dtype=th.float32))
    scores = np.where(legal, logits[0, MOVE_HEAD].flatten().numpy(), -np.inf)
    assert agent.act(board, legal) == int(np.argmax(scores))


def test_start_from__adds_or_drops_the_move_head(tmp_path: Path) -> None:
    plain = run_module.train(
        tweak(TINY, out=str(tmp_path / "a"), imitation__move_weight=0.0).check()
    )
    moving = run_module.train(replace(TINY, out=str(tmp_path / "b"), init=str(plain)).check())
    head = "mlp_extractor.cell_head.weight"
    source, target = load_model(plain), load_model(moving)
    run_module.start_from(target, source, "plain")
    grown = target.policy.state_dict()[head]
    assert th.equal(grown[:MOVE_HEAD], source.policy.state_dict()[head])
    # a new move output starts as the negated mine output: the safest cell first
    assert th.equal(grown[MOVE_HEAD], -source.policy.state_dict()[head][MINE_HEAD])
    bias = "mlp_extractor.cell_head.bias"
    assert th.equal(
        target.policy.state_dict()[bias][MOVE_HEAD], -source.policy.state_dict()[bias][MINE_HEAD]
    )
    boards = th.as_tensor(
        np.random.default_rng(0).choice([HIDDEN, 0, 1, 2], size=(8, 5, 5)), dtype=th.float32
    )
    with th.no_grad():
        old_logits = source.policy.cell_net()(boards)
        new_logits = target.policy.cell_net()(boards)
    # the move logit of every cell is the log-odds that it is safe under the old network
    assert th.allclose(new_logits[:, MOVE_HEAD], -old_logits[:, MINE_HEAD], atol=1e-5)
    assert not th.allclose(old_logits[:, MINE_HEAD], old_logits[:, MINE_HEAD].mean())
    run_module.start_from(source, target, "moving")
    assert th.equal(source.policy.state_dict()[head], grown[:MOVE_HEAD])


def test_settings__bad_move_weight_is_refused() -> None:
    from train.arguments import settings_from_args

    with pytest.raises(ValueError, match=r"imitation.move_weight must be in \[0, inf\)"):
        tweak(TrainSettings(), imitation__move_weight=-1.0).check()
    with pytest.raises(ValueError, match=r"belongs to \[imitation\], which algo ppo does not read"):
        settings_from_args(["--algo", "ppo", "--imitation.move-weight", "1"])


class _Prefers(th.nn.Module):
    """A network made to score one cell far above the others, in its move and mine heads."""

    def __init__(self, net: th.nn.Module, cell: tuple[int, int]) -> None:
        super().__init__()
        self.net, self.cell = net, cell

    def forward(self, board: th.Tensor, mines: int | th.Tensor) -> th.Tensor:
        logits: th.Tensor = self.net(board, mines).clone()
        row, col = self.cell
        logits[:, MINE_HEAD, row, col] -= 50.0
        if logits.shape[1] > MOVE_HEAD:
            logits[:, MOVE_HEAD, row, col] += 50.0
        return logits


def test_policy_agent__takes_the_solvers_first_click_for_the_rule_unless_told_not_to(
    tmp_path: Path,
) -> None:
    moving_path = run_module.train(replace(TINY, out=str(tmp_path / "m")).check())
    plain_path = run_module.train(
        tweak(TINY, out=str(tmp_path / "p"), imitation__move_weight=0.0).check()
    )
    board = np.full((5, 5), HIDDEN, np.int8)
    every_cell = np.ones(25, bool)
    corner, opening_cell, learned = 0, 2 * 5 + 2, 4 * 5 + 4
    for path in moving_path, plain_path:
        by_rule = load_ppo_agent(path)
        by_network = load_ppo_agent(path, first_move="network")
        assert isinstance(by_rule, PolicyAgent) and isinstance(by_network, PolicyAgent)
        # a network whose own first click is the far corner, so that both rule cases can fail
        by_rule.net = by_network.net = _Prefers(by_rule.net, (4, 4))
        for rule, expected in (FirstClick.SAFE, corner), (FirstClick.OPENING, opening_cell):
            by_rule.reset(0, GameSpec(5, 5, 3, rule))
            by_network.reset(0, GameSpec(5, 5, 3, rule))
            assert by_rule.act(board, every_cell) == expected
            assert by_network.act(board, every_cell) == learned
    with pytest.raises(ValueError, match="unknown first_move 'x'; choose one of rule, network"):
        load_ppo_agent(moving_path, first_move="x")
    moving = load_ppo_agent(moving_path)
    assert isinstance(moving, PolicyAgent)
    solver_cell = opening_cell
    # an illegal solver cell leaves the choice to the network; later moves are the network's
    moving.reset(0, GameSpec(5, 5, 3, FirstClick.OPENING))
    no_solver_cell = every_cell.copy()
    no_solver_cell[solver_cell] = False
    assert moving.act(board, no_solver_cell) != solver_cell
    played = board.copy()
    played[0, 0] = 1
    with th.no_grad():
        later = moving.net(th.as_tensor(played[None], dtype=th.float32), 3)[0, MOVE_HEAD]
    legal = every_cell.copy()
    legal[0] = False
    later_scores = np.where(legal, later.flatten().numpy(), -np.inf)
    assert moving.act(played, legal) == int(np.argmax(later_scores))
