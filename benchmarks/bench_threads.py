"""How many torch threads for imitation's gradient steps: position-gradients/s per thread count.

    python benchmarks/bench_threads.py --board expert --size 48x6 --precision bfloat16 \
        --threads 1,2 --steps 40 --repeats 3

A DAgger round collects first (the ``workers`` processes play and label while the trainer
waits) and then takes its Adam steps alone on the machine, so the trainer's thread count is a
choice for the gradient phase by itself. This benchmark builds one imitation data set (``--games``
games played by a collector network, every position labelled by the exact solver, as
``benchmarks/bench_network_size.py`` does) and times :func:`train.imitation.train_steps` of one
network with each ``--threads`` count in turn, ``--repeats`` times, interleaved (1, 2, 1, 2, ...)
so that the machine's other load falls on every count alike. Each timing starts from the same
weights and the same minibatches, after one warm-up step.

It prints, per thread count, position-gradients per wall second (wall time: threads add CPU
time, the run waits for wall time) for every repeat and their median, and the median over the
repeats of each count's speed relative to the first count's in the same repeat (a ratio within
one run, which a shared machine disturbs less than absolute figures). Run it with nothing else
busy, as DAgger's gradient phase runs; beside another job two threads fight it for the cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass

import numpy as np
import torch as th

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_network_size import (
    BadInput,
    NetworkSize,
    collector_network,
    fresh_network,
    parse_board,
    parse_precisions,
    parse_sizes,
)

from mswp_gym.spec import GameSpec
from train.dataset import PositionSet
from train.imitation import train_steps
from train.precision import Precision
from train.rollout import RolloutConfig, collect_positions

MAX_THREADS = 64
"""The largest thread count accepted (a typo guard, not a hardware limit)."""


@dataclass(frozen=True)
class ThreadTiming:
    """One thread count's speed in every repeat, and relative to the first count's."""

    threads: int
    position_gradients_per_second: tuple[float, ...]
    """Minibatch positions times steps per wall second, one figure per repeat."""
    ratios: tuple[float, ...]
    """This count's speed over the first count's, in the same repeat."""

    @property
    def median_speed(self) -> float:
        """The median of the repeats' position-gradients/s."""
        return float(np.median(self.position_gradients_per_second))

    @property
    def median_ratio(self) -> float:
        """The median of the per-repeat ratios to the first thread count."""
        return float(np.median(self.ratios))


def parse_threads(text: str) -> tuple[int, ...]:
    """Thread counts, comma-separated, each in 1..MAX_THREADS, no repeats."""
    counts: list[int] = []
    for entry in text.split(","):
        try:
            count = int(entry.strip())
        except ValueError:
            raise BadInput(
                f"bad thread count {entry.strip()!r} in --threads; expected integers such as 1,2"
            ) from None
        if not 1 <= count <= MAX_THREADS:
            raise BadInput(f"thread count {count} in --threads must be in 1..{MAX_THREADS}")
        if count in counts:
            raise BadInput(f"thread count {count} is listed twice in --threads")
        counts.append(count)
    return tuple(counts)


def time_steps(
    size: NetworkSize,
    spec: GameSpec,
    positions: PositionSet,
    args: argparse.Namespace,
    precision: Precision,
    threads: int,
) -> float:
    """Position-gradients per wall second of ``args.steps`` steps on ``threads`` torch threads.

    The weights and the minibatches depend on ``args.seed`` alone, so every call times the same
    work; one untimed warm-up step comes first.
    """
    previous = th.get_num_threads()
    th.set_num_threads(threads)
    try:
        th.manual_seed(args.seed)
        net = fresh_network(size, spec)
        optimizer = th.optim.Adam(net.parameters(), lr=1e-3)
        rng = np.random.default_rng([args.seed, 2])
        train_steps(net, optimizer, positions, 1, args.batch_size, rng, precision=precision)
        start = time.perf_counter()
        train_steps(
            net, optimizer, positions, args.steps, args.batch_size, rng, precision=precision
        )
        seconds = time.perf_counter() - start
    finally:
        th.set_num_threads(previous)
    return args.steps * args.batch_size / seconds


def parse_args(
    argv: list[str] | None,
) -> tuple[argparse.Namespace, GameSpec, NetworkSize, Precision, tuple[int, ...]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="expert", help="a preset or ROWSxCOLS/MINES")
    parser.add_argument("--size", default="48x6", help="CHANNELSxBLOCKS of the network timed")
    parser.add_argument("--precision", default="bfloat16", help="float32 or bfloat16")
    parser.add_argument("--threads", default="1,2", help="torch thread counts, comma-separated")
    parser.add_argument("--collector", default="auto", help="auto, fresh, a shipped name or a zip")
    parser.add_argument("--games", type=int, default=20, help="games of the data set")
    parser.add_argument("--steps", type=int, default=40, help="timed Adam steps per timing")
    parser.add_argument("--repeats", type=int, default=3, help="timings per thread count")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for name in ("games", "steps", "repeats", "batch_size"):
        if getattr(args, name) < 1:
            raise BadInput(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    sizes = parse_sizes(args.size)
    if len(sizes) != 1:
        raise BadInput(f"--size takes one CHANNELSxBLOCKS, got {args.size!r}")
    precisions = parse_precisions(args.precision)
    if len(precisions) != 1:
        raise BadInput(f"--precision takes one name, got {args.precision!r}")
    return args, parse_board(args.board), sizes[0], precisions[0], parse_threads(args.threads)


def run(argv: list[str] | None = None) -> list[ThreadTiming]:
    """Build the data set, time every thread count, print the table; returns the rows."""
    args, spec, size, precision, thread_counts = parse_args(argv)
    th.set_num_threads(1)
    collector, described = collector_network(args.collector, spec, args.seed)
    positions, _ = collect_positions(
        collector,
        spec,
        args.games,
        np.random.default_rng([args.seed, 0]),
        RolloutConfig(epsilon=0.0, rescue=1.0),
    )
    print(
        f"board {spec.rows}x{spec.cols}/{spec.mines}, first click safe; collector {described}; "
        f"{len(positions):,} positions from {args.games} games; network {size.label}, "
        f"{precision.value}; {args.steps} timed steps of {args.batch_size} per timing, "
        f"{args.repeats} repeats; {os.cpu_count()} CPUs"
    )
    speeds: dict[int, list[float]] = {count: [] for count in thread_counts}
    for _ in range(args.repeats):
        for count in thread_counts:
            speeds[count].append(time_steps(size, spec, positions, args, precision, count))
    first = speeds[thread_counts[0]]
    rows = [
        ThreadTiming(
            count,
            tuple(speeds[count]),
            tuple(s / f for s, f in zip(speeds[count], first, strict=True)),
        )
        for count in thread_counts
    ]
    print(
        f"{'threads':>7}  {'position-gradients/s (median)':>29}  "
        f"{'x first count (median)':>22}  each repeat"
    )
    for row in rows:
        each = ", ".join(f"{s:,.0f}" for s in row.position_gradients_per_second)
        print(f"{row.threads:>7}  {row.median_speed:>29,.0f}  {row.median_ratio:>22.2f}  {each}")
    return rows


def main(argv: list[str] | None = None) -> None:
    """:func:`run`, with a bad value as one line on stderr and exit status 2."""
    try:
        run(argv)
    except BadInput as error:
        print(f"bench_threads.py: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
