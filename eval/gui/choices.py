"""The agents and boards the window lets you pick, and building an agent with a clear error."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from agents.base import Agent
from eval.agent_specs import AgentSpec, parse_agent_spec
from mswp_gym.choices import FirstClick
from mswp_gym.config import GameConfig
from mswp_gym.presets import PRESETS
from mswp_gym.spec import GameSpec

DEFAULT_AGENT_SPECS: tuple[str, ...] = ("logic", "logic:sentence-max", "logic:global", "solver")
"""What the window's agent button cycles through (plus the one named on the command line)."""


@dataclass(frozen=True)
class BoardSetup(GameSpec):
    """The board a game is played on: a :class:`GameSpec` and its name."""

    name: str = field(default="custom", kw_only=True)
    """A preset name (``beginner``...) or ``custom``."""

    def describe(self) -> str:
        """E.g. ``Beginner 9x9, 10 mines``."""
        return f"{self.name.capitalize()} {self.rows}x{self.cols}, {self.mines} mines"

    def game_config(self) -> GameConfig:
        """The validated game of this board, with flag actions (right clicks are flags).

        Raises:
            ValueError/TypeError: naming a bad size, count or rule.
        """
        return GameConfig.from_spec(self, flag_actions=True)

    def with_rule(self, first_click: FirstClick | str) -> BoardSetup:
        """The same board under another first-click rule."""
        return replace(self, first_click=FirstClick(first_click))


def preset_setup(name: str, first_click: FirstClick | str = FirstClick.SAFE) -> BoardSetup:
    """The :class:`BoardSetup` of a preset (raises ValueError naming an unknown preset)."""
    from mswp_gym.presets import preset

    board = preset(name)
    return BoardSetup(board.rows, board.cols, board.mines, FirstClick(first_click), name=board.name)


def board_setups(start: BoardSetup) -> list[BoardSetup]:
    """The presets, then ``start`` if it is a custom board: what the board buttons offer."""
    setups = [preset_setup(name, start.first_click) for name in PRESETS]
    if start.name not in PRESETS:
        setups.append(start)
    return setups


def build_agent(spec: AgentSpec) -> Agent:
    """``agents.make`` for ``spec``: every agent name resolves as in ``agents.make`` and
    ``python -m eval`` (shipped networks included).

    Raises:
        FileNotFoundError: a missing checkpoint.
        ValueError: unknown agent or bad options (from ``agents.make``).
        ImportError: the agent's optional dependency is missing.
    """
    try:
        return spec.build()
    except TypeError as err:  # a keyword the agent does not take
        raise ValueError(f"agent {spec.label!r}: {err}") from err


def agent_specs(first: str) -> list[AgentSpec]:
    """The agent button's cycle: ``first`` (the command line's agent), then the defaults.

    Raises:
        ValueError: ``first`` is not a valid agent spec.
    """
    specs = [parse_agent_spec(first)]
    for text in DEFAULT_AGENT_SPECS:
        spec = parse_agent_spec(text)
        if all((spec.make_name, spec.options) != (s.make_name, s.options) for s in specs):
            specs.append(spec)
    return specs
