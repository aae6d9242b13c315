"""``mswp-train`` / ``python -m train``: parse the settings and run (or resume) training."""

from __future__ import annotations

import sys

from train.settings import settings_from_args


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status (2 for bad settings)."""
    try:
        settings = settings_from_args(argv)
    except (ValueError, FileNotFoundError) as exc:
        print(f"mswp-train: error: {exc}", file=sys.stderr)
        return 2
    from train.run import train  # heavy imports (torch, SB3) only once the settings are valid

    run_dir = train(settings)
    print(run_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
