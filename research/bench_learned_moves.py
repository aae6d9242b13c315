"""Where a learned agent loses against the exact solver, move by move, on fixed seeds.

    python research/bench_learned_moves.py --checkpoint intermediate --games 200

The checkpoint's network plays greedily (the agent's deterministic move). Before every move after
the first, the solver's exact analysis of the same position says whether a certainly safe cell
existed (then a move elsewhere is a *missed safe cell*) or not (a *guess*; its excess risk is
its mine probability minus the lowest one among the legal cells). Lost games are charged to the
kind of their last move. Seeds start at 10,000, away from the evaluation seeds.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch as th

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.solver.probability import analyse
from common.cli import OneLineParser
from mswp_gym.env import MinesweeperEnv
from train.checkpoint import load_model, resolve_checkpoint
from train.network import action_scores
from train.policy import BoardPolicy

FIRST_SEED = 10_000


@dataclass
class MoveTally:
    """Counts over all games."""

    games: int = 0
    won: int = 0
    moves: int = 0
    safe_available: int = 0
    missed_safe: int = 0
    guesses: int = 0
    excess_risk: float = 0.0
    lost_missing_safe: int = 0
    lost_guessing: int = 0


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--checkpoint",
        default="intermediate",
        help="a checkpoint zip, a run folder or a shipped name",
    )
    parser.add_argument("--games", type=int, default=200, help="games, seeds from 10,000 on")
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, "games")
    try:
        path = resolve_checkpoint(args.checkpoint)
        policy = load_model(path).policy
    except (FileNotFoundError, ValueError) as error:
        parser.error(f"--checkpoint {args.checkpoint!r}: {error}")
    th.set_num_threads(1)
    assert isinstance(policy, BoardPolicy)
    net = policy.cell_net_copy()
    rows, cols, mines = policy.board
    env = MinesweeperEnv(rows, cols, mines)
    tally = MoveTally()
    for game in range(args.games):
        observation, _ = env.reset(seed=FIRST_SEED + game)
        first, kind = True, ""
        while True:
            with th.no_grad():
                logits = net(th.as_tensor(observation[None], dtype=th.float32), mines)
            scores = action_scores(logits, policy.opening_weight)[0].numpy()
            legal = env.action_masks()
            action = int(np.where(legal, scores, -np.inf).argmax())
            if not first:
                analysis = analyse(observation, mines)
                if analysis.safe:
                    tally.safe_available += 1
                    kind = "" if action in analysis.safe else "missed"
                    tally.missed_safe += kind == "missed"
                else:
                    kind = "guess"
                    tally.guesses += 1
                    risk = analysis.probability
                    tally.excess_risk += float(
                        risk[action] - np.nanmin(np.where(legal, risk, np.nan))
                    )
            first = False
            tally.moves += 1
            observation, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                won = info["outcome"] == 1
                tally.won += won
                tally.lost_missing_safe += not won and kind == "missed"
                tally.lost_guessing += not won and kind == "guess"
                break
        tally.games += 1
    print(f"{path}: {rows}x{cols}/{mines}, first click safe, {tally.games} games, {tally.won} won")
    print(
        f"moves {tally.moves}: a certainly safe cell existed before {tally.safe_available}, "
        f"missed in {tally.missed_safe} (games lost that way: {tally.lost_missing_safe})"
    )
    print(
        f"guesses {tally.guesses} ({tally.guesses / tally.games:.2f} a game), mean excess risk "
        f"over the safest legal cell {tally.excess_risk / max(tally.guesses, 1):.2%} "
        f"(games lost on a guess: {tally.lost_guessing})"
    )


if __name__ == "__main__":
    main()
