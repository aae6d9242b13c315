"""How much test-time views (board symmetries) sharpen a network's mine probabilities, per view set.

    python benchmarks/bench_views.py --checkpoint generalist --board expert --games 40

The network plays ``--games`` greedy games with one view (first click safe, the rule's corner;
game ``i`` seeded ``--seed + i``). At every position after the first click the exact solver
(:func:`agents.solver.probability.analyse`) gives each hidden cell's mine probability, and each view
set averages the network's logits over its views (as :func:`train.symmetry.averaged_logits`
does):

- ``1``: the board itself; ``T``: its transpose alone (on a board that is not square, a shape the
  network never trained on); ``4``: the mirror images and the half turn; ``4T``: their transposes;
  ``8``: all eight.
- With ``--partner CHECKPOINT`` (an ensemble of two networks): ``P8``, the partner's eight views
  alone; ``8+P8``, both networks' eight views averaged together (sixteen logits, as an agent
  with ``ensemble`` plays).

Per view set it prints:

- **loss**: the mean cross-entropy of the network's P(mine) against the exact probabilities over
  the cells that are neither certainly safe nor certainly mines (positions without such a cell
  are skipped), and its paired difference from view set ``1`` with a normal 95% interval over the
  positions (positions of one game are correlated, so the interval is optimistic);
- **missed**: positions with a certainly safe cell where the view set's move is not one;
- **excess risk**: at positions with no certainly safe cell, the mean exact probability of the
  view set's move minus the lowest among the hidden cells.

Last, how often the board's own view rates its move's P(mine) below 0.0001, 0.001 and 0.01: the
moves an agent with that ``sure_below`` plays on one view.

All view sets judge the same positions (those the one-view network meets). One torch thread.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import torch as th

from agents.solver.probability import analyse
from mswp_gym.env import MinesweeperEnv
from mswp_gym.presets import PRESETS
from train.agent import PolicyAgent, load_ppo_agent
from train.network import MINE_HEAD, action_scores
from train.symmetry import BoardView, board_views, each_view_logits

VIEW_SETS = ("1", "T", "4", "4T", "8")
"""The view sets of the checkpoint alone (see the module docstring)."""
PARTNER_SETS = ("P8", "8+P8")
"""The view sets added by ``--partner``: its eight views, and both networks' eight views."""
OWN = "own"
PARTNER = "partner"
ViewKey = tuple[str, BoardView]
"""A view of one network: :data:`OWN` or :data:`PARTNER`, and the view."""
SURE_BOUNDS = (1e-4, 1e-3, 1e-2)
"""P(mine) bounds for the share of moves one view is sure of (the agent's ``sure_below``)."""
CLIP = 1e-7
"""Network probabilities are clipped to ``[CLIP, 1 - CLIP]`` inside the cross-entropy."""


def view_set(name: str) -> tuple[BoardView, ...]:
    """The views of the set called ``name`` (one of :data:`VIEW_SETS`)."""
    every = board_views(8)
    return {"1": every[:1], "T": every[4:5], "4": every[:4], "4T": every[4:], "8": every}[name]


def view_keys(name: str) -> tuple[ViewKey, ...]:
    """The network views of the set called ``name`` (one of :data:`VIEW_SETS` or
    :data:`PARTNER_SETS`)."""
    every = board_views(8)
    if name == "P8":
        return tuple((PARTNER, view) for view in every)
    if name == "8+P8":
        return tuple((OWN, view) for view in every) + view_keys("P8")
    return tuple((OWN, view) for view in view_set(name))


@dataclass
class ViewTally:
    """One view set's counts over all positions."""

    losses: list[float] = field(default_factory=list)
    safe_positions: int = 0
    missed: int = 0
    guesses: int = 0
    excess_risk: float = 0.0
    move_risks: list[float] = field(default_factory=list)
    """The view set's own P(mine) of its move, per position."""


def cross_entropy(exact: np.ndarray, logits: np.ndarray) -> float:
    """Mean cross-entropy of ``sigmoid(logits)`` against ``exact`` probabilities (same shape)."""
    p = np.clip(1.0 / (1.0 + np.exp(-logits)), CLIP, 1.0 - CLIP)
    return float(np.mean(-(exact * np.log(p) + (1.0 - exact) * np.log(1.0 - p))))


def paired_interval(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """Mean of ``a - b`` with a normal 95% interval."""
    diff = np.asarray(a) - np.asarray(b)
    mean = float(diff.mean())
    half = 1.96 * float(diff.std(ddof=1)) / math.sqrt(len(diff)) if len(diff) > 1 else math.inf
    return mean, mean - half, mean + half


def parse_board(text: str) -> tuple[int, int, int]:
    """A preset name or ``ROWSxCOLS/MINES``."""
    if text in PRESETS:
        preset = PRESETS[text]
        return preset.rows, preset.cols, preset.mines
    try:
        size, mines = text.split("/")
        rows, cols = (int(part) for part in size.split("x"))
        return rows, cols, int(mines)
    except ValueError:
        raise ValueError(
            f"bad --board {text!r}: want a preset ({', '.join(PRESETS)}) or ROWSxCOLS/MINES"
        ) from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", default="generalist", help="a shipped name or a zip")
    parser.add_argument("--board", default="expert", help="a preset or ROWSxCOLS/MINES")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=10_000, help="the first game's seed")
    parser.add_argument(
        "--partner",
        default=None,
        help="a second network (shipped name or zip): adds the view sets P8 and 8+P8",
    )
    args = parser.parse_args(argv)
    try:
        rows, cols, mines = parse_board(args.board)
        if args.games < 1:
            raise ValueError(f"--games must be >= 1, got {args.games}")
        env = MinesweeperEnv(rows, cols, mines)
        agent = load_ppo_agent(args.checkpoint, boards="any")
        if not isinstance(agent, PolicyAgent):
            raise ValueError(f"--checkpoint {args.checkpoint!r} is not a BoardPolicy network")
        nets = {OWN: agent.net}
        if args.partner is not None:
            partner = load_ppo_agent(args.partner, boards="any")
            if not isinstance(partner, PolicyAgent):
                raise ValueError(f"--partner {args.partner!r} is not a BoardPolicy network")
            nets[PARTNER] = partner.net
    except (ValueError, FileNotFoundError, TypeError) as error:
        parser.exit(2, f"bench_views.py: error: {error}\n")
    th.set_num_threads(1)
    names = VIEW_SETS + (PARTNER_SETS if args.partner is not None else ())
    sets = {name: view_keys(name) for name in names}
    tallies = {name: ViewTally() for name in names}
    won = 0
    for game in range(args.games):
        observation, _ = env.reset(seed=args.seed + game)
        agent.reset(seed=args.seed + game, spec=env.game_spec)
        first = True
        while True:
            legal = env.action_masks()
            action = agent.act(observation, legal)
            if not first:
                judge(observation, legal, mines, agent.policy.opening_weight, nets, sets, tallies)
            first = False
            observation, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                won += info["outcome"] == 1
                break
    partnered = f" (partner {args.partner})" if args.partner is not None else ""
    print(
        f"{args.checkpoint}{partnered} on {rows}x{cols}/{mines}, first click safe, {args.games} "
        f"games played with one view ({won} won); positions with an uncertain cell: "
        f"{len(tallies['1'].losses)}"
    )
    print(
        f"{'views':<6} {'loss':>8} {'vs 1 [95%]':>28} {'missed':>12} {'guesses':>8} {'excess':>8}"
    )
    if not tallies["1"].losses:
        print("no position had an uncertain cell: play more games")
        return
    for name, tally in tallies.items():
        mean, low, high = paired_interval(tally.losses, tallies["1"].losses)
        print(
            f"{name:<6} {np.mean(tally.losses):>8.4f} {mean:>+10.4f} [{low:+.4f}, {high:+.4f}] "
            f"{tally.missed:>5}/{tally.safe_positions:<6} {tally.guesses:>8} "
            f"{tally.excess_risk / max(tally.guesses, 1):>8.4f}"
        )
    own = np.asarray(tallies["1"].move_risks)
    shares = ", ".join(f"below {bound:g} on {np.mean(own < bound):.0%}" for bound in SURE_BOUNDS)
    print(f"the board's own view rates its move's P(mine) {shares} of {len(own)} positions")


def view_logits(net: th.nn.Module, board: th.Tensor, mines: int) -> dict[BoardView, th.Tensor]:
    """Each of the eight views' logits of ``board`` mapped back onto it
    (:func:`train.symmetry.each_view_logits`)."""
    views = board_views(8)
    with th.no_grad():
        return dict(zip(views, each_view_logits(net, board, mines, views), strict=True))


def judge(
    board: np.ndarray,
    legal: np.ndarray,
    mines: int,
    opening_weight: float,
    nets: Mapping[str, th.nn.Module],
    sets: dict[str, tuple[ViewKey, ...]],
    tallies: dict[str, ViewTally],
) -> None:
    """Score every view set on one position against the exact analysis.

    ``nets`` maps :data:`OWN` (and :data:`PARTNER`, if a set names it) to its network; the move
    scores use ``opening_weight`` (the checkpoint's)."""
    analysis = analyse(board, mines)
    exact = analysis.probability
    hidden = legal.astype(bool)
    uncertain = hidden & (exact > 0.0) & (exact < 1.0)
    lowest = float(np.min(exact[hidden]))
    tensor = th.as_tensor(board[None], dtype=th.float32)
    by_view = {
        (source, view): logits
        for source, net in nets.items()
        for view, logits in view_logits(net, tensor, mines).items()
    }
    for name, keys in sets.items():
        logits = th.stack([by_view[key] for key in keys]).mean(dim=0)
        scores = action_scores(logits, opening_weight)[0].numpy()
        move = int(np.argmax(np.where(hidden, scores, -np.inf)))
        tally = tallies[name]
        tally.move_risks.append(float(th.sigmoid(logits[0, MINE_HEAD].flatten()[move])))
        if analysis.safe:
            tally.safe_positions += 1
            tally.missed += move not in analysis.safe
        else:
            tally.guesses += 1
            tally.excess_risk += float(exact[move]) - lowest
        if uncertain.any():
            mine_logits = logits[0, MINE_HEAD].numpy().astype(np.float64).ravel()
            tally.losses.append(cross_entropy(exact[uncertain], mine_logits[uncertain]))


if __name__ == "__main__":
    main()
