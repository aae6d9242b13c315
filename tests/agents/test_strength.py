"""Strength pinned: each shipped network, the solver and ``logic:global`` on seeded games.

Each test plays ``n`` games (base seed 3: neither the validation nor the test set) and fails when
the wins fall below a floor: the smallest ``k`` with ``P(Binomial(n, p) <= k) >= 0.001``, where
``p`` is the published win rate of that cell (2000 games or more, ``python -m eval --seed 0``,
results/). A player as strong as published falls below its floor with probability under 0.1%
(the false alarm); one that lost a third of its win rate falls below it far more often (the
power is stated per case). ``n`` keeps each test near 15 s of one core; on Expert that is a few
dozen games, so the Expert networks' tests catch a collapse, not a loss of a third.
"""

from __future__ import annotations

import pytest
from scipy.stats import binom

from eval.agent_specs import parse_agent_spec
from eval.config import EvalConfig
from eval.runner import run
from eval.settings import build_settings

FALSE_ALARM = 1e-3
SEED = 3

CASES = [
    # agent, preset, games, published win rate under safe (record)
    ("logic:global", "intermediate", 500, 0.638),  # results/learned.md
    ("solver", "intermediate", 400, 0.7831),  # results/solver.md, 40,000 games
    ("net:beginner", "beginner", 400, 0.915),  # results/learned.md
    ("net:intermediate", "intermediate", 80, 0.738),  # results/learned.md
    ("net:expert", "expert", 25, 0.296),  # results/learned.md
    ("net:generalist", "beginner", 250, 0.910),  # results/learned.md
    ("rl:beginner", "beginner", 300, 0.870),  # results/rl.md
    ("rl:intermediate", "intermediate", 160, 0.642),  # results/rl.md
    ("rl:expert", "expert", 70, 0.160),  # results/rl.md
]


def floor(games: int, published: float) -> int:
    """The fewest wins a player as strong as ``published`` reaches but with chance FALSE_ALARM."""
    return int(binom.ppf(FALSE_ALARM, games, published))


@pytest.mark.parametrize(
    ("agent", "preset", "games", "published"), CASES, ids=[c[0] for c in CASES]
)
def test_strength__wins_stay_above_the_published_figures_floor(
    agent: str, preset: str, games: int, published: float
) -> None:
    if agent.partition(":")[0] in ("net", "rl"):
        pytest.importorskip("torch")
    lowest = floor(games, published)
    assert binom.cdf(lowest - 1, games, published) <= FALSE_ALARM  # the false-alarm chance
    setting = build_settings([preset], None, None, None, None, "safe", False)[0]
    result = run(EvalConfig((parse_agent_spec(agent),), (setting,), games, SEED))
    wins = sum(record.won for record in result.records)
    power = binom.cdf(lowest - 1, games, published * 2 / 3)
    assert wins >= lowest, (
        f"{agent} won {wins} of {games} {setting.label} games, under the floor {lowest} of its "
        f"published {published:.1%} (a false alarm has chance {FALSE_ALARM}; a player at two "
        f"thirds of that strength is caught with chance {power:.2f})"
    )
