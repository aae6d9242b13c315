"""Where a run's settings come from: TOML recipes, the command line and a resumed run's folder.

Precedence, lowest first: the dataclass defaults (:mod:`train.settings`), then a ``--config`` file
(a path or a packaged name) or else, without ``--board``, ``train/configs/<preset>.toml``, then
command-line flags (``--seed``, and ``--SECTION.FIELD`` for a section's field, e.g.
``--ppo.total-timesteps``; booleans take ``true``/``false``).

A recipe's top-level keys are the common fields and its ``[imitation]``, ``[bandit]`` and
``[ppo]`` tables the sections. A flat key of an earlier version is refused in one line naming its
place now, and so is a section the run's algo does not read.
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from common.cli import OneLineParser
from mswp_gym.presets import PRESETS, preset
from train.generalist import parse_boards
from train.settings import (
    COMMON_TYPES,
    MOVED,
    REWARD_ONLY,
    SECTION_TYPES,
    SECTIONS,
    Algorithm,
    Section,
    TrainSettings,
    field_docs,
    field_types,
    flat_values,
    from_nested,
    new_place,
    saved_settings,
    with_values,
)

CONFIG_DIR = Path(__file__).with_name("configs")


def packaged_configs() -> list[str]:
    """The names of the configs packaged in ``train/configs/``."""
    return sorted(path.stem for path in CONFIG_DIR.glob("*.toml"))


def config_file(text: str | Path) -> Path:
    """The config file ``text`` names: a path, or a packaged config by name (``quickstart``,
    ``beginner.toml``, ``train/configs/beginner.toml`` from any folder).

    Raises:
        FileNotFoundError: neither (the message lists the packaged names).
    """
    path = Path(text)
    if path.is_file():
        return path
    packaged = CONFIG_DIR / f"{path.stem}.toml"
    parent = path.parent.as_posix()
    if packaged.is_file() and path.suffix in ("", ".toml") and parent in (".", "train/configs"):
        return packaged
    raise FileNotFoundError(
        f"no config file at {str(path)!r}; packaged configs: {', '.join(packaged_configs())}"
    )


def read_toml(path: str | Path) -> dict[str, Any]:
    """A recipe's values, nested as in the file (top-level keys, or a ``[train]`` table holding
    them); ``path`` as :func:`config_file` takes it.

    Raises:
        FileNotFoundError: no such file.
        ValueError: unparsable TOML, an unknown key, or a flat key of an earlier version (named,
            with its place now).
    """
    path = config_file(path)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{str(path)!r} is not valid TOML: {exc}") from exc
    data = data.get("train", data)
    if not isinstance(data, dict):
        raise ValueError(f"[train] in {str(path)!r} is not a table")
    from_nested(data, repr(str(path)))  # the keys are known ones
    return data


def preset_config(name: str) -> dict[str, Any]:
    """The values of ``train/configs/<name>.toml`` (empty if there is no file)."""
    path = CONFIG_DIR / f"{name.lower()}.toml"
    return read_toml(path) if path.is_file() else {}


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


RESUME_OVERRIDES: tuple[str, ...] = (
    "time_budget_minutes",
    "sitting_minutes",
    "final_eval_games",
    "eval_baselines",
    "torch_threads",
    "device",
    "imitation.rounds",
    "imitation.precision",
    "bandit.rounds",
    "bandit.precision",
    "ppo.total_timesteps",
)
"""Settings a ``--resume`` may change (each change is printed); any other differing value is
refused, so a resumed run stays the run it was."""
RESUME_REFUSED: tuple[str, ...] = ("config", "init", "preset", "channels", "blocks", "out")
"""Flags refused outright with ``--resume`` (they define a new run, they cannot continue one)."""
IGNORED_ON_RESUME: tuple[str, ...] = ("resume", "out", "init")
"""Fields a resumed run takes from the folder, whatever the settings passed say."""


def shown(value: Any) -> str:
    """A setting's value as messages write it (a choice by its string)."""
    return repr(value.value if isinstance(value, StrEnum) else value)


def resumed_settings(
    saved: TrainSettings, requested: Mapping[str, Any]
) -> tuple[TrainSettings, list[str]]:
    """The settings of a resumed run: ``saved``, with the allowed changes of ``requested`` (values
    by the names of :func:`train.settings.flat_values`).

    Returns the settings to run with (``resume`` as requested) and a notice per changed value.

    Raises:
        ValueError: a requested value that may not change on resume (one line, naming it).
    """
    saved_values = flat_values(saved)
    changes: dict[str, Any] = {}
    notices = []
    for name, value in requested.items():
        unread = "." in name and name.partition(".")[0] not in saved.sections
        if name in IGNORED_ON_RESUME or saved_values.get(name) == value or unread:
            continue
        was = shown(saved_values.get(name))
        if name not in RESUME_OVERRIDES:
            raise ValueError(
                f"{flag(name)} cannot change on --resume (the run was saved with "
                f"{name}={was}, asked for {shown(value)}); with --resume only "
                f"{', '.join(flag(n) for n in RESUME_OVERRIDES)} may change"
            )
        changes[name] = value
        notices.append(f"--resume: {name} {was} -> {shown(value)} (overrides the saved setting)")
    changes["resume"] = str(requested.get("resume", ""))
    return with_values(saved, changes).check(), notices


def flag(name: str) -> str:
    """The command-line flag of a setting (``ppo.total_timesteps``: ``--ppo.total-timesteps``)."""
    return "--" + name.replace("_", "-")


ESSENTIAL: tuple[str, ...] = (
    "preset",
    "algo",
    "seed",
    "out",
    "time_budget_minutes",
    "init",
    "resume",
    "sitting_minutes",
    "device",
    "workers",
    "channels",
    "blocks",
    "first_click",
)
"""The settings ``--help`` shows; ``--help-all`` shows every one, a group per section."""
KINDS: dict[Any, Callable[[str], Any]] = {bool: _parse_bool, int: int, float: float}
"""How a flag's text becomes a field's value, by the field's type (any other: the string)."""


def build_parser(
    defaults: TrainSettings | None = None, source: str = "", full: bool = False
) -> argparse.ArgumentParser:
    """The CLI: one flag per setting, plus ``--config``, ``--board`` and ``--help-all``.

    ``defaults`` are the values the help shows (from ``source``, e.g. ``preset intermediate``);
    ``full`` helps every setting, a group for the common ones and one per section, else the first
    sentence of the :data:`ESSENTIAL` ones.
    """
    shown_values = flat_values(defaults if defaults is not None else TrainSettings())
    parser = OneLineParser(
        prog="mswp-train",
        description="Train a learned Minesweeper agent: DAgger imitation of the exact solver, "
        "MaskablePPO or a bandit on the env's reward, with a fully-convolutional policy. Quick "
        "start: mswp-train --config quickstart",
        epilog=None if full else "More options: mswp-train --help-all",
    )
    parser.add_argument("--help-all", action="store_true", help="show every option, grouped")
    parser.add_argument(
        "--config",
        default=None,
        help=f"TOML file of settings, or a packaged one by name ({', '.join(packaged_configs())})",
    )
    parser.add_argument(
        "--board",
        default=None,
        help="ROWSxCOLS/MINES, e.g. 16x30/99: train on this board with the default recipe "
        "(no preset file)",
    )
    where = f", {source}" if source else ""
    groups: list[tuple[str, str, dict[str, Any], dict[str, str]]] = [
        ("run, board, network and evaluation", "", COMMON_TYPES, field_docs(TrainSettings))
    ]
    for section in Section:
        kind = SECTION_TYPES[section]
        title = (kind.__doc__ or "").split(": ", 1)[-1].split(". ")[0].rstrip(".")
        groups.append((f"[{section}]: {title}", f"{section}.", field_types(kind), field_docs(kind)))
    for title, prefix, types, docs in groups:
        target: Any = parser.add_argument_group(title) if full else parser
        for key, kind in types.items():
            name = prefix + key
            doc, default = docs.get(key, ""), shown(shown_values[name])
            if full:
                text = f"{doc} (default {default}{where})"
            elif name in ESSENTIAL:
                text = f"{doc.split('. ')[0].rstrip('.')} (default {default})"
            else:
                text = argparse.SUPPRESS
            target.add_argument(
                flag(name),
                dest=name,
                type=KINDS.get(kind, str),
                default=None,
                help=text.replace("%", "%%"),
            )
    for old in MOVED:  # the flags of earlier versions: refused, naming their place now
        parser.add_argument(flag(old), dest=f"moved:{old}", default=None, help=argparse.SUPPRESS)
    return parser


def drop_other_sections(values: dict[str, Any], algo: Algorithm) -> list[str]:
    """Remove from a recipe's nested ``values`` the sections ``algo`` does not read, and for
    reward alone an ``init`` that is not an ``rl:`` network; returns what went, as
    ``name=value``."""
    dropped = []
    for section in Section:
        if section not in SECTIONS[algo] and section in values:
            dropped += [f"{section}.{k}={shown(v)}" for k, v in values.pop(section).items()]
    init = str(values.get("init", ""))
    if algo in REWARD_ONLY and init and not init.startswith("rl:"):
        dropped.append(f"init={shown(values.pop('init'))}")
    return dropped


def check_sections_read(settings: TrainSettings, given: Mapping[str, Any], where: str) -> None:
    """Refuse a value ``given`` (or a recipe's) in a section the run's algo does not read.

    Raises:
        ValueError: one line naming the setting and the sections the algo reads.
    """
    for name, value in given.items():
        section = name.partition(".")[0] if "." in name else ""
        if section and section not in settings.sections:
            reads = ", ".join(f"[{s}]" for s in settings.sections)
            raise ValueError(
                f"{name}={shown(value)}{where} belongs to [{section}], which algo "
                f"{settings.algo} does not read (it reads {reads})"
            )


def board_values(text: str, first_click: str) -> dict[str, int]:
    """``rows``, ``cols`` and ``mines`` of a ``--board ROWSxCOLS/MINES``.

    Raises:
        ValueError: not one board of that form, or one the first-click rule cannot play.
    """
    boards = parse_boards(text, first_click)
    if len(boards) != 1:
        raise ValueError(f"--board takes one board ROWSxCOLS/MINES, got {text!r}")
    return {"rows": boards[0].rows, "cols": boards[0].cols, "mines": boards[0].mines}


def help_defaults(argv: list[str] | None) -> tuple[TrainSettings | None, str]:
    """The values the help should show: the dataclass defaults with the ``--config`` file, or
    else the file of the preset named in ``argv`` (default beginner; none with ``--board``),
    applied; None when those cannot be read (the real parse then reports the problem)."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--preset", default=TrainSettings.preset)
    early.add_argument("--config", default=None)
    early.add_argument("--board", default=None)
    known, _ = early.parse_known_args(argv)
    if str(known.preset).lower() not in PRESETS:
        return None, ""
    try:
        values = (
            read_toml(known.config)
            if known.config
            else ({} if known.board else preset_config(known.preset))
        )
        shown_settings = from_nested(values)
    except (ValueError, FileNotFoundError, TypeError, OSError):
        return None, ""
    if known.config:
        return shown_settings, f"config {known.config}"
    return shown_settings, "defaults" if known.board else f"preset {known.preset}"


def settings_from_args(argv: list[str] | None = None) -> TrainSettings:
    """Parse ``argv`` into checked settings (see the module docstring for precedence).

    With ``--resume DIR``: the run's saved settings, through :func:`resumed_settings`.

    Raises:
        ValueError / FileNotFoundError: a bad value or config file, a flag of an earlier version
            or one refused with ``--resume``, named.
    """
    defaults, source = help_defaults(argv)
    args = vars(build_parser(defaults, source).parse_args(argv))
    if args.pop("help_all"):
        build_parser(defaults, source, full=True).print_help()
        raise SystemExit(0)
    config_path = args.pop("config")
    board = args.pop("board")
    moved = [key.partition(":")[2] for key, value in args.items() if key.startswith("moved:")]
    moved = [old for old in moved if args[f"moved:{old}"] is not None]
    given = {k: v for k, v in args.items() if v is not None and not k.startswith("moved:")}
    if "resume" in given:
        refused = [flag(n) for n in RESUME_REFUSED if n in given or (n == "config" and config_path)]
        refused += ["--board"] if board else []
        if refused:
            raise ValueError(
                f"{', '.join(refused)} cannot be used with --resume: a resumed run "
                f"keeps its saved settings (allowed with --resume: "
                f"{', '.join(flag(n) for n in RESUME_OVERRIDES)})"
            )
        from train.state import read_state

        saved = saved_settings(read_state(given["resume"]).settings)
        refuse_moved(moved, saved.algo)
        return resumed_settings(saved, given)[0]
    name = given.get("preset", TrainSettings.preset)
    if name.lower() not in PRESETS:
        preset(name)
    values: dict[str, Any] = (
        read_toml(config_path) if config_path else ({} if board else preset_config(name))
    )
    recipe_algo = str(values.get("algo", TrainSettings.algo))
    algo = Algorithm(from_nested({"algo": given.get("algo", recipe_algo)}).algo)
    refuse_moved(moved, algo)
    if algo != recipe_algo:
        dropped = drop_other_sections(values, algo)
        if dropped:
            shown_dropped = ", ".join(dropped)
            print(f"--algo {algo} over a recipe of algo {recipe_algo}: dropped {shown_dropped}")
    settings = with_values(from_nested(values), given)
    tables = {
        f"{k}.{n}": v for k, t in values.items() if isinstance(t, Mapping) for n, v in t.items()
    }
    check_sections_read(settings, tables, " (from the recipe)")
    check_sections_read(settings, given, "")
    if board:
        settings = with_values(settings, board_values(board, settings.first_click.value))
    return settings.check()


def refuse_moved(moved: list[str], algo: str) -> None:
    """Refuse the first flag of an earlier version in ``moved``, naming its flag now.

    Raises:
        ValueError: one line.
    """
    if moved:
        raise ValueError(f"{flag(moved[0])} is now {flag(new_place(moved[0], algo))}")
