"""Minesweeper for language models: the text protocol (:mod:`mswp_gym.text.protocol`) and
``Minesweeper-Text-v0`` (:class:`mswp_gym.text.env.TextMinesweeperEnv`)."""
