"""``python -m eval`` and ``mswp-eval``: see :mod:`eval.cli`."""

from __future__ import annotations

import sys

from common.cli import launch


def main() -> int:
    """:func:`eval.cli.main`, with Ctrl-C one line even while it loads."""
    return launch("eval.cli", "mswp-eval")


if __name__ == "__main__":
    sys.exit(main())
