"""The AI levels, apart from the games' rules (each game's heuristic is ``engine.ai.<id>``).

- ``random``: any legal move, uniformly (a baseline for tests and benchmarks).
- ``normal`` (alias ``ai``): the game's heuristic player, cheap and greedy.

``agent(game, level)`` makes the player program for a level.
"""

from __future__ import annotations

import importlib

from engine.core import Agent, Game, RandomAgent
from engine.errors import SetupError

LEVELS = ("random", "normal")
"""Every level, weakest first."""

ALIASES = {"ai": "normal"}
"""Other names accepted for a level (``ai`` is the command line's historical name)."""


def level_name(level: str) -> str:
    """The level's canonical name; raises SetupError naming the levels for an unknown one."""
    name = ALIASES.get(level, level)
    if name not in LEVELS:
        raise SetupError(f"unknown AI level {level!r} (choose {', '.join(LEVELS)} or ai)")
    return name


def heuristic(game: Game) -> Agent:
    """The game's heuristic player (the normal level)."""
    agent_class: type[Agent] = importlib.import_module(f"engine.ai.{game.id}").NORMAL
    return agent_class()


def agent(game: Game, level: str) -> Agent:
    """A player program for ``game`` at ``level``."""
    name = level_name(level)
    if name == "random":
        return RandomAgent()
    return heuristic(game)
