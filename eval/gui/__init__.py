"""The parts of the ``mswp-play`` window: options, agent menu, game session, layout, widgets, app.

Only :mod:`eval.gui.app` and :mod:`eval.gui.widgets` touch pygame; the game session and the
options are plain Python, so they are tested without a display.
"""
