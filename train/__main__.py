"""``python -m train``: see :mod:`train.cli`."""

from __future__ import annotations

import sys

from train.cli import main

sys.exit(main())
