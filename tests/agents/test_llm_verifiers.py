"""The verifiers environments, driven by scripted assistant replies (no model): the game's
responses and rewards, and the puzzles' rubric."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

vf = pytest.importorskip("verifiers.v1")
from chat_server import garbage, solver_policy

import mswp_text_game
import mswp_text_puzzles

Script = Callable[[dict[str, Any]], str]


class ScriptedPlayer:
    """Stands in for verifiers' agent seat: each turn's reply comes from ``script`` (given the
    user text as a chat request body, like the fake endpoint's policies)."""

    def __init__(self, script: Script) -> None:
        self.script, self.turns, self.trace = script, 0, None

    @asynccontextmanager
    async def interaction(self, task: Any) -> AsyncIterator[Any]:
        trace = vf.Trace(
            task=vf.TraceTask(type=type(task).__name__, data=task.data),
            agent=vf.AgentInfo(config=vf.AgentConfig()),
        )
        player = self
        self.trace = trace

        class Interaction:
            def __init__(self) -> None:
                self.trace = trace

            async def turn(self, message: str | None = None) -> Any:
                player.turns += 1
                text = task.data.prompt if message is None else message
                body = {"messages": [{"role": "user", "content": text}], "seed": task.data.seed}
                reply = vf.AssistantMessage(content=player.script(body))
                return vf.Segment(messages=[reply])

        yield Interaction()


def play(env: Any, script: Script, game: int = 0) -> tuple[Any, ScriptedPlayer]:
    task = next(iter(env.taskset.skip(game)))
    player = ScriptedPlayer(script)
    asyncio.run(env.run(task, type("Agents", (), {"player": player})()))
    return player.trace, player


def test_verifiers_game__the_solver_on_no_guess_boards_earns_one_per_certain_move() -> None:
    env = mswp_text_game.load_environment(
        rows=8, cols=8, mines=10, first_click="no-guess", reward_mode="certain_only"
    )
    for game in range(3):
        trace, player = play(env, solver_policy("no-guess"), game)
        metrics = trace.metrics
        assert metrics["won"] == 1.0 and metrics["invalid_replies"] == 0.0
        assert metrics["certain_share"] == 1.0 and metrics["moves"] == player.turns
        assert trace.rewards["certain_only_reward"].score == metrics["moves"]


def test_verifiers_game__garbage_replies_end_the_game_as_a_loss() -> None:
    env = mswp_text_game.load_environment(rows=5, cols=5, mines=3, max_invalid=2)
    trace, player = play(env, garbage)
    rewards = mswp_text_game.make_text_env(env.taskset.config).config.rewards
    assert player.turns == 2
    assert trace.metrics["won"] == 0.0 and trace.metrics["invalid_replies"] == 2.0
    assert trace.rewards["graded_reward"].score == pytest.approx(rewards.invalid + rewards.loss)


@pytest.mark.parametrize("question", ["safe-cells", "safest-cell", "mine-probability"])
def test_verifiers_puzzles__the_rubric_scores_exact_answers_one_and_garbage_zero(
    question: str,
) -> None:
    env = mswp_text_puzzles.load_environment(question=question, count=4, rows=6, cols=6, mines=6)
    for task in env.taskset:
        for reply, expected in ((f"<answer>{task.data.record['answer']}</answer>", 1.0), ("no", 0)):
            trace = vf.Trace(
                task=vf.TraceTask(type="PuzzleTask", data=task.data),
                agent=vf.AgentInfo(config=vf.AgentConfig()),
                root_reply=reply,
            )
            asyncio.run(task.score(trace))
            assert trace.rewards["puzzle_score"].score == pytest.approx(expected, abs=1e-3)
            assert trace.metrics["exact"] == float(expected == 1.0)
