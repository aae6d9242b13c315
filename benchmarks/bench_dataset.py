"""How fast ``python -m train.dataset`` labels positions, per preset, on this machine.

    python benchmarks/bench_dataset.py --games 50 --presets beginner,intermediate,expert

Writes one shard of ``--games`` solver games per preset (first click safe) into a temporary
folder, as the data set command does (:func:`train.shards.write_shard`: play, exact
probabilities, truth, compression, atomic write), and prints the positions, the wall seconds, the
positions per wall second and per CPU second of this process (``time.process_time``, which other
work on a busy machine does not inflate) of each, in one process.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchkit import preset_options

from train.shards import ShardPlan, parse_board, write_shard


def main(argv: list[str] | None = None) -> None:
    args, presets = preset_options(__file__, __doc__, argv)
    print(f"one shard of {args.games} solver games per preset (seed {args.seed})")
    print(f"{'preset':<13}{'positions':>10}{'seconds':>9}{'positions/s':>13}{'per CPU second':>17}")
    with tempfile.TemporaryDirectory() as folder:
        for name in presets:
            plan = ShardPlan(parse_board(name, "safe"), args.seed, args.games)
            started, cpu = time.perf_counter(), time.process_time()
            count = write_shard(Path(folder), plan, 0)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            print(
                f"{name:<13}{count:>10,}{seconds:>9.2f}{count / seconds:>13,.0f}"
                f"{count / cpu:>17,.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
