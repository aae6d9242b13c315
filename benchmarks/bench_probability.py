"""Our exact mine probabilities against ms-toollib's ``cal_probability_onboard``, per position.

ms-toollib is not a project dependency: this script runs in the peers harness's venv (its python
is ``$PEERS_PY`` below; it has numpy and gymnasium) and puts this checkout on ``sys.path``.

Positions, per size class:

* ``random-ROWSxCOLS``: a layout at a density drawn uniformly from ``[0.12, 0.31]``, random safe
  cells revealed (flooding zeros, as in play) until a drawn share of the safe cells is open; the
  game is never over.
* ``play-ROWSxCOLSxMINES``: the boards our solver player sees before its moves in seeded games
  (``safe`` first click; every position on boards up to 1,000 cells, every ``cells // 1000``-th on
  larger ones), sampled down to the count; it also prints on how many of those games' moves the
  player's own analysis used the relaxation.

Both engines give the mine probability of every hidden cell. Per class: positions, the worst
absolute difference, how many exceed 1e-9, how often our relaxation fired
(``Analysis.approximate``), and each engine's total, median and worst time per position (its own
call only, the two alternating on the same positions: compare columns, not runs).

ms-toollib's worst random 30x30 positions need 12-21 GB and minutes, and a failed allocation aborts
its process: ``--isolate-toollib GB:SECONDS`` runs each of its calls in a child process under those
limits; a call past either counts in ``tlib fail`` and is left out of the differences and timings
(its times then come from a fresh process each: compare speed on runs without it).

    "$PEERS_PY" benchmarks/bench_probability.py --classes play-100x100x2000 --positions 200
    .venv/bin/python benchmarks/bench_probability.py --ours-only --classes random-30x30 \
        --positions 250 --seed 5
    "$PEERS_PY" benchmarks/bench_probability.py --classes random-30x30 \
        --positions 250 --seed 5 --isolate-toollib 16:600
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import resource
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents.solver import SolverAgent
from agents.solver.probability import analyse
from common.cli import OneLineParser
from mswp_gym.board import Board
from mswp_gym.constants import HIDDEN, Outcome
from mswp_gym.generators import make_generator
from mswp_gym.spec import GameSpec

DEFAULT_CLASSES = (
    "random-8x8,random-16x16,random-16x30,random-30x30,"
    "play-9x9x10,play-16x16x40,play-16x30x99,play-30x30x225,play-100x100x2000"
)
"""Size classes: ``random-ROWSxCOLS`` (density drawn per position) or ``play-ROWSxCOLSxMINES``."""
DENSITIES = (0.12, 0.31)
TOOLLIB_HIDDEN = 10
"""ms-toollib's code for an unopened cell."""


@dataclass(frozen=True)
class Sample:
    """One position to compare: the visible board (our codes) and the board's mine total."""

    board: np.ndarray  # (rows, cols) int8
    mines: int


def random_positions(
    rows: int, cols: int, count: int, rng: np.random.Generator
) -> Iterator[Sample]:
    """Positions made by random safe reveals with flood fill (see the module docstring)."""
    cells = rows * cols
    made = 0
    while made < count:
        mines = max(1, round(float(rng.uniform(*DENSITIES)) * cells))
        flat = np.zeros(cells, dtype=bool)
        flat[rng.choice(cells, mines, replace=False)] = True
        board = Board(flat.reshape(rows, cols))
        target = float(rng.uniform(0.02, 0.98))
        safe = np.flatnonzero(~flat)
        for cell in rng.permutation(safe).tolist():
            if board.safe_revealed / board.safe_total >= target:
                break
            if not board.revealed.flat[cell]:
                board.reveal(*divmod(cell, cols))
        if board.outcome != Outcome.PLAYING or not board.revealed.any():
            continue
        made += 1
        yield Sample(board.visible.copy(), mines)


def play_positions(
    rows: int, cols: int, mines: int, count: int, rng: np.random.Generator
) -> tuple[list[Sample], int, int]:
    """Every position our solver player meets in seeded games (``safe`` first click in the corner;
    every ``cells // 1000``-th on larger boards), until twice ``count`` are kept; ``count`` of them
    drawn at random. Also the moves played, and on how many the player's own analysis used the
    relaxation (``explain().approximate``)."""
    spec = GameSpec(rows=rows, cols=cols, mines=mines, first_click="safe")
    agent = SolverAgent(seed=0)
    stride = max(1, rows * cols // 1000)
    seen: list[Sample] = []
    game = moves = approximate = 0
    while len(seen) < 2 * count:
        agent.reset(seed=game, spec=spec)
        hidden = np.full((rows, cols), HIDDEN, dtype=np.int8)
        first = divmod(int(agent.act(hidden, np.ones(rows * cols, dtype=bool))), cols)
        layout = make_generator("safe").layout(
            rows, cols, mines, np.random.default_rng([7, game]), first
        )
        board = Board(layout)
        board.reveal(*first)
        played = 0
        while board.outcome == Outcome.PLAYING and len(seen) < 2 * count:
            if played % stride == 0:
                seen.append(Sample(board.visible.copy(), mines))
            board.reveal(*divmod(int(agent.act(board.visible, ~board.revealed.ravel())), cols))
            played += 1
            approximate += bool(agent.explain().approximate)
        moves += played
        game += 1
    kept = sorted(rng.choice(len(seen), count, replace=False).tolist())
    return [seen[index] for index in kept], moves, approximate


def parse_class(name: str) -> tuple[str, tuple[int, ...]]:
    """``random-8x8`` -> ("random", (8, 8)); ``play-16x30x99`` -> ("play", (16, 30, 99));
    ValueError naming ``name`` if it is neither form."""
    kind, _, size = name.partition("-")
    try:
        dims = tuple(int(x) for x in size.split("x"))
    except ValueError:
        dims = ()
    if (kind, len(dims)) not in (("random", 2), ("play", 3)) or min(dims) < 1:
        raise ValueError(f"bad class {name!r}: want random-ROWSxCOLS or play-ROWSxCOLSxMINES")
    return kind, dims


@dataclass(frozen=True)
class Isolation:
    """Run each ms-toollib call in a child process under these limits (``--isolate-toollib``)."""

    memory_gb: float
    timeout_s: float


def _toollib_child(board: list[list[int]], mines: int, memory_gb: float, out: Connection) -> None:
    """Child process: one ms-toollib call under an address-space limit; sends its probabilities
    and the seconds the call took (after a call on a tiny board: a fresh process's first call
    costs about 90 ms more)."""
    import ms_toollib

    ms_toollib.cal_probability_onboard([[1, TOOLLIB_HIDDEN], [TOOLLIB_HIDDEN, TOOLLIB_HIDDEN]], 1)
    limit = int(memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    tic = time.perf_counter()
    probabilities, _ = ms_toollib.cal_probability_onboard(board, mines)
    out.send((probabilities, time.perf_counter() - tic))


def toollib_probabilities(
    board: list[list[int]], mines: int, isolation: Isolation | None
) -> tuple[list[list[float]] | None, float]:
    """ms-toollib's mine probabilities of ``board`` and the seconds its call took (its own call
    only); ``(None, nan)`` where an isolated call ran out of memory or time."""
    if isolation is None:
        import ms_toollib

        tic = time.perf_counter()
        probabilities, _ = ms_toollib.cal_probability_onboard(board, mines)
        return probabilities, time.perf_counter() - tic
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(
        target=_toollib_child, args=(board, mines, isolation.memory_gb, send), daemon=True
    )
    child.start()
    send.close()
    found = None
    with contextlib.suppress(EOFError):  # the child died without an answer (its memory ran out)
        found = receive.recv() if receive.poll(isolation.timeout_s) else None
    child.join(1.0)
    child.kill()  # a no-op where it has exited
    child.join()
    return found if found is not None else (None, float("nan"))


def compare(
    samples: list[Sample], with_toollib: bool = True, isolation: Isolation | None = None
) -> dict[str, float]:
    """Run both engines on every sample (ours alone without ``with_toollib``: ms-toollib's
    figures and the differences are then NaN); the worst difference, relaxations and timings.

    With ``isolation``, ms-toollib's failed calls are counted (``toollib_failed``) and left out of
    its timings and of the differences."""
    nan = float("nan")
    ours_t, theirs_t = [], []
    worst, over, relaxed, failed = 0.0, 0, 0, 0
    for index, sample in enumerate(samples):
        hidden = sample.board < 0
        toollib_board = np.where(hidden, TOOLLIB_HIDDEN, sample.board).astype(int).tolist()
        engines = ("ours", "theirs") if index % 2 == 0 else ("theirs", "ours")
        for engine in engines if with_toollib else ("ours",):
            if engine == "ours":
                tic = time.perf_counter()
                analysis = analyse(sample.board, sample.mines)
                t_ours = time.perf_counter() - tic
            else:
                their_p, t_theirs = toollib_probabilities(toollib_board, sample.mines, isolation)
        ours_t.append(t_ours)
        relaxed += bool(analysis.approximate)
        if not with_toollib:
            continue
        if their_p is None:
            failed += 1
            continue
        theirs_t.append(t_theirs)
        mine_p = analysis.probability.reshape(sample.board.shape)[hidden]
        diff = float(np.max(np.abs(mine_p - np.asarray(their_p, dtype=float)[hidden])))
        worst = max(worst, diff)
        over += diff > 1e-9
    compared = with_toollib and bool(theirs_t)
    return {
        "positions": len(samples),
        "worst": worst if compared else nan,
        "over_1e-9": over if compared else nan,
        "relaxed": relaxed,
        "toollib_failed": failed if with_toollib else nan,
        "ours_total_s": sum(ours_t),
        "theirs_total_s": sum(theirs_t) if compared else nan,
        "ours_median_ms": 1e3 * statistics.median(ours_t),
        "theirs_median_ms": 1e3 * statistics.median(theirs_t) if compared else nan,
        "ours_max_ms": 1e3 * max(ours_t),
        "theirs_max_ms": 1e3 * max(theirs_t) if compared else nan,
    }


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog="bench_probability.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--classes", default=DEFAULT_CLASSES, help="comma list of size classes")
    parser.add_argument("--positions", type=int, default=1000, help="positions per class")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--ours-only", action="store_true", help="our engine alone (no ms-toollib)")
    parser.add_argument(
        "--isolate-toollib", metavar="GB:SECONDS", help="each ms-toollib call in a limited child"
    )
    args = parser.parse_args(argv)
    isolation = None
    if args.isolate_toollib is not None:
        try:
            memory_gb, timeout_s = (float(x) for x in args.isolate_toollib.split(":"))
        except ValueError:
            memory_gb = timeout_s = -1.0
        if not (memory_gb > 0 and timeout_s > 0):
            parser.error(
                f"--isolate-toollib must be GB:SECONDS, both above 0, got {args.isolate_toollib!r}"
            )
        isolation = Isolation(memory_gb, timeout_s)
    parser.require_at_least(args, 1, "positions")
    try:
        classes = [(name, *parse_class(name)) for name in args.classes.split(",")]
    except ValueError as error:
        parser.error(str(error))
    header = (
        f"{'class':<20} {'N':>5} {'worst diff':>10} {'>1e-9':>5} {'relaxed':>7} {'tlib fail':>9} "
        f"{'ours s':>7} {'tlib s':>7} {'ours med ms':>11} {'tlib med ms':>11} "
        f"{'ours max ms':>11} {'tlib max ms':>11}"
    )
    print(header)
    totals = {"ours": 0.0, "theirs": 0.0}
    for name, kind, dims in classes:
        rng = np.random.default_rng([args.seed, *dims])
        if kind == "random":
            samples = list(random_positions(dims[0], dims[1], args.positions, rng))
        else:
            samples, moves, approximate = play_positions(*dims, args.positions, rng)
        row = compare(samples, with_toollib=not args.ours_only, isolation=isolation)
        totals["ours"] += row["ours_total_s"]
        totals["theirs"] += row["theirs_total_s"]
        print(
            f"{name:<20} {row['positions']:>5} {row['worst']:>10.2e} {row['over_1e-9']:>5} "
            f"{row['relaxed']:>7} {row['toollib_failed']:>9} "
            f"{row['ours_total_s']:>7.2f} {row['theirs_total_s']:>7.2f} "
            f"{row['ours_median_ms']:>11.3f} {row['theirs_median_ms']:>11.3f} "
            f"{row['ours_max_ms']:>11.1f} {row['theirs_max_ms']:>11.1f}",
            flush=True,
        )
        if kind == "play":
            print(
                f"{'':<20} the player's own analyses used the relaxation on {approximate} "
                f"of {moves} moves",
                flush=True,
            )
    print(f"total time: ours {totals['ours']:.2f} s, ms-toollib {totals['theirs']:.2f} s")
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # Linux: KiB
    print(f"peak memory of this process (both engines, position making too): {peak_gb:.2f} GB")


if __name__ == "__main__":
    main()
