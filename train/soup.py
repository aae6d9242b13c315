"""Average the weights of networks of one architecture into one network (a "model soup").

Networks fine-tuned from one start (``ppo:expert`` and the networks trained on from it, or from the
generalist it came from) tend to lie in one basin of the loss, where the average of their weights
can play better than either (Wortsman et al. 2022, "Model soups"). The soup is one network: it
costs what each of them costs to run, where an ensemble (the agent's ``ensemble`` option) runs
every network. For ``ppo:expert`` with its two relatives it played level with ``ppo:expert``
(docs/train.md, the Expert section).

``python -m train.soup --out SOUP.zip expert out/models/other.zip`` writes the average (shipped
names or checkpoint files; ``--weights 3,1`` for a weighted one). The result is a checkpoint like
any other (``agents.make("ppo:SOUP.zip")``): the first network's settings, stored mine count and
optimizer state, with every weight replaced by the weighted mean over the networks. Bad input is
one line on stderr and exit status 2, before anything is written; the file is written atomically.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch as th

from mswp_gym.cli import OneLineParser, report_error

PROG = "python -m train.soup"


@dataclass(frozen=True)
class Ingredient:
    """One network of a soup and its share of the average."""

    source: str
    """A shipped name (``expert``, ``generalist``, ...) or a checkpoint file or run folder."""
    weight: float
    """Its weight in the mean, before the weights are scaled to sum to 1 (finite, >= 0)."""


def check_ingredients(ingredients: Sequence[Ingredient]) -> None:
    """Refuse a soup that cannot be made, naming the bad value.

    Raises:
        ValueError: fewer than two networks, a weight that is negative or not finite, or weights
            that sum to 0.
    """
    if len(ingredients) < 2:
        raise ValueError(
            f"a soup needs at least two checkpoints to average, got {len(ingredients)}"
        )
    for ingredient in ingredients:
        if not math.isfinite(ingredient.weight) or ingredient.weight < 0:
            raise ValueError(
                f"weight {ingredient.weight} of {ingredient.source!r} must be a finite number >= 0"
            )
    if sum(ingredient.weight for ingredient in ingredients) <= 0:
        raise ValueError("the weights sum to 0: give at least one a weight above 0")


def check_output(out: Path) -> None:
    """Refuse an output path the soup cannot be written to, before any network is loaded.

    Raises:
        ValueError: ``out`` is an existing folder.
        FileNotFoundError: the folder that should hold ``out`` does not exist.
    """
    if out.is_dir():
        raise ValueError(f"--out {str(out)!r} is a folder: give the soup's file, e.g. soup.zip")
    if not out.parent.is_dir():
        raise FileNotFoundError(
            f"no folder {str(out.parent)!r} for --out {str(out)!r}: create it first"
        )


def average_weights(
    states: Sequence[Mapping[str, th.Tensor]], weights: Sequence[float], names: Sequence[str]
) -> dict[str, th.Tensor]:
    """The weighted mean of ``states`` (policy ``state_dict``\\s), tensor by tensor.

    Float tensors are averaged in float64 and returned in their own dtype; any other tensor must be
    equal in every state and is kept.

    Args:
        states: The networks' state dicts, all with the same tensor names and shapes.
        weights: One weight per state (see :class:`Ingredient`); scaled to sum to 1 here.
        names: One name per state, for the error messages.

    Raises:
        ValueError: the weights do not sum to more than 0; the states do not have the same
            tensors (names, shapes) or differ in a tensor that is not a float one (the message
            names the tensor and the two networks).
    """
    first, first_name = states[0], names[0]
    total = float(sum(weights))
    if not total > 0:
        raise ValueError(f"the weights must sum to more than 0, got {list(weights)}")
    averaged: dict[str, th.Tensor] = {}
    for state, name in zip(states[1:], names[1:], strict=True):
        if state.keys() != first.keys():
            differ = sorted(set(state.keys()) ^ set(first.keys()))
            raise ValueError(
                f"{name!r} and {first_name!r} are different networks: tensor {differ[0]!r} is in "
                f"only one of them"
            )
    for key, tensor in first.items():
        for state, name in zip(states[1:], names[1:], strict=True):
            if state[key].shape != tensor.shape:
                raise ValueError(
                    f"{name!r} and {first_name!r} are different networks: tensor {key!r} has "
                    f"shape {tuple(state[key].shape)} against {tuple(tensor.shape)}"
                )
            if not tensor.is_floating_point() and not th.equal(state[key], tensor):
                raise ValueError(
                    f"{name!r} and {first_name!r} differ in tensor {key!r}, which is not a float "
                    f"weight and cannot be averaged"
                )
        if not tensor.is_floating_point():
            averaged[key] = tensor.clone()
            continue
        mean = sum(
            (weight / total) * state[key].to(th.float64)
            for state, weight in zip(states, weights, strict=True)
        )
        averaged[key] = th.as_tensor(mean).to(tensor.dtype)
    return averaged


def make_soup(ingredients: Sequence[Ingredient], out: Path) -> Path:
    """Write the weighted average of the ingredients' networks to ``out`` (atomically).

    Returns:
        ``out``.

    Raises:
        ValueError: see :func:`check_ingredients`, :func:`check_output` and
            :func:`average_weights`; a checkpoint that is not one of mswp-train's networks.
        FileNotFoundError: no checkpoint for an ingredient, or no folder for ``out``.
    """
    check_ingredients(ingredients)
    check_output(out)
    from train.agent import checkpoint_path  # SB3 and the agents load once the input is valid
    from train.checkpoint import load_model, save_model_atomic

    models = [load_model(checkpoint_path(ingredient.source)) for ingredient in ingredients]
    averaged = average_weights(
        [model.policy.state_dict() for model in models],
        [ingredient.weight for ingredient in ingredients],
        [ingredient.source for ingredient in ingredients],
    )
    soup = models[0]
    soup.policy.load_state_dict(averaged)
    save_model_atomic(soup, out)
    return out


def _parse(argv: list[str] | None) -> tuple[list[Ingredient], Path]:
    """The ingredients and output file of the command line (checked by :func:`make_soup`).

    Raises:
        ValueError: a bad ``--weights`` value or count.
    """
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "sources",
        nargs="+",
        metavar="CHECKPOINT",
        help="shipped names (expert, generalist, ...) or checkpoint files, of one architecture",
    )
    parser.add_argument("--out", required=True, type=Path, help="the soup's checkpoint file")
    parser.add_argument(
        "--weights",
        default=None,
        help="comma-separated weights, one per checkpoint (default: all equal)",
    )
    args = parser.parse_args(argv)
    sources: list[str] = args.sources
    if args.weights is None:
        weights = [1.0] * len(sources)
    else:
        try:
            weights = [float(value) for value in str(args.weights).split(",")]
        except ValueError:
            raise ValueError(
                f"--weights must be numbers joined by commas, got {args.weights!r}"
            ) from None
        if len(weights) != len(sources):
            raise ValueError(
                f"--weights has {len(weights)} values for {len(sources)} checkpoints: give one "
                f"per checkpoint"
            )
    ingredients = [
        Ingredient(source, weight) for source, weight in zip(sources, weights, strict=True)
    ]
    return ingredients, args.out


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input)."""
    try:
        ingredients, out = _parse(argv)
        make_soup(ingredients, out)
    except (ValueError, FileNotFoundError, NotADirectoryError, PermissionError) as exc:
        return report_error(PROG, exc)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
