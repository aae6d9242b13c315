"""``python -m eval``: see :mod:`eval.cli`."""

from __future__ import annotations

import sys

from eval.cli import main

if __name__ == "__main__":
    sys.exit(main())
