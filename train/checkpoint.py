"""Checkpoints that survive a kill, and loading a trained policy with clear errors.

A run folder holds ``state.json`` (the commit point: phase, step counts, curve, RNG state,
settings) and the files it names: ``model-<tag>.zip`` (a MaskablePPO zip: policy weights,
optimizer state, step count, schedules) and, during imitation, ``positions-<tag>.npz`` (one per DAgger round in
the buffer window, format in :mod:`train.dataset`). Each file is written to a temporary name and moved into
place with ``os.replace``; ``state.json`` is replaced last, so a kill at any moment leaves the
previous complete checkpoint in force. Superseded files are deleted after the commit.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path
from typing import Any

from sb3_contrib import MaskablePPO

from train.policy import BoardPolicy

STATE_FILE = "state.json"
SHIPPED_DIR = Path(__file__).with_name("checkpoints")
SHIPPED_NAMES: tuple[str, ...] = ("beginner", "intermediate", "expert", "generalist")
"""Names of the checkpoints packaged with the code: ``agents.make("ppo:<name>")`` loads
``train/checkpoints/<name>.zip``."""
SHIPPED_BEGINNER = SHIPPED_DIR / "beginner.zip"
"""The Beginner checkpoint packaged with the code (``agents.make("ppo")``)."""


def shipped_checkpoint(name: str) -> Path:
    """The packaged checkpoint called ``name`` (one of :data:`SHIPPED_NAMES`).

    Raises:
        ValueError: ``name`` is not a shipped name.
        FileNotFoundError: the name is known but its checkpoint is not packaged yet.
    """
    if name not in SHIPPED_NAMES:
        raise ValueError(f"no shipped checkpoint called {name!r}; shipped names: "
                         f"{', '.join(SHIPPED_NAMES)}")
    path = SHIPPED_DIR / f"{name}.zip"
    if not path.is_file():
        available = [n for n in SHIPPED_NAMES if (SHIPPED_DIR / f"{n}.zip").is_file()]
        raise FileNotFoundError(
            f"the {name!r} checkpoint is not shipped in this version (shipped: "
            f"{', '.join(available) or 'none'}); train one as docs/train.md shows and load it "
            f"with agents.make('ppo:PATH')")
    return path


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` via a temporary file and ``os.replace``."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1))
    os.replace(temporary, path)


def save_model_atomic(model: MaskablePPO, path: Path) -> None:
    """``model.save`` to a temporary file, then ``os.replace`` onto ``path``."""
    temporary = path.with_name(path.stem + ".tmp.zip")
    model.save(temporary)
    os.replace(temporary, path)


def commit_state(run_dir: Path, state: dict[str, Any]) -> None:
    """Make ``state`` (which names the checkpoint files) current; delete files it no longer names."""
    old = read_state(run_dir) if (run_dir / STATE_FILE).is_file() else {}
    write_json_atomic(run_dir / STATE_FILE, state)
    keep = {state.get("model_file"), *state.get("positions_files", [])}
    for name in (old.get("model_file"), *old.get("positions_files", [])):
        if name and name not in keep and (run_dir / name).is_file():
            (run_dir / name).unlink()


def read_state(run_dir: str | Path) -> dict[str, Any]:
    """The committed state of a run folder.

    Raises:
        FileNotFoundError: no folder or no ``state.json`` in it.
        ValueError: unreadable JSON.
    """
    path = Path(run_dir) / STATE_FILE
    if not path.is_file():
        raise FileNotFoundError(f"no run to resume at {str(run_dir)!r} (missing {STATE_FILE})")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{str(path)!r} is not valid JSON: {exc}") from exc


def resolve_model_path(path: str | Path) -> Path:
    """A model zip from a zip path or a run folder (its committed model).

    Raises:
        FileNotFoundError: nothing there, naming the path.
    """
    path = Path(path)
    if path.is_dir():
        state = read_state(path)
        return path / str(state["model_file"])
    if not path.is_file():
        raise FileNotFoundError(f"no checkpoint at {str(path)!r}")
    return path


def load_model(path: str | Path, env: Any = None, device: str = "cpu", **kwargs: Any) -> MaskablePPO:
    """Load a MaskablePPO checkpoint whose policy is a :class:`BoardPolicy` onto ``device``.

    Raises:
        FileNotFoundError: no such file or run folder.
        ValueError: the file is not a readable MaskablePPO zip, or its policy is another kind.
    """
    model_path = resolve_model_path(path)
    try:
        with zipfile.ZipFile(model_path) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile as exc:
        raise ValueError(f"{str(model_path)!r} is not a checkpoint (not a zip file)") from exc
    if "data" not in names or "policy.pth" not in names:
        raise ValueError(f"{str(model_path)!r} is not a stable-baselines3 checkpoint "
                         f"(has {sorted(names)})")
    try:
        model = MaskablePPO.load(model_path, env=env, device=device, **kwargs)
    except Exception as exc:  # SB3 raises many kinds on a damaged zip
        raise ValueError(f"could not load checkpoint {str(model_path)!r}: {exc}") from exc
    if not isinstance(model.policy, BoardPolicy):
        raise ValueError(  # noqa: TRY004 - a bad file's content, not a bad argument type
            f"{str(model_path)!r} holds a {type(model.policy).__name__}, not a BoardPolicy"
        )
    return model
