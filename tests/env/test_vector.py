"""MinesweeperVectorEnv: equivalence with the single env, seeding, autoreset, errors."""

from __future__ import annotations

import pickle
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import mswp_gym
from mswp_gym.constants import HIDDEN, Outcome
from mswp_gym.env import MinesweeperEnv
from mswp_gym.vector import MinesweeperVectorEnv

MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP]
CONFIGS: list[dict[str, Any]] = [
    {},
    {"obs_mode": "dict", "flag_actions": True, "max_steps": 12},
    {"first_click": "opening", "score_mode": True, "obs_mode": "channels"},
    {"first_click": "any", "rows": 16, "cols": 30, "mines": 99},
    {"rows": 5, "cols": 7, "mines": 6, "flood": "dense", "rewards": {"guess": -0.5, "win": 2.0}},
]


def assert_same(ours: Any, theirs: Any, where: str) -> None:
    """Equal values, dtypes and masks; info entries are compared where their ``_key`` is True."""
    if isinstance(ours, tuple):
        assert isinstance(theirs, tuple) and len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(a, b, f"{where}[{i}]")
    elif isinstance(ours, dict):
        assert set(ours) == set(theirs), (where, sorted(ours), sorted(theirs))
        for key, value in ours.items():
            if key.startswith("_"):
                np.testing.assert_array_equal(value, theirs[key], err_msg=f"{where}/{key}")
                continue
            mask = ours.get(f"_{key}")
            if isinstance(value, dict):
                assert_same(value, theirs[key], f"{where}/{key}")
            elif key == "final_obs":
                for i in np.flatnonzero(mask):
                    assert_same(value[i], theirs[key][i], f"{where}/final_obs[{i}]")
            else:
                ours_arr, theirs_arr = np.asarray(value), np.asarray(theirs[key])
                assert ours_arr.dtype == theirs_arr.dtype, (
                    where,
                    key,
                    ours_arr.dtype,
                    theirs_arr.dtype,
                )
                if mask is None:
                    np.testing.assert_array_equal(ours_arr, theirs_arr, err_msg=f"{where}/{key}")
                else:
                    np.testing.assert_array_equal(
                        ours_arr[mask], theirs_arr[mask], err_msg=f"{where}/{key}"
                    )
    else:
        ours_arr, theirs_arr = np.asarray(ours), np.asarray(theirs)
        assert ours_arr.dtype == theirs_arr.dtype, (where, ours_arr.dtype, theirs_arr.dtype)
        np.testing.assert_array_equal(ours_arr, theirs_arr, err_msg=where)


def pick_actions(masks: np.ndarray, n_actions: int, rng: np.random.Generator) -> np.ndarray:
    """Mostly a random legal action per board, sometimes any action (invalid moves too)."""
    if rng.random() < 0.15:
        return rng.integers(0, n_actions, masks.shape[0])
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_vector_env__matches_sync_vector_env_of_single_envs_step_by_step(
    mode: AutoresetMode, config: dict[str, Any]
) -> None:
    """Same seeds, same actions: the batch equals SyncVectorEnv over MinesweeperEnv, autoresets
    included."""
    num_envs = 6
    single_config = {k: v for k, v in config.items() if k != "flood"}
    ours = gym.make_vec(
        "Minesweeper-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        placement="generator",
        autoreset_mode=mode,
        **config,
    )
    theirs = gym.make_vec(
        "Minesweeper-v0",
        num_envs=num_envs,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode},
        **single_config,
    )
    assert isinstance(ours, MinesweeperVectorEnv)
    assert_same(ours.reset(seed=3), theirs.reset(seed=3), "reset")
    rng = np.random.default_rng(0)
    n_actions = int(ours.single_action_space.n)
    ended = 0
    waiting = np.zeros(num_envs, dtype=bool)  # boards whose next action only resets them
    for t in range(150):
        masks = ours.action_masks()
        expected = np.stack(theirs.call("action_masks"))
        expected[waiting] = True  # the batched env offers every action there (it is ignored)
        np.testing.assert_array_equal(masks, expected)
        actions = pick_actions(masks, n_actions, rng)
        result, expected = ours.step(actions), theirs.step(actions)
        for name, a, b in zip(
            ("obs", "reward", "terminated", "truncated", "info"), result, expected, strict=True
        ):
            assert_same(a, b, f"{name}@{t}")
        ended += int((result[2] | result[3]).sum())
        waiting = (result[2] | result[3]) if mode == AutoresetMode.NEXT_STEP else waiting
    assert ended > 5  # the comparison crossed many autoresets


@pytest.mark.parametrize("first_click", ["safe", "opening"])
def test_vector_env__batched_first_click_rules_hold(first_click: str) -> None:
    env = MinesweeperVectorEnv(
        300, 9, 9, 10 if first_click == "safe" else 60, first_click=first_click
    )
    env.reset(seed=1)
    clicks = np.random.default_rng(2).integers(0, 81, 300)
    obs, _rewards, _terminated, _, info = env.step(clicks)
    assert not (info["outcome"] == Outcome.LOST).any()
    first = obs.reshape(300, 81)[np.arange(300), clicks]
    assert (first >= 0).all()
    if first_click == "opening":
        assert (first == 0).all()
    assert (info["mines_left"] == env.mines).all()


def test_vector_env__any_rule_can_lose_on_the_first_click() -> None:
    env = MinesweeperVectorEnv(500, 4, 4, 8, first_click="any")
    env.reset(seed=0)
    _, rewards, terminated, _, info = env.step(np.zeros(500, dtype=np.int64))
    lost = info["outcome"] == Outcome.LOST
    assert 150 < lost.sum() < 350  # half the boards hold a mine at cell 0
    assert (rewards[lost] == -1.0).all() and terminated[lost].all()
    np.testing.assert_array_equal(info["_layout"], terminated)
    assert info["layout"][lost][:, 0, 0].all()


def test_vector_env__fixed_layout_stack_matches_single_envs() -> None:
    rng = np.random.default_rng(4)
    num = 5
    layouts = np.zeros((num, 36), dtype=bool)
    for layout in layouts:
        layout[rng.choice(36, size=6, replace=False)] = True
    layouts = layouts.reshape(num, 6, 6)
    env = MinesweeperVectorEnv(num, layout=layouts, autoreset_mode="SameStep")
    singles = [MinesweeperEnv(layout=layout) for layout in layouts]
    env.reset(seed=0)
    for single in singles:
        single.reset(seed=0)
    done_single = [False] * num
    for _ in range(20):
        actions = np.array([rng.integers(0, 36) for _ in range(num)])
        obs, rewards, terminated, _truncated, info = env.step(actions)
        for i, single in enumerate(singles):
            if done_single[i]:
                continue
            s_obs, s_reward, s_term, s_trunc, _s_info = single.step(int(actions[i]))
            done_single[i] = s_term or s_trunc
            assert rewards[i] == s_reward
            assert terminated[i] == s_term
            view = info["final_obs"][i] if done_single[i] else obs[i]
            np.testing.assert_array_equal(view, s_obs)


def test_vector_env__batched_seeding_is_reproducible_and_per_board() -> None:
    def run(first_board_actions: int) -> list[np.ndarray]:
        env = MinesweeperVectorEnv(3, 6, 6, 8, first_click="any", autoreset_mode="SameStep")
        env.reset(seed=42)
        layouts = []
        for t in range(60):
            actions = np.array([(t * 7 + first_board_actions) % 36, (t * 5) % 36, (t * 11) % 36])
            *_, info = env.step(actions)
            if "final_info" in info and info["final_info"]["_layout"][1]:
                layouts.append(info["final_info"]["layout"][1].copy())
        return layouts

    first, again, other = run(0), run(0), run(3)
    assert len(first) >= 3
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    # Board 1's games do not depend on what board 0 does.
    assert all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    assert not all(np.array_equal(first[0], x) for x in first[1:])


def test_vector_env__reset_seed_forms() -> None:
    env = MinesweeperVectorEnv(4, 5, 5, 5, first_click="any")
    env.reset(seed=7)
    by_int = env._boards.mines.copy()
    env.reset(seed=[7, 8, 9, 10])
    np.testing.assert_array_equal(env._boards.mines, by_int)
    env.reset(seed=None)
    assert not np.array_equal(env._boards.mines, by_int)  # the streams went on
    with pytest.raises(ValueError, match="num_envs=4"):
        env.reset(seed=[1, 2])
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed="abc")  # type: ignore[arg-type]


def test_vector_env__reset_mask_resets_only_chosen_boards() -> None:
    env = MinesweeperVectorEnv(3, 5, 5, 3, autoreset_mode="Disabled")
    env.reset(seed=0)
    env.step(np.array([0, 0, 0]))
    before = env.visible
    obs, info = env.reset(options={"reset_mask": np.array([False, True, False])})
    assert (obs[1] == HIDDEN).all()
    np.testing.assert_array_equal(obs[[0, 2]], before[[0, 2]])
    np.testing.assert_array_equal(info["_steps"], [False, True, False])
    with pytest.raises(TypeError, match="reset_mask"):
        env.reset(options={"reset_mask": [True, False, True]})


def test_vector_env__disabled_autoreset_refuses_finished_boards() -> None:
    env = MinesweeperVectorEnv(2, 3, 3, 8, first_click="any", autoreset_mode="Disabled")
    env.reset(seed=0)
    _, _, terminated, _, _ = env.step(np.array([0, 0]))
    assert terminated.all()  # 8 mines on 9 cells, cell 0: nearly always ends at once
    with pytest.raises(RuntimeError, match="reset_mask"):
        env.step(np.array([1, 1]))


def test_vector_env__next_step_autoreset_ignores_the_action_and_resets() -> None:
    env = MinesweeperVectorEnv(2, 3, 3, 8, first_click="any")
    env.reset(seed=5)
    _, _, terminated, _, _ = env.step(np.array([0, 0]))
    assert terminated.all()
    obs, rewards, terminated, truncated, info = env.step(np.array([1, 1]))
    assert (obs == HIDDEN).all() and (rewards == 0).all()
    assert not terminated.any() and not truncated.any()
    assert (info["steps"] == 0).all() and "layout" not in info


def test_vector_env__max_steps_truncates_and_reports_layouts() -> None:
    env = gym.make_vec(
        "Minesweeper-Expert-v0",
        num_envs=4,
        vectorization_mode="vector_entry_point",
        max_steps=1,
        first_click="opening",
    )
    env.reset(seed=0)
    _, _, terminated, truncated, info = env.step(np.array([0, 100, 200, 479]))
    assert not terminated.any() and truncated.all()
    assert info["layout"].shape == (4, 16, 30) and info["_layout"].all()


def test_make_vec__passes_kwargs_and_sets_metadata() -> None:
    env = gym.make_vec(
        "Minesweeper-Intermediate-v0",
        num_envs=5,
        vectorization_mode="vector_entry_point",
        obs_mode="channels",
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    assert isinstance(env, MinesweeperVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.observation_space.shape == (5, 13, 16, 16)
    assert env.action_space == gym.spaces.MultiDiscrete([256] * 5)
    assert env.game_spec == mswp_gym.GameSpec(16, 16, 40, "safe", False)
    obs, _info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert MinesweeperVectorEnv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP


def test_vector_env__pickles_mid_game() -> None:
    env = MinesweeperVectorEnv(4, 6, 6, 5)
    env.reset(seed=1)
    env.step(np.array([0, 1, 2, 3]))
    copy = pickle.loads(pickle.dumps(env))
    actions = np.array([10, 11, 12, 13])
    assert_same(env.step(actions), copy.step(actions), "pickled")


def test_vector_env__renders_one_frame_per_board() -> None:
    env = MinesweeperVectorEnv(2, 3, 4, 2, render_mode="ansi")
    env.reset(seed=0)
    frames = env.render()
    assert frames is not None and len(frames) == 2 and all("####" in f for f in frames)
    rgb = MinesweeperVectorEnv(2, 3, 4, 2, render_mode="rgb_array")
    rgb.reset(seed=0)
    images = rgb.render()
    assert images is not None and images[0].ndim == 3


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"num_envs": 0}, ValueError, "num_envs"),
        ({"autoreset_mode": "Sometimes"}, ValueError, "Sometimes"),
        ({"placement": "magic"}, ValueError, "magic"),
        ({"mines": 81}, ValueError, "mines=81"),
        ({"obs_mode": "pixels"}, ValueError, "pixels"),
        ({"render_mode": "human"}, ValueError, "human"),
        ({"max_steps": 0}, ValueError, "max_steps"),
        ({"max_steps": 3, "max_episode_steps": 4}, ValueError, "disagree"),
        ({"rewards": 3}, TypeError, "rewards"),
        ({"num_envs": 2, "layout": np.zeros((3, 2, 2))}, ValueError, "num_envs=2"),
    ],
)
def test_vector_env__rejects_bad_arguments(kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        MinesweeperVectorEnv(**kwargs)


def test_vector_env__rejects_bad_actions() -> None:
    env = MinesweeperVectorEnv(3, 3, 3, 1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="3 integers"):
        env.step(np.array([0, 1]))
    with pytest.raises(ValueError, match="action 9 of board 2"):
        env.step(np.array([0, 1, 9]))
    with pytest.raises(ValueError, match=r"action 0\.5 of board 0 is not an integer"):
        env.step(np.array([0.5, 1, 2]))
    with pytest.raises(ValueError, match="action inf of board 1 is not an integer"):
        env.step(np.array([0, np.inf, 2]))
    with pytest.raises(ValueError, match="action 9223372036854775808 of board 0 is outside"):
        env.step(np.array([2**63, 0, 0], dtype=np.uint64))


@pytest.mark.parametrize("placement", ["batched", "generator"])
@pytest.mark.parametrize("first_click", ["safe", "opening"])
def test_vector_env__revealing_a_flag_first_does_not_spend_the_first_click(
    first_click: str, placement: str
) -> None:
    b = 512
    env = MinesweeperVectorEnv(
        b, 9, 9, 30, first_click=first_click, flag_actions=True, placement=placement
    )
    env.reset(seed=0)
    env.step(np.full(b, 81 + 40))
    _obs, _r, _t, _tr, info = env.step(np.full(b, 40))
    assert (info["invalid_actions"] == 1).all()
    _obs, _r, _t, _tr, info = env.step(np.zeros(b, dtype=np.int64))
    assert not (info["outcome"] == Outcome.LOST).any()


def test_vector_env__step_before_reset_raises() -> None:
    env = MinesweeperVectorEnv(2)
    with pytest.raises(RuntimeError, match="call reset\\(\\) before step\\(\\)"):
        env.step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize(
    ("prob", "noise"), [(0.6, "exact"), (1.0, "optimistic"), (0.8, "cautious")]
)
def test_vector_env__clue_models_match_single_envs(prob: float, noise: str) -> None:
    # placement="generator": board i plays exactly what MinesweeperEnv plays after reset(seed=s+i).
    b, seed = 4, 11
    kwargs = {"clue_reveal_prob": prob, "clue_noise": noise, "first_click": "safe"}
    venv = MinesweeperVectorEnv(b, 6, 6, 8, placement="generator", **kwargs)
    envs = [MinesweeperEnv(6, 6, 8, **kwargs) for _ in range(b)]
    obs, _ = venv.reset(seed=seed)
    for i, env in enumerate(envs):
        single, _ = env.reset(seed=seed + i)
        assert np.array_equal(obs[i], single)
    rng = np.random.default_rng(0)
    live = np.ones(b, dtype=bool)
    for _ in range(40):
        masks = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, _ = venv.step(actions)
        for i, env in enumerate(envs):
            if not live[i]:
                continue
            single, reward, term, trunc, _ = env.step(int(actions[i]))
            assert np.array_equal(obs[i], single) and reward == rewards[i]
            assert (term, trunc) == (terminated[i], truncated[i])
            live[i] = not (term or trunc)
        if not live.any():
            break


def test_vector_env__batched_clue_draws_are_reproducible_and_never_flood() -> None:
    def play(seed: int) -> np.ndarray:
        env = MinesweeperVectorEnv(
            8,
            9,
            9,
            10,
            first_click="opening",
            clue_reveal_prob=0.5,
            clue_noise="optimistic",
            autoreset_mode=AutoresetMode.DISABLED,
        )
        env.reset(seed=seed)
        _obs, _r, _t, _tr, info = env.step(np.full(8, 40))
        assert (info["cells_revealed"] == 1).all()  # an opening, but no flood fill
        obs, *_ = env.step(np.full(8, 41))
        return obs

    first = play(3)
    assert np.array_equal(first, play(3))
    assert (first == mswp_gym.NO_CLUE).any()
    assert ((first >= 0) & (first <= 8) | (first < 0)).all()


def test_vector_env__agrees_with_the_single_env_on_step_limits() -> None:
    assert MinesweeperVectorEnv(2, max_steps=np.int64(5)).max_steps == 5
    with pytest.raises(ValueError, match="got True"):
        MinesweeperVectorEnv(2, max_steps=True)
    with pytest.raises(ValueError, match="got True"):
        MinesweeperVectorEnv(2, max_episode_steps=True)


def test_vector_env__refuses_more_cells_in_all_than_the_limit_up_front() -> None:
    from mswp_gym.vector.vector_env import MAX_BATCH_CELLS

    with pytest.raises(ValueError, match=r"65 boards of 1,000,000 cells are 65,000,000 cells"):
        MinesweeperVectorEnv(65, rows=1000, cols=1000, mines=10)
    assert MAX_BATCH_CELLS >= 64 * 1000 * 1000  # 64 such boards are accepted


def test_vector_env__truth_is_the_layout_behind_the_visible_boards() -> None:
    env = MinesweeperVectorEnv(
        40, 6, 6, 8, first_click="safe", autoreset_mode=AutoresetMode.DISABLED
    )
    env.reset(seed=3)
    blank = env.truth()
    assert not blank.placed.any() and not blank.mines.any() and not blank.zeros.any()
    obs, *_ = env.step(np.full(40, 14))  # (2, 2): safe under the rule
    truth = env.truth()
    assert truth.placed.all()
    assert (truth.mines.reshape(40, -1).sum(axis=1) == 8).all()
    assert not truth.mines[:, 2, 2].any()
    padded = np.pad(truth.mines, ((0, 0), (1, 1), (1, 1))).astype(np.int64)
    around = sum(
        padded[:, 1 + dr : 7 + dr, 1 + dc : 7 + dc]
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    )
    np.testing.assert_array_equal(truth.zeros, ~truth.mines & (around == 0))
    shown = obs >= 0
    np.testing.assert_array_equal(obs[shown], around[shown])  # every clue the player sees
    truth.mines[:] = False  # a copy: the game is untouched
    assert env.truth().mines.any()
