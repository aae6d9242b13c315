"""What every command line of the project shares: bad input is one line on stderr, exit status 2;
Ctrl-C is one line and exit status 130 at any moment (:func:`launch`).

``argparse`` prints a usage block before its error; :class:`OneLineParser` prints only
``prog: error: message (see prog --help)``, the form the programs' own checks use too. Only the
standard library is imported here: a command's own module (torch, SB3, Ray) is imported inside
:func:`launch`'s guard, which takes seconds.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import signal
import sys
from collections.abc import Iterable
from typing import NoReturn

USAGE_ERROR = 2
"""Exit status of a command refused for bad input (nothing was done)."""
INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as a shell reports it."""


def one_line(message: object) -> str:
    """``message`` with its whitespace (newlines included) collapsed, so it fits one line."""
    return " ".join(str(message).split())


def report_error(prog: str, message: object) -> int:
    """Print ``prog: error: message`` as one line on stderr; returns :data:`USAGE_ERROR`."""
    print(f"{prog}: error: {one_line(message)}", file=sys.stderr, flush=True)
    return USAGE_ERROR


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print the one-line error and exit with status 2."""
        report_error(self.prog, f"{message} (see {self.prog} --help)")
        sys.exit(USAGE_ERROR)

    def entries(self, text: str, allowed: Iterable[str], name: str) -> list[str]:
        """The comma-separated entries of ``text`` (trimmed, lower case), each one of ``allowed``;
        else one line naming the first unknown entry and the allowed ones, exit status 2."""
        known = list(allowed)
        found = [entry.strip().lower() for entry in text.split(",")]
        unknown = [entry for entry in found if entry not in known]
        if unknown:
            self.error(f"unknown {name} {unknown[0]!r}; choose from {', '.join(known)}")
        return found

    def require_at_least(self, args: argparse.Namespace, minimum: int, *names: str) -> None:
        """Refuse (one line, exit status 2) the first of the options ``names`` (attribute names of
        ``args``) whose value is below ``minimum``."""
        for name in names:
            value = getattr(args, name)
            if value < minimum:
                self.error(f"--{name.replace('_', '-')} must be >= {minimum}, got {value}")


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
