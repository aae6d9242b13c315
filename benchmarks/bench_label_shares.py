"""How evenly a round's labelling splits over collection jobs with ``play_on = "device"``:
the strided shares of :meth:`train.played.PlayedPositions.chunks` against contiguous runs.

    .venv/bin/python benchmarks/bench_label_shares.py --checkpoint expert --preset expert \\
        --games 150 --shares 15

The learner plays ``--games`` games in one batch (:func:`train.played.play_unlabelled`, on the
CPU, one torch thread, with move labels as the shipped recipes collect), then each share is
labelled in this process, one after another (:func:`train.played.label_played`), split both ways.
A round waits for its slowest job, so the figure to read is the slowest share's seconds over the
mean share's: 1.0 is a perfect split. Both ways label the same positions; compare the two lines
of one run, not runs on a shared machine.
"""

from __future__ import annotations

import itertools
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
from train.played import PlayedPositions, label_played, play_unlabelled
from train.rollout import RolloutConfig


def contiguous(played: PlayedPositions, shares: int) -> list[PlayedPositions]:
    """``shares`` contiguous runs of the positions, in order (the split before stop 66)."""
    bounds = np.linspace(0, len(played), shares + 1).astype(int)
    return [
        PlayedPositions(
            played.visible[a:b],
            played.game[a:b],
            played.first[a:b],
            played.seed[a:b],
            played.mines,
            played.counts,
        )
        for a, b in itertools.pairwise(bounds)
        if b > a
    ]


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", default="expert", help="a shipped name or a zip")
    parser.add_argument("--preset", default="expert", help="the board (first click safe)")
    parser.add_argument("--games", type=int, default=150, help="games in the round")
    parser.add_argument("--shares", type=int, default=15, help="collection jobs")
    parser.add_argument("--seed", type=int, default=3, help="the round's generator seed")
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, "games", "shares")
    try:
        board = preset(args.preset)
    except ValueError as error:
        parser.error(str(error))
    spec = GameSpec(board.rows, board.cols, board.mines, "safe")
    try:
        model = load_model(checkpoint_path(args.checkpoint))
    except (FileNotFoundError, ValueError) as error:
        parser.error(f"--checkpoint {args.checkpoint!r}: {error}")
    th.set_num_threads(1)
    config = RolloutConfig(move_labels=True)
    tic = time.perf_counter()
    played, _ = play_unlabelled(
        model.policy.cell_net_copy(), spec, args.games, np.random.default_rng(args.seed), config
    )
    print(
        f"{spec.rows}x{spec.cols}/{spec.mines} safe: {args.games} games, {len(played)} "
        f"positions, played in {time.perf_counter() - tic:.1f} s; {args.shares} shares"
    )
    for name, parts in (
        ("contiguous", contiguous(played, args.shares)),
        ("strided", played.chunks(args.shares)),
    ):
        seconds = [label_played(part, spec, config)[1] for part in parts]
        mean = sum(seconds) / len(seconds)
        print(
            f"{name:>10}: labels {sum(seconds):6.1f} s in all, slowest share {max(seconds):5.2f} s,"
            f" mean {mean:5.2f} s, slowest / mean {max(seconds) / mean:4.2f}"
        )


if __name__ == "__main__":
    main()
