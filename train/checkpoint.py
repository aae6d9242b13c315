"""Checkpoints that survive a kill, and loading a trained policy with clear errors.

A run folder holds ``state.json`` (the commit point) and the files it names: ``model-<tag>.zip``,
``runtime-<tag>.pkl`` (PPO's envs and generator states) and ``positions-<tag>.npz`` (imitation).
Each is written atomically and ``state.json`` last, so a kill leaves the previous checkpoint.
"""

from __future__ import annotations

import base64
import json
import operator
import os
import pickle
import pickletools
import random
import re
import signal
import sys
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3 import PPO
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.common.vec_env import SubprocVecEnv, VecMonitor
from torch.overrides import TorchFunctionMode

from agents import registry
from common.atomic import atomic_path
from common.cli import one_line
from mswp_gym.encoding import OBS_MODES, observation_space
from mswp_gym.generators import MAX_CELLS
from train.limits import DATA_BYTES, check_members
from train.policy import BoardPolicy
from train.shards import file_sha256
from train.state import STATE_FILE, RunState, commit_state, read_state

__all__ = [
    "RUNTIME_FORMAT",
    "STATE_FILE",
    "RunState",
    "RuntimeFromOtherCode",
    "commit_state",
    "load_model",
    "read_model",
    "read_state",
    "resolve_model_path",
    "restore_runtime",
    "save_model_atomic",
    "save_runtime",
]

SHIPPED_DIR = Path(__file__).with_name("checkpoints")
"""The networks packaged with the code, named in :mod:`agents.registry`."""
SHIPPED_BEGINNER = SHIPPED_DIR / registry.shipped_file(registry.shipped()[0])
"""The first shipped network (Beginner, imitating the solver; ``agents.make("net")``)."""
KILL_HOOK = "MSWP_TRAIN_KILL_AFTER_COMMITS"
"""Fault injection for the kill tests: with this environment variable set to N, the process
SIGKILLs itself right after its N-th committed checkpoint (0 = right after creating its folder)."""

_commits = 0


def shipped_checkpoint(name: str) -> Path:
    """The packaged file of the shipped network ``name`` (any name that
    :func:`agents.registry.shipped_name` takes).

    Raises:
        ValueError: not a shipped name (the message lists them).
        FileNotFoundError: the name is known but its file is not packaged.
    """
    key = registry.shipped_name(name)
    if key is None:
        shipped = ", ".join(registry.shipped())
        raise ValueError(f"no shipped network called {name!r}; shipped: {shipped}")
    path = SHIPPED_DIR / registry.shipped_file(key)
    if not path.is_file():
        raise FileNotFoundError(f"the file of {key} is missing from this install ({path})")
    return path


def resolve_checkpoint(text: str | Path | None) -> Path:
    """The checkpoint zip that ``text`` names: a shipped name (names win over files: write
    ``./expert`` for a file of that name), ``FAMILY:PATH`` or a path, where a path is a zip or a
    training run folder (its last committed model); None is the first shipped network.

    Raises:
        ValueError: a name that is neither shipped nor a path (the message lists the shipped ones).
        FileNotFoundError: nothing at the path, or a folder with no committed model.
    """
    text = registry.shipped()[0] if text is None else str(text)
    key = registry.shipped_name(text)
    if key is not None:
        return shipped_checkpoint(key)
    family, sep, rest = text.partition(":")
    takes_path = getattr(registry.entry(family), "argument", None) is not None
    path = Path(rest if sep and takes_path else text)
    if not path.exists() and path.suffix != ".zip" and len(path.parts) == 1:
        raise ValueError(
            f"unknown network {text!r}; shipped: {', '.join(registry.shipped())} (or give a "
            f"checkpoint .zip or a training run folder)"
        )
    return resolve_model_path(path)


def save_model_atomic(model: MaskablePPO, path: Path) -> None:
    """``model.save`` to a temporary file, then ``os.replace`` onto ``path``."""
    with atomic_path(path) as temporary:
        model.save(temporary)


RUNTIME_FORMAT = 2
"""Version of what :func:`save_runtime` pickles; raise it when the pickled envs change shape
(2: the envs built from a GameConfig, in the mswp_gym.vector package)."""


def save_runtime(path: Path, model: MaskablePPO) -> bool:
    """Pickle what ``model.save`` leaves out but an exact PPO resume needs (the envs, the last
    observations, the generator states); False (nothing written) for a SubprocVecEnv."""
    env = model.get_env()
    inner = env.venv if isinstance(env, VecMonitor) else env
    if isinstance(inner, SubprocVecEnv):
        return False
    monitor = env if isinstance(env, VecMonitor) else None
    runtime = {
        "format": RUNTIME_FORMAT,
        "venv": inner,  # the VecMonitor wrapper itself does not pickle
        "monitor": None
        if monitor is None
        else (monitor.episode_returns, monitor.episode_lengths, monitor.episode_count),
        "last_obs": model._last_obs,
        "last_episode_starts": model._last_episode_starts,
        "last_original_obs": model._last_original_obs,
        "episode_stats": (model.ep_info_buffer, model.ep_success_buffer),
        "torch_rng": th.get_rng_state(),
        "numpy_rng": np.random.get_state(),
        "python_rng": random.getstate(),
    }
    with atomic_path(path) as temporary:
        temporary.write_bytes(pickle.dumps(runtime))
    return True


class RuntimeFromOtherCode(ValueError):
    """A runtime state written by another version of the envs' code: the run goes on with fresh
    episodes."""


def restore_runtime(path: Path, model: MaskablePPO) -> None:
    """Put back what :func:`save_runtime` saved (call right after loading the model).

    Raises:
        RuntimeFromOtherCode: the state was written by other code (see the class).
        ValueError: an unreadable file.
    """
    try:
        runtime = pickle.loads(path.read_bytes())
    except (AttributeError, ImportError) as exc:
        raise RuntimeFromOtherCode(
            f"{str(path)!r} was written by another version of the code ({exc})"
        ) from None
    except (OSError, pickle.UnpicklingError, EOFError) as exc:
        raise ValueError(f"{str(path)!r} is not a readable PPO runtime state ({exc})") from None
    if not isinstance(runtime, dict) or runtime.get("format") != RUNTIME_FORMAT:
        found = runtime.get("format", 1) if isinstance(runtime, dict) else "none"
        raise RuntimeFromOtherCode(
            f"{str(path)!r} has runtime format {found}, this code writes {RUNTIME_FORMAT}"
        )
    env = model.get_env()
    if isinstance(env, VecMonitor):
        env.venv.close()
        env.venv = runtime["venv"]
        env.episode_returns, env.episode_lengths, env.episode_count = runtime["monitor"]
    else:
        model.set_env(runtime["venv"], force_reset=False)
    model._last_obs = runtime["last_obs"]
    model._last_episode_starts = runtime["last_episode_starts"]
    model._last_original_obs = runtime["last_original_obs"]
    model.ep_info_buffer, model.ep_success_buffer = runtime.get("episode_stats", (None, None))
    th.set_rng_state(runtime["torch_rng"])
    np.random.set_state(runtime["numpy_rng"])
    random.setstate(runtime["python_rng"])


def commit(run_dir: Path, state: RunState) -> None:
    """:func:`train.state.commit_state`, then the :data:`KILL_HOOK` fault injection."""
    global _commits
    commit_state(run_dir, state)
    _commits += 1
    kill_point(_commits)


def kill_point(count: int) -> None:
    """SIGKILL this process if :data:`KILL_HOOK` asks for it at ``count`` (tests only)."""
    wanted = os.environ.get(KILL_HOOK)
    if wanted is not None and int(wanted) == count:
        os.kill(os.getpid(), signal.SIGKILL)


def resolve_model_path(path: str | Path) -> Path:
    """A model zip from a zip path or a run folder (its last committed ``model-*.zip``).

    Raises:
        FileNotFoundError: nothing there, or a folder with no committed model (naming the run
            folders inside a parent folder such as a trainer's ``--out``).
    """
    path = Path(path)
    if path.is_dir():
        if not (path / STATE_FILE).is_file():
            runs = sorted(str(p.parent) for p in path.glob(f"*/{STATE_FILE}"))
            inside = f"; its run folders: {', '.join(runs)}" if runs else ""
            raise FileNotFoundError(f"{str(path)!r} is not a training run folder{inside}")
        state = read_state(path)
        if not state.model_file:
            raise FileNotFoundError(f"run folder {str(path)!r} has no checkpoint yet")
        return path / state.model_file
    if not path.is_file():
        raise FileNotFoundError(f"no checkpoint at {str(path)!r}")
    return path


PICKLED = ":serialized:"
"""The key that marks a pickled field of an SB3 zip's ``data`` JSON."""
REBUILT_FIELDS = frozenset(
    {"lr_schedule", "rollout_buffer_class", "ep_info_buffer", "ep_success_buffer"}
    | {"_last_obs", "_last_episode_starts", "_last_original_obs"}
)
"""Pickled fields that SB3 rebuilds when they are None: the schedule and buffer class from the
other fields, the last observations and episode statistics at the next ``learn``."""
PLAY_SCHEDULES = {"learning_rate": 0.0, "clip_range": 0.0, "clip_range_vf": None}
"""What a pickled schedule becomes without ``schedules``: values a playing model never reads."""
_FRAMING = frozenset({"PROTO", "FRAME", "MEMOIZE", "STOP"})
_BOARD_IN_DICT = re.compile(r"'board': Box\([^()]*\((\d+), (\d+)\)")
_DESCRIBED = ("_shape", "dtype", "n", "spaces")
"""The attributes of a pickled space that its JSON shows and :func:`_describes` compares."""


def read_model(
    path: str | Path, env: Any = None, device: str = "cpu", schedules: dict[str, Any] | None = None
) -> BaseAlgorithm:
    """Load a PPO or MaskablePPO zip (or a run folder's model) as data: nothing in it runs.

    Every pickled field is replaced before SB3 reads it: the policy class by the imported class
    the pickle names (read, never run), the spaces by those the JSON describes, the schedules by
    ``schedules`` or :data:`PLAY_SCHEDULES`, :data:`REBUILT_FIELDS` by None; tensors load with
    ``weights_only=True``.

    Raises:
        FileNotFoundError: nothing at ``path``.
        ValueError: one line: not an SB3 zip, sizes :func:`train.limits.check_members` refuses
            (checked on the meta device), another pickled field, a policy class not
            imported, spaces not a Minesweeper env's, or what SB3 and torch refuse.
    """
    model_path = resolve_model_path(path)
    where = repr(str(model_path))
    try:
        with zipfile.ZipFile(model_path) as archive:
            if "policy.pth" not in archive.namelist():
                raise KeyError("it has no policy.pth")
            sizes = {info.filename: info.file_size for info in archive.infolist()}
            if sizes.get("data", 0) > DATA_BYTES:  # before it is read
                raise ValueError(f"its data declares {sizes['data']:,} bytes, over {DATA_BYTES:,}")
            data = json.loads(archive.read("data"))
    except (zipfile.BadZipFile, OSError, EOFError, KeyError, ValueError) as exc:
        raise ValueError(f"{where} is not a stable-baselines3 checkpoint ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where} is not a stable-baselines3 checkpoint (its data is no object)")
    pickled = {key for key, value in data.items() if isinstance(value, dict) and PICKLED in value}
    replaced = {**PLAY_SCHEDULES, **dict.fromkeys(REBUILT_FIELDS)}
    custom = {key: replaced[key] for key in pickled & set(replaced)} | (schedules or {})
    other = sorted(pickled - set(custom) - {"policy_class", "observation_space", "action_space"})
    if other:
        raise ValueError(f"{where} stores {', '.join(other)} as a pickle, which could run code")
    policy_class = _policy_class(data.get("policy_class"), where)
    custom["policy_class"] = policy_class
    custom["observation_space"], custom["action_space"] = _minesweeper_spaces(data, where)
    check_members(sizes, _network_bytes(custom, data.get("policy_kwargs"), where), where)
    algorithm = MaskablePPO if issubclass(policy_class, MaskableActorCriticPolicy) else PPO
    try:
        with warnings.catch_warnings():  # torch warns before refusing a plain pickle
            warnings.simplefilter("ignore")
            return algorithm.load(model_path, env=env, device=device, custom_objects=custom)
    except Exception as exc:  # SB3 and torch raise many kinds on a damaged zip
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if isinstance(exc, pickle.UnpicklingError):  # torch's weights_only refusal
            first = "its weights hold objects other than tensors, which could run code"
        raise ValueError(f"could not load checkpoint {where}: {first}") from None


def load_model(
    path: str | Path, env: Any = None, device: str = "cpu", schedules: dict[str, Any] | None = None
) -> MaskablePPO:
    """:func:`read_model` of one of mswp-train's networks (a :class:`BoardPolicy`).

    Raises:
        FileNotFoundError: no such file or run folder.
        ValueError: what :func:`read_model` refuses, or a model whose policy is another kind.
    """
    model = read_model(path, env, device, schedules)
    if not isinstance(model, MaskablePPO) or not isinstance(model.policy, BoardPolicy):
        raise ValueError(  # a bad file's content, not a bad argument type
            f"{str(path)!r} holds a {type(model.policy).__name__}, not a BoardPolicy"
        )
    return model


_SPACES = operator.itemgetter("observation_space", "action_space")


class _StayOnMeta(TorchFunctionMode):
    """``Tensor.to`` as a no-op: SB3's policies move their parts to a device as they build."""

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return args[0] if func is th.Tensor.to else func(*args, **(kwargs or {}))


def _network_bytes(custom: dict[str, Any], kwargs: object, where: str) -> int:
    """Bytes of the weights of the policy the settings describe, built on the meta device (no
    memory), so the network's own checks (:mod:`train.limits`) refuse it first."""
    kwargs = kwargs if isinstance(kwargs, dict) else {}
    try:
        with th.device("meta"), _StayOnMeta():
            policy = custom["policy_class"](*_SPACES(custom), lambda _: 0.0, **kwargs)
    except Exception as exc:  # the policy's own refusal of its settings
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ValueError(f"{where} has network settings that cannot be built: {first}") from None
    tensors = (*policy.parameters(), *policy.buffers())
    return sum(tensor.numel() * tensor.element_size() for tensor in tensors)


def _pickled_global(entry: object) -> tuple[str, str] | None:
    """``(module, name)`` of a pickle that only names a global (a class), read from its opcodes
    without running them; None for any other pickle."""
    try:
        ops = pickletools.genops(base64.b64decode(entry[PICKLED]))  # type: ignore[index]  # caught below
        core = [(op.name, arg) for op, arg, _ in ops if op.name not in _FRAMING]
    except Exception:  # not base64, not a pickle: not a class reference either
        return None
    if [name for name, _ in core] == ["SHORT_BINUNICODE", "SHORT_BINUNICODE", "STACK_GLOBAL"]:
        return str(core[0][1]), str(core[1][1])
    if len(core) == 1 and core[0][0] == "GLOBAL":
        module, _, name = str(core[0][1]).partition(" ")
        return module, name
    return None


def _policy_class(entry: object, where: str) -> type[BasePolicy]:
    """The class a pickled ``policy_class`` names, if its module is already imported (a file
    never makes us import anything) and it is an SB3 policy.

    Raises:
        ValueError: naming the class, or saying the pickle is not a class reference.
    """
    named = _pickled_global(entry)
    if named is None:
        raise ValueError(f"{where} has no policy class reference (is it an SB3 PPO zip?)")
    module, name = named
    found: Any = sys.modules.get(module)
    for part in name.split("."):
        found = getattr(found, part, None)
    if not (isinstance(found, type) and issubclass(found, BasePolicy)):
        raise ValueError(
            f"{where} names the policy class {module}.{name}, which is not an imported SB3 policy "
            f"(import the module that defines it first: loading a checkpoint imports nothing)"
        )
    return found


def _minesweeper_spaces(
    data: dict[str, Any], where: str
) -> tuple[spaces.Space[Any], spaces.Discrete]:
    """The observation and action spaces the zip's JSON describes, if they are a Minesweeper
    env's (any observation form), rebuilt by :func:`mswp_gym.encoding.observation_space`.

    Raises:
        ValueError: spaces of another env, or none.
    """
    seen, actions = data.get("observation_space"), data.get("action_space")
    if isinstance(seen, dict) and isinstance(actions, dict):
        try:
            n = int(actions["n"])
            board = seen.get("_shape") or _BOARD_IN_DICT.search(str(seen.get("spaces"))).groups()  # type: ignore[union-attr]  # None: caught below
            rows, cols = int(board[-2]), int(board[-1])
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            rows = cols = n = 0
        if rows > 0 and 1 <= rows * cols <= MAX_CELLS and n in (rows * cols, 2 * rows * cols):
            action_space = spaces.Discrete(n)
            for mode in OBS_MODES if _describes(actions, action_space) else ():
                space = observation_space(mode, rows, cols, n)
                if _describes(seen, space):
                    return space, action_space
    shown = seen.get(":type:") if isinstance(seen, dict) else None
    raise ValueError(
        f"{where} was not trained on a Minesweeper env: its observation space ({shown}, shape "
        f"{seen.get('_shape') if isinstance(seen, dict) else None}) is not a Minesweeper env's"
    )


def _describes(entry: dict[str, Any], space: spaces.Space[Any]) -> bool:
    """Whether the JSON of a pickled space (its type and readable attributes) describes
    ``space``."""
    if entry.get(":type:") != str(type(space)):
        return False
    own = vars(space)
    return all(_as_json(own.get(key)) == entry[key] for key in _DESCRIBED if key in entry)


def _as_json(value: object) -> object:
    """``value`` as SB3's JSON keeps an attribute: itself if JSON holds it, else its ``str``."""
    try:
        return json.loads(json.dumps(value))
    except TypeError:
        return str(value)


def damaged(path: Path, exc: BaseException) -> ValueError:
    """The one-line error for a run file that cannot be read back."""
    return ValueError(
        f"{str(path)!r} is damaged ({type(exc).__name__}: {one_line(exc)}); the run cannot "
        f"resume from it: put back a copy of the file, or start the run again without --resume"
    )


LINEAGE = "lineage.json"
"""The zip member that records how a network was made: JSON, never pickled, ignored by SB3."""


def write_lineage(path: Path, lineage: dict[str, Any]) -> None:
    """Put ``lineage`` into the zip at ``path`` as :data:`LINEAGE`, atomically."""
    with zipfile.ZipFile(path) as source, atomic_path(path) as temporary:
        members = [(item, source.read(item)) for item in source.infolist()]
        with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as target:
            for item, data in members:
                if item.filename != LINEAGE:
                    target.writestr(item, data)
            target.writestr(LINEAGE, json.dumps(lineage, indent=1, sort_keys=True) + "\n")


def read_lineage(path: Path) -> dict[str, Any] | None:
    """The :data:`LINEAGE` record of a checkpoint zip, or None when it has none."""
    with zipfile.ZipFile(path) as archive:
        found = LINEAGE in archive.namelist()
        return dict(json.loads(archive.read(LINEAGE))) if found else None


def run_lineage(state: RunState) -> dict[str, Any]:
    """A run checkpoint's lineage: algorithm, config, ``--init``'s SHA-256 (None: random
    weights), commit, seeds, minutes, the first evaluation (what :mod:`train.replay` checks) and
    the last one (the final one once done)."""
    from common.provenance import git_state

    init = state.settings.get("init")
    try:
        parent = file_sha256(resolve_checkpoint(init)) if init else None
    except (OSError, ValueError):  # the parent's file is gone since the run started
        parent = "unknown"
    return {
        "algorithm": state.settings.get("algo"),
        "config": state.settings,
        "parent_sha256": parent,
        "commit": git_state().get("commit", "unknown"),
        "seeds": {"train": state.settings.get("seed")},
        "minutes": round(state.wall_seconds / 60, 1),
        "first_evaluation": state.curve[0] if state.curve else None,
        "final_validation": state.final_eval or (state.curve[-1] if state.curve else None),
    }
