"""``mswp-train`` / ``python -m train``: parse the settings and run (or resume) training.

Bad input is one line on stderr and exit status 2, before any folder is created; Ctrl-C keeps the
last checkpoint, says how to resume in one line and exits with status 130.
"""

from __future__ import annotations

import sys
from concurrent.futures.process import BrokenProcessPool

from common.cli import INTERRUPTED, one_line, report_error
from train.arguments import settings_from_args

PROG = "mswp-train"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status (2 for bad settings, 130 for Ctrl-C, 1 when
    a worker process was killed)."""
    try:
        settings = settings_from_args(argv)
        from train.run import train  # heavy imports (torch, SB3) once settings are valid

        run_dir = train(settings)
    except (ValueError, FileNotFoundError, NotADirectoryError, PermissionError) as exc:
        return report_error(PROG, exc)
    except BrokenProcessPool as exc:  # train.run.RunWorkerDied: says how to go on
        print(f"{PROG}: {one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:  # train.run.RunInterrupted names the run to resume
        message = one_line(exc) or "interrupted before the first checkpoint; nothing to resume"
        print(f"{PROG}: {message}", file=sys.stderr)
        return INTERRUPTED
    print(run_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
