"""Statistics of the evaluation: Wilson intervals, mean intervals, exact paired tests."""

from __future__ import annotations

import math

import pytest

from common.stats import (
    binomial_two_sided_p,
    mcnemar_exact,
    mean_interval,
    sign_test,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson, no correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval__matches_published_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    interval = wilson_interval(successes, trials)
    assert interval.estimate == pytest.approx(successes / trials)
    assert interval.low == pytest.approx(low, abs=6e-5)
    assert interval.high == pytest.approx(high, abs=6e-5)


def test_wilson_interval__contains_estimate_and_narrows_with_trials() -> None:
    small = wilson_interval(30, 100)
    large = wilson_interval(300, 1000)
    assert small.low < 0.3 < small.high
    assert large.high - large.low < small.high - small.low


@pytest.mark.parametrize(("successes", "trials"), [(1, 0), (-1, 5), (6, 5)])
def test_wilson_interval__rejects_bad_counts(successes: int, trials: int) -> None:
    with pytest.raises(ValueError, match=str(trials)):
        wilson_interval(successes, trials)


def test_mean_interval__normal_approximation() -> None:
    values = [1.0, 2.0, 3.0, 4.0]
    interval = mean_interval(values)
    half = 1.959963984540054 * math.sqrt((5 / 3) / 4)
    assert interval.estimate == 2.5
    assert interval.low == pytest.approx(2.5 - half)
    assert interval.high == pytest.approx(2.5 + half)
    assert mean_interval([7.0]).low == 7.0
    with pytest.raises(ValueError):
        mean_interval([])


@pytest.mark.parametrize(
    ("k", "n", "p"),
    [
        (0, 0, 1.0),
        (0, 5, 2 / 32),
        (5, 5, 2 / 32),
        (1, 10, 22 / 1024),
        (5, 10, 1.0),
        (3, 12, 2 * (1 + 12 + 66 + 220) / 4096),
    ],
)
def test_binomial_two_sided_p__exact_values(k: int, n: int, p: float) -> None:
    assert binomial_two_sided_p(k, n) == pytest.approx(p, rel=1e-12)


def test_binomial_two_sided_p__large_n_is_finite_and_tiny() -> None:
    p = binomial_two_sided_p(0, 2000)
    assert 0 < p < 1e-300 or p == 0.0
    assert binomial_two_sided_p(1000, 2000) == 1.0


def test_mcnemar_exact__counts_discordant_pairs() -> None:
    a = [True, True, True, False, False, True, False]
    b = [True, False, False, False, True, False, False]
    test = mcnemar_exact(a, b)
    assert (test.a_only, test.b_only, test.both, test.neither) == (3, 1, 1, 2)
    assert test.pairs == 7
    assert test.p_value == pytest.approx(binomial_two_sided_p(3, 4))
    assert test.p_value == pytest.approx(10 / 16)


def test_mcnemar_exact__is_symmetric_and_checks_lengths() -> None:
    a = [True] * 9 + [False] * 3
    b = [False] * 9 + [True] * 3
    assert mcnemar_exact(a, b).p_value == mcnemar_exact(b, a).p_value
    with pytest.raises(ValueError, match="length"):
        mcnemar_exact([True], [True, False])


def test_sign_test__drops_ties() -> None:
    test = sign_test([3, 5, 5, 1, 9], [2, 5, 7, 0, 8])
    assert (test.a_only, test.b_only, test.both) == (3, 1, 1)
    assert test.p_value == pytest.approx(binomial_two_sided_p(3, 4))
