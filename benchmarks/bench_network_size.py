"""Which network size for a board: accuracy against cost, on one fixed imitation data set.

    python benchmarks/bench_network_size.py --board beginner --sizes 16x2,32x3,48x4,64x6

One data set for every size: ``--train-games`` and ``--test-games`` games (separate random
streams) played by a collector network, every position labelled with the exact solver's mine
probabilities by the training code itself (:func:`train.rollout.collect_positions`, with every
losing move replaced by a truly safe one, so games run to their end). The collector is the shipped
network of the board when there is one (``--collector auto``), a shipped name or checkpoint, or
``fresh`` (random weights).

Each size ``CHANNELSxBLOCKS`` then trains a fresh :class:`train.network.CellNet` with the training
loop of imitation (:func:`train.imitation.train_steps`: Adam, random symmetries, masked
cross-entropy) for ``--steps`` minibatches, and is measured on the held-out positions (every
position after the first click):

- **safest-cell rate**: how often the cell the network rates safest is one of the safest cells
  by the solver's exact probabilities (ties within 1e-9), with a Wilson 95% interval over the
  positions (positions of one game are correlated, so the interval is optimistic);
- **excess risk**: the mean solver probability of that cell minus the lowest one;
- **loss**: the masked cross-entropy of the mine head against the solver's probabilities;
- **cost**: position-gradients per CPU second (``time.process_time``, which a shared machine
  disturbs less than wall time) and the parameter count;
- per ``--precisions`` entry (:class:`train.precision.Precision`: ``float32``, ``bfloat16``) a row
  per size, trained from the same weights on the same minibatches, so a row pair shows what the
  arithmetic changes in accuracy and in cost;
- optionally ``--games`` greedy games per size (Wilson 95%), first click safe.

The last line names the cheapest row (size and precision; most position-gradients/s) whose win
rate (the safest-cell rate when no games are played) lies in the best row's 95% interval.
Everything is seeded by ``--seed``; one torch thread.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch as th
from torch import nn

from eval.stats import Interval, wilson_interval
from mswp_gym.board import Board
from mswp_gym.constants import HIDDEN, WON
from mswp_gym.generators import make_generator
from mswp_gym.presets import PRESETS
from mswp_gym.spec import GameSpec
from train.checkpoint import SHIPPED_DIR, SHIPPED_NAMES, load_model, shipped_checkpoint
from train.dataset import PositionSet
from train.generalist import parse_boards
from train.imitation import masked_bce, train_steps
from train.network import MINE_HEAD, BoardTrunk, CellNet
from train.policy import BoardPolicy
from train.precision import Precision
from train.rollout import RolloutConfig, choose_moves, collect_positions

_SIZE = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*$")
TIE = 1e-9
"""Two solver probabilities within this are equally safe."""
OPENING_WEIGHT = RolloutConfig().opening_weight


class BadInput(ValueError):
    """A command-line value the benchmark cannot use (one line, exit status 2)."""


@dataclass(frozen=True)
class NetworkSize:
    """A trunk shape: feature maps per convolution and residual blocks."""

    channels: int
    blocks: int

    @property
    def label(self) -> str:
        return f"{self.channels}x{self.blocks}"


@dataclass(frozen=True)
class SizeResult:
    """One size's accuracy on the held-out positions and its cost."""

    size: NetworkSize
    parameters: int
    position_gradients_per_cpu_second: float
    train_cpu_seconds: float
    loss: float
    safest: Interval
    safest_hits: int
    positions: int
    excess_risk: float
    games_won: int
    games: int
    precision: Precision = Precision.FLOAT32
    """The arithmetic of the training steps (the measurements are float32)."""

    @property
    def label(self) -> str:
        """The size, and the precision unless float32."""
        if self.precision == Precision.FLOAT32:
            return self.size.label
        return f"{self.size.label} {self.precision.value}"


def parse_precisions(text: str) -> tuple[Precision, ...]:
    """Precision names, comma-separated, no repeats."""
    found: list[Precision] = []
    allowed = ", ".join(p.value for p in Precision)
    for entry in text.split(","):
        try:
            precision = Precision(entry.strip())
        except ValueError:
            raise BadInput(
                f"bad precision {entry.strip()!r} in --precisions; choose from {allowed}"
            ) from None
        if precision in found:
            raise BadInput(f"precision {entry.strip()!r} is listed twice in --precisions")
        found.append(precision)
    return tuple(found)


def parse_sizes(text: str) -> tuple[NetworkSize, ...]:
    """``CHANNELSxBLOCKS`` entries, comma-separated (channels >= 1, blocks >= 0), no repeats."""
    sizes: list[NetworkSize] = []
    for entry in text.split(","):
        match = _SIZE.match(entry)
        if match is None:
            raise BadInput(
                f"bad size {entry.strip()!r} in --sizes; expected CHANNELSxBLOCKS, e.g. 32x3"
            )
        size = NetworkSize(int(match.group(1)), int(match.group(2)))
        if size.channels < 1 or size.channels > 512 or size.blocks > 32:
            raise BadInput(
                f"bad size {entry.strip()!r} in --sizes; "
                "channels must be in 1..512, blocks in 0..32"
            )
        if size in sizes:
            raise BadInput(f"size {entry.strip()!r} is listed twice in --sizes")
        sizes.append(size)
    return tuple(sizes)


def parse_board(text: str) -> GameSpec:
    """A preset name or ``ROWSxCOLS/MINES``, first click safe."""
    if text.lower() in PRESETS:
        found = PRESETS[text.lower()]
        return GameSpec(found.rows, found.cols, found.mines, "safe")
    try:
        (spec,) = parse_boards(text, "safe")
    except ValueError as error:
        raise BadInput(f"--board: {error}; or one of {', '.join(PRESETS)}") from None
    return spec


def collector_network(name: str, spec: GameSpec, seed: int) -> tuple[CellNet, str]:
    """The network that plays the data set's games, and how it is described."""
    if name == "auto":
        preset = next(
            (
                p.name
                for p in PRESETS.values()
                if (p.rows, p.cols, p.mines) == (spec.rows, spec.cols, spec.mines)
            ),
            "",
        )
        name = preset if preset and (SHIPPED_DIR / f"{preset}.zip").is_file() else "fresh"
    if name == "fresh":
        th.manual_seed(seed)
        return fresh_network(NetworkSize(16, 2), spec).eval(), "fresh (random weights, 16x2)"
    path = shipped_checkpoint(name) if name in SHIPPED_NAMES else Path(name)
    if not path.is_file():
        raise BadInput(
            f"--collector {name!r} is neither auto, fresh, a shipped name "
            f"({', '.join(SHIPPED_NAMES)}) nor a checkpoint file"
        )
    policy = load_model(path).policy
    if not isinstance(policy, BoardPolicy):
        raise BadInput(f"--collector {name!r} is not a board-policy checkpoint")
    return policy.cell_net_copy(), f"{name} ({path})"


def fresh_network(size: NetworkSize, spec: GameSpec) -> CellNet:
    """A new trunk and per-cell head of ``size`` (the classes training uses)."""
    return CellNet(
        BoardTrunk(spec.mines, size.channels, size.blocks), nn.Conv2d(size.channels, 2, 1)
    )


def after_first_click(positions: PositionSet) -> PositionSet:
    """The positions with at least one revealed cell (the first click has no safest cell)."""
    return positions.select((positions.boards != HIDDEN).any(axis=(1, 2)))


def held_out_accuracy(net: CellNet, test: PositionSet, mines: int) -> tuple[float, int, float]:
    """``(loss, safest-cell hits, mean excess risk)`` of ``net`` on ``test``."""
    net.eval()
    hits = 0
    excess = 0.0
    losses: list[float] = []
    for start in range(0, len(test), 512):
        stop = start + 512
        boards = test.boards[start:stop]
        with th.no_grad():
            logits = net(th.as_tensor(boards, dtype=th.float32), mines)
            losses.append(
                float(
                    masked_bce(
                        logits[:, MINE_HEAD],
                        th.as_tensor(test.mine_targets[start:stop]),
                        th.as_tensor(test.mine_masks[start:stop]),
                    )
                )
                * len(boards)
            )
        moves, _ = choose_moves(net, boards, OPENING_WEIGHT, mines)
        hidden = boards.reshape(len(boards), -1) == HIDDEN
        risk = test.mine_targets[start:stop].reshape(len(boards), -1)
        lowest = np.where(hidden, risk, np.inf).min(axis=1)
        chosen = risk[np.arange(len(boards)), moves]
        hits += int((chosen <= lowest + TIE).sum())
        excess += float((chosen - lowest).sum())
    return sum(losses) / len(test), hits, excess / len(test)


def greedy_wins(net: CellNet, spec: GameSpec, games: int, seed: int) -> int:
    """Games won by ``net`` playing greedily (safe first click; layouts from ``seed``)."""
    rng = np.random.default_rng([seed, 2])
    generator = make_generator(spec.first_click)
    wins = 0
    for _ in range(games):
        visible = np.full((spec.rows, spec.cols), HIDDEN, np.int8)
        board: Board | None = None
        while True:
            moves, _ = choose_moves(net, visible[None], OPENING_WEIGHT, spec.mines)
            row, col = divmod(int(moves[0]), spec.cols)
            if board is None:
                board = Board(generator.layout(spec.rows, spec.cols, spec.mines, rng, (row, col)))
            board.reveal(row, col)
            visible = board.visible
            if board.done:
                wins += int(board.outcome == WON)
                break
    return wins


def measure_size(
    size: NetworkSize,
    spec: GameSpec,
    train: PositionSet,
    test: PositionSet,
    args: argparse.Namespace,
    precision: Precision = Precision.FLOAT32,
) -> SizeResult:
    """Train a fresh network of ``size`` on ``train`` under ``precision`` and measure it on
    ``test`` (the same start and minibatches for every precision)."""
    th.manual_seed(args.seed)
    net = fresh_network(size, spec)
    optimizer = th.optim.Adam(net.parameters(), lr=args.learning_rate)
    rng = np.random.default_rng([args.seed, 3])
    start = time.process_time()
    train_steps(net, optimizer, train, args.steps, args.batch_size, rng, precision=precision)
    cpu = time.process_time() - start
    loss, hits, excess = held_out_accuracy(net, test, spec.mines)
    won = greedy_wins(net, spec, args.games, args.seed) if args.games else 0
    return SizeResult(
        size=size,
        parameters=sum(p.numel() for p in net.parameters()),
        position_gradients_per_cpu_second=args.steps * args.batch_size / max(cpu, 1e-9),
        train_cpu_seconds=cpu,
        loss=loss,
        safest=wilson_interval(hits, len(test)),
        safest_hits=hits,
        positions=len(test),
        excess_risk=excess,
        games_won=won,
        games=args.games,
        precision=precision,
    )


def probe_seconds(
    size: NetworkSize, spec: GameSpec, train: PositionSet, batch: int, precision: Precision
) -> float:
    """CPU seconds of one training step of ``size`` (from 3 steps), for the time estimate."""
    th.manual_seed(0)
    net = fresh_network(size, spec)
    optimizer = th.optim.Adam(net.parameters(), lr=1e-3)
    start = time.process_time()
    train_steps(net, optimizer, train, 3, batch, np.random.default_rng(0), precision=precision)
    return (time.process_time() - start) / 3


def choice_measure(result: SizeResult) -> Interval:
    """What the choice compares: the greedy win rate when games were played (what a size is
    for; on Beginner the safest-cell rate ranked 16x2 first while 32x3 won 11 points more
    games), else the safest-cell rate."""
    if result.games:
        return wilson_interval(result.games_won, result.games)
    return result.safest


def cheapest_within_best(results: list[SizeResult]) -> SizeResult:
    """The cheapest size whose :func:`choice_measure` lies in the best size's 95% interval."""
    best = max(results, key=lambda r: choice_measure(r).estimate)
    floor = choice_measure(best).low
    close = [r for r in results if choice_measure(r).estimate >= floor]
    return max(close, key=lambda r: r.position_gradients_per_cpu_second)


def print_table(results: list[SizeResult]) -> None:
    print(
        f"{'size':>16} {'params':>8} {'pos-grads/s':>11} {'train s':>8} {'loss':>7} "
        f"{'safest-cell rate [95%]':>26} {'excess risk':>11} {'win rate [95%]':>24}"
    )
    for r in results:
        safest = f"{r.safest.estimate:.1%} [{r.safest.low:.1%}, {r.safest.high:.1%}]"
        if r.games:
            wins = wilson_interval(r.games_won, r.games)
            games = f"{wins.estimate:.1%} [{wins.low:.1%}, {wins.high:.1%}] of {r.games}"
        else:
            games = "not played"
        print(
            f"{r.label:>16} {r.parameters:>8,} {r.position_gradients_per_cpu_second:>11,.0f} "
            f"{r.train_cpu_seconds:>8.1f} {r.loss:>7.4f} {safest:>26} {r.excess_risk:>11.4f} "
            f"{games:>24}"
        )


def parse_args(
    argv: list[str] | None,
) -> tuple[argparse.Namespace, GameSpec, tuple[NetworkSize, ...], tuple[Precision, ...]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="beginner", help="a preset or ROWSxCOLS/MINES")
    parser.add_argument("--sizes", default="16x2,32x3,48x4,64x6", help="CHANNELSxBLOCKS,...")
    parser.add_argument(
        "--precisions", default="float32", help="training arithmetic per row: float32,bfloat16"
    )
    parser.add_argument("--collector", default="auto", help="auto, fresh, a shipped name or a zip")
    parser.add_argument("--train-games", type=int, default=600)
    parser.add_argument("--test-games", type=int, default=200)
    parser.add_argument("--steps", type=int, default=3000, help="Adam steps per size")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--games", type=int, default=0, help="greedy games per size (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for name, low in (
        ("train_games", 1),
        ("test_games", 1),
        ("steps", 1),
        ("batch_size", 1),
        ("games", 0),
    ):
        if getattr(args, name) < low:
            raise BadInput(
                f"--{name.replace('_', '-')} must be >= {low}, got {getattr(args, name)}"
            )
    if not 0.0 < args.learning_rate < 1.0:
        raise BadInput(f"--learning-rate must be in (0, 1), got {args.learning_rate}")
    return args, parse_board(args.board), parse_sizes(args.sizes), parse_precisions(args.precisions)


def run(argv: list[str] | None = None) -> list[SizeResult]:
    """Build the data set, measure every size, print the table; returns the rows."""
    args, spec, sizes, precisions = parse_args(argv)
    th.set_num_threads(1)
    collector, described = collector_network(args.collector, spec, args.seed)
    config = RolloutConfig(epsilon=0.0, rescue=1.0)
    board = f"{spec.rows}x{spec.cols}/{spec.mines}, first click safe"
    print(f"board {board}; collector {described}; solver labels")
    train, _ = collect_positions(
        collector, spec, args.train_games, np.random.default_rng([args.seed, 0]), config
    )
    test, _ = collect_positions(
        collector, spec, args.test_games, np.random.default_rng([args.seed, 1]), config
    )
    test = after_first_click(test)
    print(
        f"data: {len(train):,} training positions ({args.train_games} games), "
        f"{len(test):,} held-out positions after the first click ({args.test_games} games)"
    )
    rows = [(size, precision) for size in sizes for precision in precisions]
    estimate = sum(probe_seconds(s, spec, train, args.batch_size, p) for s, p in rows) * args.steps
    print(
        f"estimated training time: {estimate / 60:.1f} CPU minutes for {len(rows)} rows x "
        f"{args.steps} steps of {args.batch_size} (games not included)"
    )
    results: list[SizeResult] = []
    for size, precision in rows:
        results.append(measure_size(size, spec, train, test, args, precision))
        print(
            f"  {results[-1].label} done: {results[-1].safest.estimate:.1%} safest-cell rate",
            flush=True,
        )
    print_table(results)
    chosen = cheapest_within_best(results)
    print(
        f"choice: {chosen.label}, the cheapest row whose "
        f"{'win rate' if chosen.games else 'safest-cell rate'} lies in "
        "the best size's 95% interval"
    )
    return results


def main(argv: list[str] | None = None) -> None:
    """:func:`run`, with a bad value as one line on stderr and exit status 2."""
    try:
        run(argv)
    except BadInput as error:
        print(f"bench_network_size.py: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
