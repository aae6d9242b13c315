"""A progress bar for long runs: tqdm on stderr, only when stderr is a terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable

from eval.backends import Progress


def progress_bar_factory(
    quiet: bool,
) -> Callable[[int], tuple[Progress, Callable[[], None]]] | None:
    """A factory for :func:`eval.runner.run`, or None when quiet or stderr is not a TTY.

    Falls back to no bar if tqdm is not installed.
    """
    if quiet or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None

    def factory(total: int) -> tuple[Progress, Callable[[], None]]:
        bar = tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)
        return bar.update, bar.close

    return factory
