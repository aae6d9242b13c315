"""Training settings: one dataclass (a docstring per field), per-preset TOML files, and the CLI.

Precedence, lowest first: the dataclass defaults, then a ``--config`` file (a path or a packaged
name) or else, without ``--board``, ``train/configs/<preset>.toml``, then command-line flags
(``total_timesteps`` is ``--total-timesteps``; booleans take ``true``/``false``).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import itertools
import math
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any

from common.cli import OneLineParser
from mswp_gym.choices import FirstClick
from mswp_gym.config import GameConfig
from mswp_gym.presets import PRESETS, preset
from mswp_gym.rewards import RewardConfig
from train.device import DEVICES
from train.generalist import parse_boards
from train.limits import check_limits
from train.precision import Precision

CONFIG_DIR = Path(__file__).with_name("configs")


class Algorithm(StrEnum):
    """The training algorithms (``train.run.PHASES`` maps each to its phases)."""

    PPO = "ppo"
    IMITATION = "imitation"
    IMITATION_PPO = "imitation+ppo"
    BANDIT = "bandit"


ALGOS: tuple[str, ...] = tuple(Algorithm)
REWARD_ONLY: tuple[str, ...] = (Algorithm.PPO, Algorithm.BANDIT)
"""The algos that learn from the env's reward alone."""
VEC_ENVS: tuple[str, ...] = ("dummy", "subproc", "native")
PRECISIONS: tuple[str, ...] = tuple(p.value for p in Precision)
"""The arithmetic of imitation's training steps (train.precision)."""
REWARD_CONFIGS: dict[str, Callable[[], RewardConfig]] = {
    "shaped": RewardConfig,
    "sparse": RewardConfig.sparse,
    "per-reveal": RewardConfig.per_reveal,
}
"""PPO reward configs by name."""
REWARDS: tuple[str, ...] = tuple(REWARD_CONFIGS)
MAX_SEED = 2**32 - 1
"""SB3 seeds NumPy's legacy global generator, which takes seeds below 2**32."""

FLOAT_RANGES: tuple[tuple[str, float, float, bool, bool], ...] = (
    # name, low, high, low excluded, high excluded
    ("time_budget_minutes", 0.0, math.inf, False, True),
    ("sitting_minutes", 0.0, math.inf, False, True),
    ("opening_weight", 0.0, math.inf, False, True),
    ("beta", 0.0, math.inf, True, True),
    ("bc_learning_rate", 0.0, math.inf, True, True),
    ("epsilon", 0.0, 1.0, False, False),
    ("rescue", 0.0, 1.0, False, False),
    ("move_weight", 0.0, math.inf, False, True),
    ("learning_rate", 0.0, math.inf, True, True),
    ("gamma", 0.0, 1.0, False, False),
    ("gae_lambda", 0.0, 1.0, False, False),
    ("clip_range", 0.0, math.inf, True, True),
    ("ent_coef", 0.0, math.inf, False, True),
    ("vf_coef", 0.0, math.inf, False, True),
)
"""The allowed interval of every float setting (NaN is never allowed)."""
COUNTS_FROM_0 = ("total_timesteps", "dagger_iterations", "eval_games", "final_eval_games", "blocks")
NOT_COUNTS = ("seed", "rows", "cols", "mines")
"""Integer settings that may be 0, and those checked elsewhere; every other must be >= 1."""


@dataclass(frozen=True)
class TrainSettings:
    """Everything one training run depends on."""

    preset: str = "beginner"
    """Board preset (beginner, intermediate, expert) and the recipe of its shipped network."""
    rows: int = 0
    """Board rows; 0 takes the preset's."""
    cols: int = 0
    """Board columns; 0 takes the preset's."""
    mines: int = 0
    """Mine count; 0 takes the preset's."""
    first_click: str = "safe"
    """First-click rule of the env (any, safe, opening, no-guess)."""
    algo: str = "imitation"
    """ppo (MaskablePPO on the env's reward, from random weights unless --init), imitation
    (DAgger), imitation+ppo (DAgger, then PPO) or bandit (reward alone: DAgger's rounds, each move
    labelled only by its reward, mine or safe). Given over a recipe of another algo, the recipe's
    settings of that algo are dropped (said in one line), and for ppo or bandit its init too."""
    seed: int = 0
    """Seeds everything: torch, layouts, exploration, env seeds."""
    out: str = "runs"
    """Parent folder of run folders (named preset__algo__seed__time)."""
    resume: str = ""
    """A run folder to continue (same step count, optimizer state and schedules)."""
    init: str = ""
    """Start from this network's weights: a shipped network (see mswp-eval --help), a zip or a
    run folder; any board and the same channels, with as many blocks or more (added blocks start as
    identities)."""
    time_budget_minutes: float = 0.0
    """Stop the whole run after this much wall time (0 = no limit); imitation's rate decays by
    whichever of the rounds and this budget is further along."""
    ppo_lr_follows_budget: bool = False
    """PPO's learning rate decays by whichever of total_timesteps and the time budget is further
    along; false: by the steps alone."""
    sitting_minutes: float = 0.0
    """Stop this sitting at the first checkpoint after this much wall time (0 = no limit);
    continue with --resume, bit-identical to one long run."""
    device: str = "auto"
    """Where the network trains: auto (CUDA if there is one), cpu or cuda; collection and
    evaluation run on CPU copies."""
    torch_threads: int = 1
    """torch.set_num_threads in the main process (workers use 1); keep it <= free cores."""

    channels: int = 32
    """Feature maps per convolution."""
    blocks: int = 3
    """Residual blocks (receptive field 5 + 4 * blocks cells)."""
    opening_weight: float = 0.05
    """Weight of P(opening) in a cell's score, next to log P(safe)."""
    beta: float = 3.0
    """Initial inverse temperature of the PPO policy's softmax over cell scores (imitation never
    trains it); fine-tuning an imitation network wants a sharp one (e.g. 100)."""

    dagger_iterations: int = 60
    """Imitation: collect-then-train rounds."""
    games_per_iteration: int = 1000
    """Imitation: games the learner plays per round (split over the workers)."""
    gradient_steps_per_iteration: int = 300
    """Imitation: minibatch updates per round."""
    bc_batch_size: int = 256
    """Imitation: minibatch size."""
    bc_learning_rate: float = 1e-3
    """Imitation: Adam learning rate; decays linearly to 10% over the rounds (or the budget)."""
    buffer_positions: int = 400_000
    """Imitation: most recent positions kept for training (shared equally by the boards)."""
    boards: str = ""
    """Imitation: train one network on these boards, comma-separated ROWSxCOLS/MINES (e.g.
    9x9/10,16x16/40); evaluation stays on the preset's board. Empty: the run's board."""
    dataset: str = ""
    """Imitation: train on the shards of this folder (python -m train.dataset), not by play."""
    epsilon: float = 0.05
    """Imitation: chance of a random legal move while collecting."""
    rescue: float = 0.8
    """Imitation: chance that a losing move is replaced by a truly safe one while collecting
    (bandit: never, a mine ends the game)."""
    move_weight: float = 0.0
    """Imitation: weight of a move loss (> 0 adds a move head trained on the solver's moves,
    and the network plays by it); 0: the network plays its safest cell."""
    precision: str = "float32"
    """Imitation: the training steps' forward pass: float32, or bfloat16 (autocast; faster on a
    GPU or a CPU with AVX-512 bfloat16). Play and evaluation stay float32."""
    workers: int = 2
    """Imitation: collection jobs per round, run in parallel (1 = in process, local backend)."""
    backend: str = "local"
    """Imitation: where collection jobs run: local (processes) or ray (same data either way)."""
    ray_address: str = ""
    """Imitation, backend ray: the cluster address (e.g. auto); empty starts a local Ray."""

    total_timesteps: int = 200_000
    """PPO: env steps to train for (the run's target, counted across resumes)."""
    n_envs: int = 16
    """PPO: parallel envs."""
    vec_env: str = "dummy"
    """PPO: dummy, subproc or native (the batched mswp_gym.vector.sb3_vec env, the fastest)."""
    rewards: str = "shaped"
    """PPO: the env's rewards: shaped (+1 win, -1 loss, +0.3 an informed safe reveal, -0.3 a
    blind guess or no-op), sparse (+1 win, -1 loss) or per-reveal (+1 win, -1 loss, +0.3 any
    other safe reveal)."""
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
        """Return self, or raise a ValueError naming the first bad value and what is allowed
        (types, NaN, ranges, the board, PPO batch shapes)."""
        for item in fields(self):
            check_type(item.name, str(item.type), getattr(self, item.name))
        self._check_choices_and_board()
        self._check_counts_and_ranges()
        self._check_ppo_batches()
        if self.dataset:
            from mswp_gym.spec import GameSpec
            from train.shards import check_dataset

            spec = GameSpec(*self.board, FirstClick(self.first_click))
            check_dataset(self.dataset, self.algo, self.boards, spec)
        return self

    def _check_choices_and_board(self) -> None:
        """The choices, the seed, the board overrides and the board itself."""
        preset(self.preset)
        choose("algo", self.algo, ALGOS)
        choose("vec_env", self.vec_env, VEC_ENVS)
        choose("precision", self.precision, PRECISIONS)
        choose("rewards", self.rewards, REWARDS)
        choose("first_click", self.first_click, FirstClick.drawn())
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer in [0, {MAX_SEED}], got {self.seed}")
        for name in ("rows", "cols", "mines"):
            if getattr(self, name) < 0:
                raise ValueError(
                    f"{name} must be >= 0 (0 takes the preset's), got {getattr(self, name)}"
                )
        choose("backend", self.backend, ("local", "ray"))
        if self.ray_address and self.backend != "ray":
            raise ValueError(
                f"ray_address={self.ray_address!r} needs backend ray, got {self.backend!r}"
            )
        choose("device", self.device, DEVICES)
        if self.boards:
            boards = parse_boards(self.boards, self.first_click)
            if self.games_per_iteration < len(boards):
                raise ValueError(
                    f"games_per_iteration must be >= the {len(boards)} boards of boards (every "
                    f"board plays each round), got {self.games_per_iteration}"
                )
            if self.algo not in ("imitation", "bandit"):
                raise ValueError(
                    f"boards={self.boards!r} (a generalist run) needs algo imitation or bandit, "
                    f"got {self.algo!r}"
                )
        if self.move_weight > 0 and self.algo in ("ppo", "bandit"):
            raise ValueError(
                f"move_weight={self.move_weight} (move labels) needs algo imitation or "
                f"imitation+ppo, got algo {self.algo!r}"
            )
        if self.precision != Precision.FLOAT32 and self.algo == "ppo":
            raise ValueError(
                f"precision={self.precision!r} applies to imitation's training steps; algo "
                f"'ppo' trains in float32 (choose precision 'float32' or an imitation algo)"
            )
        rows, cols, mines = self.board
        GameConfig(rows, cols, mines, first_click=self.first_click)  # the envs' own checks

    def _check_counts_and_ranges(self) -> None:
        """Counts (``>= 0`` or ``>= 1``) and the float ranges of ``FLOAT_RANGES``."""
        for item in fields(self):
            value, least = getattr(self, item.name), int(item.name not in COUNTS_FROM_0)
            if item.type == "int" and item.name not in NOT_COUNTS and value < least:
                raise ValueError(f"{item.name} must be >= {least}, got {value}")
        for name, low, high, low_open, high_open in FLOAT_RANGES:
            in_range(name, getattr(self, name), low, high, low_open, high_open)
        check_limits(self.board, {f.name: getattr(self, f.name) for f in fields(self)})

    def _check_ppo_batches(self) -> None:
        """Batch shapes that would make SB3 divide by zero or normalise over one sample."""
        rollout = self.n_steps * self.n_envs
        if rollout < 2:
            raise ValueError(
                f"n_steps * n_envs must be >= 2 (PPO normalises advantages over a "
                f"rollout), got {self.n_steps} * {self.n_envs} = {rollout}"
            )
        if not 2 <= self.batch_size <= rollout:
            raise ValueError(
                f"batch_size must be in [2, n_steps * n_envs = {rollout}] (a "
                f"minibatch of 1 gives NaN advantages), got {self.batch_size}"
            )

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (JSON- and TOML-friendly)."""
        return asdict(self)


def check_type(name: str, kind: str, value: Any) -> None:
    """Raise a ValueError unless ``value`` has the field's type, ``kind``: int, float, bool, str."""
    ok = {
        "bool": isinstance(value, bool),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, int | float) and not isinstance(value, bool),
        "str": isinstance(value, str),
    }.get(kind, True)
    if not ok:
        raise ValueError(f"{name} must be {'an' if kind == 'int' else 'a'} {kind}, got {value!r}")
    if kind == "float" and math.isnan(value):
        raise ValueError(f"{name} must be a number, got nan")


def choose(name: str, value: str, allowed: tuple[str, ...]) -> None:
    """Raise a ValueError unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"unknown {name} {value!r}; choose one of {', '.join(allowed)}")


def in_range(
    name: str, value: float, low: float, high: float, low_open: bool, high_open: bool
) -> None:
    """Raise a ValueError unless ``value`` lies in the interval (brackets as in the message)."""
    above = value > low if low_open else value >= low
    below = value < high if high_open else value <= high
    if not (above and below):
        interval = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
        raise ValueError(f"{name} must be in {interval}, got {value!r}")


@lru_cache(maxsize=1)
def field_docs() -> dict[str, str]:
    """Each field's docstring, read from this class's source (used as CLI help)."""
    tree = ast.parse(inspect.getsource(TrainSettings))
    (cls,) = tree.body
    assert isinstance(cls, ast.ClassDef)
    body = cls.body
    docs: dict[str, str] = {}
    for node, following in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
        ):
            docs[node.target.id] = " ".join(str(following.value.value).split())
    return docs


def packaged_configs() -> list[str]:
    """The names of the configs packaged in ``train/configs/``."""
    return sorted(path.stem for path in CONFIG_DIR.glob("*.toml"))


def config_file(text: str | Path) -> Path:
    """The config file ``text`` names: a path, or a packaged config by name (``quickstart``,
    ``beginner.toml``, ``train/configs/beginner.toml`` from any folder).

    Raises:
        FileNotFoundError: neither (the message lists the packaged names).
    """
    path = Path(text)
    if path.is_file():
        return path
    packaged = CONFIG_DIR / f"{path.stem}.toml"
    parent = path.parent.as_posix()
    if packaged.is_file() and path.suffix in ("", ".toml") and parent in (".", "train/configs"):
        return packaged
    raise FileNotFoundError(
        f"no config file at {str(path)!r}; packaged configs: {', '.join(packaged_configs())}"
    )


def read_toml(path: str | Path) -> dict[str, Any]:
    """Settings from a TOML file (top-level keys, or a ``[train]`` table); ``path`` as
    :func:`config_file` takes it.

    Raises:
        FileNotFoundError: no such file.
        ValueError: unparsable TOML or an unknown key (named).
    """
    path = config_file(path)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{str(path)!r} is not valid TOML: {exc}") from exc
    data = data.get("train", data)
    if not isinstance(data, dict):
        raise ValueError(f"[train] in {str(path)!r} is not a table")
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


RESUME_OVERRIDES: tuple[str, ...] = (
    "total_timesteps",
    "time_budget_minutes",
    "sitting_minutes",
    "dagger_iterations",
    "final_eval_games",
    "eval_baselines",
    "torch_threads",
    "device",
    "precision",
)
"""Settings a ``--resume`` may change (each change is printed); any other differing value is
refused, so a resumed run stays the run it was."""
RESUME_REFUSED: tuple[str, ...] = ("config", "init", "preset", "channels", "blocks", "out")
"""Flags refused outright with ``--resume`` (they define a new run, they cannot continue one)."""
IGNORED_ON_RESUME: tuple[str, ...] = ("resume", "out", "init")
"""Fields a resumed run takes from the folder, whatever the settings passed say."""


def resumed_settings(
    saved: TrainSettings, requested: dict[str, Any]
) -> tuple[TrainSettings, list[str]]:
    """The settings of a resumed run: ``saved``, with the allowed changes of ``requested``.

    Returns the settings to run with (``resume`` as requested) and a notice per changed value.

    Raises:
        ValueError: a requested value that may not change on resume (one line, naming it).
    """
    saved_values = saved.to_dict()
    changes: dict[str, Any] = {}
    notices = []
    for name, value in requested.items():
        if name in IGNORED_ON_RESUME or saved_values.get(name) == value:
            continue
        if name not in RESUME_OVERRIDES:
            raise ValueError(
                f"{flag(name)} cannot change on --resume (the run was saved with "
                f"{name}={saved_values.get(name)!r}, asked for {value!r}); with --resume only "
                f"{', '.join(flag(n) for n in RESUME_OVERRIDES)} may change"
            )
        changes[name] = value
        notices.append(
            f"--resume: {name} {saved_values.get(name)!r} -> {value!r} "
            f"(overrides the saved setting)"
        )
    settings = replace(saved, resume=str(requested.get("resume", "")), **changes).check()
    return settings, notices


def saved_settings(data: dict[str, Any]) -> TrainSettings:
    """The settings stored in a run state (keys of older versions dropped).

    Raises:
        ValueError: stored values that are not valid settings.
    """
    known = {f.name for f in fields(TrainSettings)}
    try:
        return replace(TrainSettings(), **{k: v for k, v in data.items() if k in known}).check()
    except ValueError as exc:
        raise ValueError(f"the run's saved settings are invalid: {exc}") from None


def flag(name: str) -> str:
    """The command-line flag of a settings field."""
    return "--" + name.replace("_", "-")


ESSENTIAL: tuple[str, ...] = (
    "preset",
    "algo",
    "seed",
    "out",
    "time_budget_minutes",
    "init",
    "resume",
    "sitting_minutes",
    "device",
    "workers",
    "channels",
    "blocks",
    "first_click",
)
"""The settings ``--help`` shows; ``--help-all`` shows every one."""
GROUPS: tuple[tuple[str, str], ...] = (
    ("Imitation:", "imitation (DAgger)"),
    ("PPO:", "PPO"),
    ("", "run, board, network and evaluation"),
)
"""``--help-all``'s groups: a field goes to the first whose prefix starts its docstring."""


def build_parser(
    defaults: TrainSettings | None = None, source: str = "", full: bool = False
) -> argparse.ArgumentParser:
    """The CLI: one flag per settings field, plus ``--config``, ``--board`` and ``--help-all``.

    ``defaults`` are the values the help shows (from ``source``, e.g. ``preset intermediate``);
    ``full`` helps every field, grouped, else the first sentence of the :data:`ESSENTIAL` ones.
    """
    shown = defaults if defaults is not None else TrainSettings()
    parser = OneLineParser(
        prog="mswp-train",
        description="Train a learned Minesweeper agent: DAgger imitation of the exact solver "
        "and/or MaskablePPO, with a fully-convolutional policy. Quick start: mswp-train "
        "--config quickstart",
        epilog=None if full else "More options: mswp-train --help-all",
    )
    parser.add_argument("--help-all", action="store_true", help="show every option, grouped")
    parser.add_argument(
        "--config",
        default=None,
        help=f"TOML file of settings, or a packaged one by name ({', '.join(packaged_configs())})",
    )
    parser.add_argument(
        "--board",
        default=None,
        help="ROWSxCOLS/MINES, e.g. 16x30/99: train on this board with the default recipe "
        "(no preset file)",
    )
    groups = {title: parser.add_argument_group(title) for _, title in GROUPS} if full else {}
    docs = field_docs()
    kinds: dict[str, Callable[[str], Any]] = {"bool": _parse_bool, "int": int, "float": float}
    where = f", {source}" if source else ""
    for item in fields(TrainSettings):
        doc = docs.get(item.name, "")
        if full:
            title = next(title for prefix, title in GROUPS if doc.startswith(prefix))
            target: Any = groups[title]
            text = f"{doc} (default {getattr(shown, item.name)!r}{where})".replace("%", "%%")
        else:
            target = parser
            first = doc.split(". ")[0].rstrip(".")
            text = (
                f"{first} (default {getattr(shown, item.name)!r})".replace("%", "%%")
                if item.name in ESSENTIAL
                else argparse.SUPPRESS
            )
        target.add_argument(
            flag(item.name),
            dest=item.name,
            type=kinds.get(str(item.type), str),
            default=None,
            help=text,
        )
    return parser


def foreign_settings(values: dict[str, Any], algo: str) -> list[str]:
    """The settings of a recipe's ``values`` of an algo other than ``algo``: its ``Imitation:`` or
    ``PPO:`` fields; for reward alone, the move labels and an ``init`` not an ``rl:`` network."""
    used = tuple(p for p, uses in (("Imitation:", algo != "ppo"), ("PPO:", "ppo" in algo)) if uses)
    docs = field_docs()
    grouped = [n for n in values if docs.get(n, "").startswith(("Imitation:", "PPO:"))]
    foreign = [n for n in grouped if not docs[n].startswith(used)]
    imitation = ("move_weight", "init") if algo in REWARD_ONLY else ()
    keep = {*foreign, *(n for n in values if str(values[n]).startswith("rl:"))}
    return foreign + [n for n in imitation if n in values and n not in keep]


def board_values(text: str, first_click: str) -> dict[str, int]:
    """``rows``, ``cols`` and ``mines`` of a ``--board ROWSxCOLS/MINES``.

    Raises:
        ValueError: not one board of that form, or one the first-click rule cannot play.
    """
    boards = parse_boards(text, first_click)
    if len(boards) != 1:
        raise ValueError(f"--board takes one board ROWSxCOLS/MINES, got {text!r}")
    return {"rows": boards[0].rows, "cols": boards[0].cols, "mines": boards[0].mines}


def help_defaults(argv: list[str] | None) -> tuple[TrainSettings | None, str]:
    """The values the help should show: the dataclass defaults with the ``--config`` file, or
    else the file of the preset named in ``argv`` (default beginner; none with ``--board``),
    applied; None when those cannot be read (the real parse then reports the problem)."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--preset", default=TrainSettings.preset)
    early.add_argument("--config", default=None)
    early.add_argument("--board", default=None)
    known, _ = early.parse_known_args(argv)
    if str(known.preset).lower() not in PRESETS:
        return None, ""
    try:
        values = (
            read_toml(known.config)
            if known.config
            else ({} if known.board else preset_config(known.preset))
        )
        shown = replace(TrainSettings(), **values)
    except (ValueError, FileNotFoundError, TypeError, OSError):
        return None, ""
    if known.config:
        return shown, f"config {known.config}"
    return shown, "defaults" if known.board else f"preset {known.preset}"


def settings_from_args(argv: list[str] | None = None) -> TrainSettings:
    """Parse ``argv`` into checked settings (see the module docstring for precedence).

    With ``--resume DIR``: the run's saved settings, through :func:`resumed_settings`.

    Raises:
        ValueError / FileNotFoundError: a bad value or config file, or a flag refused with
            ``--resume``, named.
    """
    defaults, source = help_defaults(argv)
    args = vars(build_parser(defaults, source).parse_args(argv))
    if args.pop("help_all"):
        build_parser(defaults, source, full=True).print_help()
        raise SystemExit(0)
    config_path = args.pop("config")
    board = args.pop("board")
    given = {k: v for k, v in args.items() if v is not None}
    if "resume" in given:
        refused = [flag(n) for n in RESUME_REFUSED if n in given or (n == "config" and config_path)]
        refused += ["--board"] if board else []
        if refused:
            raise ValueError(
                f"{', '.join(refused)} cannot be used with --resume: a resumed run "
                f"keeps its saved settings (allowed with --resume: "
                f"{', '.join(flag(n) for n in RESUME_OVERRIDES)})"
            )
        from train.state import read_state

        saved = saved_settings(read_state(given["resume"]).settings)
        return resumed_settings(saved, given)[0]
    name = given.get("preset", TrainSettings.preset)
    if name.lower() not in PRESETS:
        preset(name)
    values: dict[str, Any] = (
        read_toml(config_path) if config_path else ({} if board else preset_config(name))
    )
    if "algo" in given and given["algo"] != values.get("algo", given["algo"]):
        dropped = {name: values.pop(name) for name in foreign_settings(values, given["algo"])}
        if dropped:
            shown = ", ".join(f"{name}={value!r}" for name, value in dropped.items())
            print(f"--algo {given['algo']} over a recipe of algo {values['algo']}: dropped {shown}")
    values.update(given)
    if board:
        values.update(board_values(board, values.get("first_click", TrainSettings.first_click)))
    return replace(TrainSettings(), **values).check()
