"""How long a DAgger round takes to write its positions: the project's deflate level against
``numpy.savez_compressed``'s.

    python benchmarks/bench_save_positions.py --board expert --games 100 --repeats 3

Builds one imitation data set as a DAgger round does (``--games`` games played by the shipped
network of the board, or a fresh one, every position labelled by the exact solver with its move;
:func:`train.rollout.collect_positions`), then writes it ``--repeats`` times each way,
interleaved: :func:`train.dataset.save_positions` (zlib level :data:`~train.dataset.COMPRESS_LEVEL`)
and ``numpy.savez_compressed`` (zlib's default level, 6; what ``save_positions`` did before). It
prints the positions, the arrays' bytes, each way's median seconds and file size, and the median
over the repeats of the ratio of the two times within each repeat (a ratio within one run, which a
shared machine disturbs less than absolute figures). Both files load back to the same arrays.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_network_size import BadInput, collector_network, parse_board

from mswp_gym.atomic import atomic_path
from mswp_gym.cli import OneLineParser, report_error
from train.dataset import COMPRESS_LEVEL, PositionSet, load_positions, save_positions
from train.rollout import RolloutConfig, collect_positions

PROG = "bench_save_positions.py"


@dataclass(frozen=True)
class SaveTiming:
    """One way of writing the data set: its seconds per repeat and its file's bytes."""

    name: str
    seconds: tuple[float, ...]
    file_bytes: int

    @property
    def median(self) -> float:
        """The median seconds over the repeats."""
        return statistics.median(self.seconds)


def numpy_savez(path: Path, positions: PositionSet) -> None:
    """The data set's arrays written by ``numpy.savez_compressed`` (zlib level 6), through a
    temporary moved into place as ``save_positions`` writes (so both pay the same)."""
    arrays = {f.name: getattr(positions, f.name) for f in fields(PositionSet)}
    with atomic_path(path) as temporary:
        np.savez_compressed(temporary, **arrays)


def project_save(path: Path, positions: PositionSet) -> None:
    """The data set written by :func:`train.dataset.save_positions`."""
    save_positions(path, positions, {"labels": "solver"})


def time_saves(positions: PositionSet, repeats: int, folder: Path) -> tuple[SaveTiming, ...]:
    """Each way's seconds, ``repeats`` times, interleaved; checks both files load back equal.

    Raises:
        RuntimeError: a written file does not hold the data set's arrays.
    """
    ways = (("save_positions", project_save), ("numpy.savez_compressed", numpy_savez))
    seconds: dict[str, list[float]] = {name: [] for name, _ in ways}
    paths = {name: folder / f"{k}.npz" for k, (name, _) in enumerate(ways)}
    for _ in range(repeats):
        for name, write in ways:
            started = time.perf_counter()
            write(paths[name], positions)
            seconds[name].append(time.perf_counter() - started)
    saved, _ = load_positions(paths["save_positions"])
    with np.load(paths["numpy.savez_compressed"]) as plain:
        for f in fields(PositionSet):
            original = getattr(positions, f.name)
            if not (
                np.array_equal(getattr(saved, f.name), original)
                and np.array_equal(plain[f.name], original)
            ):
                raise RuntimeError(f"{f.name} did not load back as written")
    return tuple(
        SaveTiming(name, tuple(seconds[name]), paths[name].stat().st_size) for name, _ in ways
    )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="expert", help="a preset name or ROWSxCOLS/MINES")
    parser.add_argument("--games", type=int, default=100, help="games in the data set")
    parser.add_argument("--repeats", type=int, default=3, help="writes each way")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--collector", default="auto", help="auto (the board's shipped network), fresh or a file"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        for flag, value in (("--games", args.games), ("--repeats", args.repeats)):
            if value < 1:
                raise BadInput(f"{flag} must be an integer >= 1, got {value}")
        spec = parse_board(args.board)
        net, described = collector_network(args.collector, spec, args.seed)
    except (BadInput, ValueError) as error:
        sys.exit(report_error(PROG, error))
    rng = np.random.default_rng(args.seed)
    config = RolloutConfig(move_labels=True)
    positions, _ = collect_positions(net, spec, args.games, rng, config)
    array_bytes = sum(getattr(positions, f.name).nbytes for f in fields(PositionSet))
    print(
        f"{len(positions):,} positions of {args.games} games on {args.board} (collector "
        f"{described}), {array_bytes / 1e6:.1f} MB of arrays; {args.repeats} writes each way"
    )
    with tempfile.TemporaryDirectory() as folder:
        timings = time_saves(positions, args.repeats, Path(folder))
    ours, numpy_way = timings
    for timing in timings:
        runs = ", ".join(f"{s:.2f}" for s in timing.seconds)
        print(
            f"{timing.name:>24}: median {timing.median:.2f} s ({runs}), "
            f"file {timing.file_bytes / 1e6:.1f} MB"
        )
    ratios = [n / o for n, o in zip(numpy_way.seconds, ours.seconds, strict=True)]
    print(
        f"numpy.savez_compressed takes {statistics.median(ratios):.1f}x the time of "
        f"save_positions (zlib level {COMPRESS_LEVEL}; median of {len(ratios)} ratios), for a "
        f"file {ours.file_bytes / numpy_way.file_bytes:.2f}x as large from save_positions"
    )


if __name__ == "__main__":
    main()
