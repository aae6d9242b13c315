"""TRL's GRPOTrainer runs two steps on the puzzles and on the game (through its
``environment_factory``) with a tiny random model built here, and the game's tools play the text
env."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("trl")
import torch
from chat_server import solver_policy

ROOT = Path(__file__).resolve().parent.parent
TINY = ["--model", "tiny", "--rows", "5", "--cols", "5", "--mines", "3", "--count", "4", "--cpu"]
STEPS = ["--max-steps", "2", "--num-generations", "2", "--max-completion-length", "8"]


@pytest.fixture(scope="module")
def example() -> Any:
    spec = importlib.util.spec_from_file_location("trl_grpo", ROOT / "examples" / "trl_grpo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    torch.set_num_threads(1)
    return module


def test_trl_grpo__two_steps_on_the_puzzles(example: Any, tmp_path: Path) -> None:
    trainer = example.main(["--task", "puzzles", *TINY, *STEPS, "--out", str(tmp_path)])
    rewards = [log["reward"] for log in trainer.state.log_history if "reward" in log]
    assert trainer.state.global_step == 2 and len(rewards) == 2
    assert all(0.0 <= r <= 1.0 for r in rewards)


def test_trl_puzzle_reward__exact_answers_score_one(example: Any) -> None:
    data = example.puzzle_dataset("safest-cell", 3, 0, example.GameConfig(6, 6, 6))
    answers = [f"<answer>{a}</answer>" for a in data["answer"]]
    assert example.puzzle_reward(answers, data["metadata"]) == [1.0, 1.0, 1.0]
    assert example.puzzle_reward(["no idea"] * 3, data["metadata"]) == [0.0, 0.0, 0.0]


def test_trl_grpo__two_steps_on_the_game_through_its_environment_factory(
    example: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds: list[int] = []
    reset = example.MinesweeperGame.reset

    def recording_reset(self: Any, seed: int = 0, **rest: Any) -> str:
        seeds.append(seed)
        return str(reset(self, seed, **rest))

    monkeypatch.setattr(example.MinesweeperGame, "reset", recording_reset)
    trainer = example.main(["--task", "game", *TINY, *STEPS, "--out", str(tmp_path)])
    assert trainer.state.global_step == 2
    assert seeds[-4:] == [0, 0, 1, 1]  # one game per rollout, two rollouts per seed
    assert any("rewards/MinesweeperGame/mean" in log for log in trainer.state.log_history)


def test_trl_game__the_tools_play_the_text_env(example: Any) -> None:
    game = example.MinesweeperGame()
    policy = solver_policy()
    text, total = game.reset(seed=5), 0.0
    assert "Invalid reply" in game.reveal(99, 0) and game.get_reward() < 0
    total = game.get_reward()
    while not game.done:
        body = {"messages": [{"content": text}], "seed": 5}
        row, col = map(int, policy(body).split()[1:])
        before = game.get_reward()
        text = game.reveal(row, col)
        total += game.get_reward() - before
    assert game.get_reward() == pytest.approx(total) and total > 0
    assert game.reveal(0, 0) == "The game is over."
    assert json.dumps(game.get_reward())
