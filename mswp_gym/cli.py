"""What every command line of the project shares: bad input is one line on stderr, exit status 2.

``argparse`` prints a usage block before its error; :class:`OneLineParser` prints only
``prog: error: message (see prog --help)``, the form the programs' own checks use too.
"""

from __future__ import annotations

import argparse
import sys
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

    def require_at_least(self, args: argparse.Namespace, minimum: int, *names: str) -> None:
        """Refuse (one line, exit status 2) the first of the options ``names`` (attribute names of
        ``args``) whose value is below ``minimum``."""
        for name in names:
            value = getattr(args, name)
            if value < minimum:
                self.error(f"--{name.replace('_', '-')} must be >= {minimum}, got {value}")
