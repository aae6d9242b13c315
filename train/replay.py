"""``python -m train.replay CHECKPOINT``: train the first round of the run that made a checkpoint
again, from its ``lineage.json``, and compare its evaluation with the recorded one.

A recipe takes hours; its first round takes minutes. The replay takes the recorded config with
one round, no PPO steps and no final evaluation, checks that ``init`` still names the recorded
parent (``--init`` gives the parent's file where the recorded path does not resolve), trains in
``--out`` and compares the first evaluation's wins. Only a run of imitation or
the bandit without a time budget replays exactly (with a budget the learning rate follows the
wall clock), on the code of the lineage's commit (``git worktree add``) where the code changed.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from common.cli import OneLineParser, report_error
from train.checkpoint import read_lineage, resolve_checkpoint
from train.settings import Algorithm, TrainSettings, saved_settings, with_values
from train.shards import file_sha256

PROG = "python -m train.replay"


@dataclass(frozen=True)
class Replay:
    """The recorded first evaluation of a run and the replayed one (curve points)."""

    recorded: dict[str, Any]
    replayed: dict[str, Any]

    @property
    def matches(self) -> bool:
        """Whether the replay won the same games of the same number."""
        keys = ("phase", "iteration", "wins", "games")
        return all(self.recorded.get(k) == self.replayed.get(k) for k in keys)


def replay_settings(lineage: dict[str, Any], out: str, init: str = "") -> TrainSettings:
    """The settings that replay the first round of ``lineage``'s run into ``out``, from ``init``
    (default: the recorded ``init``).

    Raises:
        ValueError: no first evaluation recorded, a run that cannot replay exactly, or an
            ``init`` whose file is not the recorded parent (one line each).
    """
    if not lineage.get("first_evaluation"):
        raise ValueError("its lineage records no first evaluation to compare a replay with")
    settings = saved_settings(lineage["config"])
    if settings.algo == Algorithm.PPO or settings.time_budget_minutes:
        raise ValueError(
            f"a run of algo {settings.algo} with a time budget of "
            f"{settings.time_budget_minutes:g} minutes does not replay exactly; replays take "
            f"imitation or bandit runs without a budget"
        )
    parent, init = lineage.get("parent_sha256"), init or settings.init
    if init and file_sha256(resolve_checkpoint(init)) != parent:
        raise ValueError(
            f"init {init!r} is not the recorded parent (SHA-256 {parent}): give the parent's "
            f"file with --init"
        )
    section = "bandit" if settings.algo == Algorithm.BANDIT else "imitation"
    changes: dict[str, Any] = {f"{section}.rounds": 1, "ppo.total_timesteps": 0}
    changes |= {"final_eval_games": 0, "sitting_minutes": 0.0, "eval_baselines": False}
    changes |= {"resume": "", "out": out, "init": init}
    return with_values(settings, changes).check()


def replay_first_round(checkpoint: str, out: str, init: str = "") -> Replay:
    """Replay the first round of the run that made ``checkpoint`` (see the module docstring).

    Raises:
        FileNotFoundError / ValueError: no such checkpoint, no lineage, or a run that cannot
            replay (one line each).
    """
    from train.run import train
    from train.state import read_state

    lineage = read_lineage(resolve_checkpoint(checkpoint))
    if lineage is None:
        raise ValueError(f"{checkpoint!r} holds no lineage.json")
    run_dir = train(replay_settings(lineage, out, init))
    return Replay(lineage["first_evaluation"], read_state(run_dir).curve[0])


def main(argv: list[str] | None = None) -> int:
    """Entry point: 0 when the replay matches the record, 1 when it does not, 2 on bad input."""
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="a shipped name, a zip or a run folder")
    parser.add_argument("--out", default="", help="parent folder of the replay (default: temp)")
    parser.add_argument("--init", default="", help="the parent's file (default: the recorded init)")
    args = parser.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            replay = replay_first_round(args.checkpoint, args.out or scratch, args.init)
    except (ValueError, FileNotFoundError) as exc:
        return report_error(PROG, exc)
    shown = [f"{p['wins']}/{p['games']}" for p in (replay.recorded, replay.replayed)]
    verdict = "the same" if replay.matches else "DIFFERENT"
    print(f"first evaluation: recorded {shown[0]}, replayed {shown[1]}: {verdict}")
    return 0 if replay.matches else 1


if __name__ == "__main__":
    sys.exit(main())
