"""The committed state of a training run: one typed record, stored as ``state.json``.

No torch or SB3 here: the CLI reads a run's state to check ``--resume`` before the heavy imports.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from common.atomic import write_text_atomic

STATE_FILE = "state.json"

CurvePoint = dict[str, Any]
"""One evaluation: ``phase``, ``iteration``, ``wall_seconds``, ``env_steps``, ``positions``,
``gradient_samples``, ``wins``, ``games``, ``win_rate``, ``low95``, ``high95`` (+ ``loss``)."""


@dataclass
class RunState:
    """Where a run stands; ``state.json`` holds exactly these fields.

    A state is committed only after every file it names is complete, so any committed state can
    be resumed from.
    """

    name: str
    """The run folder's name."""
    settings: dict[str, Any]
    """The run's :class:`train.settings.TrainSettings`, as a dict."""
    phase: str = "ppo"
    """``imitation``, ``ppo`` or ``done`` (finished: a resume only re-runs the final evaluation
    if ``final_eval_games`` was raised)."""
    iteration: int = 0
    """DAgger rounds done."""
    model_file: str = ""
    """The checkpoint zip in the run folder (empty before the first checkpoint)."""
    runtime_file: str = ""
    """PPO: the pickled envs, last observations and RNG states that make resume exact."""
    positions_files: list[str] = field(default_factory=list)
    """Imitation: the position files of the buffer window, oldest first."""
    wall_seconds: float = 0.0
    """Wall time of the run so far, across resumes."""
    num_timesteps: int = 0
    """PPO env steps done."""
    ppo_last_eval: int = 0
    """PPO env step count at the last evaluation."""
    positions_seen: int = 0
    """Imitation: positions collected so far."""
    gradient_samples: int = 0
    """Imitation: minibatch samples trained on so far."""
    rng_state: dict[str, Any] | None = None
    """State of the run's NumPy Generator (layouts, exploration, minibatches)."""
    baselines: dict[str, dict[str, float]] | None = None
    """Win rates of the reference agents on the evaluation seeds (None: not evaluated yet)."""
    curve: list[CurvePoint] = field(default_factory=list)
    """Every evaluation so far."""
    final_eval: dict[str, Any] | None = None
    """The final evaluation (``final_eval_games`` games), once done."""

    def files(self) -> set[str]:
        """The files of the run folder this state needs."""
        return {
            name for name in (self.model_file, self.runtime_file, *self.positions_files) if name
        }

    def to_json(self) -> str:
        """``state.json``'s text."""
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunState:
        """A state from ``state.json``'s data (unknown keys of older versions are dropped)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def read_state(run_dir: str | Path) -> RunState:
    """The committed state of a run folder.

    Raises:
        FileNotFoundError: no such folder, or a folder without ``state.json`` (one line saying so).
        ValueError: an unreadable ``state.json``, or one naming a file outside the folder.
    """
    folder = Path(run_dir)
    if folder.is_file():
        raise FileNotFoundError(
            f"{str(folder)!r} is a file, not a run folder: pass its folder {str(folder.parent)!r}"
        )
    if not folder.is_dir():
        raise FileNotFoundError(f"no run folder at {str(folder)!r}")
    path = folder / STATE_FILE
    if not path.is_file():
        raise FileNotFoundError(
            f"{str(folder)!r} has no {STATE_FILE}: the run stopped before its first checkpoint, "
            f"so there is nothing to resume; start it again without --resume"
        )
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            raise TypeError(f"not an object but {type(data).__name__}")
        state = RunState.from_dict(data)
        outside = [n for n in state.files() if (folder / n).resolve().parent != folder.resolve()]
    except (json.JSONDecodeError, TypeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{str(path)!r} is not a valid run state ({exc})") from None
    if outside:
        raise ValueError(f"{str(path)!r} names {outside[0]!r}, a file outside its run folder")
    return state


def commit_state(run_dir: Path, state: RunState) -> None:
    """Make ``state`` current (atomically); then delete the files the previous state named that
    this one does not."""
    path = run_dir / STATE_FILE
    old = read_state(run_dir).files() if path.is_file() else set()
    write_text_atomic(path, state.to_json())
    for name in old - state.files():
        if (run_dir / name).is_file():
            (run_dir / name).unlink()
