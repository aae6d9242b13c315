"""DAgger-style data collection: the learner plays, every position it visits is labelled.

Games are played in a batch (one network call per move) on :class:`mswp_gym.board.Board`; the
learner sees only the visible board. A losing move is replaced, with probability ``rescue``, by
the learner's best truly safe cell, so the data holds later positions too. Targets: P(mine) from
the solver (``labels="solver"``) or the layout (``"truth"``), the opening (clue 0) from the truth,
and with ``move_labels`` the solver player's move (:class:`SolverMoves`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch as th

from mswp_gym.board import Board
from mswp_gym.constants import HIDDEN
from mswp_gym.generators import make_generator
from mswp_gym.spec import GameSpec
from train.dataset import MOVE_ANY_SAFE, MOVE_NONE, PositionSet
from train.network import CellNet, action_scores

LABELS: tuple[str, ...] = ("solver", "truth", "reward")
MineLabeller = Callable[[np.ndarray, int], np.ndarray]


def solver_labeller() -> MineLabeller | None:
    """``agents.solver.mine_probabilities`` if it can be imported, else None."""
    try:
        from agents.solver import mine_probabilities
    except ImportError:
        return None
    return mine_probabilities


@dataclass(frozen=True)
class RolloutConfig:
    """How the learner plays while collecting."""

    epsilon: float = 0.05
    """Chance of a uniformly random legal move instead of the learner's (and of a random first
    click)."""
    rescue: float = 0.8
    """Chance that a losing move is replaced by the learner's best truly safe cell."""
    opening_weight: float = 0.05
    """Weight of P(opening) in the move score (see :func:`train.network.action_scores`)."""
    labels: str = "solver"
    """``solver`` (exact probabilities; falls back to ``truth`` if the solver is missing),
    ``truth`` or ``reward`` (the move's outcome only; needs ``rescue`` 0)."""
    move_labels: bool = False
    """Also label every position with the solver player's move (needs ``solver`` labels)."""


class SolverMoves:
    """The solver player's move at a position, for move labels: :data:`~train.dataset.MOVE_ANY_SAFE`
    where some hidden cell is certainly safe, else the cell a fresh default
    :class:`agents.solver.SolverAgent` picks (tie-breaks seeded from ``rng``)."""

    def __init__(self, spec: GameSpec, rng: np.random.Generator) -> None:
        from agents.solver import SolverAgent

        self.spec = spec
        self.rng = rng
        self.agent = SolverAgent(spec=spec)

    def __call__(
        self,
        visible: np.ndarray,
        mine_target: np.ndarray,
        first_click: bool,
        seed: int | None = None,
    ) -> int:
        """The move label of ``visible`` (``mine_target``: its exact mine probabilities); a
        guess's tie-breaks are seeded by ``seed``, or by a seed drawn from the ``rng`` given at
        construction when None."""
        hidden = visible == HIDDEN
        if not first_click and bool((hidden & (mine_target == 0.0)).any()):
            return MOVE_ANY_SAFE
        if seed is None:
            seed = int(self.rng.integers(2**31))
        self.agent.reset(seed=seed, spec=self.spec)
        return int(self.agent.act(visible, hidden.ravel()))


def choose_moves(
    net: CellNet, boards: np.ndarray, opening_weight: float, mines: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Masked greedy moves of ``net`` for a batch of visible boards (``mines`` None: the
    network's own): flat ``(B,)`` hidden cells, and the scores ``(B, rows*cols)`` (``-inf`` on
    illegal cells)."""
    device = next(net.parameters()).device
    with th.no_grad():
        logits = net(th.as_tensor(boards, dtype=th.float32, device=device), mines)
        scores = action_scores(logits, opening_weight).cpu().numpy()
    legal = boards.reshape(len(boards), -1) == HIDDEN
    scores = np.where(legal, scores, -np.inf)
    return scores.argmax(axis=1), scores


MoveLabeller = Callable[[np.ndarray, np.ndarray, bool], int]
"""``(visible, mine_target, first_click) -> move label`` (:class:`SolverMoves` is one)."""
Labelled = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]
"""One position's arrays in :class:`~train.dataset.PositionSet` order."""


def label_position(
    mines: np.ndarray,
    counts: np.ndarray,
    visible: np.ndarray,
    first: int | None,
    spec: GameSpec,
    labeller: MineLabeller | None,
    moves: MoveLabeller | None,
) -> Labelled:
    """One position (a copy of ``visible``) with its targets and masks, given its game's true
    ``mines`` and ``counts`` (``first``: the flat first click, for the start), and its move
    label (:data:`~train.dataset.MOVE_NONE` without ``moves``)."""
    hidden = visible == HIDDEN
    opening = (~mines & (counts == 0)).astype(np.float32)
    if first is not None:
        # Before any click under a safe rule every cell is a safe first click; only the chosen
        # cell's opening outcome is observed.
        open_mask = np.zeros_like(hidden)
        open_mask.flat[first] = True
        mine = np.zeros(hidden.shape, np.float32)
        move = MOVE_NONE if moves is None else moves(visible, mine, True)
        return visible.copy(), mine, hidden, opening, open_mask, move
    if labeller is not None:
        mine = np.nan_to_num(labeller(visible, spec.mines), nan=0.0).astype(np.float32)
    else:
        mine = mines.astype(np.float32)
    move = MOVE_NONE if moves is None else moves(visible, mine, False)
    return visible.copy(), mine, hidden, opening, hidden, move


def reward_labels(board: Board, visible: np.ndarray, played: int) -> Labelled:
    """The labels the env's reward and next observation give the move ``played`` at ``visible``
    on ``board``: P(mine) of its cell 1 (the reward was -1) or 0, and when it was safe P(opening)
    of its cell (the observation shows its clue). No other cell is labelled."""
    mine = np.zeros(visible.shape, np.float32)
    opening = np.zeros(visible.shape, np.float32)
    mine_mask = np.zeros(visible.shape, bool)
    open_mask = np.zeros(visible.shape, bool)
    hit = bool(board.mines.flat[played])
    mine.flat[played] = float(hit)
    mine_mask.flat[played] = True
    open_mask.flat[played] = not hit
    opening.flat[played] = float(not hit and board.counts.flat[played] == 0)
    return visible.copy(), mine, mine_mask, opening, open_mask, MOVE_NONE


def position_set(parts: list[Labelled], rows: int, cols: int) -> PositionSet:
    """The labelled positions ``parts`` (in order) as one set."""
    if not parts:
        return PositionSet.empty(rows, cols)
    columns = list(zip(*parts, strict=True))
    boards, mines, mine_masks, openings, open_masks = (np.stack(c) for c in columns[:5])
    return PositionSet(
        boards, mines, mine_masks, openings, open_masks, np.array(columns[5], np.int32)
    )


PositionHook = Callable[[int, Board, np.ndarray, "int | None", int], None]
"""Called at every visited position, before its move is played: ``(game, board, visible,
first, move)``; ``first`` is the flat first click where this move lays the board out (the blank
start under a rule that needs the first click), else None; ``move`` the flat cell about to be
played. ``visible`` changes afterwards: copy it to keep it."""


def play_games(
    net: CellNet,
    spec: GameSpec,
    games: int,
    rng: np.random.Generator,
    config: RolloutConfig,
    on_position: PositionHook,
) -> tuple[list[Board], dict[str, float]]:
    """Play ``games`` games at once with ``net`` (one batched call per move, on the device of
    ``net``'s weights), calling ``on_position`` at every visited position.

    ``net`` is in eval mode; ``spec``'s rule is ``safe``, ``opening`` or ``any``; ``rng`` draws
    layouts and exploration (``on_position`` may draw from it too, in a fixed order).

    Returns:
        Every game's board, and stats: ``wins`` (games won unaided, among the ``clean_games``
        never rescued or randomised), ``positions``, ``network_seconds``, ``label_seconds``
        (inside ``on_position``) and ``total_seconds``.
    """
    generator = make_generator(spec.first_click)
    rows, cols = spec.rows, spec.cols
    boards: list[Board | None] = [None] * games
    visibles = [np.full((rows, cols), HIDDEN, np.int8) for _ in range(games)]
    if not generator.needs_first_click:
        for g in range(games):
            placed = Board(generator.layout(rows, cols, spec.mines, rng, None))
            boards[g] = placed
            visibles[g] = placed.visible
    clean = np.ones(games, bool)
    live = list(range(games))
    started = np.zeros(games, bool)
    positions = wins = 0
    started_at = time.perf_counter()
    network_seconds = label_seconds = 0.0
    while live:
        batch = np.stack([visibles[g] for g in live])
        tick = time.perf_counter()
        moves, scores = choose_moves(net, batch, config.opening_weight, spec.mines)
        network_seconds += time.perf_counter() - tick
        still: list[int] = []
        for slot, g in enumerate(live):
            visible = visibles[g]
            move = int(moves[slot])
            if rng.random() < config.epsilon:
                move = int(rng.choice(np.flatnonzero(visible.ravel() == HIDDEN)))
                clean[g] = False
            row, col = divmod(move, cols)
            laid_out_now = not started[g] and generator.needs_first_click
            if laid_out_now:
                boards[g] = Board(generator.layout(rows, cols, spec.mines, rng, (row, col)))
            board = boards[g]
            assert board is not None
            tick = time.perf_counter()
            on_position(g, board, visible, move if laid_out_now else None, move)
            label_seconds += time.perf_counter() - tick
            positions += 1
            started[g] = True
            if board.mines[row, col]:
                if rng.random() >= config.rescue:
                    continue
                clean[g] = False
                safe = np.flatnonzero((visible.ravel() == HIDDEN) & ~board.mines.ravel())
                move = int(safe[np.argmax(scores[slot, safe])])
                row, col = divmod(move, cols)
            board.reveal(row, col)
            visibles[g] = board.visible
            if board.done:
                wins += int(clean[g])
                continue
            still.append(g)
        live = still
    played = [board for board in boards if board is not None]
    stats = {
        "wins": float(wins),
        "clean_games": float(clean.sum()),
        "positions": float(positions),
        "network_seconds": network_seconds,
        "label_seconds": label_seconds,
        "total_seconds": time.perf_counter() - started_at,
    }
    return played, stats


def collect_positions(
    net: CellNet, spec: GameSpec, games: int, rng: np.random.Generator, config: RolloutConfig
) -> tuple[PositionSet, dict[str, float]]:
    """Play ``games`` games with ``net`` (:func:`play_games`, same arguments; ``rng`` also seeds
    the move labels' tie-breaks) and label every visited position; returns the positions in the
    order they were met, and the stats."""
    labeller, solver_moves = labellers(spec, rng, config)
    by_reward = config.labels == "reward"
    parts: list[Labelled] = []

    def label(game: int, board: Board, visible: np.ndarray, first: int | None, move: int) -> None:
        if by_reward:
            parts.append(reward_labels(board, visible, move))
            return
        parts.append(
            label_position(board.mines, board.counts, visible, first, spec, labeller, solver_moves)
        )

    _, stats = play_games(net, spec, games, rng, config, label)
    return position_set(parts, spec.rows, spec.cols), stats


def labellers(
    spec: GameSpec, rng: np.random.Generator, config: RolloutConfig
) -> tuple[MineLabeller | None, SolverMoves | None]:
    """The mine labeller (None: label by the truth) and the move labeller of ``config``.

    Raises:
        ValueError: unknown labels, move labels without the solver's labels, or reward labels
            with a rescue (which would play on by the layout).
    """
    if config.labels not in LABELS:
        raise ValueError(f"unknown labels {config.labels!r}; choose one of {', '.join(LABELS)}")
    if config.labels == "reward" and config.rescue > 0:
        raise ValueError(f"reward labels need rescue 0 (a mine ends the game), got {config.rescue}")
    labeller = solver_labeller() if config.labels == "solver" else None
    if config.move_labels and labeller is None:
        raise ValueError("move labels need the solver's labels (labels='solver')")
    return labeller, SolverMoves(spec, rng) if config.move_labels else None
