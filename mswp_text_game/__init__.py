"""Minesweeper-Text-v0 as a verifiers (0.4) multi-turn environment, taskset id
``mswp-text-game``: the board is the prompt, each reply is played and the next board comes back
as the user's turn, until the game ends. The rubric is the text env's reward mode (``graded`` by
default: exact probabilities of the visible board), summed over the game, with the outcome,
the invalid replies and the share of provably safe moves as metrics.

    env = mswp_text_game.load_environment(rows=9, cols=9, mines=10, reward_mode="graded")
    vf-eval mswp-text-game --env.taskset.reward-mode certain_only --env.taskset.first-click no-guess

Game ``i`` of the taskset is seeded ``seed + i`` (the array env's board for that seed).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf
from verifiers.v1.harnesses.null import NullHarnessConfig

from agents.grading import ExactGrader
from mswp_gym.text.env import GRADED_MODES, RewardMode, TextMinesweeperEnv
from mswp_gym.text.protocol import TextRules

__all__ = ["MinesweeperEnv", "MinesweeperTaskset", "load_environment"]
TASKSET_ID = "mswp-text-game"


class MinesweeperConfig(vf.TasksetConfig):
    """The games: board, first-click rule, reward mode (``outcome``, ``per_reveal``, ``graded``,
    ``certain_only``), text rules, and the seed of game 0 (game ``i`` has ``seed + i``)."""

    rows: int = 9
    cols: int = 9
    mines: int = 10
    first_click: str = "safe"
    reward_mode: str = "graded"
    one_based: bool = False
    max_invalid: int = 3
    seed: int = 0


def make_text_env(config: MinesweeperConfig) -> TextMinesweeperEnv:
    """The text env of ``config`` (with the exact grader in the graded modes)."""
    mode = RewardMode(config.reward_mode)
    return TextMinesweeperEnv(
        rows=config.rows,
        cols=config.cols,
        mines=config.mines,
        first_click=config.first_click,
        rules=TextRules(one_based=config.one_based, max_invalid=config.max_invalid),
        reward_mode=mode,
        grader=ExactGrader() if mode in GRADED_MODES else None,
    )


class GameData(vf.TaskData):
    seed: int


class GameTask(vf.Task[GameData]):
    """One seeded game; its rewards are recorded by :meth:`MinesweeperEnv.run`."""


class MinesweeperTaskset(vf.Taskset[GameTask, MinesweeperConfig]):
    INFINITE = True

    def load(self) -> Iterator[GameTask]:
        env = make_text_env(self.config)
        for i in itertools.count():
            seed = self.config.seed + i
            text, _ = env.reset(seed=seed)
            board = text.removeprefix(env.prompt).lstrip()
            data = GameData(name=f"game#{seed}", prompt=board, system_prompt=env.prompt, seed=seed)
            yield GameTask(data, self.config.task)


class MinesweeperEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig(
        harness=NullHarnessConfig(id="null"), runtime=vf.SubprocessConfig()
    )
    """The model: a plain chat loop (pin another with ``--env.player.*``)."""


class MinesweeperEnv(vf.Env[MinesweeperEnvConfig]):
    """Steps the text env host-side as the run's user (like verifiers' TextArena env)."""

    async def run(self, task: Any, agents: Any) -> None:
        config = self.taskset.config
        env = make_text_env(config)
        env.reset(seed=task.data.seed)
        total, moves, certain, info = 0.0, 0, 0, {"is_success": False, "invalid_replies": 0}
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn()
            while not segment.terminated:
                text, reward, terminated, truncated, info = env.step(segment.last_reply)
                total += float(reward)
                moves += info["move"] is not None
                certain += bool(info.get("certain", False))
                if terminated or truncated:
                    break
                segment = await interaction.turn(text)
        trace = interaction.trace
        trace.record_reward(f"{config.reward_mode}_reward", total)
        invalid, share = float(info["invalid_replies"]), certain / moves if moves else 0.0
        trace.record_metrics(
            {"won": float(info["is_success"]), "moves": float(moves), "invalid_replies": invalid,
             "certain_share": share}
        )  # fmt: skip


def load_environment(**options: Any) -> MinesweeperEnv:
    """The environment; ``options`` are :class:`MinesweeperConfig` fields."""
    config = MinesweeperEnvConfig(taskset=MinesweeperConfig(id=TASKSET_ID, **options))
    env: MinesweeperEnv = vf.load_environment(config)
    return env
