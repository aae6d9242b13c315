"""One game in the window: the env, the chosen agent, the move counts and the agent's reasoning.

Plain Python (no pygame), so everything the window does to a game is testable headless. The game
runs in a :class:`~mswp_gym.env.MinesweeperEnv` with flag actions on (right clicks are flag
actions); the agent sees only the visible board and the reveal half of the action mask.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from agents.base import Agent, Explanation
from eval.gui.choices import BoardSetup
from mswp_gym.cells import Cell, neighbours, to_cell, to_index
from mswp_gym.constants import FLAGGED, HIDDEN, FirstClick, Outcome, is_clue
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec


@dataclass
class MoveCounts:
    """What has been played this game."""

    reveals: int = 0
    """Reveal moves, by you and the agent."""
    human: int = 0
    """Reveal moves you made."""
    ai: int = 0
    """Reveal moves the agent made."""
    certain: int = 0
    """Agent moves it had proven safe."""
    guessed: int = 0
    """Agent moves that were guesses."""
    flags: int = 0
    """Flag toggles (right clicks)."""


@dataclass(frozen=True)
class AiMove:
    """One agent move and what the agent said about it."""

    cell: Cell
    certain: bool
    explanation: Explanation
    """``agent.explain()`` right after it chose the move."""
    risk: float | None = None
    """For a guess: the solver's exact probability that the cell held a mine, before the move
    (None for certain moves, or when the solver could not say)."""


@dataclass(frozen=True)
class Plan:
    """What the agent would do on the current board: computed on a copy, without playing."""

    key: bytes
    """The board it was made for."""
    move: AiMove
    thinker: Agent
    """The copy that made the plan; it becomes the agent if the move is played."""


@dataclass(frozen=True)
class HeatMap:
    """The solver's mine probabilities of the current board."""

    probability: np.ndarray
    """``(rows, cols)`` float64, NaN on revealed cells."""
    approximate: bool
    """A frontier region was too large to count exactly (see :mod:`agents.solver.probability`)."""


def make_env(board: BoardSetup) -> MinesweeperEnv:
    """The env for ``board`` (raises ValueError/TypeError naming a bad size, count or rule)."""
    return MinesweeperEnv(config=board.game_config())


class GameSession:
    """A game of Minesweeper played by you, the agent, or both in turns.

    Game ``k`` (from 0) uses ``seed + k``.

    Raises:
        ValueError, TypeError: the board is not valid (from the env).
    """

    def __init__(self, board: BoardSetup, agent: Agent, seed: int) -> None:
        self.board = board
        self.agent = agent
        self.seed = seed
        self.env = make_env(board)
        self.spec: GameSpec = self.env.game_spec
        self.game = 0
        """Games started before this one (the game number is ``game + 1``)."""
        self.counts = MoveCounts()
        self.last_ai: AiMove | None = None
        """The agent's latest move this game."""
        self.last_cell: Cell | None = None
        """The latest cell revealed this game, by anyone."""
        self.exploded: Cell | None = None
        """The mine that ended the game."""
        self._info: dict[str, Any] = {}
        self._plan: Plan | None = None
        self._heat: tuple[bytes, HeatMap | None, str | None] | None = None
        self._region_cache: Any = None
        self._start(seed)

    # ---------------------------------------------------------------- state
    @property
    def visible(self) -> np.ndarray:
        """The visible board (a copy), ``(rows, cols)`` int8."""
        return self.env.visible

    @property
    def outcome(self) -> Outcome:
        """Where the game stands."""
        return Outcome(int(self._info.get("outcome", Outcome.PLAYING)))

    @property
    def over(self) -> bool:
        """Won or lost."""
        return self.outcome != Outcome.PLAYING

    @property
    def mines_left(self) -> int:
        """Mines minus flags."""
        return int(self._info.get("mines_left", self.spec.mines))

    @property
    def layout(self) -> np.ndarray | None:
        """``(rows, cols)`` bool truth, only once the game is over (to draw the mines)."""
        layout = self._info.get("layout")
        return None if layout is None or not self.over else np.asarray(layout, dtype=bool)

    @property
    def game_seed(self) -> int:
        """The seed of the game being played."""
        return self.seed + self.game

    # ---------------------------------------------------------------- games
    def new_game(self) -> None:
        """Start the next game (next seed), same board and agent."""
        self.game += 1
        self._start(self.game_seed)

    def replay(self) -> None:
        """Start this game again: same seed, so the same layout for the same first click."""
        self._start(self.game_seed)

    def set_board(self, board: BoardSetup) -> None:
        """Switch to another board or first-click rule and start a game on it.

        Raises:
            ValueError, TypeError: the board is not valid (nothing changes then).
        """
        env = make_env(board)
        self.env.close()
        self.board, self.env, self.spec = board, env, env.game_spec
        self._start(self.game_seed)

    def set_agent(self, agent: Agent) -> None:
        """Let another agent play from now on (it catches up on the board at its first move)."""
        self.agent = agent
        self.agent.reset(self.game_seed, self.spec)
        self._plan = None
        self.last_ai = None

    def _start(self, seed: int) -> None:
        _, self._info = self.env.reset(seed=seed)
        self.agent.reset(seed, self.spec)
        self.counts = MoveCounts()
        self.last_ai = None
        self.last_cell = None
        self.exploded = None
        self._plan = None
        self._heat = None
        self._region_cache = None

    # ---------------------------------------------------------------- moves
    def reveal(self, cell: Cell) -> bool:
        """Reveal ``cell`` as the human player. Returns False (and does nothing) if it cannot be
        revealed: the game is over, or the cell is revealed or flagged."""
        if not self._can_reveal(cell):
            return False
        self._reveal(cell)
        self.counts.human += 1
        return True

    def chord(self, cell: Cell) -> int:
        """Click a revealed clue whose flagged neighbours match it: reveal its other hidden
        neighbours (each one a human move; a wrong flag can lose the game, as in the classic game).

        Returns:
            How many neighbours were revealed (0 if ``cell`` is not a satisfied clue).
        """
        clue = int(self.visible[cell])
        if self.over or clue < 1:
            return 0
        around = neighbours(cell, self.spec.rows, self.spec.cols)
        if sum(int(self.visible[n]) == FLAGGED for n in around) != clue:
            return 0
        # reveal() skips the cells a flood fill already opened, one neighbour after another
        return sum(self.reveal(neighbour) for neighbour in around)

    def toggle_flag(self, cell: Cell) -> bool:
        """Flag or unflag a hidden cell. Returns False if the game is over or the cell is open."""
        if self.over or self.visible[cell] not in (HIDDEN, FLAGGED):
            return False
        _, _, _, _, self._info = self.env.step(self.spec.cells + to_index(cell, self.spec.cols))
        self.counts.flags += 1
        return True

    def ai_move(self) -> AiMove | None:
        """Let the agent make one move. Returns the move, or None if the game is over.

        Raises:
            ValueError: the agent chose an illegal cell (or found no legal one), naming it.
        """
        if self.over:
            return None
        plan = (
            self._plan if self._plan is not None and self._plan.key == self._board_key() else None
        )
        if plan is not None:
            self.agent = plan.thinker
            move = plan.move
        else:
            move = self._think(self.agent)
        if not self._can_reveal(move.cell):
            raise ValueError(
                f"agent {self.agent.name!r} chose cell {move.cell}, which cannot be revealed"
            )
        if not move.certain:
            heat, _ = self.heat_map()
            if heat is not None and np.isfinite(heat.probability[move.cell]):
                move = replace(move, risk=float(heat.probability[move.cell]))
        self._reveal(move.cell)
        self.counts.ai += 1
        self.counts.certain += move.certain
        self.counts.guessed += not move.certain
        self.last_ai = move
        return move

    @property
    def move_kind(self) -> str | None:
        """What the agent's moves are called when it proves nothing (``network move``); None for
        agents whose moves are certain or a guess."""
        kind = getattr(self.agent, "move_kind", None)
        return kind if isinstance(kind, str) else None

    def plan(self) -> Plan | None:
        """What the agent would play next and what it knows now, computed on a copy of the agent
        (cached per board; ``ai_move`` then plays exactly this move). None once the game is over."""
        if self.over:
            return None
        key = self._board_key()
        if self._plan is None or self._plan.key != key:
            thinker = copy.deepcopy(self.agent)
            self._plan = Plan(key, self._think(thinker), thinker)
        return self._plan

    def heat_map(self) -> tuple[HeatMap | None, str | None]:
        """The solver's exact mine probability of every cell (cached per board).

        Returns ``(heat map, None)``, or ``(None, reason)`` when it cannot be computed.
        """
        key = self._board_key()
        if self._heat is None or self._heat[0] != key:
            self._heat = (key, *self._compute_heat())
        return self._heat[1], self._heat[2]

    # ------------------------------------------------------------ internals
    def _board_key(self) -> bytes:
        return self.env.visible.tobytes()

    def _can_reveal(self, cell: Cell) -> bool:
        return not self.over and int(self.visible[cell]) == HIDDEN

    def _reveal(self, cell: Cell) -> None:
        _, _, _, _, self._info = self.env.step(to_index(cell, self.spec.cols))
        self.counts.reveals += 1
        self.last_cell = cell
        if self.outcome == Outcome.LOST:
            self.exploded = cell

    def _think(self, agent: Agent) -> AiMove:
        mask = np.asarray(self._info["action_mask"])[: self.spec.cells]
        action = int(agent.act(self.visible, mask))
        if not 0 <= action < self.spec.cells:
            raise ValueError(f"agent {agent.name!r} returned action {action}, not a reveal action")
        explanation = agent.explain()
        return AiMove(to_cell(action, self.spec.cols), explanation.certain, explanation)

    def _compute_heat(self) -> tuple[HeatMap | None, str | None]:
        try:
            from agents.solver.probability import RegionCache, analyse
        except ImportError as err:
            return None, f"heat map needs the solver: {err}"
        if self._region_cache is None:
            self._region_cache = RegionCache()
        visible = self.visible
        if self.counts.reveals == 0 and FirstClick(self.spec.first_click).safe_start:
            # No mine is placed yet and the rule keeps them off the first click: any click is safe.
            return HeatMap(np.where(is_clue(visible), np.nan, 0.0), False), None
        try:
            analysis = analyse(visible, self.spec.mines, self._region_cache)
        except ValueError as err:
            return None, str(err)
        return HeatMap(analysis.probability.reshape(visible.shape), analysis.approximate), None
