"""The SB3 VecEnv adapter: masks through sb3-contrib, SB3 autoreset conventions, MaskablePPO."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from gymnasium.vector import AutoresetMode
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecMonitor

from mswp_gym.constants import HIDDEN
from mswp_gym.vector import MinesweeperVectorEnv
from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """Tiny networks on a shared 2-core box: more threads only contend."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_sb3_vec__masks_reach_sb3_contrib_as_a_stacked_array() -> None:
    venv = MinesweeperSB3VecEnv(4, rows=4, cols=5, mines=3)
    venv.seed(0)
    venv.reset()
    assert is_masking_supported(venv)
    masks = get_action_masks(venv)
    assert masks.shape == (4, 20) and masks.dtype == bool and masks.all()
    venv.step(np.array([0, 1, 2, 3]))
    masks = get_action_masks(venv)
    np.testing.assert_array_equal(masks, venv.venv.action_masks())
    assert not masks[np.arange(4), [0, 1, 2, 3]].any()
    assert venv.env_method("action_masks", indices=[2])[0].shape == (20,)
    with pytest.raises(AttributeError, match="render"):
        venv.env_method("render")


def test_sb3_vec__finished_boards_reset_in_the_same_step_with_terminal_observation() -> None:
    venv = MinesweeperSB3VecEnv(64, rows=3, cols=3, mines=7, first_click="any")
    venv.seed(3)
    venv.reset()
    obs, rewards, dones, infos = venv.step(np.zeros(64, dtype=np.int64))
    assert rewards.dtype == np.float32 and dones.dtype == bool
    assert dones.sum() > 30  # 7 mines on 9 cells: cell 0 is usually a mine
    for i in np.flatnonzero(dones):
        assert (obs[i] == HIDDEN).all()
        assert infos[i]["terminal_observation"].shape == (3, 3)
        assert infos[i]["TimeLimit.truncated"] is False
        assert infos[i]["layout"].shape == (3, 3)
        assert isinstance(infos[i]["is_success"], bool)
    for i in np.flatnonzero(~dones):
        assert "terminal_observation" not in infos[i]


def test_sb3_vec__truncation_is_reported_as_a_timeout() -> None:
    venv = MinesweeperSB3VecEnv(2, rows=6, cols=6, mines=1, max_steps=1)
    venv.reset()
    _, _, dones, infos = venv.step(np.array([0, 35]))
    for i in range(2):
        assert dones[i]
        assert infos[i]["TimeLimit.truncated"] == (infos[i]["outcome"] == 0)


def test_sb3_vec__seeded_resets_are_reproducible() -> None:
    def first_obs() -> np.ndarray:
        venv = MinesweeperSB3VecEnv(3, rows=5, cols=5, mines=4)
        venv.seed(11)
        venv.reset()
        return venv.step(np.array([12, 12, 12]))[0]

    np.testing.assert_array_equal(first_obs(), first_obs())


def test_sb3_vec__rejects_a_next_step_venv_and_mixed_arguments() -> None:
    with pytest.raises(ValueError, match="same-step"):
        MinesweeperSB3VecEnv(venv=MinesweeperVectorEnv(2))
    with pytest.raises(ValueError, match="not both"):
        MinesweeperSB3VecEnv(
            venv=MinesweeperVectorEnv(2, autoreset_mode=AutoresetMode.SAME_STEP), rows=4
        )
    with pytest.raises(ValueError, match="autoreset_mode"):
        MinesweeperSB3VecEnv(2, autoreset_mode="NextStep")


def test_sb3_vec__from_id_builds_the_registered_board() -> None:
    venv = MinesweeperSB3VecEnv.from_id("Minesweeper-Expert-v0", num_envs=2)
    assert venv.observation_space.shape == (16, 30)
    assert venv.action_space.n == 480


@pytest.mark.usefixtures("one_torch_thread")
def test_sb3_vec__maskable_ppo_trains_on_it_and_never_picks_a_masked_action() -> None:
    venv = VecMonitor(MinesweeperSB3VecEnv(16, rows=5, cols=5, mines=3))
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=16,
        batch_size=64,
        n_epochs=1,
        seed=0,
        verbose=0,
        policy_kwargs={"net_arch": [32]},
    )
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    assert len(model.ep_info_buffer) > 0  # episodes finished and were counted by VecMonitor
    obs = venv.reset()
    for _ in range(20):
        masks = get_action_masks(venv)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=False)
        assert masks[np.arange(16), actions].all()
        obs, _, _, _ = venv.step(actions)


def test_sb3_adapter__takes_the_clue_models_and_a_config() -> None:
    from mswp_gym.config import GameConfig

    venv = MinesweeperSB3VecEnv(3, clue_reveal_prob=0.5, clue_noise="cautious")
    assert venv.venv.game_spec.clue_noise == "cautious"
    venv.reset()
    venv.step(np.full(3, 40))
    configured = MinesweeperSB3VecEnv(2, config=GameConfig(5, 5, 3, clue_noise="optimistic"))
    assert configured.venv.config.clue_noise == "optimistic"
