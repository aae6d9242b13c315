"""Tests of the training package: tiny budgets on a 5x5 board, a few seconds each."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch as th

pytest.importorskip("sb3_contrib")

from tiny_training import TINY_RUN, assert_grown_network_plays_as_before, tweak

from mswp_gym.constants import HIDDEN
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec
from train import ppo, session
from train import run as run_module
from train.agent import PolicyAgent, load_ppo_agent
from train.arguments import read_toml, settings_from_args
from train.checkpoint import load_model, read_state
from train.dataset import load_positions, save_positions
from train.rollout import RolloutConfig, collect_positions

TINY = tweak(TINY_RUN, imitation__rounds=1, ppo__total_timesteps=128)


def tiny_run(tmp_path: Path, **changes: object) -> Path:
    settings = tweak(TINY, out=str(tmp_path), **changes).check()
    return run_module.train(settings)


def optimizer_tensors(model: object) -> list[th.Tensor]:
    state = model.policy.optimizer.state_dict()["state"]  # type: ignore[attr-defined]
    return [
        value
        for key in sorted(state)
        for value in state[key].values()
        if isinstance(value, th.Tensor)
    ]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_run(tmp_path_factory.mktemp("runs"), algo="imitation+ppo")


def test_train__smoke_run_writes_checkpoint_state_and_curve(finished_run: Path) -> None:
    state = read_state(finished_run)
    assert finished_run.name.startswith("5x5x3__imitation+ppo__0__")
    assert state.iteration == 1
    assert state.num_timesteps >= TINY.ppo.total_timesteps
    assert (finished_run / state.model_file).is_file()
    phases = [point["phase"] for point in state.curve]
    assert phases[0] == "imitation" and phases[-1] == "final" and "ppo" in phases
    assert (finished_run / "curve.csv").read_text().startswith("phase,iteration,wall_seconds")


def test_train__dagger_rounds_log_their_wall_time(finished_run: Path) -> None:
    with open(finished_run / "progress.csv") as handle:
        rows = [row for row in csv.DictReader(handle) if row.get("imitation/round_seconds")]
    assert len(rows) == 1, "one DAgger round"
    (row,) = rows
    parts = [float(row[f"imitation/{part}_seconds"]) for part in ("collection", "gradient")]
    assert all(value > 0.0 for value in parts) and sum(parts) <= float(
        row["imitation/round_seconds"]
    )


def test_checkpoint__save_load_round_trip_gives_same_actions(finished_run: Path) -> None:
    model = load_model(finished_run)
    again = load_model(finished_run / read_state(finished_run).model_file)
    boards = np.random.default_rng(0).integers(-1, 4, size=(16, 5, 5)).astype(np.int8)
    masks = boards.reshape(16, -1) == HIDDEN
    masks[:, 0] = True
    first, _ = model.predict(boards, deterministic=True, action_masks=masks)
    second, _ = again.predict(boards, deterministic=True, action_masks=masks)
    assert np.array_equal(first, second)
    for a, b in zip(
        model.policy.state_dict().values(), again.policy.state_dict().values(), strict=True
    ):
        assert th.equal(a, b)


@pytest.mark.parametrize("deterministic", [True, False])
def test_policy__never_chooses_a_masked_action(finished_run: Path, deterministic: bool) -> None:
    model = load_model(finished_run)
    rng = np.random.default_rng(1)
    for _ in range(20):
        masks = rng.random((32, 25)) < 0.2
        masks[np.arange(32), rng.integers(0, 25, 32)] = True
        boards = np.where(masks.reshape(32, 5, 5), HIDDEN, 1).astype(np.int8)
        actions, _ = model.predict(boards, deterministic=deterministic, action_masks=masks)
        assert masks[np.arange(32), actions].all()


def test_agent__plays_legal_moves_to_the_end(finished_run: Path) -> None:
    agent = load_ppo_agent(str(finished_run), seed=3, deterministic=False)
    env = MinesweeperEnv(5, 5, 3)
    observation, info = env.reset(seed=5)
    agent.reset(5, env.game_spec)
    done = False
    while not done:
        action = agent.act(observation, info["action_mask"])
        assert info["action_mask"][action] == 1
        observation, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    risk = agent.explain().risk
    assert risk.shape == (5, 5) and agent.explain().certain is False


def test_agent__wrong_board_size_is_a_clear_error(finished_run: Path) -> None:
    agent = load_ppo_agent(str(finished_run))
    with pytest.raises(ValueError, match="trained on 5x5 with 3 mines"):
        agent.reset(0, GameSpec(9, 9, 10))
    with pytest.raises(ValueError, match="shape"):
        agent.act(np.full((9, 9), HIDDEN, np.int8), np.ones(81, bool))


def test_agent__missing_or_corrupt_checkpoint_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nowhere\.zip"):
        load_ppo_agent(str(tmp_path / "nowhere.zip"))
    corrupt = tmp_path / "corrupt.zip"
    corrupt.write_bytes(b"not a zip at all")
    with pytest.raises(ValueError, match=r"corrupt\.zip"):
        load_ppo_agent(str(corrupt))
    with pytest.raises(TypeError, match="colour"):
        load_ppo_agent(str(corrupt), colour="red")


def test_agent__registry_builds_it_by_path(finished_run: Path) -> None:
    agents = pytest.importorskip("agents")
    agent = agents.make(f"ppo:{finished_run}")
    assert isinstance(agent, PolicyAgent)


def test_train__resume_after_interruption_keeps_steps_and_optimizer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt(self: ppo.PPOProgress) -> bool:
        if self.model.num_timesteps >= 100:
            raise KeyboardInterrupt
        return True

    monkeypatch.setattr(ppo.PPOProgress, "_on_step", interrupt)
    with pytest.raises(KeyboardInterrupt):
        tiny_run(tmp_path, algo="ppo", ppo__total_timesteps=256)
    monkeypatch.undo()
    (run_dir,) = tmp_path.iterdir()
    state = read_state(run_dir)
    assert state.num_timesteps == 64  # the checkpoint taken at the rollout start after 64 steps
    saved = load_model(run_dir)
    saved_optimizer = optimizer_tensors(saved)
    assert saved.num_timesteps == 64 and saved_optimizer

    loaded: list[object] = []
    original = run_module.load_model

    def spy(*args: object, **kwargs: object) -> object:
        model = original(*args, **kwargs)  # type: ignore[arg-type]
        loaded.append((model.num_timesteps, [t.clone() for t in optimizer_tensors(model)]))
        return model

    monkeypatch.setattr(run_module, "load_model", spy)
    resumed = run_module.train(
        tweak(TINY, algo="ppo", ppo__total_timesteps=256, resume=str(run_dir))
    )
    assert resumed == run_dir
    steps_at_load, optimizer_at_load = loaded[0]  # type: ignore[misc]
    assert steps_at_load == 64
    assert all(th.equal(a, b) for a, b in zip(optimizer_at_load, saved_optimizer, strict=True))
    final = read_state(run_dir)
    assert final.num_timesteps == 256
    assert final.name == run_dir.name


def test_train__imitation_resume_continues_the_rounds(tmp_path: Path) -> None:
    run_dir = tiny_run(tmp_path, algo="imitation")
    first = read_state(run_dir)
    run_module.train(tweak(TINY, algo="imitation", imitation__rounds=2, resume=str(run_dir)))
    second = read_state(run_dir)
    assert (first.iteration, second.iteration) == (1, 2)
    assert second.positions_seen > first.positions_seen
    assert [p["iteration"] for p in second.curve if p["phase"] == "imitation"] == [1, 2]


def test_rollout__labels_every_visited_position_on_its_hidden_cells() -> None:
    from train.network import BoardTrunk, CellNet

    net = CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 2, 1)).eval()
    spec = GameSpec(5, 5, 3)
    positions, stats = collect_positions(
        net, spec, 6, np.random.default_rng(0), RolloutConfig(labels="truth")
    )
    assert len(positions) == stats["positions"] >= 6
    assert np.array_equal(positions.mine_masks, positions.boards == HIDDEN)
    assert ((positions.mine_targets >= 0) & (positions.mine_targets <= 1)).all()
    # Revealed cells never carry a mine target of 1: the clicked cells were safe.
    assert not (positions.mine_targets[positions.boards >= 0] > 0).any()


def test_dataset__round_trip_and_bad_files(tmp_path: Path) -> None:
    from train.network import BoardTrunk, CellNet

    net = CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 2, 1)).eval()
    positions, _ = collect_positions(
        net, GameSpec(5, 5, 3), 3, np.random.default_rng(0), RolloutConfig(labels="truth")
    )
    path = tmp_path / "data.npz"
    save_positions(path, positions, {"rows": 5})
    again, meta = load_positions(path)
    assert meta["rows"] == 5 and again.boards.dtype == np.int8
    assert np.array_equal(again.mine_targets, positions.mine_targets)
    with pytest.raises(FileNotFoundError, match=r"missing\.npz"):
        load_positions(tmp_path / "missing.npz")
    (tmp_path / "bad.npz").write_bytes(b"junk")
    with pytest.raises(ValueError, match=r"bad\.npz"):
        load_positions(tmp_path / "bad.npz")


def test_settings__flags_config_and_errors(tmp_path: Path) -> None:
    settings = settings_from_args(
        [
            "--preset",
            "intermediate",
            "--seed",
            "7",
            "--eval-baselines",
            "false",
            "--algo",
            "imitation+ppo",
            "--ppo.total-timesteps",
            "1000",
        ]
    )
    assert settings.board == (16, 16, 40)
    assert (settings.seed, settings.eval_baselines) == (7, False)
    assert (settings.ppo.total_timesteps, settings.imitation.rounds) == (1000, 80)  # the recipe's
    config = tmp_path / "c.toml"
    config.write_text("channels = 8\n[imitation]\nlearning_rate = 0.5\n")
    from_file = settings_from_args(["--config", str(config)])
    assert (from_file.channels, from_file.imitation.learning_rate) == (8, 0.5)
    config.write_text("chanels = 8\n")
    with pytest.raises(ValueError, match="chanels"):
        read_toml(config)
    with pytest.raises(ValueError, match="'huge'"):
        settings_from_args(["--preset", "huge"])
    with pytest.raises(ValueError, match="'sac'"):
        settings_from_args(["--algo", "sac"])


def test_cli__bad_setting_exits_2_with_message(capsys: pytest.CaptureFixture[str]) -> None:
    from train.cli import main

    assert main(["--algo", "sac"]) == 2
    assert "sac" in capsys.readouterr().err


def test_cli__unknown_rewards_name_every_config(capsys: pytest.CaptureFixture[str]) -> None:
    from train.cli import main

    assert main(["--algo", "ppo", "--ppo.rewards", "bandit"]) == 2
    err = capsys.readouterr().err
    assert "'bandit'" in err and "shaped, sparse, per-reveal" in err


def test_run_state__is_json(finished_run: Path) -> None:
    state = json.loads((finished_run / "state.json").read_text())
    assert state["settings"]["rows"] == 5


def test_train__init_copies_the_network_to_any_board_and_rejects_another_shape(
    finished_run: Path, tmp_path: Path
) -> None:
    run_dir = tiny_run(
        tmp_path, algo="ppo", ppo__total_timesteps=0, init=str(finished_run), ppo__beta=50.0
    )
    source = load_model(finished_run).policy.state_dict()
    copied = load_model(run_dir).policy.state_dict()
    assert set(copied) == set(source)
    network = [key for key in source if not key.startswith("action_net.")]
    assert all(th.equal(copied[key], source[key]) for key in network)
    assert float(copied["action_net.log_beta"].exp()) == pytest.approx(50.0)  # the run's beta
    other_board = tiny_run(
        tmp_path / "board",
        algo="ppo",
        ppo__total_timesteps=0,
        rows=6,
        mines=4,
        init=str(finished_run),
    )
    moved = load_model(other_board).policy
    assert moved.board == (6, 5, 4)
    assert all(th.equal(moved.state_dict()[key], source[key]) for key in network)
    shapes = r"is a network of 4 channels x 1 blocks; this run builds 8 x 1: add --channels 4"
    with pytest.raises(ValueError, match=shapes):
        tiny_run(tmp_path / "other", algo="ppo", channels=8, init=str(finished_run))
    shallower = r"is a network of 4 channels x 1 blocks; this run builds 4 x 0: add --channels 4"
    with pytest.raises(ValueError, match=shallower):
        tiny_run(tmp_path / "shallower", algo="ppo", blocks=0, init=str(finished_run))


def test_init__a_deeper_network_starts_with_identity_blocks_and_plays_as_before(
    finished_run: Path, tmp_path: Path
) -> None:
    deeper = tiny_run(tmp_path, algo="ppo", ppo__total_timesteps=0, blocks=3)
    source, target = load_model(finished_run), load_model(deeper)
    note = run_module.start_from(target, source, "shallow")
    assert_grown_network_plays_as_before(target, source, note, "2 block(s) added as identities")
    added = target.policy.cell_net().trunk.blocks[2]
    assert not th.any(added.conv2.weight) and th.any(added.conv1.weight)


def test_agent__shipped_beginner_checkpoint_loads_by_name() -> None:
    agents = pytest.importorskip("agents")
    from train.checkpoint import SHIPPED_BEGINNER

    if not SHIPPED_BEGINNER.is_file():
        pytest.skip("no shipped checkpoint in this checkout")
    agent = agents.make("ppo")
    assert (agent.rows, agent.cols, agent.mines) == (9, 9, 10)
    env = MinesweeperEnv(9, 9, 10)
    result = agents.play_episode(env, agent, 0)
    assert result.steps >= 1


def test_cli__help_is_short_and_help_all_lists_every_setting_grouped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from train.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    short = capsys.readouterr().out
    assert len(short.splitlines()) <= 60
    assert "--time-budget-minutes" in short and "--board" in short and "--help-all" in short
    assert "--imitation.learning-rate" not in short and "--dagger-iterations" not in short
    with pytest.raises(SystemExit) as exit_info:
        main(["--help-all"])
    assert exit_info.value.code == 0
    full = capsys.readouterr().out
    assert "--ppo.total-timesteps" in full and "--imitation.learning-rate" in full
    assert "10%" in full and "--bandit.rounds" in full
    titles = [line for line in full.splitlines() if line and not line.startswith(" ")]
    starts = ("run, board, network", "[imitation]: DAgger", "[bandit]: reward alone", "[ppo]: ")
    assert [title for title in titles if title.startswith(starts)] == [
        "run, board, network and evaluation:",
        "[imitation]: DAgger, every position labelled by the exact solver:",
        titles[-2],
        "[ppo]: MaskablePPO on the env's reward:",
    ]


def test_cli__help_shows_the_values_of_the_preset_given(capsys: pytest.CaptureFixture[str]) -> None:
    from train.cli import main

    with pytest.raises(SystemExit):
        main(["--preset", "intermediate", "--help-all"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default 'net:intermediate', preset intermediate)" in text
    with pytest.raises(SystemExit):
        main(["--board", "10x10/15", "--help-all"])
    assert "(default '', defaults)" in " ".join(capsys.readouterr().out.split())


def test_settings__preset_trains_the_shipped_recipe_and_board_the_default_one() -> None:
    beginner = settings_from_args(["--preset", "beginner"])
    assert (beginner.init, beginner.channels, beginner.blocks) == ("net:intermediate", 48, 4)
    assert beginner.imitation.move_weight == 1.0
    board = settings_from_args(["--board", "10x12/20", "--seed", "3"])
    assert (board.board, board.init, board.algo, board.seed) == ((10, 12, 20), "", "imitation", 3)
    with pytest.raises(ValueError, match="expected ROWSxCOLS/MINES"):
        settings_from_args(["--board", "10by12"])


def test_settings__packaged_configs_load_by_name_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    quick = settings_from_args(["--config", "quickstart"])
    # a fixed amount of work, logged in rounds: no wall-clock budget
    assert (quick.time_budget_minutes, quick.imitation.rounds, quick.channels) == (0.0, 3, 32)
    assert settings_from_args(["--config", "train/configs/beginner_rl.toml"]).algo == "ppo"
    assert settings_from_args(["--config", "expert.toml"]).preset == "expert"
    with pytest.raises(FileNotFoundError, match="packaged configs: beginner, beginner_rl"):
        settings_from_args(["--config", "quickstrat"])


def test_run_progress__names_the_budget_instead_of_all_the_rounds(tmp_path: Path) -> None:
    state = run_module.RunState(name="r", settings={})
    budget = run_module.Run(replace(TINY, time_budget_minutes=2.0), tmp_path / "a", state)
    assert budget.progress(1, 60, "rounds").startswith("round 1, 0.0 of 2 budget minutes")
    plain = run_module.Run(TINY, tmp_path / "b", state)
    assert plain.progress(1, 60, "rounds") == "1/60 rounds"


def test_run_clock__sb3_table_shows_the_run_clock_not_the_phase_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = run_module.RunState(name="r", settings={}, wall_seconds=300.0)
    run = run_module.Run(TINY, tmp_path, state)
    written: list[dict[str, object]] = []
    monkeypatch.setattr(
        session.HumanOutputFormat, "write", lambda self, values, *rest: written.append(values)
    )
    session.RunClockOutput(run).write({"time/time_elapsed": 0, "x": 1}, {})
    assert written[0]["time/time_elapsed"] >= 300 and written[0]["x"] == 1  # type: ignore[operator]


@pytest.mark.parametrize(
    ("vec_env", "rewards"), [("dummy", "sparse"), ("native", "sparse"), ("native", "per-reveal")]
)
def test_make_vec_env__uses_the_reward_config_chosen(vec_env: str, rewards: str) -> None:
    from mswp_gym.rewards import RewardConfig

    expected = {"sparse": RewardConfig.sparse(), "per-reveal": RewardConfig.per_reveal()}
    settings = tweak(TINY, ppo__vec_env=vec_env, ppo__rewards=rewards).check()
    env = run_module.make_vec_env(settings, run_module.game_spec(settings))
    try:
        assert env.get_attr("rewards")[0] == expected[rewards]
    finally:
        env.close()


def test_linear_decay__follows_whichever_of_steps_and_budget_is_further() -> None:
    schedule = ppo.LinearDecay(1e-3, 0.0)
    assert schedule(0.5) == pytest.approx(5e-4)
    schedule.spent = 0.75
    assert schedule(0.5) == pytest.approx(2.5e-4)  # the time is further along
    assert schedule(0.1) == pytest.approx(1e-4)  # the steps are further along


def test_train__ppo_learning_rate_follows_the_wall_time_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every update sees three quarters of a (huge) budget spent, so the logged rate is a quarter
    # of the start until the steps' schedule falls below it: the last update, at progress 0.
    monkeypatch.setattr(run_module.Run, "wall_seconds", property(lambda self: 0.75 * 600_000.0))
    run_dir = tiny_run(
        tmp_path,
        algo="ppo",
        time_budget_minutes=10_000.0,
        ppo__lr_follows_budget=True,
        ppo__learning_rate=1e-3,
    )
    with (run_dir / "progress.csv").open() as handle:
        logged = [row.get("train/learning_rate", "") for row in csv.DictReader(handle)]
    rates = [float(rate) for rate in logged if rate]
    assert rates and rates == [pytest.approx(2.5e-4)] * len(rates)
    last_update = load_model(run_dir / "model-final.zip").policy.optimizer.param_groups[0]["lr"]
    assert last_update == pytest.approx(0.0)


def test_train__ppo_learning_rate_follows_the_steps_alone_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module.Run, "wall_seconds", property(lambda self: 0.75 * 600_000.0))
    # As if the schedule came from a sitting that followed a budget: the callback resets it.
    monkeypatch.setattr(ppo.LinearDecay, "spent", 0.75)
    run_dir = tiny_run(tmp_path, algo="ppo", time_budget_minutes=10_000.0, ppo__learning_rate=1e-3)
    with (run_dir / "progress.csv").open() as handle:
        logged = [row.get("train/learning_rate", "") for row in csv.DictReader(handle)]
    rates = [float(rate) for rate in logged if rate]
    assert rates[0] == pytest.approx(1e-3 / 2)  # the first update, half the 128 steps in
