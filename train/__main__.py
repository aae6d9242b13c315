"""``python -m train`` and ``mswp-train``: see :mod:`train.cli`."""

from __future__ import annotations

import sys

from common.cli import launch


def main() -> int:
    """:func:`train.cli.main`, with Ctrl-C one line even while it loads."""
    return launch("train.cli", "mswp-train")


if __name__ == "__main__":
    sys.exit(main())
