"""GRPO with TRL on Minesweeper: the logic puzzles (single turn), or the text game (multi-turn,
through TRL's ``environment_factory``: the model plays with ``reveal``/``flag`` tool calls and
each rollout's reward is its game's, graded by exact probabilities). docs/llm.md explains both.

    pip install -e '.[llm]'
    python examples/trl_grpo.py --task puzzles --question safe-cells --max-steps 500
    python examples/trl_grpo.py --task game --reward-mode graded --model Qwen/Qwen3-0.6B

The game needs a model whose chat template TRL can parse tool calls from (Qwen2.5/Qwen3 and the
other templates in ``trl/chat_templates``). ``--model tiny`` builds a randomly initialised
one-layer GPT-2 with a word-level tokenizer and Qwen2.5's template here (no download): it learns
nothing, but runs every part of the wiring in seconds on a CPU (the tests use it). The last line
printed is a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import trl
from datasets import Dataset
from trl import GRPOConfig, GRPOTrainer

from agents.grading import ExactGrader
from agents.puzzles import Puzzle, make_puzzle, score, to_dataset
from mswp_gym.config import GameConfig
from mswp_gym.text.env import GRADED_MODES, RewardMode, TextMinesweeperEnv

GAME_PROMPT = (
    "Play Minesweeper with the reveal and flag tools (rows and columns are numbered from 0). "
    "Reveal every safe cell without revealing a mine."
)


def puzzle_dataset(question: str, count: int, seed: int, board: GameConfig) -> Dataset:
    """``count`` seeded puzzles: ``prompt``, ``answer`` and the ``metadata`` that scores them."""
    return to_dataset([make_puzzle(question, seed + i, board) for i in range(count)])


def completion_text(completion: Any) -> str:
    """A completion's text (standard prompts give strings, conversational ones messages)."""
    return completion if isinstance(completion, str) else str(completion[-1]["content"])


def puzzle_reward(completions: list[Any], metadata: list[str], **_: Any) -> list[float]:
    """Each reply's exact puzzle score in [0, 1] (``agents.puzzles.score``)."""
    return [
        score(Puzzle.from_record({"metadata": json.loads(meta)}), completion_text(c)).reward
        for c, meta in zip(completions, metadata, strict=True)
    ]


class MinesweeperGame:
    """One game per rollout for TRL's ``environment_factory``: ``reset`` deals the board of the
    row's ``seed``; the model's ``reveal`` and ``flag`` tool calls are played as replies in the
    text env; ``get_reward`` is the game's summed reward."""

    board = GameConfig(9, 9, 10)
    reward_mode = RewardMode.GRADED

    def __init__(self) -> None:
        mode = self.reward_mode
        self.env = TextMinesweeperEnv(
            config=self.board,
            reward_mode=mode,
            grader=ExactGrader() if mode in GRADED_MODES else None,
        )
        self.total, self.done = 0.0, True

    def reset(self, seed: int = 0, **_: Any) -> str:
        """Deal the game of ``seed``; its text (rules and board) joins the prompt."""
        text, _info = self.env.reset(seed=int(seed))
        self.total, self.done = 0.0, False
        return text

    def reveal(self, row: int, col: int) -> str:
        """Reveal a hidden cell.

        Args:
            row: The cell's row, from 0.
            col: The cell's column, from 0.

        Returns:
            What happened, and the board after the move.
        """
        return self._play(f"reveal {row} {col}")

    def flag(self, row: int, col: int) -> str:
        """Put a flag on a hidden cell you think is a mine, or take it off.

        Args:
            row: The cell's row, from 0.
            col: The cell's column, from 0.

        Returns:
            What happened, and the board after the move.
        """
        return self._play(f"flag {row} {col}")

    def get_reward(self) -> float:
        """The game's reward so far (the text env's reward mode, summed)."""
        return self.total

    def _play(self, reply: str) -> str:
        if self.done:
            return "The game is over."
        text, reward, terminated, truncated, _info = self.env.step(reply)
        self.total += float(reward)
        self.done = bool(terminated or truncated)
        return text


def game_dataset(count: int, seed: int) -> Dataset:
    """``count`` games: a user prompt (the env's text is appended by ``reset``) and a seed."""
    rows = [
        {"prompt": [{"role": "user", "content": GAME_PROMPT}], "seed": seed + i}
        for i in range(count)
    ]
    return Dataset.from_list(rows)


def tiny_model(texts: list[str]) -> tuple[Any, Any]:
    """A random 1-layer GPT-2 and a word-level tokenizer over ``texts``' words (with Qwen2.5's
    chat template, whose tool calls TRL parses)."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    specials = ["[UNK]", "[PAD]", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>"]
    words = sorted({w for text in texts for w in text.split()} - set(specials))
    vocab = {word: i for i, word in enumerate([*specials, *words])}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        unk_token="[UNK]",
        pad_token="[PAD]",
        eos_token="<|im_end|>",
        padding_side="left",
        additional_special_tokens=specials[2:],
    )
    tokenizer.chat_template = (
        Path(trl.__file__).parent / "chat_templates/qwen2_5.jinja"
    ).read_text()
    ids = {"eos_token_id": vocab["<|im_end|>"], "pad_token_id": vocab["[PAD]"]}
    config = GPT2Config(
        vocab_size=len(vocab), n_positions=2048, n_embd=16, n_layer=1, n_head=2, **ids
    )
    return GPT2LMHeadModel(config), tokenizer


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", choices=["puzzles", "game"], default="puzzles")
    parser.add_argument(
        "--model",
        default="Qwen/Qwen2.5-0.5B-Instruct",
        help="model id or folder, or tiny (a random local model: a smoke test)",
    )
    parser.add_argument("--question", default="safe-cells", help="puzzles: the question")
    parser.add_argument("--reward-mode", default="graded", choices=[m.value for m in RewardMode])
    parser.add_argument("--rows", type=int, default=9)
    parser.add_argument("--cols", type=int, default=9)
    parser.add_argument("--mines", type=int, default=10)
    parser.add_argument("--count", type=int, default=1000, help="puzzles or games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=500)
    parser.add_argument("--num-generations", type=int, default=8)
    parser.add_argument("--max-completion-length", type=int, default=512)
    parser.add_argument("--out", default="out/trl_grpo")
    parser.add_argument("--cpu", action="store_true", help="train on the CPU")
    return parser


def main(argv: list[str] | None = None) -> GRPOTrainer:
    """Train, print a JSON summary and return the trainer."""
    args = build_parser().parse_args(argv)
    start = time.perf_counter()
    board = GameConfig(args.rows, args.cols, args.mines)
    config = GRPOConfig(
        output_dir=args.out,
        max_steps=args.max_steps,
        per_device_train_batch_size=args.num_generations,
        num_generations=args.num_generations,
        max_completion_length=args.max_completion_length,
        learning_rate=1e-6,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=args.cpu,
        seed=args.seed,
    )
    if args.task == "puzzles":
        dataset = puzzle_dataset(args.question, args.count, args.seed, board)
        extra: dict[str, Any] = {"reward_funcs": [puzzle_reward]}
    else:
        MinesweeperGame.board, MinesweeperGame.reward_mode = board, RewardMode(args.reward_mode)
        dataset = game_dataset(args.count, args.seed)
        extra = {"environment_factory": MinesweeperGame}
    model, tokenizer = args.model, None
    if args.model == "tiny":
        game = [GAME_PROMPT, MinesweeperGame().reset(args.seed), "reveal flag row col"]
        model, tokenizer = tiny_model(game if args.task == "game" else dataset["prompt"])
    trainer = GRPOTrainer(
        model=model, args=config, train_dataset=dataset, processing_class=tokenizer, **extra
    )
    trainer.train()
    rewards = [log["reward"] for log in trainer.state.log_history if "reward" in log]
    summary = {"steps": trainer.state.global_step, "seconds": time.perf_counter() - start}
    print(json.dumps({**summary, "rewards": rewards}))
    return trainer


if __name__ == "__main__":
    main()
