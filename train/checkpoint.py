"""Checkpoints that survive a kill, and loading a trained policy with clear errors.

A run folder holds ``state.json`` (the commit point: phase, step counts, curve, RNG state,
settings) and the files it names: ``model-<tag>.zip`` (a MaskablePPO zip: policy weights,
optimizer state, step count, schedules), during PPO ``runtime-<tag>.pkl`` (envs mid-episode and
generator states, for an exact resume) and, during imitation, ``positions-<tag>.npz`` (one per
DAgger round in the buffer window, format in :mod:`train.dataset`). Each file is written through
:func:`mswp_gym.atomic.atomic_path`; ``state.json`` (a :class:`train.state.RunState`) is replaced
last, so a kill at any moment leaves the previous complete checkpoint in force. Superseded files
are deleted after the commit, and a killed writer's temporaries on the next start.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import SubprocVecEnv, VecMonitor

from mswp_gym.atomic import atomic_path
from train.policy import BoardPolicy
from train.state import STATE_FILE, RunState, commit_state, read_state

__all__ = [
    "RUNTIME_FORMAT",
    "STATE_FILE",
    "RunState",
    "RuntimeFromOtherCode",
    "commit_state",
    "load_model",
    "read_state",
    "resolve_model_path",
    "restore_runtime",
    "save_model_atomic",
    "save_runtime",
]

SHIPPED_DIR = Path(__file__).with_name("checkpoints")
SHIPPED: dict[str, str] = {
    "net:beginner": "beginner.zip",
    "net:intermediate": "intermediate.zip",
    "net:expert": "expert.zip",
    "net:generalist": "generalist.zip",
    "rl:beginner": "beginner-rl.zip",
}
"""The networks packaged with the code: agent name -> file in ``train/checkpoints/``. ``net:``
networks imitate the exact solver (DAgger); ``rl:`` networks learned by MaskablePPO from the
env's reward alone. Shipping another network is one line here (and its file)."""
ALIASES: dict[str, str] = {
    "net": "net:beginner",
    "rl": "rl:beginner",
    "ppo": "net:beginner",
    **{"ppo:" + name.partition(":")[2]: name for name in SHIPPED if name.startswith("net:")},
    "ppo:beginner-rl": "rl:beginner",
}
"""Other names of the shipped networks: the bare families and the ``ppo:NAME`` names."""
FAMILIES: tuple[str, ...] = ("net", "rl", "ppo")
"""Agent names that load a network: ``FAMILY:NAME`` (shipped) or ``FAMILY:PATH``."""
SHIPPED_BEGINNER = SHIPPED_DIR / SHIPPED["net:beginner"]
"""The Beginner network packaged with the code (``agents.make("net")``)."""
KILL_HOOK = "MSWP_TRAIN_KILL_AFTER_COMMITS"
"""Fault injection for the kill tests: with this environment variable set to N, the process
SIGKILLs itself right after its N-th committed checkpoint (0 = right after creating its folder)."""

_commits = 0


def shipped_name(text: str) -> str | None:
    """The key of :data:`SHIPPED` that ``text`` names (itself, an alias such as ``ppo:expert``,
    or a bare name such as ``expert`` or ``beginner-rl``), or None."""
    for candidate in (text, f"ppo:{text}"):
        candidate = ALIASES.get(candidate, candidate)
        if candidate in SHIPPED:
            return candidate
    return None


def shipped_checkpoint(name: str) -> Path:
    """The packaged file of the shipped network ``name`` (any name :func:`shipped_name` takes).

    Raises:
        ValueError: not a shipped name (the message lists them).
        FileNotFoundError: the name is known but its file is not packaged.
    """
    key = shipped_name(name)
    if key is None:
        raise ValueError(f"no shipped network called {name!r}; shipped: {', '.join(SHIPPED)}")
    path = SHIPPED_DIR / SHIPPED[key]
    if not path.is_file():
        raise FileNotFoundError(f"the file of {key} is missing from this install ({path})")
    return path


def resolve_checkpoint(text: str | Path | None) -> Path:
    """The checkpoint zip that ``text`` names: a shipped name (names win over files: write
    ``./expert`` for a file of that name), ``FAMILY:PATH`` or a path, where a path is a zip or a
    training run folder (its last committed model); None is ``net:beginner``.

    Raises:
        ValueError: a name that is neither shipped nor a path (the message lists the shipped ones).
        FileNotFoundError: nothing at the path, or a folder with no committed model.
    """
    text = "net" if text is None else str(text)
    key = shipped_name(text)
    if key is not None:
        return shipped_checkpoint(key)
    family, sep, rest = text.partition(":")
    path = Path(rest if sep and family in FAMILIES else text)
    if not path.exists() and path.suffix != ".zip" and len(path.parts) == 1:
        raise ValueError(
            f"unknown network {text!r}; shipped: {', '.join(SHIPPED)} (or give a checkpoint "
            f".zip or a training run folder)"
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
    """Pickle what ``model.save`` leaves out but an exact PPO resume needs: the envs mid-episode,
    the last observations and the torch, NumPy and ``random`` generator states.

    Returns:
        False (nothing written) for a SubprocVecEnv, whose envs live in other processes: such a
        run resumes with fresh episodes, so it is not bit-identical to an uninterrupted one.
    """
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
        "torch_rng": th.get_rng_state(),
        "numpy_rng": np.random.get_state(),
        "python_rng": random.getstate(),
    }
    with atomic_path(path) as temporary:
        temporary.write_bytes(pickle.dumps(runtime))
    return True


class RuntimeFromOtherCode(ValueError):
    """A runtime state written by another version of the envs' code (moved modules, a new
    :data:`RUNTIME_FORMAT`): the run can go on from its model and optimizer with fresh episodes,
    but not bit-identically."""


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


def load_model(
    path: str | Path, env: Any = None, device: str = "cpu", **kwargs: Any
) -> MaskablePPO:
    """Load a MaskablePPO checkpoint whose policy is a :class:`BoardPolicy` onto ``device``.

    Raises:
        FileNotFoundError: no such file or run folder.
        ValueError: the file is not a readable MaskablePPO zip, or its policy is another kind.
    """
    model_path = resolve_model_path(path)
    try:
        with zipfile.ZipFile(model_path) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ValueError(f"{str(model_path)!r} is not a checkpoint (not a zip file)") from exc
    if "data" not in names or "policy.pth" not in names:
        raise ValueError(
            f"{str(model_path)!r} is not a stable-baselines3 checkpoint (has {sorted(names)})"
        )
    try:
        model = MaskablePPO.load(model_path, env=env, device=device, **kwargs)
    except Exception as exc:  # SB3 raises many kinds on a damaged zip
        raise ValueError(f"could not load checkpoint {str(model_path)!r}: {exc}") from exc
    if not isinstance(model.policy, BoardPolicy):
        raise ValueError(  # a bad file's content, not a bad argument type
            f"{str(model_path)!r} holds a {type(model.policy).__name__}, not a BoardPolicy"
        )
    return model
