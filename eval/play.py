"""``mswp-play``: a window to play Minesweeper yourself and watch any agent think.

E.g. ``mswp-play --preset expert --agent solver --heat``; ``--headless`` (with ``--autoplay``,
``--moves``, ``--screenshot``) draws off-screen. Bad input is one line on stderr, exit status 2,
before any window opens. See ``docs/play.md``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from common.cli import INTERRUPTED, report_error
from eval.gui.options import PlayOptions, parse_options

if TYPE_CHECKING:
    from eval.gui.app import PlayApp

PROG = "mswp-play"


def open_app(options: PlayOptions) -> PlayApp:
    """Check the board and the agent, then open the window (nothing is drawn yet).

    Raises:
        ValueError, TypeError, FileNotFoundError, ImportError: bad board, agent or ``--hover``
            (all found before the window opens).
        RuntimeError: the window cannot be opened (no display: use ``--headless``).
    """
    from eval.gui.choices import agent_specs, board_setups, build_agent
    from eval.gui.session import GameSession, make_env

    make_env(options.board).close()  # a bad size, count or rule fails here, before pygame starts
    rows, cols = options.board.rows, options.board.cols
    if options.hover is not None and not (
        0 <= options.hover[0] < rows and 0 <= options.hover[1] < cols
    ):
        raise ValueError(f"--hover cell {options.hover} is off the {rows}x{cols} board")
    specs = agent_specs(options.agent)  # the chosen agent first
    session = GameSession(options.board, build_agent(specs[0]), options.seed)

    from eval.gui.app import Overlays, PlayApp

    try:
        app = PlayApp(
            session,
            specs,
            board_setups(options.board),
            autoplay=options.autoplay,
            speed=options.speed,
            overlays=Overlays(knowledge=options.knowledge, heat=options.heat),
            headless=options.headless,
            screenshot=options.screenshot,
            stop_after=options.moves,
        )
    except RuntimeError as err:  # pygame.error: no video device, no display
        raise RuntimeError(
            f"cannot open the window ({err}); without a display use --headless"
        ) from err
    if options.hover is not None:
        app.hover = app.cell_centre(options.hover)
    return app


def run_app(app: PlayApp, options: PlayOptions) -> int:
    """Run the window to its end, close it and print how the last game stands; the exit status."""
    try:
        status = app.run()
    finally:
        app.close()
    session = app.session
    if options.screenshot is not None:
        print(f"saved {options.screenshot}")
    print(
        f"game {session.game + 1} (seed {session.game_seed}): {session.outcome.name.lower()}, "
        f"{session.counts.reveals} moves, "
        + (
            f"{session.counts.ai} agent {session.move_kind}s"
            if session.move_kind
            else f"{session.counts.certain} certain, {session.counts.guessed} guessed"
        )
    )
    if app.message and app.message_is_error:
        print(app.message, file=sys.stderr)
    return status


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``mswp-play`` (and ``python -m eval.play``): exit status 2 on bad input."""
    try:
        options = parse_options(argv)
        app = open_app(options)
    except (ValueError, TypeError, FileNotFoundError, ImportError, RuntimeError) as err:
        return report_error(PROG, err)
    try:
        return run_app(app, options)
    except OSError as err:  # e.g. the screenshot's disk filled up while playing
        return report_error(PROG, err)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
