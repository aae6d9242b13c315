"""A trained checkpoint as an :class:`agents.base.Agent`: ``agents.make("ppo:PATH")``.

Any PPO/MaskablePPO zip loads (see :func:`load_ppo_agent`); this module plays the project's own
:class:`~train.policy.BoardPolicy` checkpoints, :mod:`train.sb3_agent` every other model.

``agents.make("ppo")`` loads the Beginner checkpoint shipped in ``train/checkpoints/``. The agent
sees only the visible board and the action mask; it plays the policy's deterministic action (the
legal cell with the highest score) unless built with ``deterministic=False``, in which case it
samples the policy's masked softmax with its own seeded Generator.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch as th

from agents.base import SeededAgent
from mswp_gym.constants import FLAGGED, HIDDEN
from mswp_gym.encoding import board_from_observation
from mswp_gym.spec import GameSpec
from train.checkpoint import SHIPPED_BEGINNER
from train.network import MINE_HEAD, safety_scores
from train.policy import BoardPolicy
from train.sb3_agent import SB3Agent, load_sb3_model


class PolicyAgent(SeededAgent):
    """Plays a :class:`~train.policy.BoardPolicy` checkpoint.

    Args:
        policy: the trained policy.
        seed: default seed for ``reset`` (used only when sampling).
        deterministic: play the best-scoring legal cell (True) or sample the policy.
        source: where the policy came from (for messages).
    """

    name = "ppo"

    def __init__(
        self, policy: BoardPolicy, seed: int | None = None, deterministic: bool = True,
        source: str = "policy",
    ) -> None:
        super().__init__(seed)
        self.policy = policy
        self.net = policy.cell_net().eval()
        self.rows, self.cols, self.mines = policy.board
        self.deterministic = bool(deterministic)
        self.source = source
        self._risk: np.ndarray | None = None
        self._beta = float(policy.action_net.log_beta.detach().exp())  # type: ignore[union-attr,operator]

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Start a new game.

        Raises:
            ValueError: ``spec`` is a board the network was not trained for (names both).
        """
        if spec is not None and (spec.rows, spec.cols, spec.mines) != (
                self.rows, self.cols, self.mines):
            raise ValueError(
                f"checkpoint {self.source} was trained on {self.rows}x{self.cols} with "
                f"{self.mines} mines; it cannot play {spec.rows}x{spec.cols} with {spec.mines}"
            )
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
        legal = np.asarray(action_mask).ravel()[:cells].astype(bool)
        if legal.shape[0] != cells or not legal.any():
            raise ValueError(f"no legal reveal action in a mask of shape {np.shape(action_mask)}")
        with th.no_grad():
            logits = self.net(th.as_tensor(board[None], dtype=th.float32))
            scores = safety_scores(logits, self.policy.opening_weight)[0].numpy().astype(np.float64)
        unknown = (board == HIDDEN) | (board == FLAGGED)
        risk = 1.0 / (1.0 + np.exp(-logits[0, MINE_HEAD].numpy().astype(np.float64)))
        self._risk = np.where(unknown, risk, np.nan)
        scores = np.where(legal, scores, -np.inf)
        if self.deterministic:
            return int(np.argmax(scores))
        weights = np.exp(self._beta * (scores - scores.max()))
        return int(self.rng.choice(cells, p=weights / weights.sum()))

    def explain(self) -> dict[str, Any]:
        """``risk``: the network's P(mine) per unknown cell (NaN elsewhere); it proves nothing,
        so ``safe``/``mines`` are empty and ``certain`` is False."""
        return {"safe": set(), "mines": set(), "risk": self._risk, "certain": False}


def load_ppo_agent(path: str | Path | None = None, **kwargs: Any) -> PolicyAgent | SB3Agent:
    """An agent for a checkpoint zip or run folder (None: the shipped one).

    A :class:`~train.policy.BoardPolicy` checkpoint (what ``mswp-train`` writes) becomes a
    :class:`PolicyAgent` (with a risk map); any other PPO or MaskablePPO zip whose observation
    space is a Minesweeper env's becomes a :class:`~train.sb3_agent.SB3Agent`.

    Args:
        path: a ``.zip`` (``mswp-train``'s ``model*.zip`` or your own model), a run folder, or None.
        **kwargs: ``seed``, ``deterministic``.

    Raises:
        FileNotFoundError: no checkpoint at ``path`` (or the shipped one is missing).
        ValueError: not a readable PPO/MaskablePPO zip, or not a Minesweeper model.
        TypeError: an unknown keyword argument.
    """
    unknown = set(kwargs) - {"seed", "deterministic"}
    if unknown:
        raise TypeError(f"load_ppo_agent got unknown arguments {sorted(unknown)}; "
                        f"accepted: seed, deterministic")
    target = Path(path) if path is not None else SHIPPED_BEGINNER
    if path is None and not target.is_file():
        raise FileNotFoundError(f"the shipped Beginner checkpoint is missing at {str(target)!r}; "
                                f"train one with `python -m train --preset beginner`")
    model = load_sb3_model(target)
    if isinstance(model.policy, BoardPolicy):
        return PolicyAgent(model.policy, source=str(target), **kwargs)
    return SB3Agent(model, source=str(target), **kwargs)
