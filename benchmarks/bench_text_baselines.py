"""The reference agents played through the text protocol: win rates, and parity with arrays.

    python benchmarks/bench_text_baselines.py --games 2000 --presets beginner

Each agent (``logic`` with ``guess=global``, and the solver) plays seeds ``--seed`` onwards on
each preset (first click ``safe``) twice: through ``Minesweeper-Text-v0`` with
:func:`agents.text_play.play_text_episode` (it reads the board parsed from the text and writes
its move as a reply) and through the array env. Prints the win rate through text with its Wilson
95% interval, the games whose outcome differs between the two paths, the replies the text env
refused, and the CPU seconds of the text path.
"""

from __future__ import annotations

import time

import gymnasium as gym
from benchkit import preset_options

import agents
import mswp_gym  # noqa: F401  (registers the env ids)
from agents.episode import play_episode
from agents.text_play import play_text_episode
from common.stats import wilson_interval
from mswp_gym.text.env import TextMinesweeperEnv
from mswp_gym.text.protocol import TextRules

AGENTS = {"logic:global": ("logic", {"guess": "global"}), "solver": ("solver", {})}


def main(argv: list[str] | None = None) -> None:
    args, presets = preset_options(__file__, __doc__, argv, default=500, presets="beginner")
    seeds = range(args.seed, args.seed + args.games)
    print(f"{args.games} games per agent and preset, seeds {seeds.start}..{seeds.stop - 1}, safe")
    print(
        f"{'preset':<13}{'agent':<14}{'wins':>6}  {'rate [95% CI]':<22}{'differ':>7}"
        f"{'invalid':>8}{'text s':>8}"
    )
    for name in presets:
        text_env = TextMinesweeperEnv(preset=name, rules=TextRules(allow_flags=False))
        array_env = gym.make(f"Minesweeper-{name.capitalize()}-v0")
        for label, (agent_name, options) in AGENTS.items():
            agent = agents.make(agent_name, **options)
            started = time.process_time()
            games = [play_text_episode(text_env, agent, seed) for seed in seeds]
            seconds = time.process_time() - started
            arrays = [play_episode(array_env, agent, seed).won for seed in seeds]
            wins = sum(game.won for game in games)
            differ = sum(game.won != won for game, won in zip(games, arrays, strict=True))
            ci = wilson_interval(wins, len(games))
            rate = f"{100 * ci.estimate:.1f}% [{100 * ci.low:.1f}, {100 * ci.high:.1f}]"
            invalid = sum(game.invalid for game in games)
            print(
                f"{name:<13}{label:<14}{wins:>6}  {rate:<22}{differ:>7}{invalid:>8}{seconds:>8.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
