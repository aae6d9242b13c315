"""benchmarks/rollout_choice.py: bench_variant_swap's rollout variant (one step of policy
improvement at the player's look-ahead guesses): its settings, its choice rule, its candidates and
its moves on real Beginner positions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmark_scripts import load_benchmark

from agents.solver.agent import SolverAgent
from mswp_gym.constants import HIDDEN
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec

rollout_choice = load_benchmark("rollout_choice")
swap = load_benchmark("bench_hill_swap")


def test_parse_rollout__settings_and_other_variants() -> None:
    assert rollout_choice.parse_rollout("rollout:4:96:2") == rollout_choice.Rollout(4, 96, 2.0)
    assert rollout_choice.parse_rollout("rollout:2:1:0.5") == rollout_choice.Rollout(2, 1, 0.5)
    late = rollout_choice.Rollout(4, 96, 2.0, 0.9)
    assert rollout_choice.parse_rollout("rollout:4:96:2:0.9") == late
    assert rollout_choice.parse_rollout("extended") is None
    assert rollout_choice.parse_rollout("endgame:1:2:3") is None


@pytest.mark.parametrize(
    "variant",
    [
        "rollout",
        "rollout:4:96",
        "rollout:1:96:0",
        "rollout:4:0:0",
        "rollout:4:96:-1",
        "rollout:4:96:x",
        "rollout:4:96:nan",
        "rollout:4:96:inf",
        "rollout:a:96:0",
        "rollout:4:96:0:1.5",
        "rollout:4:96:0:-0.1",
        "rollout:4:96:0:x",
        "rollout:4:96:0:0.5:1",
    ],
)
def test_parse_rollout__bad_settings_are_one_line_naming_them(variant: str) -> None:
    with pytest.raises(ValueError) as raised:
        rollout_choice.parse_rollout(variant)
    assert str(raised.value) == (
        f"--variant {variant!r}: want rollout:CANDIDATES:LAYOUTS:MARGIN[:FROM] with CANDIDATES an "
        "integer >= 2, LAYOUTS an integer >= 1, MARGIN a number >= 0 and FROM a number in [0, 1]"
    )


@pytest.mark.parametrize(
    ("won", "margin", "best"),
    [
        # candidate 0 is the player's: a lead over it is needed, ties stay with it
        ([[1, 0, 1, 0], [1, 0, 1, 0]], 0.0, 0),
        ([[1, 0, 1, 0], [1, 1, 1, 0]], 0.0, 1),
        # the largest lead wins, the earlier candidate on equal leads
        ([[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0]], 0.0, 2),
        # a lead of 1 on 1 differing layout is z = 1: enough for margin 1, not for 1.5
        ([[1, 0, 1, 0], [1, 1, 1, 0]], 1.0, 1),
        ([[1, 0, 1, 0], [1, 1, 1, 0]], 1.5, 0),
        # a lead of 2 on 4 differing layouts (3 won against 1) is z = 1
        ([[1, 1, 0, 0, 0], [0, 1, 1, 1, 1]], 1.0, 1),
        ([[1, 1, 0, 0, 0], [0, 1, 1, 1, 1]], 1.01, 0),
        # a candidate that passes the margin beats a larger lead that does not
        ([[0] * 6, [1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0]], 0.0, 2),
    ],
)
def test_best_by_rollouts__largest_lead_past_the_margin(
    won: list[list[int]], margin: float, best: int
) -> None:
    as_bools = [[bool(x) for x in row] for row in won]
    assert rollout_choice.best_by_rollouts(as_bools, margin) == best


def test_rollout_candidates__ours_first_without_repeats_or_mirror_images() -> None:
    # a 4x4 board with one revealed clue in the middle of the left edge is symmetric top to
    # bottom: (0, 3) and (3, 3) are mirror images of each other, as are (1, 1) and (2, 1)
    board = np.full((4, 4), HIDDEN, dtype=np.int8)
    board[1:3, 0] = 1

    def cell(row: int, col: int) -> int:
        return row * 4 + col

    ranked = [cell(0, 3), cell(3, 3), cell(0, 3), cell(2, 1), cell(1, 1), cell(0, 2)]
    got = rollout_choice.rollout_candidates(board, cell(1, 1), ranked, 4)
    assert got == [cell(1, 1), cell(0, 3), cell(0, 2)]
    assert rollout_choice.rollout_candidates(board, cell(1, 1), ranked, 2) == got[:2]


def _beginner_guesses(games: int) -> list[tuple[object, object, np.ndarray, np.ndarray, str]]:
    """The default player's guesses in Beginner games 0..games-1 of seed 0 (safe), with the
    position's board and mask and why the player chose its cell there."""
    setting, spec, first = swap.rule_setting("beginner", "safe")
    dealt = swap.deals(setting, first, 0, games)
    found = []
    for deal in dealt:
        for position in swap.record_positions(spec, [deal]):
            env = MinesweeperEnv(layout=deal.layout, max_steps=None)
            env.reset(seed=deal.seed)
            for click in position.clicks:
                env.step(click)
            agent = SolverAgent()
            agent.reset(deal.seed, spec)
            assert agent.act(env.visible, env.action_masks()) == position.ours
            reason = str(agent.explain().move.reason)
            found.append((deal, position, env.visible.copy(), env.action_masks(), reason))
    return found


def test_bench_variant_swap__runs_the_rollout_variant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bench = load_benchmark("bench_variant_swap")
    out = tmp_path / "r"
    argv = ["--variant", "rollout:2:4:0", "--preset", "beginner", "--player", "solver"]
    bench.main([*argv, "--games", "12", "--layouts", "4", "--out", str(out)])
    printed = capsys.readouterr().out
    positions = (out / "positions.txt").read_text().splitlines()[1:]
    moves = (out / "moves.txt").read_text().splitlines()
    assert len(moves) == len(positions) >= 4
    assert f"{len(positions)} guesses of our solver after the first click; rollout:2:4:0 asked" in (
        printed
    )


def test_rollout_move__silent_where_the_player_is_sure_deterministic_elsewhere() -> None:
    spec = GameSpec(9, 9, 10, "safe")
    guesses = _beginner_guesses(30)  # game 29's second guess is the endgame search's
    reasons = {reason for *_, reason in guesses}
    assert {"endgame", "guess"} <= reasons
    asked = 0
    for deal, position, board, mask, reason in guesses:
        legal = mask.astype(bool)
        args = (board, legal, spec, deal.seed, position, ())
        quick = rollout_choice.Rollout(3, 6, 0.0)
        cell = rollout_choice.rollout_move(*args, quick)
        if reason != "guess":  # the endgame search or a forced guess: the variant is silent
            assert cell is None
            continue
        asked += 1
        if asked > 4:
            continue
        assert rollout_choice.rollout_move(*args, quick) == cell  # same seed, same choice
        # no candidate leads by a billion standard errors
        assert rollout_choice.rollout_move(*args, rollout_choice.Rollout(3, 6, 1e9)) is None
        # before the share FROM of the safe cells is open the variant plays as the player does
        share = np.count_nonzero(board >= 0) / (81 - 10)
        assert rollout_choice.rollout_move(*args, rollout_choice.Rollout(3, 6, 0.0, share)) == cell
        later = rollout_choice.Rollout(3, 6, 0.0, share + 0.01)
        assert rollout_choice.rollout_move(*args, later) is None
        if cell is not None:
            assert legal[cell] and cell != position.ours
            assert not swap.mirror_equivalent(board, cell, position.ours)
    assert asked >= 4
