"""Upper bounds on training settings: a run that cannot fit is refused before it starts.

Sizes are refused by an estimate of the bytes the setting makes a run hold at once, against
:data:`MEMORY_LIMIT`; the message names the setting, the estimate and the largest value that fits
this board. The estimates are upper bounds of the arrays that grow with the setting, not of the
whole process.
"""

from __future__ import annotations

from collections.abc import Mapping

GIB = 2**30
MEMORY_LIMIT = 16 * GIB
"""The most bytes one setting may make a run hold (positions, games in play, a rollout)."""
MAX_CHANNELS = 1024
"""Most feature maps per convolution (a 3-block network of this width has 57M weights)."""
MAX_BLOCKS = 64
"""Most residual blocks."""
MAX_WORKERS = 256
"""Most collection jobs per round (each a process)."""
POSITION_BYTES = 11
"""Bytes per cell of one labelled position (:mod:`train.dataset`: int8 board, two float32
targets, two bool masks)."""
GAME_BYTES = 16_384
"""Bytes of one env in play, besides its network activations."""
ROLLOUT_BYTES = 8
"""Bytes per cell of one PPO rollout step (float32 observation and action mask)."""


def check_limits(board: tuple[int, int, int], values: Mapping[str, object]) -> None:
    """Refuse settings whose run cannot fit (see the module docstring).

    ``values``: the settings by name (``SECTION.FIELD`` for a section's, as
    :func:`train.settings.flat_values` gives them).

    Raises:
        ValueError: one line naming the setting, its limit and the largest value allowed.
    """
    counts = {name: value for name, value in values.items() if type(value) is int}
    for name, most in (
        ("channels", MAX_CHANNELS),
        ("blocks", MAX_BLOCKS),
        ("workers", MAX_WORKERS),
    ):
        if counts[name] > most:
            raise ValueError(f"{name} must be at most {most}, got {counts[name]}")
    rows, cols, mines = board
    cells = rows * cols
    # every layer's activations of one game, kept for backpropagation: two per block, stem, head
    activations = cells * counts["channels"] * 4 * (2 * counts["blocks"] + 4)
    per_unit = {
        # a round's games visit at most one position per safe cell
        "games_per_round": cells * (cells - mines) * POSITION_BYTES,
        # an evaluation plays all its games at once
        "eval_games": GAME_BYTES + activations,
        "final_eval_games": GAME_BYTES + activations,
        "batch_size": activations,
        "n_envs": GAME_BYTES + activations + counts.get("ppo.n_steps", 0) * cells * ROLLOUT_BYTES,
    }
    for name, value in counts.items():
        each = per_unit.get(name.rpartition(".")[2], 0)
        if value * each > MEMORY_LIMIT:
            raise ValueError(
                f"{name}={value} needs about {value * each / GIB:,.0f} GiB on a {rows}x{cols} "
                f"board, over the {MEMORY_LIMIT // GIB} GiB limit: at most {MEMORY_LIMIT // each:,}"
            )


DATA_BYTES = 64 * 2**20
"""Most bytes of a checkpoint zip's ``data`` member (its settings, spaces and small buffers)."""
SMALL_BYTES = 2**20
"""Most bytes of a checkpoint zip's other members, and the slack of the weights' sizes."""


def check_members(sizes: Mapping[str, int], weights: int, where: str) -> None:
    """Refuse (one line) a checkpoint zip by its members' declared ``sizes``, given ``weights``,
    the bytes of the network its settings describe."""
    bounds = {"data": (0, DATA_BYTES), "policy.pth": (weights // 2, weights + SMALL_BYTES)}
    bounds["policy.optimizer.pth"] = (0, 2 * weights + SMALL_BYTES)
    bounds["all members"] = (0, DATA_BYTES + 4 * weights + 8 * SMALL_BYTES)
    for name, size in {**sizes, "all members": sum(sizes.values())}.items():
        low, high = bounds.get(name, (0, SMALL_BYTES))
        if not low <= size <= high:
            raise ValueError(
                f"{where} declares {name} of {size:,} bytes, where a checkpoint of its kind "
                f"holds {low:,} to {high:,}"
            )
