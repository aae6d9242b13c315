"""Puzzles per CPU second, and how hard they are, per preset and task.

    python benchmarks/bench_puzzles.py --count 1000 --presets beginner,intermediate

Makes ``--count`` puzzles (seeds ``--seed`` onwards, any deduction class) per preset and task
with :func:`agents.puzzles.make_puzzle`; prints the puzzles per CPU second of this process
(``time.process_time``) and the share of each :class:`agents.puzzles.Deduction` class.
"""

from __future__ import annotations

import time
from collections import Counter

from benchkit import preset_options

from agents.puzzles import Deduction, PuzzleTask, make_puzzle
from mswp_gym.config import GameConfig


def main(argv: list[str] | None = None) -> None:
    args, presets = preset_options(
        __file__, __doc__, argv, "count", 1000, presets="beginner,intermediate"
    )
    print(f"{args.count} puzzles per preset and task (seed {args.seed}); class shares in %")
    print(f"{'preset':<13}{'task':<18}{'per s':>7}" + "".join(f"{d:>14}" for d in Deduction))
    for name in presets:
        config = GameConfig(preset=name)
        for task in PuzzleTask:
            started = time.process_time()
            classes = Counter(
                make_puzzle(task, args.seed + i, config).deduction for i in range(args.count)
            )
            rate = args.count / max(time.process_time() - started, 1e-9)
            shares = "".join(f"{100 * classes[d] / args.count:>14.1f}" for d in Deduction)
            print(f"{name:<13}{task:<18}{rate:>7.0f}{shares}", flush=True)


if __name__ == "__main__":
    main()
