"""Time full score-mode games of the CS50 logic agent on big boards (the CS520 report's setting).

Wall-clock seconds per game (min / median / max over the seeds) and the mean agent seconds.
A "full game" is played in score mode: stepping on a mine does not end it, so the agent plays
until every safe cell is revealed, and the knowledge base sees the whole board. Targets on the
development machine: 100x100 with 2000 mines under 10 s, with 3000 mines under 30 s.

    python research/bench_logic_big.py                       # indexed engine, 100x100, 2000/3000
    python research/bench_logic_big.py --engine plain --size 30 --mines 180 270
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass

import numpy as np

from agents import LogicAgent, play_episode
from agents.logic.agent import ENGINES
from agents.logic.guessing import GUESS_POLICIES
from mswp_gym import MinesweeperEnv
from mswp_gym.spec import GameSpec


@dataclass(frozen=True)
class GameTiming:
    """One timed game."""

    seconds: float
    agent_seconds: float
    steps: int
    exploded: int
    sentences_peak: int


class CountingLogicAgent(LogicAgent):
    """A LogicAgent that remembers the most sentences its knowledge held after any move."""

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        super().reset(seed, spec)
        self.sentences_peak = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = super().act(observation, action_mask)
        assert self.ai is not None
        self.sentences_peak = max(self.sentences_peak, self.ai.sentence_count())
        return action


def timed_game(size: int, mines: int, guess: str, engine: str, seed: int) -> GameTiming:
    """Play one full score-mode game on a ``size x size`` board and time it."""
    env = MinesweeperEnv(rows=size, cols=size, mines=mines, score_mode=True)
    agent = CountingLogicAgent(guess=guess, engine=engine)
    start = time.perf_counter()
    result = play_episode(env, agent, seed)
    return GameTiming(
        seconds=time.perf_counter() - start,
        agent_seconds=result.agent_time,
        steps=result.steps,
        exploded=result.mines_exploded,
        sentences_peak=agent.sentences_peak,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--size", type=int, default=100, help="board side (default 100)")
    parser.add_argument("--mines", type=int, nargs="+", default=[2000, 3000], help="mine counts")
    parser.add_argument("--games", type=int, default=3, help="games per mine count (seeds 0..)")
    parser.add_argument("--guess", choices=GUESS_POLICIES, default="random")
    parser.add_argument("--engine", choices=sorted(ENGINES), default="indexed")
    args = parser.parse_args(argv)
    print(
        f"{args.size}x{args.size}, score mode, guess={args.guess}, engine={args.engine}, "
        f"{args.games} games per row (seeds 0..{args.games - 1})"
    )
    print(
        f"{'mines':>6} {'min s':>8} {'median s':>9} {'max s':>8} {'agent s':>8} {'steps':>7} "
        f"{'exploded':>9} {'peak sentences':>15}"
    )
    for mines in args.mines:
        games = [
            timed_game(args.size, mines, args.guess, args.engine, s) for s in range(args.games)
        ]
        print(
            f"{mines:>6} {min(g.seconds for g in games):>8.2f} "
            f"{statistics.median(g.seconds for g in games):>9.2f} "
            f"{max(g.seconds for g in games):>8.2f} "
            f"{statistics.mean(g.agent_seconds for g in games):>8.2f} "
            f"{statistics.mean(g.steps for g in games):>7.0f} "
            f"{statistics.mean(g.exploded for g in games):>9.1f} "
            f"{max(g.sentences_peak for g in games):>15}",
            flush=True,
        )


if __name__ == "__main__":
    main()
