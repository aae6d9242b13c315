"""A fully-convolutional MaskablePPO policy: one action logit per cell, any small board.

The features extractor is the :class:`~train.network.BoardTrunk`; a 1x1 convolution gives each
cell its scores (:func:`~train.network.action_scores`), a pooled head the value, and the action net
scales the scores by a learned inverse temperature. Masks are applied by sb3-contrib's masked
distribution.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import gymnasium as gym
import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from train.network import MINE_HEAD, MOVE_HEAD, BoardTrunk, CellNet, action_scores

VALUE_LATENT = 64


def board_shape(observation_space: gym.Space[Any]) -> tuple[int, int]:
    """``(rows, cols)`` of a ``board`` observation space.

    Raises:
        ValueError: the space is not a 2-D Box (use ``obs_mode="board"``).
    """
    shape = getattr(observation_space, "shape", None)
    if not isinstance(observation_space, gym.spaces.Box) or shape is None or len(shape) != 2:
        raise ValueError(
            f"the board policy needs the (rows, cols) board observation (obs_mode='board'), "
            f"got {observation_space}"
        )
    return int(shape[0]), int(shape[1])


def env_mines(env: Any) -> int:
    """The mine count of a Minesweeper env: single (any wrappers), Gymnasium or SB3 vector.

    Raises:
        ValueError: ``env`` has no ``mines`` attribute anywhere.
    """
    try:
        if hasattr(env, "get_wrapper_attr"):  # a Gymnasium env under any wrappers
            return int(env.get_wrapper_attr("mines"))
        if hasattr(env, "unwrapped") and hasattr(env.unwrapped, "mines"):  # native vector env
            return int(env.unwrapped.mines)
        return int(env.get_attr("mines")[0])  # Gymnasium or SB3 vector envs
    except (AttributeError, IndexError, TypeError):
        raise ValueError(
            f"cannot read the mine count of {env!r}; pass "
            f"policy_kwargs=dict(features_extractor_kwargs=dict(mines=N))"
        ) from None


def board_policy_kwargs(env: Any, **extractor_kwargs: Any) -> dict[str, Any]:
    """``policy_kwargs`` for ``MaskablePPO(BoardPolicy, env, ...)``: the env's mine count.

    ``extractor_kwargs``: ``channels`` and ``blocks`` of :class:`BoardFeatures`.
    """
    return {"features_extractor_kwargs": {"mines": env_mines(env), **extractor_kwargs}}


class BoardFeatures(BaseFeaturesExtractor):
    """Board codes ``(B, rows, cols)`` -> per-cell features, flattened to ``(B, C*rows*cols)``.

    ``mines`` feeds the density plane (pass ``policy_kwargs=board_policy_kwargs(env)``);
    ``global_pool`` is read from checkpoints, which store it: only False is built.

    Raises:
        ValueError: no ``mines`` (the message shows how to pass it), not a board space, or
            ``global_pool=True``.
    """

    def __init__(
        self,
        observation_space: gym.Space[Any],
        mines: int | None = None,
        channels: int = 48,
        blocks: int = 4,
        global_pool: bool = False,
    ) -> None:
        if global_pool:
            raise ValueError("networks with global pooling are not supported; retrain without it")
        if mines is None:
            raise ValueError(
                "BoardPolicy needs the board's mine count; build the model with "
                "MaskablePPO(BoardPolicy, env, policy_kwargs=board_policy_kwargs(env)) "
                "(from train.policy), or policy_kwargs=dict(features_extractor_kwargs="
                "dict(mines=N))"
            )
        rows, cols = board_shape(observation_space)
        super().__init__(observation_space, features_dim=channels * rows * cols)
        self.rows, self.cols, self.channels, self.mines = rows, cols, channels, int(mines)
        self.trunk = BoardTrunk(mines, channels, blocks)

    def forward(self, observations: th.Tensor) -> th.Tensor:
        """See the class docstring."""
        features: th.Tensor = self.trunk(observations)
        return features.flatten(1)


class CellHeads(nn.Module):
    """Per-cell scores for the actor and a pooled latent for the critic (SB3's mlp_extractor slot).

    Args:
        channels, rows, cols: the trunk's feature shape.
        opening_weight: weight of P(opening) in the score.
        move_head: a third per-cell output, the expert's move, which then gives the actor's
            scores (:func:`train.network.action_scores`).
    """

    def __init__(
        self, channels: int, rows: int, cols: int, opening_weight: float, move_head: bool = False
    ) -> None:
        super().__init__()
        self.shape = (channels, rows, cols)
        self.opening_weight = float(opening_weight)
        self.cell_head = nn.Conv2d(channels, MOVE_HEAD + 1 if move_head else MOVE_HEAD, 1)
        self.value_head = nn.Sequential(nn.Linear(2 * channels, VALUE_LATENT), nn.ReLU())
        self.latent_dim_pi = rows * cols
        self.latent_dim_vf = VALUE_LATENT

    def _maps(self, features: th.Tensor) -> th.Tensor:
        return features.view(-1, *self.shape)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        """``(B, rows*cols)`` action scores (:func:`train.network.action_scores`)."""
        return action_scores(self.cell_head(self._maps(features)), self.opening_weight)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        """``(B, VALUE_LATENT)`` value features from mean- and max-pooled maps."""
        maps = self._maps(features)
        pooled = th.cat((maps.mean(dim=(2, 3)), maps.amax(dim=(2, 3))), dim=1)
        values: th.Tensor = self.value_head(pooled)
        return values

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """``(actor latent, critic latent)``."""
        return self.forward_actor(features), self.forward_critic(features)


class InverseTemperature(nn.Module):
    """``logits = exp(log_beta) * scores``: how sharply the policy prefers the safest cell."""

    def __init__(self, beta: float) -> None:
        super().__init__()
        self.log_beta = nn.Parameter(th.tensor(float(np.log(beta))))

    def forward(self, scores: th.Tensor) -> th.Tensor:
        """Scaled scores, same shape."""
        return scores * self.log_beta.exp()


class BoardPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy over ``Discrete(rows*cols)`` with a fully-convolutional network.

    ``MaskablePPO(BoardPolicy, env, policy_kwargs=board_policy_kwargs(env))``; ``env`` must give
    the ``board`` observation and reveal actions only. Extra keyword arguments (saved with the
    model): ``mines`` (required), ``channels``, ``blocks`` (through
    ``features_extractor_kwargs``), ``opening_weight``, ``beta`` (the initial inverse
    temperature), ``any_board`` (a generalist network) and ``move_head`` (a network that plays
    its move logits, :func:`train.network.action_scores`).
    """

    def __init__(
        self,
        observation_space: gym.Space[Any],
        action_space: gym.Space[Any],
        lr_schedule: Any,
        *args: Any,
        opening_weight: float = 0.05,
        beta: float = 3.0,
        any_board: bool = False,
        move_head: bool = False,
        **kwargs: Any,
    ) -> None:
        self.opening_weight = float(opening_weight)
        self.beta = float(beta)
        self.any_board = bool(any_board)
        self.move_head = bool(move_head)
        kwargs.setdefault("features_extractor_class", BoardFeatures)
        kwargs["ortho_init"] = False
        rows, cols = board_shape(observation_space)
        if not isinstance(action_space, gym.spaces.Discrete) or int(action_space.n) != rows * cols:
            raise ValueError(
                f"the board policy needs Discrete({rows * cols}) reveal actions (no flag actions), "
                f"got {action_space}"
            )
        kwargs["net_arch"] = []
        super().__init__(observation_space, action_space, lr_schedule, *args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        extractor = self.features_extractor
        assert isinstance(extractor, BoardFeatures)
        self.mlp_extractor = CellHeads(  # type: ignore[assignment]  # SB3 types it MlpExtractor
            extractor.channels, extractor.rows, extractor.cols, self.opening_weight, self.move_head
        )

    def _build(self, lr_schedule: Any) -> None:
        self._build_mlp_extractor()
        self.action_net = InverseTemperature(self.beta)
        self.value_net = nn.Linear(VALUE_LATENT, 1)
        self.optimizer = self.optimizer_class(
            self.parameters(),
            lr=lr_schedule(1),
            **self.optimizer_kwargs,  # type: ignore[call-arg]  # SB3: type[Optimizer], kwargs dict
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(
            opening_weight=self.opening_weight,
            beta=self.beta,
            any_board=self.any_board,
            move_head=self.move_head,
        )
        data.pop("net_arch", None)
        return data

    @property
    def board(self) -> tuple[int, int, int]:
        """``(rows, cols, mines)`` the network was built for."""
        extractor = self.features_extractor
        assert isinstance(extractor, BoardFeatures)
        return extractor.rows, extractor.cols, extractor.mines

    def cell_net(self) -> CellNet:
        """The trunk and per-cell head as one module (shares parameters with the policy)."""
        extractor = self.features_extractor
        assert isinstance(extractor, BoardFeatures)
        heads = self.mlp_extractor
        assert isinstance(heads, CellHeads)
        return CellNet(extractor.trunk, heads.cell_head)

    def cell_net_copy(self, device: th.device | str = "cpu") -> CellNet:
        """A detached copy of :meth:`cell_net` in eval mode on ``device`` (the CPU: for worker
        processes and evaluation; the policy's own device: for play in this process)."""
        return copy.deepcopy(self.cell_net()).to(device).eval()


CELL_HEAD_KEYS = ("mlp_extractor.cell_head.weight", "mlp_extractor.cell_head.bias")
"""The per-cell head's parameters: 2 output channels, or 3 with a move head."""


ADDED_BLOCK = re.compile(r"\.trunk\.blocks\.(\d+)\.(conv1|conv2)\.")
"""A trunk block's parameter key: its index and which convolution."""


def network_shape(policy: BoardPolicy) -> tuple[int, int]:
    """``(channels, blocks)`` of ``policy``'s trunk."""
    trunk = policy.cell_net().trunk
    return trunk.stem.out_channels, len(trunk.blocks)


def start_from(model: BaseAlgorithm, source: BaseAlgorithm, checkpoint: str) -> str:
    """Copy the network weights of ``source`` (read from ``checkpoint``) into ``model`` (a fresh
    optimizer and schedule), from any board: channels must match, and this run may have more
    blocks, which start as identities (their second convolution zero), so the network plays as
    before. The mine count and ``beta`` stay this run's; a new move head starts as the negated
    mine output (so the network first plays its safest cell). Returns a one-line note of what was
    copied.

    Raises:
        ValueError: the checkpoint's network has other channels or more blocks (the message gives
            both shapes and the flags that match the checkpoint).
    """
    target = model.policy
    policy = source.policy
    assert isinstance(policy, BoardPolicy) and isinstance(target, BoardPolicy)
    (channels, blocks), wanted = network_shape(policy), network_shape(target)
    if channels != wanted[0] or blocks > wanted[1]:
        raise ValueError(
            f"--init {checkpoint!r} is a network of {channels} channels x {blocks} blocks; this "
            f"run builds {wanted[0]} x {wanted[1]}: add --channels {channels} --blocks {blocks}, "
            f"or --init '' to start from random weights"
        )
    note = f"network initialised from {checkpoint}"
    if policy.board != target.board:
        note += f" (trained on rows, cols, mines = {policy.board}; this run plays {target.board})"
    weights = {
        key: value
        for key, value in policy.state_dict().items()
        if not key.startswith("action_net.")
    }
    fresh = target.state_dict()
    if blocks < wanted[1]:
        note += f" ({wanted[1] - blocks} block(s) added as identities)"
    for key, value in fresh.items():
        added = ADDED_BLOCK.search(key)
        if added is not None and int(added.group(1)) >= blocks:
            weights[key] = th.zeros_like(value) if added.group(2) == "conv2" else value
    for key in CELL_HEAD_KEYS:
        if key in weights and weights[key].shape[1:] == fresh[key].shape[1:]:
            merged = fresh[key].clone()
            shared = min(len(merged), len(weights[key]))
            merged[:shared] = weights[key][:shared]
            if shared <= MOVE_HEAD < len(merged):
                # The safest cell first: the network starts by playing its old ranking.
                merged[MOVE_HEAD] = -weights[key][MINE_HEAD]
            weights[key] = merged
    result = target.load_state_dict(weights, strict=False)
    missing = [key for key in result.missing_keys if not key.startswith("action_net.")]
    if missing or result.unexpected_keys:
        raise ValueError(
            f"--init {checkpoint!r} is not a network of this kind: missing {missing[:3]}, "
            f"unexpected {result.unexpected_keys[:3]}"
        )
    return note
