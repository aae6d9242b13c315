"""Wall time of one DAgger collection round with the learner playing in the workers or on the
training device (``play_on``, :mod:`train.played`), in one run.

    .venv/bin/python benchmarks/bench_collection.py --checkpoint expert --preset expert \\
        --games 30 --workers 2

The worker processes are started by an untimed round first. Then each way plays the same
number of games from the same seed, alternating, ``--repeats`` times,
with move labels (as the shipped recipes collect); the positions differ between the two ways
(their generators' draws fall in another order), so the script prints positions per second as
well as seconds. ``--device`` is where ``device`` play runs (``auto``: a CUDA GPU when torch sees
one). Compare the two columns of one run, not runs on a shared machine.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch as th

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mswp_gym.cli import OneLineParser
from mswp_gym.presets import preset
from mswp_gym.spec import GameSpec
from train.agent import checkpoint_path
from train.checkpoint import load_model
from train.imitation import Collector
from train.policy import BoardPolicy
from train.rollout import RolloutConfig


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", default="expert", help="a shipped name or a zip")
    parser.add_argument("--preset", default="expert", help="the board (first click safe)")
    parser.add_argument("--games", type=int, default=30, help="games per round")
    parser.add_argument("--workers", type=int, default=2, help="collection jobs")
    parser.add_argument("--repeats", type=int, default=2, help="rounds of each way")
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, "games", "workers", "repeats")
    try:
        board = preset(args.preset)
    except ValueError as error:
        parser.error(str(error))
    spec = GameSpec(board.rows, board.cols, board.mines, "safe")
    device = "cuda" if args.device == "auto" and th.cuda.is_available() else args.device
    device = "cpu" if device == "auto" else device
    th.set_num_threads(1)
    try:
        model = load_model(checkpoint_path(args.checkpoint), device=device)
    except (FileNotFoundError, ValueError) as error:
        parser.error(f"--checkpoint {args.checkpoint!r}: {error}")
    policy = model.policy
    assert isinstance(policy, BoardPolicy)
    config = RolloutConfig(labels="solver", move_labels=True)
    collector = Collector(args.workers)
    seconds: dict[str, list[float]] = {"workers": [], "device": []}
    positions: dict[str, list[int]] = {"workers": [], "device": []}
    try:
        # Untimed: start the worker processes (spawn and imports take seconds) before any round.
        warm = policy.cell_net_copy("cpu")
        collector.collect(warm, spec, args.workers, np.random.default_rng(2**32 - 1), config)
        for repeat in range(args.repeats):
            for way in ("workers", "device") if repeat % 2 == 0 else ("device", "workers"):
                net = policy.cell_net_copy(policy.device if way == "device" else "cpu")
                tick = time.perf_counter()
                rng = np.random.default_rng(repeat)
                found, _ = collector.collect(net, spec, args.games, rng, config, way)
                seconds[way].append(time.perf_counter() - tick)
                positions[way].append(len(found))
    finally:
        collector.close()
    print(
        f"{args.preset} {spec.rows}x{spec.cols}/{spec.mines}, {args.checkpoint}, "
        f"{args.games} games a round, {args.workers} workers, device play on {device}, "
        f"{args.repeats} rounds each"
    )
    print(f"{'play_on':<8} {'median s':>9} {'positions':>10} {'positions/s':>12}")
    for way in ("workers", "device"):
        median = statistics.median(seconds[way])
        count = statistics.median(positions[way])
        print(f"{way:<8} {median:>9.3f} {count:>10.0f} {count / median:>12.0f}")
    ratio = statistics.median(seconds["device"]) / statistics.median(seconds["workers"])
    print(f"device / workers wall time: {ratio:.2f}")


if __name__ == "__main__":
    main()
