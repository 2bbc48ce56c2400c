"""The AI levels, apart from the games' rules (each game's heuristic is ``engine.ai.<id>``).

- ``random``: any legal move, uniformly (a baseline for tests and benchmarks).
- ``easy``: the heuristic's move some of the time, otherwise a plausible slip: the better of
  two other moves tried once, never one far worse than the heuristic's (``engine.ai.easy``).
- ``normal`` (alias ``ai``): the game's heuristic player, cheap and greedy.
- ``hard``: a search over the worlds the seat cannot tell from the real one, the heuristic
  playing every seat in them (``engine.ai.search``); about 0.3 s a move, or a fixed number of
  playouts for reproducible play.

The levels that look ahead (easy, hard) see the game only through ``State.determinize``.
``agent(game, level)`` makes the player program for a level.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.ai.easy import EasyAgent
from engine.ai.search import DEFAULT_BUDGET, Budget, SearchAgent
from engine.core import Agent, Game, RandomAgent, StateAgent
from engine.errors import SetupError

LEVELS = ("random", "easy", "normal", "hard")
"""Every level, weakest first."""

ALIASES = {"ai": "normal"}
"""Other names accepted for a level (``ai`` is the command line's historical name)."""


def level_name(level: str) -> str:
    """The level's canonical name; raises SetupError naming the levels for an unknown one."""
    name = ALIASES.get(level, level)
    if name not in LEVELS:
        raise SetupError(f"unknown AI level {level!r} (choose {', '.join(LEVELS)} or ai)")
    return name


def _module(game: Game) -> ModuleType:
    return importlib.import_module(f"engine.ai.{game.id}")


def heuristic(game: Game) -> Agent:
    """The game's heuristic player (the normal level)."""
    agent_class: type[Agent] = _module(game).NORMAL
    return agent_class()


def agent(game: Game, level: str, budget: Budget = DEFAULT_BUDGET) -> Agent | StateAgent:
    """A player program for ``game`` at ``level`` (``budget``: how long hard thinks)."""
    name = level_name(level)
    if name == "random":
        return RandomAgent()
    if name == "normal":
        return heuristic(game)
    scale: float = _module(game).SCALE
    if name == "easy":
        return EasyAgent(heuristic(game), scale)
    return SearchAgent(heuristic(game), scale, budget)
