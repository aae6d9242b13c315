"""``python -m train.dataset``: write labelled shards of solver play (see :mod:`train.shards`)."""

from __future__ import annotations

import sys

from train.shards import main

sys.exit(main())
