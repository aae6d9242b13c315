"""A trained network as an :class:`agents.base.Agent`: ``agents.make("net:NAME")``.

``net:NAME`` and ``rl:NAME`` load a shipped network (named in :mod:`agents.registry`),
``net:PATH``, ``rl:PATH`` and ``ppo:PATH`` a checkpoint zip or a training run folder. This module
plays :class:`~train.policy.BoardPolicy` checkpoints, :mod:`train.sb3_agent` any other model. The
agent sees the visible board and the mask and plays the legal cell with the highest score (or,
with ``deterministic=False``, samples the masked softmax); by default the first click is the
solver's for the game's rule, which the network never sees.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
import torch as th

from agents import registry
from agents.base import Explanation, SeededAgent, reveal_mask
from agents.solver.agent import rule_first_click
from mswp_gym.cells import to_index
from mswp_gym.choices import parse_choice
from mswp_gym.constants import is_unknown
from mswp_gym.encoding import board_from_observation
from mswp_gym.spec import GameSpec
from train.checkpoint import read_model, resolve_checkpoint
from train.device import Device, resolve_device
from train.network import MINE_HEAD, CellNet, action_scores
from train.policy import BoardPolicy
from train.sb3_agent import SB3Agent
from train.symmetry import VIEW_TIE_TOLERANCE, BoardView, averaged_logits, board_views, first_best

GENERALIST = registry.shipped_name("generalist")
"""The shipped network that plays any board of the classic game."""
NETWORK_OPTIONS = ("symmetries", "first_move", "boards", "device")
"""Keyword options of :func:`load_ppo_agent` that other SB3 models do not take."""


class FirstMove(StrEnum):
    """Who makes a game's first click (see the module docstring)."""

    RULE = "rule"
    """The solver's first click for the game's rule (when the game's spec is known)."""
    NETWORK = "network"
    """The network, like every later move."""


class Boards(StrEnum):
    """Which boards a network trained on one board may play (see :class:`PolicyAgent`)."""

    TRAINED = "trained"
    """Only the board it was trained on (a generalist plays any board)."""
    ANY = "any"
    """Any board of the classic game (the network is fully convolutional)."""


class PolicyAgent(SeededAgent):
    """Plays a :class:`~train.policy.BoardPolicy` checkpoint.

    Args:
        seed: default seed for ``reset`` (used only when sampling).
        deterministic: play the best-scoring legal cell (True) or sample the policy.
        source: where the policy came from (for messages).
        symmetries: average the logits over this many board symmetries (1, 2, 4 or 8); ties
            within :data:`~train.symmetry.VIEW_TIE_TOLERANCE` go to the lowest cell index.
        first_move: the solver's click for the rule (default) or the network's.
        boards: a one-board network plays its own board (default) or any, from each game's spec.
        device: ``cpu`` (default), ``cuda`` or ``auto``; near-tied moves may differ by device.

    Raises:
        ValueError: a bad ``symmetries``, ``first_move``, ``boards`` or ``device``.
    """

    name = "net"
    move_kind = "network move"
    """What a move is called where an agent that proves cells would say certain or a guess."""

    def __init__(
        self,
        policy: BoardPolicy,
        seed: int | None = None,
        deterministic: bool = True,
        source: str = "policy",
        symmetries: int = 1,
        first_move: FirstMove | str = FirstMove.RULE,
        boards: Boards | str = Boards.TRAINED,
        device: Device | str = Device.CPU,
    ) -> None:
        super().__init__(seed)
        self.boards = parse_choice(Boards, boards, "boards")
        self.device = resolve_device(device)
        self.policy = policy
        self.net = self._placed(policy)
        self.rows, self.cols, self.mines = policy.board
        self.deterministic = bool(deterministic)
        self.source = source
        self._risk: np.ndarray | None = None
        self._beta = float(policy.action_net.log_beta.detach().exp())  # type: ignore[operator]  # nn.Module attribute lookup
        self.symmetries = symmetries
        self.first_move = parse_choice(FirstMove, first_move, "first_move")
        self._views: tuple[BoardView, ...] = board_views(symmetries)

    def _placed(self, policy: BoardPolicy) -> CellNet:
        """``policy``'s network in eval mode on the agent's device: the policy's own modules on
        the CPU, a copy elsewhere (the policy itself stays where it was loaded)."""
        if self.device == Device.CPU:
            return policy.cell_net().eval()
        return policy.cell_net_copy(self.device)

    @property
    def any_board(self) -> bool:
        """Whether the network plays any board: a generalist (trained on many boards), or any
        network built with ``boards="any"``."""
        return self.boards == Boards.ANY or bool(getattr(self.policy, "any_board", False))

    def refusal(self, spec: GameSpec) -> str | None:
        """Why this network cannot play ``spec`` (another board for a one-board network, score
        mode, uncertain clues), or None if it can."""
        if spec.score_mode or not spec.exact_clues:
            return (
                f"checkpoint {self.source} was trained on the classic game (exact clues, the "
                f"game ends at a mine); it cannot play score mode or uncertain clues"
            )
        if not self.any_board and (spec.rows, spec.cols, spec.mines) != (
            self.rows,
            self.cols,
            self.mines,
        ):
            return (
                f"checkpoint {self.source} was trained on {self.rows}x{self.cols} with "
                f"{self.mines} mines; it cannot play {spec.rows}x{spec.cols} with "
                f"{spec.mines} ({GENERALIST} plays any board; boards=any lets this network try)"
            )
        return None

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Start a new game; a generalist network takes its board from ``spec``.

        Raises:
            ValueError: ``spec`` is a game the network cannot play (see :meth:`refusal`).
        """
        if spec is not None:
            reason = self.refusal(spec)
            if reason is not None:
                raise ValueError(reason)
            if self.any_board:
                self.rows, self.cols, self.mines = spec.rows, spec.cols, spec.mines
        super().reset(seed, spec)
        self._risk = None

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The chosen legal reveal action (never a masked one).

        Raises:
            ValueError: wrong board shape, or no legal reveal in ``action_mask``.
        """
        board = board_from_observation(observation)
        if board.shape != (self.rows, self.cols):
            raise ValueError(
                f"checkpoint {self.source} plays {self.rows}x{self.cols} boards, got an "
                f"observation of shape {board.shape}"
            )
        cells = self.rows * self.cols
        legal = reveal_mask(action_mask, self.rows, self.cols)
        with th.no_grad():
            board_tensor = th.as_tensor(board[None], dtype=th.float32, device=self.device)
            logits = averaged_logits(self.net, board_tensor, self.mines, self._views).cpu()
            scores = action_scores(logits, self.policy.opening_weight)[0].numpy().astype(np.float64)
        unknown = is_unknown(board)
        risk = 1.0 / (1.0 + np.exp(-logits[0, MINE_HEAD].numpy().astype(np.float64)))
        self._risk = np.where(unknown, risk, np.nan)
        if unknown.all():
            first = self._rule_first_click(legal)
            if first is not None:
                return first
        scores = np.where(legal, scores, -np.inf)
        if self.deterministic:
            return first_best(scores, VIEW_TIE_TOLERANCE if len(self._views) > 1 else 0.0)
        weights = np.exp(self._beta * (scores - scores.max()))
        return int(self.rng.choice(cells, p=weights / weights.sum()))

    def _rule_first_click(self, legal: np.ndarray) -> int | None:
        """The solver's first click for the game's rule, if ``first_move`` is ``rule``, the spec
        is known and the cell is legal; None otherwise (the network chooses)."""
        if self.first_move != FirstMove.RULE or self.spec is None:
            return None
        action = to_index(rule_first_click(self.spec), self.cols)
        return action if legal[action] else None

    def explain(self) -> Explanation:
        """``risk``: the network's P(mine) per unknown cell (NaN elsewhere); it proves nothing,
        so ``safe``/``mines`` are empty and ``certain`` is False."""
        return Explanation(risk=self._risk)


def load_net_agent(path: str | None = None, **kwargs: Any) -> PolicyAgent | SB3Agent:
    """``agents.make("net:NAME")``: a shipped imitation network, or ``net:PATH`` (a zip or a run
    folder); ``net`` alone is the shipped Beginner network. Options as :func:`load_ppo_agent`."""
    return load_ppo_agent(f"net:{path}" if path else "net", **kwargs)


def load_rl_agent(path: str | None = None, **kwargs: Any) -> PolicyAgent | SB3Agent:
    """``agents.make("rl:NAME")``: a shipped network learned from reward alone, or ``rl:PATH``;
    ``rl`` alone is the shipped Beginner one. Options as :func:`load_ppo_agent`."""
    return load_ppo_agent(f"rl:{path}" if path else "rl", **kwargs)


def load_ppo_named(path: str | None = None, **kwargs: Any) -> PolicyAgent | SB3Agent:
    """``agents.make("ppo:NAME")``: the older names (the aliases of :mod:`agents.registry`) and
    ``ppo:PATH``."""
    return load_ppo_agent(f"ppo:{path}" if path else "ppo", **kwargs)


def load_ppo_agent(path: str | Path | None = None, **kwargs: Any) -> PolicyAgent | SB3Agent:
    """An agent for a shipped name, a checkpoint zip or a training run folder.

    A :class:`~train.policy.BoardPolicy` checkpoint becomes a :class:`PolicyAgent`, any other
    (Maskable)PPO zip of a Minesweeper env a :class:`~train.sb3_agent.SB3Agent`. ``path``: what
    :func:`train.checkpoint.resolve_checkpoint` takes; ``kwargs``: :class:`PolicyAgent`'s, and
    ``torch_threads`` (default 1; None leaves torch's setting alone).

    Raises:
        ValueError: an unknown shipped name, or not a readable Minesweeper (Maskable)PPO zip.
        FileNotFoundError: no checkpoint at ``path``.
        TypeError: an unknown keyword argument.
    """
    accepted = ("seed", "deterministic", *NETWORK_OPTIONS, "torch_threads")
    unknown = set(kwargs) - set(accepted)
    if unknown:
        raise TypeError(
            f"load_ppo_agent got unknown arguments {sorted(unknown)}; "
            f"accepted: {', '.join(accepted)}"
        )
    threads = kwargs.pop("torch_threads", 1)
    if threads is not None:
        th.set_num_threads(int(threads))
    target = resolve_checkpoint(path)
    model = read_model(target)
    if isinstance(model.policy, BoardPolicy):
        return PolicyAgent(model.policy, source=str(target), **kwargs)
    extras = sorted(set(NETWORK_OPTIONS) & set(kwargs))
    if extras:
        raise TypeError(
            f"{', '.join(extras)} applies to mswp-train's own networks; {target} is another SB3 "
            f"model"
        )
    return SB3Agent(model, source=str(target), **kwargs)
