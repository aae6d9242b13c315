"""Training settings: the fields every run has, and one section per algorithm.

:class:`TrainSettings` holds the run, board, network and evaluation fields, plus the sections
``imitation`` (:class:`ImitationSettings`), ``bandit`` (:class:`BanditSettings`) and ``ppo``
(:class:`PPOSettings`): the ``[imitation]``, ``[bandit]`` and ``[ppo]`` tables of a TOML recipe.
A run reads the sections of its ``algo`` (:data:`SECTIONS`). Every class is a frozen dataclass with
a docstring per field (the CLI's help); choices are ``StrEnum`` members, and plain strings are
turned into them on construction. Recipes and flags are read by :mod:`train.arguments`.

A field of a section is named ``SECTION.FIELD`` in messages, flags and :func:`flat_values`.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, get_type_hints

from mswp_gym.choices import FirstClick, parse_choice
from mswp_gym.config import GameConfig
from mswp_gym.presets import preset
from mswp_gym.rewards import RewardConfig
from train.device import Device
from train.generalist import parse_boards
from train.limits import check_limits
from train.precision import Precision


class Algorithm(StrEnum):
    """The training algorithms (``train.run.PHASES`` maps each to its phases)."""

    PPO = "ppo"
    IMITATION = "imitation"
    IMITATION_PPO = "imitation+ppo"
    BANDIT = "bandit"


class Section(StrEnum):
    """The per-algorithm sections of the settings (TOML tables, flag prefixes)."""

    IMITATION = "imitation"
    BANDIT = "bandit"
    PPO = "ppo"


SECTIONS: dict[Algorithm, tuple[Section, ...]] = {
    Algorithm.PPO: (Section.PPO,),
    Algorithm.IMITATION: (Section.IMITATION,),
    Algorithm.IMITATION_PPO: (Section.IMITATION, Section.PPO),
    Algorithm.BANDIT: (Section.BANDIT,),
}
"""The sections each algorithm reads; the others are ignored by its run."""
REWARD_ONLY: tuple[Algorithm, ...] = (Algorithm.PPO, Algorithm.BANDIT)
"""The algos that learn from the env's reward alone."""


class VecEnvKind(StrEnum):
    """PPO's vector env."""

    DUMMY = "dummy"
    SUBPROC = "subproc"
    NATIVE = "native"
    """The batched :class:`mswp_gym.vector.sb3_vec.MinesweeperSB3VecEnv`, the fastest."""


class Rewards(StrEnum):
    """PPO's reward configs (:data:`REWARD_CONFIGS`)."""

    SHAPED = "shaped"
    SPARSE = "sparse"
    PER_REVEAL = "per-reveal"


class Backend(StrEnum):
    """Where collection jobs run."""

    LOCAL = "local"
    RAY = "ray"


VEC_ENVS: tuple[str, ...] = tuple(VecEnvKind)
REWARD_CONFIGS: dict[Rewards, Callable[[], RewardConfig]] = {
    Rewards.SHAPED: RewardConfig,
    Rewards.SPARSE: RewardConfig.sparse,
    Rewards.PER_REVEAL: RewardConfig.per_reveal,
}
"""PPO reward configs by name."""
MAX_SEED = 2**32 - 1
"""SB3 seeds NumPy's legacy global generator, which takes seeds below 2**32."""

FLOAT_RANGES: dict[str, tuple[float, float, bool, bool]] = {
    # field name (in any section): low, high, low excluded, high excluded
    "time_budget_minutes": (0.0, math.inf, False, True),
    "sitting_minutes": (0.0, math.inf, False, True),
    "opening_weight": (0.0, math.inf, False, True),
    "beta": (0.0, math.inf, True, True),
    "learning_rate": (0.0, math.inf, True, True),
    "epsilon": (0.0, 1.0, False, False),
    "rescue": (0.0, 1.0, False, False),
    "move_weight": (0.0, math.inf, False, True),
    "gamma": (0.0, 1.0, False, False),
    "gae_lambda": (0.0, 1.0, False, False),
    "clip_range": (0.0, math.inf, True, True),
    "ent_coef": (0.0, math.inf, False, True),
    "vf_coef": (0.0, math.inf, False, True),
}
"""The allowed interval of every float field (NaN is never allowed)."""
COUNTS_FROM_0 = ("total_timesteps", "rounds", "eval_games", "final_eval_games", "blocks")
NOT_COUNTS = ("seed", "rows", "cols", "mines")
"""Integer fields that may be 0, and those checked elsewhere; every other must be >= 1."""


class Checked:
    """A settings dataclass whose ``StrEnum`` fields take their plain strings on construction."""

    def __post_init__(self) -> None:
        for name, kind in field_types(type(self)).items():
            value = getattr(self, name)
            if isinstance(kind, type) and issubclass(kind, StrEnum) and not isinstance(value, kind):
                object.__setattr__(self, name, parse_choice(kind, value, name))


@dataclass(frozen=True)
class RoundSettings(Checked):
    """Collect-then-train rounds: the learner plays, its positions are labelled, and Adam trains
    on a window of the latest ones."""

    rounds: int = 60
    """Collect-then-train rounds."""
    games_per_round: int = 1000
    """Games the learner plays per round (split over the workers)."""
    gradient_steps: int = 300
    """Minibatch updates per round."""
    batch_size: int = 256
    """Minibatch size."""
    learning_rate: float = 1e-3
    """Adam learning rate; decays linearly to 10% over the rounds (or the budget)."""
    buffer_positions: int = 400_000
    """Most recent positions kept for training (shared equally by the boards)."""
    epsilon: float = 0.05
    """Chance of a random legal move while collecting."""
    boards: str = ""
    """Train one network on these boards, comma-separated ROWSxCOLS/MINES (e.g. 9x9/10,16x16/40);
    evaluation stays on the preset's board. Empty: the run's board."""
    precision: Precision = Precision.FLOAT32
    """The training steps' forward pass: float32, or bfloat16 (autocast; faster on a GPU or a CPU
    with AVX-512 bfloat16). Play and evaluation stay float32."""


@dataclass(frozen=True)
class ImitationSettings(RoundSettings):
    """[imitation]: DAgger, every position labelled by the exact solver."""

    rescue: float = 0.8
    """Chance that a losing move is replaced by a truly safe one while collecting."""
    move_weight: float = 0.0
    """Weight of a move loss (> 0 adds a move head trained on the solver's moves, and the network
    plays by it); 0: the network plays its safest cell."""
    dataset: str = ""
    """Train on the shards of this folder (python -m train.dataset), not by play."""


@dataclass(frozen=True)
class BanditSettings(RoundSettings):
    """[bandit]: reward alone, imitation's rounds with each move labelled only by its reward (mine
    or safe) and never rescued."""


@dataclass(frozen=True)
class PPOSettings(Checked):
    """[ppo]: MaskablePPO on the env's reward."""

    total_timesteps: int = 200_000
    """Env steps to train for (the run's target, counted across resumes)."""
    n_envs: int = 16
    """Parallel envs."""
    vec_env: VecEnvKind = VecEnvKind.DUMMY
    """dummy, subproc or native (the batched mswp_gym.vector.sb3_vec env, the fastest)."""
    rewards: Rewards = Rewards.SHAPED
    """The env's rewards: shaped (+1 win, -1 loss, +0.3 an informed safe reveal, -0.3 a blind
    guess or no-op), sparse (+1 win, -1 loss) or per-reveal (+1 win, -1 loss, +0.3 any other safe
    reveal)."""
    n_steps: int = 64
    """Steps per env per rollout."""
    batch_size: int = 256
    """Minibatch size."""
    n_epochs: int = 4
    """Passes over each rollout."""
    learning_rate: float = 1e-4
    """Adam learning rate (decays linearly to 0 over total_timesteps)."""
    lr_follows_budget: bool = False
    """The learning rate decays by whichever of total_timesteps and the time budget is further
    along; false: by the steps alone."""
    gamma: float = 0.99
    """Discount."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.1
    """Clip range."""
    ent_coef: float = 0.0
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Value loss weight."""
    beta: float = 3.0
    """Initial inverse temperature of the policy's softmax over cell scores (imitation never
    trains it); fine-tuning an imitation network wants a sharp one (e.g. 100)."""
    eval_every_steps: int = 20_000
    """Env steps between evaluations and checkpoints."""


@dataclass(frozen=True)
class TrainSettings(Checked):
    """Everything one training run depends on."""

    preset: str = "beginner"
    """Board preset (beginner, intermediate, expert) and the recipe of its shipped network."""
    rows: int = 0
    """Board rows; 0 takes the preset's."""
    cols: int = 0
    """Board columns; 0 takes the preset's."""
    mines: int = 0
    """Mine count; 0 takes the preset's."""
    first_click: FirstClick = FirstClick.SAFE
    """First-click rule of the env (any, safe, opening, no-guess)."""
    algo: Algorithm = Algorithm.IMITATION
    """ppo (MaskablePPO on the env's reward, from random weights unless --init), imitation
    (DAgger), imitation+ppo (DAgger, then PPO) or bandit (reward alone); each reads its sections.
    Given over a recipe of another algo, the recipe's other sections are dropped (said in one
    line), and for ppo or bandit its init too."""
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
    """Stop the whole run after this much wall time (0 = no limit); the rounds' rate decays by
    whichever of the rounds and this budget is further along."""
    sitting_minutes: float = 0.0
    """Stop this sitting at the first checkpoint after this much wall time (0 = no limit);
    continue with --resume, bit-identical to one long run."""
    device: Device = Device.AUTO
    """Where the network trains: auto (CUDA if there is one), cpu or cuda; collection and
    evaluation run on CPU copies."""
    torch_threads: int = 1
    """torch.set_num_threads in the main process (workers use 1); keep it <= free cores."""
    workers: int = 2
    """Collection jobs per round of imitation or the bandit, run in parallel (1 = in process,
    local backend)."""
    backend: Backend = Backend.LOCAL
    """Where collection jobs run: local (processes) or ray (same data either way)."""
    ray_address: str = ""
    """Backend ray: the cluster address (e.g. auto); empty starts a local Ray."""

    channels: int = 32
    """Feature maps per convolution."""
    blocks: int = 3
    """Residual blocks (receptive field 5 + 4 * blocks cells)."""
    opening_weight: float = 0.05
    """Weight of P(opening) in a cell's score, next to log P(safe)."""

    eval_games: int = 300
    """Games per periodic evaluation (fixed seeds, never used in training)."""
    eval_baselines: bool = True
    """Also evaluate the logic agent and the solver once on the same seeds, if importable."""
    final_eval_games: int = 0
    """Games of a final evaluation at the end of the run (0 = none)."""

    imitation: ImitationSettings = field(default_factory=ImitationSettings)
    bandit: BanditSettings = field(default_factory=BanditSettings)
    ppo: PPOSettings = field(default_factory=PPOSettings)

    @property
    def board(self) -> tuple[int, int, int]:
        """``(rows, cols, mines)`` after applying the overrides to the preset."""
        base = preset(self.preset)
        return (self.rows or base.rows, self.cols or base.cols, self.mines or base.mines)

    @property
    def sections(self) -> tuple[Section, ...]:
        """The sections this run's algo reads."""
        return SECTIONS[self.algo]

    @property
    def rounds(self) -> RoundSettings:
        """The collect-then-train rounds of this run: ``bandit``'s for the bandit, else
        ``imitation``'s."""
        return self.bandit if self.algo == Algorithm.BANDIT else self.imitation

    @property
    def boards(self) -> str:
        """The board mix of a generalist run (its rounds' ``boards``; PPO has none)."""
        return "" if self.algo == Algorithm.PPO else self.rounds.boards

    @property
    def move_head(self) -> bool:
        """Whether the network has a move head (an imitation run with a move loss)."""
        return Section.IMITATION in self.sections and self.imitation.move_weight > 0

    def check(self) -> TrainSettings:
        """Return self, or raise a ValueError naming the first bad value and what is allowed
        (types, NaN, ranges, the board, PPO batch shapes, the data set)."""
        for name, kind, value in typed_values(self):
            check_type(name, kind, value)
        self._check_choices_and_board()
        values = flat_values(self)
        for name, value in values.items():
            least = int(name.split(".")[-1] not in COUNTS_FROM_0)
            if type(value) is int and name not in NOT_COUNTS and value < least:
                raise ValueError(f"{name} must be >= {least}, got {value}")
            if name.split(".")[-1] in FLOAT_RANGES:
                in_range(name, value, *FLOAT_RANGES[name.split(".")[-1]])
        check_limits(self.board, values)
        self._check_ppo_batches()
        if Section.IMITATION in self.sections and self.imitation.dataset:
            from mswp_gym.spec import GameSpec
            from train.shards import check_dataset

            spec = GameSpec(*self.board, self.first_click)
            check_dataset(self.imitation.dataset, self.algo, self.imitation.boards, spec)
        return self

    def _check_choices_and_board(self) -> None:
        """The first-click rule, the seed, the board overrides, the boards and the board."""
        preset(self.preset)
        if self.first_click not in FirstClick.drawn():
            allowed = ", ".join(FirstClick.drawn())
            raise ValueError(f"unknown first_click '{self.first_click}'; choose one of {allowed}")
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer in [0, {MAX_SEED}], got {self.seed}")
        for name in ("rows", "cols", "mines"):
            if getattr(self, name) < 0:
                raise ValueError(
                    f"{name} must be >= 0 (0 takes the preset's), got {getattr(self, name)}"
                )
        if self.ray_address and self.backend != Backend.RAY:
            raise ValueError(
                f"ray_address={self.ray_address!r} needs backend ray, got '{self.backend}'"
            )
        boards = self.boards
        if boards:
            section = "bandit" if self.algo == Algorithm.BANDIT else "imitation"
            specs = parse_boards(boards, self.first_click.value)
            if self.rounds.games_per_round < len(specs):
                raise ValueError(
                    f"{section}.games_per_round must be >= the {len(specs)} boards of "
                    f"{section}.boards (every board plays each round), got "
                    f"{self.rounds.games_per_round}"
                )
            if self.algo == Algorithm.IMITATION_PPO:
                raise ValueError(
                    f"imitation.boards={boards!r} (a generalist run) needs algo imitation or "
                    f"bandit, got algo '{self.algo}'"
                )
        rows, cols, mines = self.board
        GameConfig(rows, cols, mines, first_click=self.first_click)  # the envs' own checks

    def _check_ppo_batches(self) -> None:
        """Batch shapes that would make SB3 divide by zero or normalise over one sample."""
        ppo = self.ppo
        rollout = ppo.n_steps * ppo.n_envs
        if rollout < 2:
            raise ValueError(
                f"ppo.n_steps * ppo.n_envs must be >= 2 (PPO normalises advantages over a "
                f"rollout), got {ppo.n_steps} * {ppo.n_envs} = {rollout}"
            )
        if not 2 <= ppo.batch_size <= rollout:
            raise ValueError(
                f"ppo.batch_size must be in [2, ppo.n_steps * ppo.n_envs = {rollout}] (a "
                f"minibatch of 1 gives NaN advantages), got {ppo.batch_size}"
            )

    def to_dict(self) -> dict[str, Any]:
        """Nested dict, JSON-friendly (a choice is a ``StrEnum``, so a string): the common
        fields, and a dict per section."""
        return asdict(self)


_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def field_types(kind: type) -> dict[str, Any]:
    """The resolved type of each field of the dataclass ``kind`` (read once per class)."""
    if kind not in _FIELD_TYPES:
        hints = get_type_hints(kind)
        _FIELD_TYPES[kind] = {item.name: hints[item.name] for item in fields(kind)}
    return _FIELD_TYPES[kind]


SECTION_TYPES: dict[Section, type[Checked]] = {s: field_types(TrainSettings)[s] for s in Section}
"""Each section's dataclass (the type of its field in :class:`TrainSettings`)."""
SECTION_NAMES: tuple[str, ...] = tuple(Section)
COMMON_TYPES: dict[str, Any] = {
    name: kind for name, kind in field_types(TrainSettings).items() if name not in SECTION_NAMES
}
"""The fields every run has (all but the sections), with their types."""


def typed_values(settings: TrainSettings) -> Iterator[tuple[str, Any, Any]]:
    """``(name, type, value)`` of every common field and every section's field
    (``SECTION.FIELD``)."""
    for name, kind in COMMON_TYPES.items():
        yield name, kind, getattr(settings, name)
    for section in Section:
        part = getattr(settings, section)
        for name, kind in field_types(SECTION_TYPES[section]).items():
            yield f"{section}.{name}", kind, getattr(part, name)


def flat_values(settings: TrainSettings) -> dict[str, Any]:
    """Every value by its name, ``SECTION.FIELD`` for a section's."""
    return {name: value for name, _, value in typed_values(settings)}


def with_values(settings: TrainSettings, values: Mapping[str, Any]) -> TrainSettings:
    """``settings`` with the ``values`` of :func:`flat_values`' names replaced.

    Raises:
        ValueError: a name that is no setting, or a bad choice (named).
    """
    common: dict[str, Any] = {}
    parts: dict[str, dict[str, Any]] = {}
    for name, value in values.items():
        section, _, key = name.rpartition(".")
        owner = SECTION_TYPES.get(Section(section)) if section in SECTION_NAMES else None
        known = field_types(owner) if owner else {} if section else COMMON_TYPES
        if key not in known:
            raise ValueError(f"unknown setting {name!r}")
        (parts.setdefault(section, {}) if section else common)[key] = value
    sections = {s: replace(getattr(settings, s), **parts[s]) for s in parts}
    return replace(settings, **common, **sections)


def check_type(name: str, kind: Any, value: Any) -> None:
    """Raise a ValueError unless ``value`` has the field's type ``kind`` (int, float, bool, str or
    a StrEnum)."""
    ok = {
        bool: isinstance(value, bool),
        int: isinstance(value, int) and not isinstance(value, bool),
        float: isinstance(value, int | float) and not isinstance(value, bool),
        str: isinstance(value, str),
    }.get(kind, True)
    if not ok:
        article = "an" if kind is int else "a"
        raise ValueError(f"{name} must be {article} {kind.__name__}, got {value!r}")
    if kind is float and math.isnan(value):
        raise ValueError(f"{name} must be a number, got nan")


def in_range(
    name: str, value: float, low: float, high: float, low_open: bool, high_open: bool
) -> None:
    """Raise a ValueError unless ``value`` lies in the interval (brackets as in the message)."""
    above = value > low if low_open else value >= low
    below = value < high if high_open else value <= high
    if not (above and below):
        interval = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
        raise ValueError(f"{name} must be in {interval}, got {value!r}")


def field_docs(kind: type = TrainSettings) -> dict[str, str]:
    """Each field's docstring, read from the source of ``kind`` and its bases (the CLI's help)."""
    docs: dict[str, str] = {}
    for owner in reversed(kind.__mro__):
        if owner is object or owner is Checked or not hasattr(owner, "__dataclass_fields__"):
            continue
        (cls,) = ast.parse(inspect.getsource(owner)).body
        assert isinstance(cls, ast.ClassDef)
        for node, following in itertools.pairwise(cls.body):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
            ):
                docs[node.target.id] = " ".join(str(following.value.value).split())
    return docs


MOVED: dict[str, tuple[Section | None, str]] = {
    "dagger_iterations": (None, "rounds"),
    "games_per_iteration": (None, "games_per_round"),
    "gradient_steps_per_iteration": (None, "gradient_steps"),
    "bc_batch_size": (None, "batch_size"),
    "bc_learning_rate": (None, "learning_rate"),
    **{name: (None, name) for name in ("buffer_positions", "epsilon", "boards", "precision")},
    **{name: (Section.IMITATION, name) for name in ("rescue", "move_weight", "dataset")},
    "ppo_lr_follows_budget": (Section.PPO, "lr_follows_budget"),
    **{
        name: (Section.PPO, name)
        for name in field_types(PPOSettings)
        if name != "lr_follows_budget"
    },
}
"""The flat keys of earlier versions and their place now: a section (None: the rounds' section,
``bandit`` for the bandit and ``imitation`` otherwise) and the field's name in it."""


def new_place(old: str, algo: str) -> str:
    """``SECTION.FIELD``: where the flat setting ``old`` (a key of :data:`MOVED`) lives now, for a
    run of ``algo``."""
    section, name = MOVED[old]
    if section is None:
        section = Section.BANDIT if algo == Algorithm.BANDIT else Section.IMITATION
    return f"{section}.{name}"


def nest_flat(values: Mapping[str, Any]) -> dict[str, Any]:
    """The nested form of a flat settings dict of an earlier version (keys it does not know are
    dropped)."""
    algo = str(values.get("algo", TrainSettings.algo))
    nested: dict[str, Any] = {k: v for k, v in values.items() if k in COMMON_TYPES}
    for old, value in values.items():
        if old in MOVED:
            section, name = new_place(old, algo).split(".")
            nested.setdefault(section, {})[name] = value
    return nested


def from_nested(values: Mapping[str, Any], where: str = "settings") -> TrainSettings:
    """Settings from a nested dict (the form of :meth:`TrainSettings.to_dict` and of a TOML
    recipe): common keys, and a table per section.

    Raises:
        ValueError: an unknown key, or a flat key of an earlier version (one line naming its
            place now), or a bad value (named).
    """
    algo = str(values.get("algo", TrainSettings.algo))
    flat: dict[str, Any] = {}
    for key, value in values.items():
        if key in SECTION_NAMES:
            if not isinstance(value, Mapping):
                raise ValueError(f"[{key}] in {where} must be a table, got {value!r}")
            flat |= {f"{key}.{name}": item for name, item in value.items()}
        elif key in COMMON_TYPES:
            flat[key] = value
        elif key in MOVED:
            section, name = new_place(key, algo).split(".")
            raise ValueError(f"{key} in {where} is now {name} under [{section}]")
        else:
            raise ValueError(f"unknown setting {key!r} in {where}")
    return with_values(TrainSettings(), flat)


def saved_settings(data: Mapping[str, Any]) -> TrainSettings:
    """The settings stored in a run state: nested, or flat as earlier versions stored them (keys
    they no longer have are dropped).

    Raises:
        ValueError: stored values that are not valid settings.
    """
    nested = any(isinstance(value, Mapping) for value in data.values())
    try:
        if nested:
            known = {k: v for k, v in data.items() if k in COMMON_TYPES or k in SECTION_NAMES}
            return from_nested(known).check()
        return from_nested(nest_flat(data)).check()
    except ValueError as exc:
        raise ValueError(f"the run's saved settings are invalid: {exc}") from None
