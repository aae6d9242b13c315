"""The solver agent: certain cells first, then the best guess by exact probabilities."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from agents.base import Explanation, MoveNote, MoveReason, SeededAgent, reveal_mask
from agents.solver.deduce import Contradiction, deduce
from agents.solver.endgame import (
    DEFAULT_ENDGAME_LAYOUTS,
    MAX_ENDGAME_CELLS,
    NODE_BUDGET,
    endgame_move,
)
from agents.solver.guess import Guess, choose_guess
from agents.solver.position import check_board, read_position
from agents.solver.probability import DEFAULT_NODE_BUDGET, Analysis, RegionCache, analyse
from mswp_gym.cells import Cell, to_cell, to_index
from mswp_gym.constants import FLAGGED, HIDDEN, MINE, is_unknown
from mswp_gym.spec import GameSpec

MAX_DEPTH = 1
"""Look-ahead depths implemented: 0 (plain exact lowest risk) and 1 (Hill's blended next-move
safety, :mod:`agents.solver.blended`)."""
DEFAULT_OPENING_OFFSET = 2
"""Under ``first_click="opening"`` the first click goes to ``(2, 2)``: its whole 3x3 block is
inside the board, so the guaranteed opening is as large as it can be, while staying near the
corner, where the opening is likeliest to spread (see docs/solver.md for the measurement)."""


def opening_first_click(rows: int, cols: int, offset: int = DEFAULT_OPENING_OFFSET) -> Cell:
    """The solver's first click under ``first_click="opening"``: ``(offset, offset)``, clipped to
    the board."""
    return (min(offset, rows - 1), min(offset, cols - 1))


def rule_first_click(spec: GameSpec, offset: int = DEFAULT_OPENING_OFFSET) -> Cell:
    """The solver's first click for ``spec``'s rule: :func:`opening_first_click` under
    ``opening`` and ``no-guess``, else the corner ``(0, 0)`` (under ``safe`` the likeliest cell to
    open an area, under ``any``/``fixed`` as risky as any other)."""
    if spec.first_click.opens_block:
        return opening_first_click(spec.rows, spec.cols, offset)
    return (0, 0)


class SolverAgent(SeededAgent):
    """Plays Minesweeper from exact mine probabilities.

    Each move: a certainly safe cell if there is one; else, with few layouts left, the exhaustive
    endgame search (:mod:`agents.solver.endgame`); else a guess (:mod:`agents.solver.guess`). The
    first click is a corner, or ``(2, 2)`` under ``opening``.

    Args:
        seed: Default seed for ``reset`` (ties are broken by a Generator seeded from it).
        spec: Default game spec for ``reset``; the mine count must come from a spec.
        depth: 0 = lowest risk; 1 = look-ahead (:mod:`agents.solver.blended`; default).
        endgame_layouts, endgame_nodes, endgame_cells: the endgame search runs with at most this
            many layouts left (0: never) and undecided cells, within this many nodes.
        node_budget: States one sweep step may hold before the approximation, in every analysis
            the solver makes (the look-ahead's and the guess checks' included).
        opening_offset: First click ``(k, k)`` under the ``opening`` rule.
        extended: Also take the forced guess of an extended 50/50 chain, not only of a pair.

    Raises:
        ValueError: a depth outside ``0..MAX_DEPTH``, a count option that is not an integer >= 0,
            or an ``extended`` that is not a bool.
    """

    name = "solver"

    def __init__(
        self,
        *,
        seed: int | None = None,
        spec: GameSpec | None = None,
        depth: int = 1,
        endgame_layouts: int = DEFAULT_ENDGAME_LAYOUTS,
        endgame_nodes: int = NODE_BUDGET,
        endgame_cells: int = MAX_ENDGAME_CELLS,
        node_budget: int = DEFAULT_NODE_BUDGET,
        opening_offset: int = DEFAULT_OPENING_OFFSET,
        extended: bool = True,
    ) -> None:
        super().__init__(seed)
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH:
            raise ValueError(
                f"depth={depth!r} is not implemented; expected an integer 0..{MAX_DEPTH}"
            )
        if not isinstance(extended, bool):
            raise ValueError(f"extended={extended!r} must be True or False")
        for label, value in (
            ("endgame_layouts", endgame_layouts),
            ("endgame_nodes", endgame_nodes),
            ("endgame_cells", endgame_cells),
            ("node_budget", node_budget),
            ("opening_offset", opening_offset),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{label}={value!r} must be an integer >= 0")
        self.default_spec = spec
        self.spec = spec
        self.depth = depth
        self.endgame_layouts = endgame_layouts
        self.endgame_nodes = endgame_nodes
        self.endgame_cells = endgame_cells
        self.node_budget = node_budget
        self.opening_offset = opening_offset
        self.extended = extended
        self.cache = RegionCache()
        self._proven_mines: set[int] = set()
        self._pending: list[int] = []
        self._board: np.ndarray | None = None
        self._certain = False
        self._last: MoveNote | None = None
        self._analysis: Analysis | None = None
        self._analysis_board: np.ndarray | None = None

    # ------------------------------------------------------------------ protocol
    @property
    def last_move_certain(self) -> bool:
        """Whether the last move was proven safe: ``explain().certain`` without building the
        explanation (:class:`agents.base.ReportsCertainty`, which ``play_episode`` and so
        ``python -m eval`` read instead of calling ``explain()`` on every move)."""
        return bool(self._certain)

    @last_move_certain.setter
    def last_move_certain(self, value: bool) -> None:
        self._certain = bool(value)

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Start a new game under ``spec`` (else the constructor's), seeded by ``seed``."""
        super().reset(seed, spec if spec is not None else self.default_spec)
        self.cache = RegionCache()
        self._proven_mines = set()
        self._pending = []
        self._board = None
        self._certain = False
        self._last = None
        self._analysis = None

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        """The flat index of the cell to reveal next (always legal).

        Certain safe cells found by one analysis are queued and returned one per call while they
        stay hidden and legal.

        Raises:
            ValueError: no spec (the mine count is unknown), a board that does not match the spec or
                the mask, no legal action, or an inconsistent board.
        """
        board, legal = self._read(observation, action_mask)
        unknown = is_unknown(board.ravel())
        self._pending = [c for c in self._pending if unknown[c] and legal[c]]
        if self._pending and not unknown.all():
            self._certain = True
            self._last = MoveNote(MoveReason.CERTAIN)
            return self._pending.pop(0)
        cells = self._plan(board, legal)
        self._pending = cells[1:]
        return cells[0]

    def next_cells(self, observation: Any, action_mask: np.ndarray | None = None) -> list[Cell]:
        """The cells to reveal now: every certain safe cell the cheapest proof finds, else one
        guess.

        The batch form of :meth:`act`, for drivers that reveal many cells per step. The cheapest
        proof is the local rules; only when they find nothing is the exact analysis run, so the
        batch may miss cells that only the global count proves until the next call (see
        :meth:`safe_cells` for all of them at once).

        Args:
            observation: The visible board (any observation form).
            action_mask: Legal reveals; every hidden or flagged cell if None.

        Raises:
            ValueError: see :meth:`act`.
        """
        board = _board_of(observation)
        if action_mask is None:
            action_mask = is_unknown(board.ravel())
        board, legal = self._read(board, action_mask)
        cols = board.shape[1]
        self._pending = []
        return [to_cell(c, cols) for c in self._plan(board, legal)]

    def explain(self) -> Explanation:
        """What the agent knows about the last board it saw.

        Returns:
            ``safe`` and ``mines`` (sets of ``(row, col)`` certain cells, from the exact analysis),
            ``risk`` (``(rows, cols)`` float64 mine probabilities, NaN on revealed cells, or None
            before the first board), ``certain`` (whether the last move was proven safe),
            ``approximate`` (whether a region was too large to count exactly), and ``move``
            (a :class:`~agents.base.MoveNote`: how the last move was chosen, with its risk and
            score where they apply; None before the first move).

        A query only: the moves that follow are the same whether or not it is called.
        """
        if self._board is None:
            return Explanation(move=self._last)
        with self._query():
            analysis = self._analysis_of(self._board)
        cols = self._board.shape[1]
        if analysis is None:
            return Explanation(certain=self._certain, move=self._last)
        return Explanation.of(
            (to_cell(c, cols) for c in analysis.safe),
            (to_cell(c, cols) for c in analysis.mines | self._hidden_proven(self._board)),
            risk=analysis.probability.reshape(self._board.shape).copy(),
            certain=self._certain,
            approximate=analysis.approximate,
            move=self._last,
        )

    # ------------------------------------------------------------------ batch API
    def safe_cells(self, observation: Any | None = None) -> list[Cell]:
        """Every certainly safe unknown cell of ``observation`` (else of the last board seen).

        Uses the exact analysis, so it also finds cells that only the global mine count proves.
        A query only: the moves that follow are the same whether or not it is called.

        Raises:
            ValueError: no board to look at, or no spec.
        """
        board = self._board if observation is None else _board_of(observation)
        if board is None:
            raise ValueError("safe_cells() needs an observation: no board has been seen yet")
        spec = self._require_spec()
        if is_unknown(board).all():
            return []
        cols = board.shape[1]
        with self._query():
            found = self._certain_safe(board, spec.mines, deep=True)
        return [to_cell(c, cols) for c in found]

    # ------------------------------------------------------------------ internals
    @contextmanager
    def _query(self) -> Iterator[None]:
        """Keep the mines proven inside the block out of the game's memory: a query (``explain``,
        ``safe_cells``) runs the exact analysis where ``act`` may not have, and the mines it would
        add let the local rules find other cells first, so the moves would depend on whether it was
        called."""
        proven = set(self._proven_mines)
        try:
            yield
        finally:
            self._proven_mines = proven

    def _require_spec(self) -> GameSpec:
        if self.spec is None:
            raise ValueError(
                "SolverAgent needs a GameSpec (for the mine count): "
                "pass spec= to reset or the constructor"
            )
        return self.spec

    def _read(self, observation: Any, action_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Check and copy the board and the reveal part of the mask; remember the board."""
        board = _board_of(observation).copy()
        rows, cols = self.board_size(board)
        self._require_spec()
        legal = reveal_mask(action_mask, rows, cols)
        self._board = board
        self._analysis = None
        return board, legal

    def _plan(self, board: np.ndarray, legal: np.ndarray) -> list[int]:
        """Flat cells to reveal now: all certain safe ones found (sets ``certain``), else one
        choice."""
        spec = self._require_spec()
        if is_unknown(board).all():
            self._proven_mines = set()
            return [self._first_click(spec, legal, board.shape[1])]
        found = [c for c in self._certain_safe(board, spec.mines, deep=False) if legal[c]]
        if found:
            self._certain = True
            self._last = MoveNote(MoveReason.CERTAIN)
            return found
        return [self._guess(board, spec.mines, legal)]

    def _first_click(self, spec: GameSpec, legal: np.ndarray, cols: int) -> int:
        cell = rule_first_click(spec, self.opening_offset)
        index = to_index(cell, cols)
        self._certain = spec.first_click.safe_start
        self._last = MoveNote(MoveReason.FIRST_CLICK, cell=cell)
        if legal[index]:
            return index
        return int(np.flatnonzero(legal)[0])

    def _hidden_proven(self, board: np.ndarray) -> set[int]:
        flat = board.ravel()
        return {c for c in self._proven_mines if flat[c] == HIDDEN or flat[c] == FLAGGED}

    def _marked(self, board: np.ndarray) -> np.ndarray:
        """``board`` with every mine proven earlier in this game written in as a visible ``MINE``.

        A proven mine stays a mine as information only grows, so it need not be proven again: this
        keeps the constraints small (the work no longer grows with the mines found so far).
        """
        cells = self._hidden_proven(board)
        if not cells:
            return board
        marked = board.copy()
        marked.ravel()[list(cells)] = MINE
        return marked

    def _certain_safe(self, board: np.ndarray, mines: int, deep: bool) -> list[int]:
        """Certain safe cells, cheapest proof first: local rules, then (if none, or ``deep``)
        exact."""
        if not deep:
            position = read_position(self._marked(board), mines)
            try:
                deduction = deduce(position.constraints)
            except Contradiction as error:
                raise ValueError(f"no layout fits this board: {error}") from None
            self._proven_mines |= deduction.mines
            if deduction.safe:
                return sorted(deduction.safe)
        analysis = self._analysis_of(board)
        assert analysis is not None
        return sorted(analysis.safe)

    def _analysis_of(self, board: np.ndarray) -> Analysis | None:
        if self._analysis is None or self._analysis_board is not board:
            if self.spec is None or is_unknown(board).all():
                return None
            self._analysis = analyse(
                self._marked(board), self.spec.mines, self.cache, self.node_budget
            )
            self._analysis_board = board
            self._proven_mines |= self._analysis.mines
        return self._analysis

    def _guess(self, board: np.ndarray, mines: int, legal: np.ndarray) -> int:
        analysis = self._analysis_of(board)
        assert analysis is not None
        self._certain = False
        if self.endgame_layouts:
            move = endgame_move(
                analysis,
                board,
                mines,
                legal,
                self.endgame_layouts,
                self.endgame_nodes,
                self.endgame_cells,
            )
            if move is not None:
                cell, win = move
                self._last = MoveNote(
                    MoveReason.ENDGAME, risk=float(analysis.probability[cell]), win=win
                )
                return cell
        try:
            guess: Guess = choose_guess(
                analysis, board, mines, legal, self.rng, self.depth, self.cache, self.extended
            )
        except ValueError:
            index = int(np.flatnonzero(legal)[0])
            self._last = MoveNote(MoveReason.FALLBACK)
            return index
        self._last = MoveNote(
            MoveReason.FORCED if guess.forced else MoveReason.GUESS,
            risk=guess.risk,
            score=guess.score,
            tried=guess.tried,
        )
        return guess.cell


def _board_of(observation: Any) -> np.ndarray:
    """The visible board behind any observation form."""
    if isinstance(observation, np.ndarray) and observation.ndim == 2:
        return check_board(observation)
    from mswp_gym.encoding import board_from_observation

    return check_board(board_from_observation(observation))
