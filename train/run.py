"""One training run, start to finish: naming, seeding, imitation, PPO, evaluation, checkpoints.

Run folder ``<out>/<board>__<algo>__<seed>__<UTC time>/`` (``<board>`` is the preset's name, or
``ROWSxCOLSxMINES`` for a custom board): ``state.json`` (a :class:`train.state.RunState`, with the
settings) + checkpoint files (see :mod:`train.checkpoint`), ``curve.csv`` (win rate against wall
time and steps), ``tb/`` (TensorBoard) and ``progress.csv`` (SB3's log, appended across resumes).

A checkpoint is committed when the model is built, after every DAgger round and every PPO
evaluation. A resumed run keeps its saved settings and continues bit-identically (``vec_env``
``dummy`` or ``native``, no time budget; ``subproc`` restarts the episodes in progress).
"""

from __future__ import annotations

import shutil
import zipfile
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO

from agents import registry
from common.atomic import check_output_folder, first_missing, remove_stale_temporaries
from common.workers import WORKER_DIED, check_ray_address
from mswp_gym.presets import preset
from train.arguments import resumed_settings
from train.bandit import Bandit
from train.checkpoint import (
    RuntimeFromOtherCode,
    commit,
    damaged,
    kill_point,
    load_model,
    read_model,
    resolve_checkpoint,
    restore_runtime,
    run_lineage,
    write_lineage,
)
from train.dagger import Imitation
from train.device import resolve_device
from train.evaluate import evaluate_net
from train.generalist import board_tag, parse_boards
from train.policy import BoardPolicy, start_from
from train.ppo import PPO, build_model, make_vec_env, schedules
from train.session import Phase, Run, baseline_comparison, baselines, game_spec, training_boards
from train.settings import (
    REWARD_ONLY,
    Algorithm,
    TrainSettings,
    VecEnvKind,
    flat_values,
    saved_settings,
)
from train.state import RunState, read_state

PHASES: dict[Algorithm, tuple[Phase, ...]] = {
    Algorithm.IMITATION: (Imitation(),),
    Algorithm.BANDIT: (Bandit(),),
    Algorithm.PPO: (PPO(),),
    Algorithm.IMITATION_PPO: (Imitation(), PPO()),
}
"""Each algorithm's phases, in the order a run goes through them."""


def board_label(settings: TrainSettings) -> str:
    """``boardsN`` for a mix of N boards, the preset's name for its board, else
    ``ROWSxCOLSxMINES``."""
    if settings.boards:
        return f"boards{len(parse_boards(settings.boards, settings.first_click))}"
    base = preset(settings.preset)
    if settings.board == (base.rows, base.cols, base.mines):
        return base.name
    return board_tag(game_spec(settings))


def run_name(settings: TrainSettings, now: datetime) -> str:
    """``board__algo__seed__time`` (see :func:`board_label`)."""
    return f"{board_label(settings)}__{settings.algo}__{settings.seed}__{now:%Y%m%d-%H%M%S}"


def eval_command(settings: TrainSettings, model_path: Path) -> str:
    """The ``python -m eval`` line comparing the checkpoint with logic and solver agents; it is
    named ``rl:`` only when its whole lineage learned from reward alone."""
    base = preset(settings.preset)
    where = []
    for spec in training_boards(settings):
        if (spec.rows, spec.cols, spec.mines) == (base.rows, base.cols, base.mines):
            where.append(f"--preset {settings.preset}")
        else:
            where.append(f"--rows {spec.rows} --cols {spec.cols} --mines {spec.mines}")
    init = registry.shipped_name(settings.init) or ("" if not settings.init else "a file")
    reward_only = settings.algo in REWARD_ONLY and (not init or init.startswith("rl:"))
    agents_list = f"{'rl' if reward_only else 'net'}:{model_path},logic,logic:global,solver"
    return " ; ".join(
        f"python -m eval --agents {agents_list} {board} --first-click "
        f"{settings.first_click} --games 2000"
        for board in dict.fromkeys(where)
    )


def read_init(checkpoint: str) -> MaskablePPO:
    """The ``--init`` checkpoint (a zip, a run folder or a shipped name).

    Raises:
        FileNotFoundError: nothing at ``checkpoint``.
        ValueError: not a readable checkpoint.
    """
    return load_model(resolve_checkpoint(checkpoint))


def phase_after_resume(settings: TrainSettings, state: RunState) -> str:
    """The phase a resumed run continues in: a finished run whose target was raised reopens its
    latest phase with work left."""
    if state.phase != "done":
        return state.phase
    later_first = reversed(PHASES[Algorithm(settings.algo)])
    return next((p.name for p in later_first if p.unfinished(settings, state)), "done")


def open_run(settings: TrainSettings) -> tuple[TrainSettings, Path, RunState, MaskablePPO | None]:
    """Check everything a run needs (the settings, ``--out``, ``--init``, the Ray address, or a
    resumed run's files), creating nothing; returns the settings to run with, the folder, its
    state and the ``--init`` checkpoint (if any).

    Raises:
        FileNotFoundError / ValueError: one line each, before any folder is created.
    """
    if settings.resume:
        run_dir = Path(settings.resume)
        state = read_state(run_dir)
        saved = saved_settings(state.settings)
        settings, notices = resumed_settings(saved, flat_values(settings))
        for notice in notices:
            print(notice, flush=True)
        removed = remove_stale_temporaries(run_dir)
        if removed:
            print(
                f"removed {len(removed)} temporary file(s) a killed save left: "
                f"{', '.join(p.name for p in removed)}",
                flush=True,
            )
        missing = [name for name in state.files() if not (run_dir / name).is_file()]
        if missing:
            raise FileNotFoundError(
                f"run {str(run_dir)!r} is damaged: its state names missing files {missing}"
            )
        check_run_files(run_dir, state)
        return settings, run_dir, state, None
    settings.check()
    out = check_output_folder(settings.out, create=False)
    source = read_init(settings.init) if settings.init else None
    if settings.backend == "ray" and settings.ray_address:
        check_ray_address(settings.ray_address)
    run_dir = out / run_name(settings, datetime.now(UTC))
    if run_dir.exists():
        raise ValueError(f"{str(run_dir)!r} exists already; start the run again in a second")
    phase = PHASES[Algorithm(settings.algo)][0].name
    state = RunState(name=run_dir.name, settings=settings.to_dict(), phase=phase)
    return settings, run_dir, state, source


def train(settings: TrainSettings) -> Path:
    """Run (or resume) one training run; returns its folder.

    Raises:
        FileNotFoundError / ValueError: bad settings, output folder, ``--init`` or ``--resume``
            folder, found before any folder is created or any work is done.
    """
    settings, run_dir, state, source = open_run(settings)
    resumed = bool(settings.resume)
    made = None if resumed else first_missing(run_dir)  # the folders this run creates
    try:
        if made is not None:
            check_output_folder(run_dir)
        return _train(settings, run_dir, state, source, resumed)
    except BaseException as exc:
        committed = (run_dir / "state.json").is_file()
        if made is not None and not committed:
            shutil.rmtree(made, ignore_errors=True)  # nothing to resume: leave no junk folder
        if isinstance(exc, KeyboardInterrupt) and committed:
            raise RunInterrupted(run_dir) from None
        if isinstance(exc, BrokenProcessPool):
            raise RunWorkerDied(run_dir if committed or resumed else None) from None
        raise


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run that has a committed checkpoint (``run_dir``: its folder)."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(f"interrupted: resume with --resume {run_dir}")
        self.run_dir = run_dir


class RunWorkerDied(BrokenProcessPool):
    """A collection worker was killed mid-round (``run_dir``: the run to resume, if any)."""

    def __init__(self, run_dir: Path | None) -> None:
        then = (
            f"the run keeps its last checkpoint: resume with python -m train --resume {run_dir}"
            if run_dir is not None
            else "nothing was kept: start the run again"
        )
        super().__init__(f"{WORKER_DIED}; {then}")


def check_run_files(run_dir: Path, state: RunState) -> None:
    """Refuse a run whose model fails :func:`~train.checkpoint.read_model` or whose zip files
    (the model, the positions) fail ``zipfile.testzip``.

    Raises:
        ValueError: naming the file and what to do.
    """
    for name in sorted(state.files()):
        if name.endswith((".zip", ".npz")):
            try:
                if name == state.model_file:  # sizes and settings before testzip reads it all
                    read_model(run_dir / name)
                with zipfile.ZipFile(run_dir / name) as archive:
                    bad = archive.testzip()
            except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
                raise damaged(run_dir / name, exc) from None
            if bad is not None:
                raise damaged(run_dir / name, ValueError(f"member {bad!r} fails its checksum"))


def open_model(run: Run, source: MaskablePPO | None) -> MaskablePPO:
    """The run's model on fresh envs: the last checkpoint's (with its runtime state), or a new one
    (from ``source`` for ``--init``), checkpointed at once."""
    settings, state, run_dir = run.settings, run.state, run.run_dir
    env = make_vec_env(settings, run.spec)
    if not state.model_file:
        model = build_model(settings, run.spec, env, run_dir / "tb")
        if source is not None:
            run.say(start_from(model, source, settings.init))
        run.checkpoint(model, "start")
        return model
    try:
        model = load_model(
            run_dir / state.model_file, env, resolve_device(settings.device), schedules(settings)
        )
    except ValueError as exc:
        env.close()
        raise damaged(run_dir / state.model_file, exc) from None
    model.tensorboard_log = str(run_dir / "tb")
    if state.runtime_file:
        try:
            restore_runtime(run_dir / state.runtime_file, model)
        except RuntimeFromOtherCode as exc:
            run.say(
                f"warning: {exc}; this sitting starts fresh episodes (the model, optimizer and "
                f"step count go on; the run is no longer bit-identical to one sitting)"
            )
        except Exception as exc:  # garbage unpickles into anything, or fails anyhow
            raise damaged(run_dir / state.runtime_file, exc) from None
    elif state.phase == "ppo" and settings.ppo.vec_env == VecEnvKind.SUBPROC:
        run.say(
            "notice: vec_env subproc keeps its envs in worker processes, which a checkpoint "
            "does not save: this sitting starts fresh episodes, so the run is not bit-identical "
            "to one sitting"
        )
    return model


def _train(
    settings: TrainSettings,
    run_dir: Path,
    state: RunState,
    source: MaskablePPO | None,
    resumed: bool,
) -> Path:
    kill_point(0)
    state.settings = settings.to_dict()
    if resumed:
        state.phase = phase_after_resume(settings, state)
    run = Run(settings, run_dir, state)
    run.say(
        f"run {run_dir} ({'resumed' if resumed else 'new'}), board "
        f"{run.spec.board} first_click={run.spec.first_click}"
    )

    # ---- seeding: the one place randomness is set up --------------------------------------
    th.set_num_threads(settings.torch_threads)
    th.manual_seed(settings.seed)
    rng = np.random.default_rng(settings.seed)  # layouts, exploration, minibatches (imitation)
    if state.rng_state is not None:
        rng.bit_generator.state = state.rng_state
    # PPO's env and sampling seeds come from MaskablePPO(seed=settings.seed) (SB3's own seeding);
    # a resume puts back the envs and the torch/NumPy/random states saved with the checkpoint.
    # -----------------------------------------------------------------------------------------

    model = open_model(run, source)
    try:
        baselines(run)
        phases = PHASES[Algorithm(settings.algo)]
        for phase, following in zip(phases, (*phases[1:], None), strict=True):
            if state.phase != phase.name or run.sitting_over():
                continue
            phase.train(run, model, rng)
            if following is not None and not run.out_of_time() and not run.sitting_over():
                state.phase = following.name
                run.checkpoint(model, following.entry_tag)
        if run.sitting_over() and not run.out_of_time() and state.phase != "done":
            run.say(
                f"sitting over after {settings.sitting_minutes:g} minutes at the last "
                f"checkpoint: continue with python -m train --resume {run_dir}"
            )
            return run_dir
        policy = model.policy
        assert isinstance(policy, BoardPolicy)
        if state.phase != "done":
            run.evaluate(policy, "final", {})
            state.phase = "done"
            run.checkpoint(model, "final")
        if settings.final_eval_games and (
            state.final_eval is None or state.final_eval["games"] != settings.final_eval_games
        ):
            result = evaluate_net(
                policy.cell_net_copy(), run.spec, settings.final_eval_games, settings.opening_weight
            )
            state.final_eval = {
                "wins": result.wins,
                "games": result.games,
                "win_rate": result.rate,
                "interval": list(result.interval),
            }
            run.say(f"final evaluation: {result}{baseline_comparison(run, result.games)}")
            write_lineage(run.run_dir / state.model_file, run_lineage(state))
            commit(run.run_dir, state)
        run.say(f"done: {run_dir / state.model_file}")
        run.say(f"compare it: {eval_command(settings, run_dir / state.model_file)}")
    finally:
        env = model.get_env()
        if env is not None:
            env.close()
        run.logger.close()
    return run_dir
