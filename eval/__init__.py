"""Evaluation: play any agents on the same seeded boards and compare them with statistics.

``python -m eval`` / ``mswp-eval`` is the command line (:mod:`eval.cli`); ``python -m eval.demo``
the README's main job; :mod:`eval.evaluate` is one call for a whole evaluation.
"""
