"""The statistics of an evaluation: rate intervals, mean intervals and exact paired tests."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy.stats import binomtest

Z_95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


@dataclass(frozen=True)
class Interval:
    """A point estimate with a two-sided 95% interval."""

    estimate: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float]:
        """``{"estimate", "low", "high"}`` for JSON."""
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> Interval:
    """The Wilson score interval for a binomial proportion.

    Returns the observed rate with its interval (``z``: the normal quantile), within ``[0, 1]``.

    Raises:
        ValueError: ``trials < 1`` or ``successes`` outside ``[0, trials]``.
    """
    if trials < 1:
        raise ValueError(f"a rate needs at least one trial, got trials={trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes={successes} is outside [0, trials={trials}]")
    confidence = math.erf(z / math.sqrt(2))  # the two-sided level of the quantile z
    ci = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    low = 0.0 if successes == 0 else max(0.0, float(ci.low))
    high = 1.0 if successes == trials else min(1.0, float(ci.high))
    return Interval(successes / trials, low, high)


def wilson_bounds(successes: int, trials: int) -> tuple[float, float]:
    """``(low, high)`` of :func:`wilson_interval`; ``(0.0, 1.0)`` when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    interval = wilson_interval(successes, trials)
    return interval.low, interval.high


def mean_interval(values: Sequence[float], z: float = Z_95) -> Interval:
    """The sample mean with a normal-approximation interval ``mean +- z * sd / sqrt(n)``.

    With one value the interval is the point itself (no spread can be estimated).

    Raises:
        ValueError: ``values`` is empty.
    """
    n = len(values)
    if n == 0:
        raise ValueError("the mean of no values is undefined")
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half)


def binomial_two_sided_p(k: int, n: int) -> float:
    """Exact two-sided p-value of ``k`` successes in ``n`` fair coin flips (the sign test).

    Raises:
        ValueError: ``n < 0`` or ``k`` outside ``[0, n]``.
    """
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 1.0
    return min(1.0, float(binomtest(k, n, 0.5).pvalue))


@dataclass(frozen=True)
class PairedTest:
    """An exact McNemar test of two agents on the same seeds.

    ``a_only`` counts the seeds ``a`` won and ``b`` lost, ``b_only`` the reverse; seeds both won
    or both lost carry no information about which is better.
    """

    a_only: int
    b_only: int
    both: int
    neither: int
    p_value: float

    @property
    def pairs(self) -> int:
        """Number of seeds compared."""
        return self.a_only + self.b_only + self.both + self.neither

    def as_dict(self) -> dict[str, float | int]:
        """Every count and the p-value, for JSON."""
        return {
            "a_only": self.a_only,
            "b_only": self.b_only,
            "both": self.both,
            "neither": self.neither,
            "pairs": self.pairs,
            "p_value": self.p_value,
        }


def mcnemar_exact(a_won: Sequence[bool], b_won: Sequence[bool]) -> PairedTest:
    """The exact two-sided McNemar test on paired win/loss results.

    ``a_won``, ``b_won``: per seed, whether each agent won (the same seeds in the same order).

    Raises:
        ValueError: the sequences differ in length.
    """
    if len(a_won) != len(b_won):
        raise ValueError(f"paired results differ in length: {len(a_won)} vs {len(b_won)}")
    a_only = sum(1 for a, b in zip(a_won, b_won, strict=True) if a and not b)
    b_only = sum(1 for a, b in zip(a_won, b_won, strict=True) if b and not a)
    both = sum(1 for a, b in zip(a_won, b_won, strict=True) if a and b)
    neither = len(a_won) - a_only - b_only - both
    return PairedTest(a_only, b_only, both, neither, binomial_two_sided_p(a_only, a_only + b_only))


def sign_test(a_values: Sequence[float], b_values: Sequence[float]) -> PairedTest:
    """The exact two-sided sign test on paired scores (ties dropped), shaped like McNemar's.

    ``a_only`` counts the seeds where ``a`` scored higher, ``b_only`` where ``b`` did,
    ``both`` the ties; ``neither`` is always 0.

    Raises:
        ValueError: the sequences differ in length.
    """
    if len(a_values) != len(b_values):
        raise ValueError(f"paired results differ in length: {len(a_values)} vs {len(b_values)}")
    a_higher = sum(1 for a, b in zip(a_values, b_values, strict=True) if a > b)
    b_higher = sum(1 for a, b in zip(a_values, b_values, strict=True) if b > a)
    ties = len(a_values) - a_higher - b_higher
    return PairedTest(
        a_higher, b_higher, ties, 0, binomial_two_sided_p(a_higher, a_higher + b_higher)
    )
