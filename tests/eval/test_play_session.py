"""The game behind the play window, without pygame: moves, counts, seeds, plans and heat maps."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.base import Explanation
from agents.solver import mine_probabilities
from eval.agent_specs import parse_agent_spec
from eval.gui.choices import BoardSetup, agent_specs, board_setups, build_agent, preset_setup
from eval.gui.session import GameSession
from mswp_gym.cells import neighbours
from mswp_gym.constants import FLAGGED, HIDDEN, Outcome
from mswp_gym.spec import GameSpec


class ScriptedAgent:
    """A stand-in agent: reveals the first legal cell in row-major order and claims certainty
    by a fixed script (True, False, True, ...)."""

    name = "scripted"

    def __init__(self, certainty: tuple[bool, ...] = (True, False)) -> None:
        self.certainty = certainty
        self.moves = 0
        self.resets: list[tuple[int | None, GameSpec | None]] = []

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        self.moves = 0
        self.resets.append((seed, spec))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        spec = self.resets[-1][1]
        assert spec is not None and observation.shape == (spec.rows, spec.cols)
        self.moves += 1
        return int(np.flatnonzero(action_mask)[0])

    def explain(self) -> Explanation:
        certain = self.certainty[(self.moves - 1) % len(self.certainty)]
        return Explanation(certain=certain)


class IllegalAgent(ScriptedAgent):
    """Always reveals (0, 0), legal or not."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return 0


BEGINNER = preset_setup("beginner")


def test_session__human_reveal_and_flag_update_board_and_counts() -> None:
    session = GameSession(BEGINNER, ScriptedAgent(), seed=3)
    assert session.reveal((4, 4)) is True  # the first click is safe under the 'safe' rule
    assert session.visible[4, 4] >= 0 and session.last_cell == (4, 4)
    assert session.reveal((4, 4)) is False  # already revealed: nothing happens
    row, col = (int(v) for v in np.argwhere(session.visible == HIDDEN)[0])
    hidden = (row, col)
    assert session.toggle_flag(hidden) is True
    assert session.visible[hidden] == FLAGGED and session.mines_left == 9
    assert session.reveal(hidden) is False  # a flagged cell is not revealed by a left click
    assert session.toggle_flag(hidden) is True and session.mines_left == 10
    assert (
        session.counts.reveals,
        session.counts.human,
        session.counts.ai,
        session.counts.flags,
    ) == (1, 1, 0, 2)


def test_session__chord_opens_the_neighbours_of_a_satisfied_clue() -> None:
    session = GameSession(BEGINNER, ScriptedAgent(), seed=3)
    session.reveal((4, 4))
    truth = session.env._board.mines  # type: ignore[union-attr]  # test-only peek at the truth
    visible = session.visible
    clue = next(
        (int(r), int(c))
        for r, c in np.argwhere(visible >= 1)
        if any(visible[n] == HIDDEN and not truth[n] for n in neighbours((int(r), int(c)), 9, 9))
    )
    around = neighbours(clue, 9, 9)
    assert session.chord(clue) == 0  # no flags yet: nothing happens
    for cell in around:
        if truth[cell]:
            session.toggle_flag(cell)
    safe_hidden = [n for n in around if session.visible[n] == HIDDEN]
    assert session.chord(clue) >= 1
    assert all(session.visible[n] >= 0 for n in safe_hidden) and session.outcome != Outcome.LOST


def test_session__ai_moves_are_counted_as_certain_or_guessed() -> None:
    for seed in range(50):  # a game where the stand-in's three row-major clicks survive
        agent = ScriptedAgent(certainty=(False, True, True))
        session = GameSession(BEGINNER, agent, seed=seed)
        assert agent.resets[-1] == (seed, session.spec)
        moves = [session.ai_move() for _ in range(3)]
        if session.counts.ai == 3:
            break
    assert [m.certain for m in moves if m is not None] == [False, True, True]
    assert (session.counts.ai, session.counts.certain, session.counts.guessed) == (3, 2, 1)
    assert session.last_ai == moves[-1]
    guess = moves[0]
    assert guess is not None and guess.risk == 0.0  # the first click is safe under the "safe" rule
    assert all(m is None or m.risk is None for m in moves[1:])  # certain moves carry no risk


def test_session__heat_map_before_the_first_click_follows_the_rule() -> None:
    safe, _ = GameSession(BEGINNER, ScriptedAgent(), seed=1).heat_map()
    assert safe is not None and (safe.probability == 0.0).all()
    blind, _ = GameSession(BEGINNER.with_rule("any"), ScriptedAgent(), seed=1).heat_map()
    assert blind is not None and np.allclose(blind.probability, 10 / 81)


def test_session__illegal_agent_move_is_an_error_naming_the_cell() -> None:
    session = GameSession(BEGINNER, IllegalAgent(), seed=3)
    session.ai_move()
    if not session.over:
        with pytest.raises(ValueError, match=r"\(0, 0\)"):
            session.ai_move()


def test_session__losing_records_the_exploded_cell_and_shows_the_layout() -> None:
    crowded = BoardSetup(9, 9, 80, "any")  # one safe cell: (0, 0) is almost surely a mine
    for seed in range(20):
        session = GameSession(crowded, ScriptedAgent(), seed=seed)
        assert session.layout is None  # the truth is hidden while the game is on
        session.reveal((0, 0))
        if session.outcome == Outcome.LOST:
            break
    assert session.outcome == Outcome.LOST and session.over
    assert session.exploded == (0, 0)
    assert session.layout is not None and session.layout[0, 0] and session.layout.sum() == 80
    assert session.reveal((1, 1)) is False and session.ai_move() is None  # the game is over


def test_session__new_game_moves_to_next_seed_and_replay_repeats_the_layout() -> None:
    session = GameSession(BEGINNER, ScriptedAgent(), seed=10)
    session.reveal((0, 0))
    first = session.visible
    session.replay()
    assert session.game_seed == 10 and (session.visible == HIDDEN).all()
    session.reveal((0, 0))
    assert (session.visible == first).all()
    session.new_game()
    assert session.game == 1 and session.game_seed == 11 and session.counts.reveals == 0
    assert session.agent.resets[-1][0] == 11  # type: ignore[attr-defined]


def test_session__set_board_switches_size_and_rule_and_rejects_bad_boards() -> None:
    session = GameSession(BEGINNER, ScriptedAgent(), seed=1)
    session.set_board(preset_setup("expert", "opening"))
    assert (session.spec.rows, session.spec.cols, session.spec.mines) == (16, 30, 99)
    assert session.spec.first_click == "opening"
    session.reveal((5, 5))
    assert session.visible[5, 5] == 0  # the opening rule promises a zero
    with pytest.raises(ValueError, match="200"):
        session.set_board(BoardSetup(9, 9, 200, "safe"))
    assert session.spec.rows == 16  # unchanged after the bad board


def test_session__plan_predicts_the_next_move_and_ai_move_plays_it() -> None:
    planned = GameSession(BEGINNER, agents.make("logic", guess="global"), seed=4)
    plain = GameSession(BEGINNER, agents.make("logic", guess="global"), seed=4)
    while not plain.over:
        plan = planned.plan()
        assert plan is not None
        move, expected = planned.ai_move(), plain.ai_move()
        assert move is not None and expected is not None
        assert move.cell == plan.move.cell == expected.cell
        assert move.certain == expected.certain
    assert planned.outcome == plain.outcome and planned.plan() is None


def test_session__plan_shows_what_the_logic_agent_has_proven() -> None:
    session = GameSession(BEGINNER, agents.make("logic"), seed=4)
    for _ in range(6):
        session.ai_move()
    plan = session.plan()
    assert plan is not None
    mines = plan.move.explanation.mines
    safe = plan.move.explanation.safe
    truth = session.env._board.mines  # type: ignore[union-attr]  # test-only peek at the truth
    assert all(truth[cell] for cell in mines) and not any(truth[cell] for cell in safe)


@pytest.mark.parametrize("name", ["logic:global", "solver"])
def test_session__agent_catches_up_on_human_moves(name: str) -> None:
    session = GameSession(preset_setup("intermediate"), build_agent(parse_agent_spec(name)), seed=5)
    session.reveal((8, 8))
    truth = session.env._board.mines  # type: ignore[union-attr]  # test-only peek at the truth
    human = [
        (r, c)
        for r in range(16)
        for c in range(16)
        if session.visible[r, c] == HIDDEN and not truth[r, c]
    ]
    for cell in human[:3]:  # three more safe human clicks the agent has not seen
        session.reveal(cell)
    for _ in range(10):
        move = session.ai_move()
        if move is None:
            break
        assert not move.certain or not truth[move.cell]  # a move called certain is safe
        assert all(not truth[cell] for cell in move.explanation.safe)
        assert all(truth[cell] for cell in move.explanation.mines)
    assert session.counts.human == 4 and session.counts.ai >= 1


def test_session__heat_map_is_the_solver_probability_of_the_board() -> None:
    session = GameSession(preset_setup("intermediate"), ScriptedAgent(), seed=2)
    session.reveal((8, 8))
    heat, problem = session.heat_map()
    assert problem is None and heat is not None
    expected = mine_probabilities(session.visible, 40)
    assert np.allclose(heat.probability, expected, equal_nan=True)
    assert np.isnan(heat.probability[8, 8])
    assert session.heat_map()[0] is heat  # cached while the board is unchanged


def test_choices__agent_cycle_starts_with_the_chosen_agent_without_duplicates() -> None:
    labels = [spec.label for spec in agent_specs("solver")]
    assert labels[0] == "solver" and labels.count("solver") == 1 and "logic:global" in labels
    assert agent_specs("ppo:run.zip")[0].label == "ppo:run.zip"


def test_choices__custom_board_joins_the_presets() -> None:
    custom = BoardSetup(20, 20, 60, "safe")
    assert [s.name for s in board_setups(custom)] == [
        "beginner",
        "intermediate",
        "expert",
        "custom",
    ]
    assert [s.name for s in board_setups(BEGINNER)] == ["beginner", "intermediate", "expert"]


def test_build_agent__missing_checkpoint_and_unknown_agent_are_clear_errors() -> None:
    with pytest.raises(FileNotFoundError, match=r"no/such/run\.zip"):
        build_agent(parse_agent_spec("ppo:no/such/run.zip"))
    with pytest.raises(ValueError, match="nobody"):
        build_agent(parse_agent_spec("nobody"))
