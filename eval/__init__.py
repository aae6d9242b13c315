"""Evaluation: play any agents on the same seeded boards and compare them with statistics.

``python -m eval`` / ``mswp-eval`` is the command line (:mod:`eval.cli`); ``python -m eval.demo``
the README's main job; :mod:`eval.evaluate` is one call for a whole evaluation.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


def _refuse_a_shadowing_agents_folder() -> None:
    """A user's own ``agents/`` beside their script comes first on ``sys.path``: name it in one
    line rather than fail later with an AttributeError from deep inside."""
    spec = importlib.util.find_spec("agents")
    ours = Path(__file__).resolve().parent.parent / "agents"
    if spec is not None and spec.origin and Path(spec.origin).resolve().parent != ours:
        raise ImportError(f"{spec.origin} hides the package 'agents' of mswp-gym; rename it")


_refuse_a_shadowing_agents_folder()
