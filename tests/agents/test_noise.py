"""Agents under the CS520 report's uncertain clues: bounded inference, noisy posterior,
soundness."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import agents
from agents.logic.bounded import BoundedKnowledge, clue_bounds
from agents.logic.indexed import IndexedMinesweeperAI
from agents.solver.noise.agent import NoisySolverAgent
from agents.solver.noise.probability import likelihood, noisy_analysis
from mswp_gym import MinesweeperEnv
from mswp_gym.cells import neighbours
from mswp_gym.constants import HIDDEN, NO_CLUE
from mswp_gym.spec import GameSpec

NOISES = ("exact", "optimistic", "cautious")


# ---------------------------------------------------------------- bounded sentences
def test_clue_bounds__follow_the_model() -> None:
    assert clue_bounds("exact", 2, 5) == (2, 2)
    assert clue_bounds("optimistic", 2, 5) == (2, 5)
    assert clue_bounds("optimistic", -1, 5) == (0, 5)
    assert clue_bounds("cautious", 7, 5) == (0, 5)
    assert clue_bounds("cautious", 1, 5) == (0, 1)
    with pytest.raises(ValueError, match="loud"):
        clue_bounds("loud", 1, 1)


def test_bounded_knowledge__cautious_zero_makes_neighbours_safe() -> None:
    kb = BoundedKnowledge(3, 3, "cautious")
    kb.add_knowledge((1, 1), 0)
    assert kb.safes == {(r, c) for r in range(3) for c in range(3)}
    assert not kb.mines


def test_bounded_knowledge__optimistic_zero_proves_nothing_and_full_proves_mines() -> None:
    kb = BoundedKnowledge(3, 3, "optimistic")
    kb.add_knowledge((0, 0), 0)
    assert kb.safes == {(0, 0)} and not kb.mines
    kb.add_knowledge((2, 2), 3)
    assert kb.mines == {(1, 1), (1, 2), (2, 1)}


def test_bounded_knowledge__subset_rule_bounds_the_difference() -> None:
    kb = BoundedKnowledge(1, 5, "exact")
    a, b, c, d = (0, 0), (0, 1), (0, 2), (0, 3)
    kb._add(frozenset({a, b}), 1, 2)  # A: 1..2 mines
    kb._add(frozenset({a, b, c, d}), 3, 3)  # B: exactly 3 -> B - A = {c, d} holds 1..2
    kb.infer()
    assert kb.bounds()[frozenset({c, d})] == (1, 2)
    kb._add(frozenset({c, d}), 2, 2)  # now {c, d} are mines and A holds exactly 1
    kb.infer()
    assert kb.mines == {c, d}
    assert kb.bounds()[frozenset({a, b})] == (1, 1)


def test_bounded_knowledge__cautious_bounds_alone_force_nothing() -> None:
    kb = BoundedKnowledge(2, 3, "cautious")
    kb.add_knowledge((0, 0), 1)  # {(0,1),(1,0),(1,1)} <= 1
    kb.add_knowledge((0, 1), 1)  # {(0,2),(1,0),(1,1),(1,2)} <= 1 (and (0,0) safe known)
    # nothing is forced: every cell could still be a mine, or safe
    assert not kb.mines
    assert kb.safes == {(0, 0), (0, 1)}


def test_bounded_knowledge__equals_cs50_on_exact_clues() -> None:
    rng = np.random.default_rng(0)
    for _ in range(30):
        layout = rng.random((6, 6)) < 0.2
        plain = IndexedMinesweeperAI(6, 6)
        bounded = BoundedKnowledge(6, 6, "exact")
        cells = [(r, c) for r in range(6) for c in range(6) if not layout[r, c]]
        rng.shuffle(cells)
        for cell in cells[:15]:
            count = sum(layout[n] for n in neighbours(cell, 6, 6))
            plain.add_knowledge(cell, count)
            bounded.add_knowledge(cell, count)
            assert bounded.mines == plain.mines
            assert bounded.safes == plain.safes


def test_bounded_knowledge__rejects_bad_noise_and_counts() -> None:
    with pytest.raises(ValueError, match="noise"):
        BoundedKnowledge(3, 3, "loud")
    kb = BoundedKnowledge(3, 3, "cautious")
    with pytest.raises(ValueError, match="count"):
        kb.add_knowledge((0, 0), 9)
    with pytest.raises(ValueError, match="off the"):
        kb.add_knowledge((5, 0), 1)


# ---------------------------------------------------------------- posterior
def brute_force(board: np.ndarray, noise: str, total: int) -> np.ndarray:
    """Posterior mine probability of each hidden cell by enumerating every layout."""
    rows, cols = board.shape
    hidden = [(r, c) for r in range(rows) for c in range(cols) if board[r, c] == HIDDEN]
    sums = np.zeros(len(hidden))
    norm = 0.0
    for chosen in itertools.combinations(range(len(hidden)), total):
        mine = np.zeros((rows, cols), dtype=bool)
        for i in chosen:
            mine[hidden[i]] = True
        w = 1.0
        for r in range(rows):
            for c in range(cols):
                if board[r, c] >= 0:
                    around = neighbours((r, c), rows, cols)
                    w *= likelihood(
                        noise, int(board[r, c]), int(sum(mine[n] for n in around)), len(around)
                    )
        norm += w
        for i in chosen:
            sums[i] += w
    out = np.full(rows * cols, np.nan)
    for i, (r, c) in enumerate(hidden):
        out[r * cols + c] = sums[i] / norm
    return out


@pytest.mark.parametrize("noise", ["optimistic", "cautious"])
def test_noisy_analysis__matches_brute_force_on_small_boards(noise: str) -> None:
    rng = np.random.default_rng(1)
    checked = 0
    for game in range(40):
        env = MinesweeperEnv(4, 4, 4, first_click="any", clue_noise=noise)
        obs, _ = env.reset(seed=game)
        for _ in range(int(rng.integers(2, 6))):
            legal = np.flatnonzero(env.action_masks())
            obs, _r, terminated, _t, _info = env.step(int(rng.choice(legal)))
            if terminated:
                break
        if terminated or (obs == -3).any():
            continue
        expected = brute_force(obs, noise, 4)
        got = noisy_analysis(obs, noise, 4, set(), set())
        assert not got.approximate
        hidden = obs.ravel() == HIDDEN
        np.testing.assert_allclose(got.probability[hidden], expected[hidden], atol=1e-9)
        for cell in got.safe:
            assert expected[cell] == 0.0
        for cell in got.mines:
            assert expected[cell] == 1.0
        checked += 1
    assert checked >= 10


# ---------------------------------------------------------------- soundness against the truth
def play_and_check(name: str, noise: str, prob: float, seed: int, **kwargs: object) -> None:
    env = MinesweeperEnv(
        7, 7, 8, first_click="any", clue_noise=noise, clue_reveal_prob=prob, score_mode=True
    )
    agent = agents.make(name, seed=seed, **kwargs)
    obs, info = env.reset(seed=seed)
    agent.reset(seed, env.game_spec)
    claims: list[tuple[set, set]] = []
    done = False
    while not done:
        obs, _r, terminated, truncated, info = env.step(agent.act(obs, env.action_masks()))
        explained = agent.explain()
        claims.append((set(explained.safe), set(explained.mines)))
        done = terminated or truncated
    layout = info["layout"]
    for safe, mines in claims:
        assert not any(layout[c] for c in safe), (
            f"{name} called a mine safe ({noise}, p={prob}, seed={seed})"
        )
        assert all(layout[c] for c in mines), (
            f"{name} called a safe cell a mine ({noise}, p={prob}, seed={seed})"
        )


@pytest.mark.parametrize("noise", NOISES)
@pytest.mark.parametrize("prob", [1.0, 0.5])
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [("local", {}), ("logic", {}), ("logic", {"guess": "global"}), ("solver-noise", {})],
)
def test_agents__never_deduce_wrongly_under_noise(
    name: str, kwargs: dict, noise: str, prob: float
) -> None:
    games = 4 if name == "solver-noise" else 12
    for seed in range(games):
        play_and_check(name, noise, prob, seed, **kwargs)


def test_logic_agent__uses_bounded_engine_only_for_uncertain_clues() -> None:
    agent = agents.make("logic", seed=0)
    board = np.full((5, 5), HIDDEN, dtype=np.int8)
    mask = np.ones(25, dtype=bool)
    agent.reset(0, GameSpec(5, 5, 3))
    agent.act(board, mask)
    assert isinstance(agent.ai, IndexedMinesweeperAI)
    agent.reset(0, GameSpec(5, 5, 3, clue_noise="cautious"))
    agent.act(board, mask)
    assert isinstance(agent.ai, BoundedKnowledge)


def test_solver__model_one_is_exact_no_clue_constrains_nothing() -> None:
    from agents.solver import mine_probabilities

    board = np.full((3, 3), HIDDEN, dtype=np.int8)
    board[1, 1] = NO_CLUE
    p = mine_probabilities(board, 2)
    hidden = board == HIDDEN
    np.testing.assert_allclose(p[hidden], 2 / 8)  # uniform over the 8 hidden cells
    assert np.isnan(p[1, 1])


def test_noisy_solver__delegates_to_the_exact_solver_on_exact_numbers() -> None:
    from agents.solver import SolverAgent

    for prob in (1.0, 0.5):
        env = MinesweeperEnv(8, 8, 10, clue_reveal_prob=prob)
        a, b = NoisySolverAgent(seed=3), SolverAgent(seed=3)
        obs, _ = env.reset(seed=3)
        a.reset(3, env.game_spec)
        b.reset(3, env.game_spec)
        done = False
        while not done:
            move = a.act(obs, env.action_masks())
            assert move == b.act(obs, env.action_masks())
            obs, _r, terminated, truncated, _ = env.step(move)
            done = terminated or truncated


def test_noisy_solver__explain_reports_approximate_and_risk() -> None:
    env = MinesweeperEnv(6, 6, 5, first_click="any", clue_noise="optimistic", score_mode=True)
    agent = agents.make("solver-noise", seed=0)
    obs, _ = env.reset(seed=0)
    agent.reset(0, env.game_spec)
    obs, *_ = env.step(agent.act(obs, env.action_masks()))
    agent.act(obs, env.action_masks())
    explained = agent.explain()
    assert explained.approximate in (True, False)
    assert explained.risk.shape == (6, 6)
    with pytest.raises(ValueError, match="noise_budget"):
        NoisySolverAgent(noise_budget=0)


def test_registry__solver_name_plays_noisy_clues_through_the_wrapper() -> None:
    agent = agents.make("solver", seed=0)
    assert isinstance(agent, NoisySolverAgent)
    play_and_check("solver", "cautious", 1.0, 0)


def test_bench_noise__plays_a_game_and_plots(tmp_path: object) -> None:
    from pathlib import Path

    from benchmark_scripts import load_benchmark

    module = load_benchmark("bench_noise")
    setting = module.Setting("p", 5, 5, 3, "optimistic", 1.0)
    _s, _label, _seed, score, won, _sec = module.play((setting, "logic", 0))
    assert 0.0 <= score <= 1.0 and isinstance(won, bool)
    row = {
        "sweep": "p",
        "rows": 5,
        "cols": 5,
        "mines": 3,
        "noise": "optimistic",
        "prob": 1.0,
        "agent": "logic",
        "score": {"estimate": score, "low": score, "high": score},
    }
    out = Path(str(tmp_path)) / "noise.png"
    module.plot([row], str(out))
    assert out.stat().st_size > 0
