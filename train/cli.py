"""``mswp-train`` / ``python -m train``: parse the settings and run (or resume) training.

Bad input is one line on stderr and exit status 2, before any folder is created; Ctrl-C keeps the
last checkpoint, says how to resume in one line and exits with status 130.
"""

from __future__ import annotations

import sys

from mswp_gym.cli import INTERRUPTED, one_line, report_error
from train.settings import settings_from_args

PROG = "mswp-train"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status (2 for bad settings, 130 for Ctrl-C)."""
    try:
        settings = settings_from_args(argv)
    except (ValueError, FileNotFoundError) as exc:
        return report_error(PROG, exc)
    from train.run import (  # heavy imports (torch, SB3) once settings are valid
        RunInterrupted,
        train,
    )

    try:
        run_dir = train(settings)
    except (ValueError, FileNotFoundError, NotADirectoryError, PermissionError) as exc:
        return report_error(PROG, exc)
    except RunInterrupted as exc:
        print(f"{PROG}: {one_line(exc)}", file=sys.stderr)
        return INTERRUPTED
    except KeyboardInterrupt:
        print(
            f"{PROG}: interrupted before the first checkpoint; nothing to resume", file=sys.stderr
        )
        return INTERRUPTED
    print(run_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
