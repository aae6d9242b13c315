"""Start a command so that Ctrl-C is one line at any moment, even while its imports load.

Only the standard library is imported here: the command's own module (torch, SB3, Ray) is
imported inside the guard, which takes seconds.
"""

from __future__ import annotations

import importlib
import sys

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as :data:`mswp_gym.cli.INTERRUPTED`."""


def launch(module: str, prog: str) -> int:
    """Import ``module`` and return what its ``main()`` returns.

    Ctrl-C before ``main`` handles it itself (while ``module`` is imported) prints
    ``prog: interrupted before it started; nothing was done`` and returns :data:`INTERRUPTED`.
    """
    try:
        main = importlib.import_module(module).main
    except KeyboardInterrupt:
        print(f"{prog}: interrupted before it started; nothing was done", file=sys.stderr)
        return INTERRUPTED
    status: int = main()
    return status
