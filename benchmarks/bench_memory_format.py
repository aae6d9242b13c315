"""The trunk's compute layout: channels-last against PyTorch's default (contiguous) layout, on CPU.

    python benchmarks/bench_memory_format.py
    python benchmarks/bench_memory_format.py --boards 16x30/99 --repeats 5 --global-pool

:data:`train.network.COMPUTE_LAYOUT` sets the memory layout the trunk's convolutions run in. For
each board this times, with each layout in turn (alternating, ``--repeats`` times, the median
kept), the three ways the network is used:

- **1 view**: one board, no gradient (an agent's move, DAgger collection);
- **8 views**: eight boards, no gradient (an agent with ``symmetries=8``);
- **train step**: a minibatch of ``--batch`` boards, forward, backward and an Adam step (imitation).

It prints the milliseconds per call of each layout (CPU time of this process, which a shared
machine disturbs less than wall time), their ratio (above 1: channels-last is faster), and the
largest difference between the two layouts' logits (float rounding only). A fresh network of
``--channels`` x ``--blocks`` with random weights on random boards; one torch thread.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import torch as th
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import train.network as network
from train.generalist import parse_boards
from train.network import MOVE_HEAD, BoardTrunk, CellNet

LAYOUTS: tuple[tuple[str, th.memory_format], ...] = (
    ("default", th.contiguous_format),
    ("channels-last", th.channels_last),
)


@dataclass(frozen=True)
class Case:
    """One way the network is used: ``batch`` boards, with or without a training step."""

    name: str
    batch: int
    train: bool


def fail(message: str) -> NoReturn:
    """Exit with status 2 and ``message`` as one line on stderr (no usage text, no traceback)."""
    print(f"bench_memory_format.py: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def timed(call: Callable[[], object], calls: int) -> float:
    """CPU milliseconds per call of ``call``, over ``calls`` calls after one warm-up call."""
    call()
    start = time.process_time()
    for _ in range(calls):
        call()
    return (time.process_time() - start) / calls * 1000.0


def measure(net: CellNet, boards: th.Tensor, case: Case, calls: int) -> float:
    """Milliseconds per call of ``case`` with the layout currently set."""
    if not case.train:

        def forward() -> None:
            with th.no_grad():
                net(boards)

        return timed(forward, calls)
    optimiser = th.optim.Adam(net.parameters(), lr=1e-4)

    def step() -> None:
        loss = net(boards).float().pow(2).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()

    return timed(step, calls)


def run_board(
    rows: int, cols: int, mines: int, args: argparse.Namespace, generator: th.Generator
) -> None:
    net = CellNet(
        BoardTrunk(mines, args.channels, args.blocks, args.global_pool),
        nn.Conv2d(args.channels, MOVE_HEAD + 1, 1),
    )
    cases = (
        Case("1 view", 1, False),
        Case("8 views", 8, False),
        Case(f"train step ({args.batch})", args.batch, True),
    )
    for case in cases:
        boards = th.randint(-2, 9, (case.batch, rows, cols), generator=generator).float()
        calls = max(2, args.work // (case.batch * rows * cols))
        times: dict[str, list[float]] = {name: [] for name, _ in LAYOUTS}
        for _ in range(args.repeats):
            for name, layout in LAYOUTS:
                network.COMPUTE_LAYOUT = layout
                times[name].append(measure(net, boards, case, calls))
        logits = {}
        with th.no_grad():
            for name, layout in LAYOUTS:
                network.COMPUTE_LAYOUT = layout
                logits[name] = net(boards)
        network.COMPUTE_LAYOUT = th.channels_last
        default = statistics.median(times["default"])
        last = statistics.median(times["channels-last"])
        difference = float((logits["default"] - logits["channels-last"]).abs().max())
        print(
            f"{rows}x{cols}/{mines:<4} {case.name:<18} {default:9.2f} {last:9.2f} "
            f"{default / last:6.2f}x {difference:10.1e}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", default="9x9/10,16x16/40,16x30/99", help="ROWSxCOLS/MINES,...")
    parser.add_argument("--channels", type=int, default=48)
    parser.add_argument("--blocks", type=int, default=4)
    parser.add_argument("--global-pool", action="store_true")
    parser.add_argument("--batch", type=int, default=256, help="boards per training step")
    parser.add_argument("--repeats", type=int, default=3, help="timings per layout (median)")
    parser.add_argument(
        "--work", type=int, default=400_000, help="board cells per timing (sets the calls)"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for label, value in (
        ("channels", args.channels),
        ("batch", args.batch),
        ("repeats", args.repeats),
        ("work", args.work),
    ):
        if value < 1:
            fail(f"--{label}={value} must be >= 1")
    if args.blocks < 0 or (args.global_pool and args.blocks < 1):
        fail(f"--blocks={args.blocks} must be >= 0 (>= 1 with --global-pool)")
    try:
        specs = parse_boards(args.boards, "safe")
    except ValueError as error:
        fail(f"--boards: {error}")
    th.set_num_threads(1)
    th.manual_seed(args.seed)
    generator = th.Generator().manual_seed(args.seed)
    pool = " + global pool" if args.global_pool else ""
    print(
        f"network {args.channels}x{args.blocks}{pool}, 1 torch thread, CPU ms per call "
        f"(median of {args.repeats})"
    )
    print(f"{'board':<11} {'use':<18} {'default':>9} {'ch-last':>9} {'ratio':>7} {'max diff':>10}")
    for spec in specs:
        run_board(spec.rows, spec.cols, spec.mines, args, generator)


if __name__ == "__main__":
    main()
