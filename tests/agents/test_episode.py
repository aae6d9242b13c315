"""``agents.play_episode`` on every observation form, score mode and flag actions."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import agents
from agents import EpisodeResult, LogicAgent, MoveRecord, play_episode
from agents.base import Explanation
from mswp_gym import MinesweeperEnv, Outcome

AGENT_SPECS = [
    ("random", {}),
    ("local", {}),
    ("logic", {}),
    ("logic", {"guess": "sentence-max"}),
    ("logic", {"guess": "global"}),
]


def moves_of(result: EpisodeResult) -> list[tuple[int, int]]:
    return [move.cell for move in result.moves]


@pytest.mark.parametrize("obs_mode", ["board", "channels", "dict"])
@pytest.mark.parametrize(("name", "kwargs"), AGENT_SPECS)
def test_play_episode__same_game_in_every_obs_mode(obs_mode: str, name: str, kwargs: dict) -> None:
    reference = play_episode(MinesweeperEnv(9, 9, 10), agents.make(name, **kwargs), seed=4)
    result = play_episode(
        MinesweeperEnv(9, 9, 10, obs_mode=obs_mode), agents.make(name, **kwargs), 4
    )
    assert result.moves == reference.moves
    assert result.outcome == reference.outcome


@pytest.mark.parametrize(("name", "kwargs"), AGENT_SPECS)
def test_play_episode__deterministic_given_seed(name: str, kwargs: dict) -> None:
    env = gym.make("Minesweeper-Beginner-v0")
    for seed in (0, 1, 2):
        first = play_episode(env, agents.make(name, **kwargs), seed)
        second = play_episode(env, agents.make(name, **kwargs), seed)
        assert moves_of(first) == moves_of(second)


def test_play_episode__result_is_consistent() -> None:
    env = gym.make("Minesweeper-Beginner-v0")
    for seed in range(30):
        result = play_episode(env, LogicAgent(), seed)
        assert result.steps == len(result.moves) > 0
        assert result.won == (result.outcome == Outcome.WON)
        assert result.outcome in (Outcome.WON, Outcome.LOST)
        assert result.layout is not None and result.layout.shape == (9, 9)
        last = result.moves[-1]
        if result.won:
            assert result.cells_revealed == 1.0 and last.clue is not None
            assert result.mines_exploded == 0
        else:
            assert last.clue is None and result.layout[last.cell]
            assert 0.0 < result.cells_revealed < 1.0
            assert result.mines_exploded == 1
        for move in result.moves[:-1]:
            assert move.clue is not None and 0 <= move.clue <= 8


def test_play_episode__score_mode_plays_to_the_end_and_counts_explosions() -> None:
    env = MinesweeperEnv(8, 8, 20, score_mode=True)
    result = play_episode(env, agents.make("random"), seed=7)
    assert result.outcome in (Outcome.WON, Outcome.CLEARED)
    assert result.cells_revealed == 1.0
    assert result.mines_exploded == sum(move.clue is None for move in result.moves) > 0


def test_play_episode__logic_agent_never_steps_on_exploded_cells_in_score_mode() -> None:
    env = MinesweeperEnv(10, 10, 30, score_mode=True)
    result = play_episode(env, LogicAgent(guess="global"), seed=3)
    assert len(set(moves_of(result))) == len(result.moves)
    assert result.cells_revealed == 1.0


def test_play_episode__works_with_flag_actions_in_the_space() -> None:
    env = MinesweeperEnv(9, 9, 10, flag_actions=True)
    result = play_episode(env, LogicAgent(), seed=2)
    assert not any(move.flag for move in result.moves)
    assert result.outcome in (Outcome.WON, Outcome.LOST)


def test_play_episode__calls_on_move_with_record_and_explanation() -> None:
    calls: list[tuple[MoveRecord, Explanation, np.ndarray]] = []

    def on_move(
        record: MoveRecord, agent: object, explanation: Explanation, board: np.ndarray
    ) -> None:
        calls.append((record, explanation, board))

    result = play_episode(MinesweeperEnv(9, 9, 10), LogicAgent(), seed=5, on_move=on_move)
    assert [c[0] for c in calls] == result.moves
    for record, explanation, board in calls:
        assert explanation.certain == record.certain
        assert isinstance(explanation, Explanation) and explanation.sentences is not None
        assert board.shape == (9, 9)


def test_play_episode__max_steps_stops_the_game() -> None:
    result = play_episode(MinesweeperEnv(16, 16, 40), agents.make("logic"), seed=0, max_steps=1)
    assert result.steps == 1


@pytest.mark.parametrize(("name", "kwargs"), AGENT_SPECS)
def test_play_episode__fast_certainty_path_matches_explain(name: str, kwargs: dict) -> None:
    env = gym.make("Minesweeper-Intermediate-v0")
    for seed in (0, 1):
        fast = play_episode(env, agents.make(name, **kwargs), seed)
        full = play_episode(env, agents.make(name, **kwargs), seed, on_move=lambda *args: None)
        assert fast.moves == full.moves
