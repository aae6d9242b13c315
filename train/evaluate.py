"""Masked evaluation on fixed seeds: the learned policy (batched) and reference agents.

Seeds start at :data:`EVAL_SEED_BASE`, far from anything training uses, so an evaluation never
replays a training game. Every figure carries its sample size and a Wilson 95% interval.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch as th

from agents.solver.agent import rule_first_click
from common.stats import wilson_bounds
from mswp_gym.cells import to_index
from mswp_gym.config import GameConfig
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec
from train.network import CellNet, action_scores

EVAL_SEED_BASE = 1_000_000_000
"""First evaluation seed; game ``i`` of an evaluation uses ``EVAL_SEED_BASE + i``."""


@dataclass(frozen=True)
class WinRate:
    """Wins out of games, with its Wilson 95% interval and the wall time it took."""

    name: str
    wins: int
    games: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval."""
        return wilson_bounds(self.wins, self.games)

    def __str__(self) -> str:
        low, high = self.interval
        return (
            f"{self.name}: {self.rate:.1%} ({self.wins}/{self.games}, 95% CI "
            f"{low:.1%}-{high:.1%}, {self.seconds:.1f}s)"
        )


def eval_seeds(games: int) -> list[int]:
    """The fixed evaluation seeds."""
    return [EVAL_SEED_BASE + i for i in range(games)]


def make_env(spec: GameSpec) -> MinesweeperEnv:
    """A board-observation env for ``spec``."""
    return MinesweeperEnv(config=GameConfig.from_spec(spec))


def evaluate_net(
    net: CellNet, spec: GameSpec, games: int, opening_weight: float, name: str = "learned"
) -> WinRate:
    """Play ``games`` seeded games greedily with ``net`` (all at once, one call per move).

    The first click is the solver's for the rule (:func:`agents.solver.agent.rule_first_click`),
    as the agent (:class:`train.agent.PolicyAgent`) makes it by default; every later move is the
    legal cell with the highest score (the PPO policy's deterministic action); the mask comes
    from ``env.action_masks()``, so a masked action is never chosen.
    """
    start = time.perf_counter()
    envs = [make_env(spec) for _ in range(games)]
    observations = [
        env.reset(seed=seed)[0] for env, seed in zip(envs, eval_seeds(games), strict=True)
    ]
    live = list(range(games))
    wins = 0
    first = to_index(rule_first_click(spec), spec.cols)
    opening_move = True  # every board is blank before the first move
    net.eval()
    while live:
        batch = np.stack([observations[i] for i in live])
        masks = np.stack([envs[i].action_masks() for i in live])
        with th.no_grad():
            logits = net(th.as_tensor(batch, dtype=th.float32), spec.mines)
            scores = action_scores(logits, opening_weight)
        moves = np.where(masks, scores.numpy(), -np.inf).argmax(axis=1)
        if opening_move and masks[:, first].all():
            moves[:] = first
        opening_move = False
        still = []
        for slot, i in enumerate(live):
            observations[i], _, terminated, truncated, info = envs[i].step(int(moves[slot]))
            if terminated or truncated:
                wins += int(info["outcome"] == 1)
            else:
                still.append(i)
        live = still
    return WinRate(name, wins, games, time.perf_counter() - start)


def evaluate_agent(agent_name: str, spec: GameSpec, games: int) -> WinRate | None:
    """Win rate of ``agents.make(agent_name)`` on the evaluation seeds, or None if unavailable."""
    try:
        import agents

        agent = agents.make(agent_name)
    except (ImportError, ValueError, AttributeError):
        return None
    start = time.perf_counter()
    env = make_env(spec)
    wins = sum(agents.play_episode(env, agent, seed).won for seed in eval_seeds(games))
    return WinRate(agent_name, wins, games, time.perf_counter() - start)
