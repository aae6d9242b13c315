"""Start a command so that Ctrl-C is one line at any moment, even while its imports load.

Only the standard library is imported here: the command's own module (torch, SB3, Ray) is
imported inside the guard, which takes seconds.
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as :data:`mswp_gym.cli.INTERRUPTED`."""


def launch(module: str, prog: str) -> int:
    """Import ``module`` and return what its ``main()`` returns.

    Ctrl-C before ``main`` handles it itself (while ``module`` is imported) prints
    ``prog: interrupted before it started; nothing was done`` and exits with
    :data:`INTERRUPTED`. After Ctrl-C the process exits at once with that status: Python would
    otherwise end by killing itself with SIGINT (status -2) when the interrupt had passed
    through code some extension module ran (an import), even though it was handled.
    """
    try:
        main = importlib.import_module(module).main
    except KeyboardInterrupt:
        print(f"{prog}: interrupted before it started; nothing was done", file=sys.stderr)
        status = INTERRUPTED
    else:
        status = main()
    if status == INTERRUPTED:
        atexit._run_exitfuncs()  # e.g. multiprocessing's: release the worker pools' semaphores
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status
