"""Start a command so that Ctrl-C is one line at any moment, even while its imports load.

Only the standard library is imported here: the command's own module (torch, SB3, Ray) is
imported inside the guard, which takes seconds.
"""

from __future__ import annotations

import atexit
import importlib
import os
import signal
import sys

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as :data:`mswp_gym.cli.INTERRUPTED`."""


def launch(module: str, prog: str) -> int:
    """Import ``module`` and return what its ``main()`` returns.

    Ctrl-C while ``module`` is imported is held until the import ends (an interrupt raised inside
    an extension module's import surfaces as an ImportError or a RuntimeError, not as Ctrl-C);
    then ``prog: interrupted before it started; nothing was done`` is printed and the process
    exits with :data:`INTERRUPTED`. After Ctrl-C in ``main`` the process exits at once with that
    status: Python would otherwise end by killing itself with SIGINT (status -2) when the
    interrupt had passed through code an extension module ran, even though it was handled.
    """
    interrupted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(signum))
    try:
        main = importlib.import_module(module).main
    except Exception:
        if not interrupted:
            raise
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
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
