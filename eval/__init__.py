"""Evaluation: play any agents on the same seeded boards and compare them with statistics.

``python -m eval`` / ``mswp-eval`` is the command line (:mod:`eval.cli`); ``python -m eval.demo``
the README's main job. Modules, one job each:

* :mod:`eval.agent_specs`: agent spec strings (``logic:global``, ``net:expert``) to ``agents.make``.
* :mod:`eval.settings`: board settings (presets, custom boards, density sweeps).
* :mod:`eval.pairing`: coupled first-click generators, so every agent meets the same board.
* :mod:`eval.config`: the run's configuration and its game seeds.
* :mod:`eval.games`: play a chunk of seeded games, one flat record per game.
* :mod:`eval.backends`: where chunks run (this process, local processes, Ray).
* :mod:`eval.runner`: validation up front, chunking, sorting the records.
* :mod:`eval.stats`: Wilson intervals, mean intervals, exact McNemar and sign tests.
* :mod:`eval.summary`: records to per-agent figures and paired comparisons.
* :mod:`eval.report`: terminal tables, results.json, games.csv.
* :mod:`eval.knowledge`, :mod:`eval.plots`: the knowledge chart and the PNG plots.
* :mod:`eval.evaluate`: one call for all of the above.
* :mod:`eval.cs520`: the CS520 report's Table 2 setting and figures.
"""
