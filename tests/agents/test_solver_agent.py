"""The solver agent: sound certainties in real games, seeded determinism, first clicks, endgame."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np
import pytest

from agents.base import Agent
from agents.solver import SolverAgent, mine_probabilities
from agents.solver.endgame import _Search, endgame_move
from agents.solver.probability import analyse
from mswp_gym.board import Board
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import HIDDEN, NO_CLUE, Outcome
from mswp_gym.generators import make_generator
from mswp_gym.spec import GameSpec

BEGINNER = GameSpec(rows=9, cols=9, mines=10, first_click="safe")


def play(
    agent: SolverAgent, spec: GameSpec, index: int, check: bool = False
) -> tuple[Board, list[int]]:
    """Play one seeded game; with ``check``, verify every certainty the agent states."""
    agent.reset(seed=index, spec=spec)
    cols = spec.cols
    hidden = np.full((spec.rows, cols), HIDDEN, dtype=np.int8)
    first = divmod(agent.act(hidden, np.ones(spec.cells, dtype=bool)), cols)
    layout = make_generator(spec.first_click).layout(
        spec.rows,
        cols,
        spec.mines,
        np.random.default_rng(np.random.SeedSequence([99, index])),
        first,
    )
    board = Board(layout)
    board.reveal(*first)
    actions = [first[0] * cols + first[1]]
    while board.outcome == Outcome.PLAYING:
        action = agent.act(board.visible, ~board.revealed.ravel())
        assert not board.revealed.ravel()[action]
        if check:
            known = agent.explain()
            if known.certain:
                assert not layout.ravel()[action]
            assert all(not layout[cell] for cell in known.safe)
            assert all(layout[cell] for cell in known.mines)
        actions.append(action)
        board.reveal(*divmod(action, cols))
    return board, actions


def test_solver_agent__implements_the_agent_protocol() -> None:
    assert isinstance(SolverAgent(), Agent)


def test_solver_agent__certainties_are_right_over_many_games() -> None:
    agent = SolverAgent(depth=0, seed=0)
    wins = 0
    for index in range(150):
        board, _ = play(agent, BEGINNER, index, check=True)
        wins += board.outcome == Outcome.WON
    assert wins > 100  # a sound solver wins ~90% of Beginner games; a broken one far fewer


def test_solver_agent__lookahead_certainties_are_right() -> None:
    agent = SolverAgent(depth=1, seed=0)
    spec = GameSpec(rows=8, cols=8, mines=12, first_click="opening")
    for index in range(40):
        play(agent, spec, index, check=True)


def test_solver_agent__is_deterministic_given_the_seed() -> None:
    spec = GameSpec(rows=16, cols=16, mines=40)
    for index in range(3):
        _, first = play(SolverAgent(seed=1), spec, index)
        _, second = play(SolverAgent(seed=1), spec, index)
        assert first == second


@pytest.mark.parametrize(
    ("rule", "shape", "cell"),
    [
        ("safe", (9, 9), (0, 0)),
        ("opening", (9, 9), (2, 2)),
        ("any", (16, 30), (0, 0)),
        ("opening", (2, 5), (1, 2)),
    ],
)
def test_solver_agent__first_click_follows_the_rule(
    rule: str, shape: tuple[int, int], cell: tuple[int, int]
) -> None:
    spec = GameSpec(rows=shape[0], cols=shape[1], mines=3, first_click=rule)
    agent = SolverAgent(spec=spec)
    agent.reset(seed=0)
    action = agent.act(np.full(shape, HIDDEN, dtype=np.int8), np.ones(spec.cells, dtype=bool))
    assert divmod(action, shape[1]) == cell


def test_solver_agent__safe_cells_are_every_zero_probability_cell() -> None:
    spec = GameSpec(rows=16, cols=16, mines=40)
    agent = SolverAgent(spec=spec, depth=0)
    agent.reset(seed=0)
    layout = make_generator("safe").layout(16, 16, 40, np.random.default_rng(5), (0, 0))
    board = Board(layout)
    board.reveal(0, 0)
    checked = 0
    while board.outcome == Outcome.PLAYING and checked < 40:
        expected = {
            tuple(int(v) for v in c)
            for c in np.argwhere(mine_probabilities(board.visible, 40) == 0.0)
        }
        assert set(agent.safe_cells(board.visible)) == expected
        checked += 1
        board.reveal(*divmod(agent.act(board.visible, ~board.revealed.ravel()), 16))
    assert checked > 3


def test_solver_agent__respects_the_action_mask() -> None:
    board = np.array([[1, HIDDEN, HIDDEN, HIDDEN]], dtype=np.int8)
    spec = GameSpec(rows=1, cols=4, mines=2)
    agent = SolverAgent(spec=spec)
    agent.reset(seed=0)
    mask = np.array([False, True, False, False])
    assert agent.act(board, mask) == 1


def test_solver_agent__explain_reports_risk_and_certainties() -> None:
    board = np.array([[1, HIDDEN, HIDDEN, HIDDEN]], dtype=np.int8)
    agent = SolverAgent(spec=GameSpec(rows=1, cols=4, mines=1))
    agent.reset(seed=0)
    action = agent.act(board, board.ravel() == HIDDEN)
    known = agent.explain()
    assert action in (2, 3) and known.certain
    assert known.safe == {(0, 2), (0, 3)} and known.mines == {(0, 1)}
    assert known.risk.shape == (1, 4) and known.approximate is False


def test_solver_agent__rejects_bad_options_and_missing_spec() -> None:
    with pytest.raises(ValueError, match="depth=5"):
        SolverAgent(depth=5)
    with pytest.raises(ValueError, match="endgame_nodes=-1 must be an integer >= 0"):
        SolverAgent(endgame_nodes=-1)
    # a value that is not an int (a spec's text, a float, a bool) is named, not compared deep inside
    for bad in ("2000:endgame_nodes=200000", 2.5, True):
        with pytest.raises(ValueError, match=rf"endgame_layouts={bad!r} must be an integer >= 0"):
            SolverAgent(endgame_layouts=bad)  # type: ignore[arg-type]
    agent = SolverAgent()
    agent.reset()
    with pytest.raises(ValueError, match="GameSpec"):
        agent.act(np.full((2, 2), HIDDEN, dtype=np.int8), np.ones(4, dtype=bool))
    agent.reset(spec=GameSpec(rows=3, cols=3, mines=1))
    with pytest.raises(ValueError, match=r"\(2, 2\)"):
        agent.act(np.full((2, 2), HIDDEN, dtype=np.int8), np.ones(4, dtype=bool))


def test_endgame_move__a_lone_fifty_fifty_wins_half_the_time() -> None:
    # Two hidden cells under a "1", one mine left: whatever the guess, it wins half the time.
    board = np.array([[1, HIDDEN], [1, HIDDEN]], dtype=np.int8)
    analysis = analyse(board, 1)
    move = endgame_move(analysis, board, 1, np.array([False, True, False, True]))
    assert move is not None and move[0] in (1, 3) and move[1] == pytest.approx(0.5)


def test_endgame_move__prefers_the_informative_cell() -> None:
    # One mine in three cells, each 1/3. The middle cell would show 1 whatever happens (no
    # information: wins 2/3 * 1/2); an end cell tells whether the middle one is the mine (wins 2/3).
    board = np.array([[NO_CLUE, 1, NO_CLUE], [HIDDEN, HIDDEN, HIDDEN]], dtype=np.int8)
    analysis = analyse(board, 1)
    assert analysis.safe == frozenset()
    move = endgame_move(analysis, board, 1, np.array([False] * 3 + [True] * 3))
    assert move is not None and move[0] in (3, 5) and move[1] == pytest.approx(2 / 3)


def test_endgame_move__respects_its_cell_and_node_limits() -> None:
    board = np.array([[NO_CLUE, 1, NO_CLUE], [HIDDEN, HIDDEN, HIDDEN]], dtype=np.int8)
    analysis = analyse(board, 1)
    legal = np.array([False] * 3 + [True] * 3)
    assert endgame_move(analysis, board, 1, legal, max_cells=2) is None  # three undecided cells
    # a corner is safe in two layouts of three and tells them apart: no node, the middle cell
    # (no safer) is not searched
    assert endgame_move(analysis, board, 1, legal, node_budget=0) == (3, pytest.approx(2 / 3))
    # four cells in a row, one mine: after a corner, two layouts of three stay together (a node)
    row = np.full((1, 4), HIDDEN, dtype=np.int8)
    analysis, legal = analyse(row, 1), np.ones(4, dtype=bool)
    assert endgame_move(analysis, row, 1, legal, node_budget=0) is None
    assert endgame_move(analysis, row, 1, legal, node_budget=10) == (0, pytest.approx(0.75))


def _plain_win(layouts: tuple[int, ...], around: list[int], movable: list[int]) -> float:
    """The endgame's win probability by the plain recursion of the module docstring: no memo, no
    pruning, every risky move searched."""
    if len(layouts) == 1:
        return 1.0
    union, common = 0, -1
    for layout in layouts:
        union, common = union | layout, common & layout
    for i in movable:
        if not union >> i & 1 and len({(x & around[i]).bit_count() for x in layouts}) > 1:
            return _plain_win_after(layouts, i, around, movable)
    risky = [i for i in movable if union >> i & 1 and not common >> i & 1]
    return max((_plain_win_after(layouts, i, around, movable) for i in risky), default=0.0)


def _plain_win_after(
    layouts: tuple[int, ...], i: int, around: list[int], movable: list[int]
) -> float:
    """The plain recursion's win probability after revealing ``i``."""
    parts: dict[int, list[int]] = {}
    for layout in layouts:
        if not layout >> i & 1:
            parts.setdefault((layout & around[i]).bit_count(), []).append(layout)
    return sum(
        len(part) / len(layouts) * _plain_win(tuple(part), around, movable)
        for part in parts.values()
    )


def test_endgame_search__pruned_search_finds_the_plain_recursions_best_move() -> None:
    # random sets of layouts on a 3x4 board: the pruned, memoised search returns the first move
    # (in cell order) whose plain-recursion value is the best, and that value
    rng = np.random.default_rng(5)
    rows, cols = 3, 4
    table = neighbour_table(rows, cols)
    around = [sum(1 << n for n in table[c]) for c in range(rows * cols)]
    movable = list(range(rows * cols))
    for _ in range(300):
        mines = int(rng.integers(2, 5))
        every = [
            sum(1 << int(c) for c in rng.choice(rows * cols, mines, replace=False))
            for _ in range(int(rng.integers(3, 20)))
        ]
        layouts = tuple(sorted(set(every)))
        if len(layouts) < 2:
            continue
        union, common = 0, -1
        for layout in layouts:
            union, common = union | layout, common & layout
        risky = [i for i in movable if union >> i & 1 and not common >> i & 1]
        values = {i: _plain_win_after(layouts, i, around, movable) for i in risky}
        best = max(values.values())
        win, cell = _Search(around, movable, 10**6).best_move(layouts)
        assert win == pytest.approx(best, abs=1e-12)
        assert cell == next(i for i in risky if values[i] > best - 1e-9)


@pytest.mark.parametrize(
    "key",
    [
        "blend",
        "long_term",
        "near_off",
        "dominating",
        "defer_pockets",
        "boxes",
        "far_ties",
        "linked",
        "dead_last",
        "chains",
        "dense",
        "small_area",
        "candidates",
        "tolerance",
        "progress_weight",
    ],
)
def test_solver_agent__refuses_the_removed_variants(
    key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from eval.cli import main

    with pytest.raises(TypeError, match=key):
        SolverAgent(**{key: True})
    assert main(["--agents", f"solver:{key}=1", "--games", "2", "--quiet"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and key in lines[0] and "Traceback" not in lines[0]


def test_solver_agent__is_built_by_the_registry_and_plays_the_env() -> None:
    import agents
    from mswp_gym import MinesweeperEnv

    agent = agents.make("solver", seed=0)
    assert isinstance(agent, SolverAgent)
    for obs_mode in ("board", "channels", "dict"):
        env = MinesweeperEnv(rows=9, cols=9, mines=10, first_click="opening", obs_mode=obs_mode)
        obs, info = env.reset(seed=3)
        agent.reset(seed=3, spec=env.game_spec)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, env.action_masks()))
            done = terminated or truncated
        assert info["invalid_actions"] == 0


def test_solver_agent__last_move_certain_is_explains_certain() -> None:
    from agents.base import ReportsCertainty

    agent = SolverAgent(depth=1)
    assert isinstance(agent, ReportsCertainty)
    checked = set()
    for _ in corner_games(agent, 10):
        assert agent.last_move_certain == agent.explain().certain
        checked.add(agent.last_move_certain)
    assert checked == {True, False}


def corner_games(agent: SolverAgent, games: int) -> Iterator[bool]:
    """Play Beginner games ``0..games-1`` (first click in the corner); after each of the agent's
    moves, before it is played, yield whether it is the game's first."""
    spec = GameSpec(rows=9, cols=9, mines=10)
    for index in range(games):
        agent.reset(seed=index, spec=spec)
        layout = make_generator(spec.first_click).layout(
            spec.rows, spec.cols, spec.mines, np.random.default_rng(index), (0, 0)
        )
        board = Board(layout)
        while board.outcome == Outcome.PLAYING:
            action = agent.act(board.visible, ~board.revealed.ravel())
            yield not board.revealed.any()
            board.reveal(*divmod(action, spec.cols))


def test_solver_agent__second_click_after_a_numbered_corner_is_the_first_scored_far_corner() -> (
    None
):
    # docs/solver.md: the three far corners score the same after the corner (0, 0) shows 1, and
    # the tie goes to the first scored, the top right (the short side's corner, Hill's (15, 0),
    # was measured as a rule over 40,000 Expert games without a gain and removed).
    spec = GameSpec(rows=16, cols=30, mines=99, first_click="safe")
    agent = SolverAgent(seed=0, spec=spec)
    board = np.full((16, 30), HIDDEN, dtype=np.int8)
    assert agent.act(board, np.ones(spec.cells, dtype=bool)) == 0
    board[0, 0] = 1
    legal = np.ones(spec.cells, dtype=bool)
    legal[0] = False
    assert divmod(agent.act(board, legal), 30) == (0, 29)


def test_solver_agent__every_move_names_its_reason() -> None:
    from agents.base import MoveReason

    agent = SolverAgent(depth=1)
    seen = set()
    for first in corner_games(agent, 20):
        known = agent.explain()
        reason = known.move.reason
        assert isinstance(reason, MoveReason)
        assert (reason is MoveReason.FIRST_CLICK) == first
        if first:
            assert known.move.cell == (0, 0)
        else:
            assert known.certain == (reason is MoveReason.CERTAIN)
        if reason in (MoveReason.GUESS, MoveReason.FORCED, MoveReason.ENDGAME):
            assert known.move.risk is not None and 0 < known.move.risk < 1
        assert (known.move.win is not None) == (reason is MoveReason.ENDGAME)
        seen.add(reason)
    assert {MoveReason.FIRST_CLICK, MoveReason.CERTAIN, MoveReason.GUESS} <= seen
    assert SolverAgent().explain().move is None  # before any move


def test_search__a_row_of_three_with_one_mine() -> None:
    # 1x3, one mine: an end cell tells where the mine is (wins 2/3); the middle one shows 1 either
    # way and leaves a 50/50 (wins 1/3)
    search = _Search([0b010, 0b101, 0b010], [0, 1, 2], 10**6)
    assert search.best_move((0b001, 0b010, 0b100)) == (pytest.approx(2 / 3), 0)


class _GameTree:
    """The best win probability from a board by a full game-tree search that plays the real
    rules: every layout of the whole board that fits it, any hidden cell revealed (a safe one
    included), and a zero's flood fill opening its neighbours."""

    def __init__(self, board: np.ndarray, mines: int) -> None:
        rows, cols = board.shape
        self.table = neighbour_table(rows, cols)
        self.codes = board.ravel().tolist()
        self.hidden = [c for c, code in enumerate(self.codes) if code == HIDDEN]
        self.numbers: dict[int, list[int]] = {}
        for combo in itertools.combinations(self.hidden, mines):
            layout = sum(1 << c for c in combo)
            around = [sum(layout >> n & 1 for n in self.table[c]) for c in range(rows * cols)]
            if all(code == HIDDEN or around[c] == code for c, code in enumerate(self.codes)):
                self.numbers[layout] = around
        self.memo: dict[tuple[int, ...], float] = {}

    def opened(self, layout: int, cell: int) -> tuple[tuple[int, int], ...]:
        """What revealing the safe ``cell`` shows under ``layout``: the cells its flood opens."""
        seen, todo, shown = {cell}, [cell], []
        while todo:
            c = todo.pop()
            shown.append((c, self.numbers[layout][c]))
            if self.numbers[layout][c] == 0:
                fresh = [n for n in self.table[c] if n not in seen and self.codes[n] == HIDDEN]
                seen.update(fresh)
                todo.extend(fresh)
        return tuple(sorted(shown))

    def win(self, layouts: tuple[int, ...] | None = None) -> float:
        """The best win probability from ``layouts`` (all that fit the board if None)."""
        layouts = tuple(self.numbers) if layouts is None else layouts
        if len(layouts) == 1:
            return 1.0
        if layouts not in self.memo:
            self.memo[layouts] = max(
                (value for cell in self.hidden if (value := self.after(layouts, cell)) is not None),
                default=0.0,
            )
        return self.memo[layouts]

    def after(self, layouts: tuple[int, ...], cell: int) -> float | None:
        """The win probability after revealing ``cell``; None if that changes nothing (the cell
        is safe in every layout and shows the same in all)."""
        parts: dict[tuple[tuple[int, int], ...], list[int]] = {}
        for layout in layouts:
            if not layout >> cell & 1:
                parts.setdefault(self.opened(layout, cell), []).append(layout)
        if len(parts) == 1 and len(next(iter(parts.values()))) == len(layouts):
            return None
        return sum(len(p) / len(layouts) * self.win(tuple(p)) for p in parts.values())


def test_endgame_move__wins_as_often_as_the_full_game_tree_with_flood_fill() -> None:
    # the search has no flood fill, but reveals for free any cell that is safe in every layout and
    # tells them apart, which is all a flood would show: its value is the game's exact one
    rng = np.random.default_rng(7)
    checked = 0
    for trial in range(3000):
        rows, cols, mines = ((4, 4, 3), (3, 6, 3), (4, 5, 4))[trial % 3]
        flat = np.zeros(rows * cols, dtype=bool)
        flat[rng.choice(rows * cols, mines, replace=False)] = True
        board = Board(flat.reshape(rows, cols))
        safe = rng.permutation(np.flatnonzero(~flat)).tolist()
        for cell in safe[: int(rng.integers(1, len(safe)))]:
            if board.outcome == Outcome.PLAYING and not board.revealed.flat[cell]:
                board.reveal(*divmod(cell, cols))
        if board.outcome != Outcome.PLAYING:
            continue
        visible = board.visible.copy()
        analysis = analyse(visible, mines)
        if analysis.safe or analysis.log_layouts > math.log(40):
            continue  # the agent plays certain cells first; a small tree keeps the test fast
        legal = visible.ravel() == HIDDEN
        move = endgame_move(analysis, visible, mines, legal, max_cells=64)
        assert move is not None
        assert move[1] == pytest.approx(_GameTree(visible, mines).win(), abs=1e-12)
        checked += 1
    assert checked >= 60
