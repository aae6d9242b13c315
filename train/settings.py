"""Training settings: one dataclass (a docstring per field), per-preset TOML files, and the CLI.

Precedence, lowest first: the dataclass defaults, ``train/configs/<preset>.toml``, a ``--config``
file, then command-line flags. Every field is a flag: ``total_timesteps`` is
``--total-timesteps``; booleans take ``true``/``false``.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import itertools
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from mswp_gym.presets import PRESETS, preset
from train.generalist import parse_boards

CONFIG_DIR = Path(__file__).with_name("configs")
ALGOS: tuple[str, ...] = ("ppo", "imitation", "imitation+ppo")
VEC_ENVS: tuple[str, ...] = ("dummy", "subproc", "native")
DEVICES: tuple[str, ...] = ("auto", "cpu", "cuda")


@dataclass(frozen=True)
class TrainSettings:
    """Everything one training run depends on."""

    preset: str = "beginner"
    """Board preset (beginner, intermediate, expert); rows/cols/mines override it."""
    rows: int = 0
    """Board rows; 0 takes the preset's."""
    cols: int = 0
    """Board columns; 0 takes the preset's."""
    mines: int = 0
    """Mine count; 0 takes the preset's."""
    first_click: str = "safe"
    """First-click rule of the env (any, safe, opening)."""
    algo: str = "imitation+ppo"
    """ppo (from scratch), imitation (DAgger only) or imitation+ppo (DAgger, then PPO fine-tuning)."""
    seed: int = 0
    """Seeds everything: torch, layouts, exploration, env seeds."""
    out: str = "runs"
    """Parent folder of run folders (named preset__algo__seed__time)."""
    resume: str = ""
    """A run folder to continue (same step count, optimizer state and schedules)."""
    init: str = ""
    """Start a new run from this checkpoint's network (zip or run folder), e.g. PPO fine-tuning
    of a DAgger-trained policy; the board must match."""
    time_budget_minutes: float = 0.0
    """Stop the whole run (both phases) after this much wall time; 0 = no limit."""
    device: str = "auto"
    """Where the network trains: auto (a CUDA GPU when there is one, else the CPU), cpu or cuda.
    Collection and evaluation always run on CPU copies of the network."""
    torch_threads: int = 1
    """torch.set_num_threads in the main process (workers use 1). On a shared 2-core machine 1
    was 2-3x faster than 2 (OpenMP threads spin against other processes)."""

    channels: int = 32
    """Feature maps per convolution."""
    blocks: int = 3
    """Residual blocks (receptive field 5 + 4 * blocks cells)."""
    opening_weight: float = 0.05
    """Weight of P(opening) in a cell's score, next to log P(safe)."""
    beta: float = 3.0
    """Initial inverse temperature of the PPO policy's softmax over cell scores."""

    dagger_iterations: int = 60
    """Imitation: collect-then-train rounds."""
    games_per_iteration: int = 1000
    """Imitation: games the learner plays per round (split over the workers)."""
    gradient_steps_per_iteration: int = 300
    """Imitation: minibatch updates per round."""
    bc_batch_size: int = 256
    """Imitation: minibatch size."""
    bc_learning_rate: float = 1e-3
    """Imitation: Adam learning rate; decays linearly to 10% over the rounds, or over the time
    budget if that runs out first."""
    buffer_positions: int = 400_000
    """Imitation: most recent positions kept for training (shared equally by the boards)."""
    boards: str = ""
    """Imitation: a generalist run trains one network on these boards, comma-separated
    ROWSxCOLS/MINES (e.g. 9x9/10,16x16/40,16x30/99), games split evenly; evaluation stays on the
    preset's board. Empty: the run's one board."""
    epsilon: float = 0.05
    """Imitation: chance of a random legal move while collecting."""
    rescue: float = 0.8
    """Imitation: chance that a losing move is replaced by a truly safe one while collecting."""
    labels: str = "solver"
    """Imitation: mine targets from the exact solver ("solver") or the true layout ("truth")."""
    workers: int = 2
    """Imitation: collection jobs per round, run in parallel (1 = in process, local backend)."""
    backend: str = "local"
    """Imitation: where collection jobs run: local (processes) or ray (a Ray cluster; the same
    seed gives the same data under both)."""
    ray_address: str = ""
    """Imitation, backend ray: the cluster address (e.g. auto); empty starts a local Ray."""

    total_timesteps: int = 200_000
    """PPO: env steps to train for (the run's target, counted across resumes)."""
    n_envs: int = 16
    """PPO: parallel envs."""
    vec_env: str = "dummy"
    """PPO: dummy, subproc or native (the batched mswp_gym.sb3_vec env); see
    benchmarks/bench_vecenv.py for which is fastest on 2 cores."""
    n_steps: int = 64
    """PPO: steps per env per rollout."""
    batch_size: int = 256
    """PPO: minibatch size."""
    n_epochs: int = 4
    """PPO: passes over each rollout."""
    learning_rate: float = 1e-4
    """PPO: Adam learning rate (decays linearly to 0 over total_timesteps)."""
    gamma: float = 0.99
    """PPO: discount."""
    gae_lambda: float = 0.95
    """PPO: GAE lambda."""
    clip_range: float = 0.1
    """PPO: clip range."""
    ent_coef: float = 0.0
    """PPO: entropy bonus."""
    vf_coef: float = 0.5
    """PPO: value loss weight."""

    eval_games: int = 300
    """Games per periodic evaluation (fixed seeds, never used in training)."""
    eval_every_steps: int = 20_000
    """PPO: env steps between evaluations and checkpoints."""
    eval_baselines: bool = True
    """Also evaluate the logic agent and the solver once on the same seeds, if importable."""
    final_eval_games: int = 0
    """Games of a final evaluation at the end of the run (0 = none)."""

    @property
    def board(self) -> tuple[int, int, int]:
        """``(rows, cols, mines)`` after applying the overrides to the preset."""
        base = preset(self.preset)
        return (self.rows or base.rows, self.cols or base.cols, self.mines or base.mines)

    def check(self) -> TrainSettings:
        """Return self, or raise a ValueError naming the first bad value."""
        preset(self.preset)
        if self.algo not in ALGOS:
            raise ValueError(f"unknown algo {self.algo!r}; choose one of {', '.join(ALGOS)}")
        if self.vec_env not in VEC_ENVS:
            raise ValueError(f"unknown vec_env {self.vec_env!r}; choose one of {', '.join(VEC_ENVS)}")
        if self.backend not in ("local", "ray"):
            raise ValueError(f"unknown backend {self.backend!r}; choose local or ray")
        if self.ray_address and self.backend != "ray":
            raise ValueError(f"ray_address={self.ray_address!r} needs backend ray, "
                             f"got {self.backend!r}")
        if self.device not in DEVICES:
            raise ValueError(f"unknown device {self.device!r}; choose one of {', '.join(DEVICES)}")
        if self.labels not in ("solver", "truth"):
            raise ValueError(f"unknown labels {self.labels!r}; choose solver or truth")
        if self.boards:
            parse_boards(self.boards, self.first_click)
            if self.algo != "imitation":
                raise ValueError(f"boards={self.boards!r} (a generalist run) needs algo imitation, "
                                 f"got {self.algo!r}")
        for name in ("total_timesteps", "dagger_iterations", "eval_games", "final_eval_games"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        for name in ("n_envs", "n_steps", "batch_size", "n_epochs", "workers", "channels",
                     "games_per_iteration", "bc_batch_size", "torch_threads", "eval_every_steps"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        return self

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (JSON- and TOML-friendly)."""
        return asdict(self)


@lru_cache(maxsize=1)
def field_docs() -> dict[str, str]:
    """Each field's docstring, read from this class's source (used as CLI help)."""
    tree = ast.parse(inspect.getsource(TrainSettings))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, following in itertools.pairwise(body):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)):
            docs[node.target.id] = " ".join(str(following.value.value).split())
    return docs


def read_toml(path: str | Path) -> dict[str, Any]:
    """Settings from a TOML file (top-level keys, or a ``[train]`` table).

    Raises:
        FileNotFoundError: no such file.
        ValueError: unparsable TOML or an unknown key (named).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no config file at {str(path)!r}")
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{str(path)!r} is not valid TOML: {exc}") from exc
    data = data.get("train", data)
    known = {f.name for f in fields(TrainSettings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown settings {unknown} in {str(path)!r}")
    return data


def preset_config(name: str) -> dict[str, Any]:
    """The values of ``train/configs/<name>.toml`` (empty if there is no file)."""
    path = CONFIG_DIR / f"{name.lower()}.toml"
    return read_toml(path) if path.is_file() else {}


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def build_parser() -> argparse.ArgumentParser:
    """The CLI: one flag per settings field, plus ``--config``."""
    parser = argparse.ArgumentParser(
        prog="mswp-train",
        description="Train a learned Minesweeper agent (DAgger imitation of the exact solver "
        "and/or MaskablePPO) with a fully-convolutional policy.",
    )
    parser.add_argument("--config", default=None, help="TOML file of settings (after the preset's)")
    docs = field_docs()
    for item in fields(TrainSettings):
        flag = "--" + item.name.replace("_", "-")
        kinds: dict[str, Callable[[str], Any]] = {"bool": _parse_bool, "int": int, "float": float}
        kind = kinds.get(str(item.type), str)
        parser.add_argument(flag, dest=item.name, type=kind, default=None,
                            help=f"{docs.get(item.name, '')} (default {item.default!r})"
                            .replace("%", "%%"))
    return parser


def settings_from_args(argv: list[str] | None = None) -> TrainSettings:
    """Parse ``argv`` into checked settings (see the module docstring for precedence).

    Raises:
        ValueError / FileNotFoundError: a bad value or config file, named.
    """
    args = vars(build_parser().parse_args(argv))
    config_path = args.pop("config")
    given = {k: v for k, v in args.items() if v is not None}
    name = given.get("preset", TrainSettings.preset)
    if name.lower() not in PRESETS:
        preset(name)
    values: dict[str, Any] = preset_config(name)
    if config_path:
        values.update(read_toml(config_path))
    values.update(given)
    return replace(TrainSettings(), **values).check()
