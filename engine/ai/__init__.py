"""The AI levels, apart from the games' rules (each game's heuristic is ``engine.ai.<id>``).

- ``random``: any legal move, uniformly (a baseline for tests and benchmarks).
- ``easy``: the heuristic's move some of the time, otherwise a plausible slip: the better of
  two other moves tried once, never one far worse than the heuristic's (``engine.ai.easy``).
- ``normal`` (alias ``ai``): the game's heuristic player, cheap and greedy.
- ``hard``: a search over the worlds the seat cannot tell from the real one, the heuristic
  playing every seat in them (``engine.ai.search``); about 0.3 s a move, or a fixed number of
  playouts for reproducible play.

The levels that look ahead (easy, hard) see the game only through ``State.determinize``.
``agent(game, level)`` makes the player program for a level; ``decide`` is one decision from
a saved state, for a worker process (the bot keeps searches off its event loop).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from engine.ai.easy import EasyAgent
from engine.ai.search import DEFAULT_BUDGET, Budget, SearchAgent, Yardstick
from engine.core import Agent, Game, RandomAgent, StateAgent
from engine.errors import SetupError
from engine.registry import get_game
from engine.runner import agent_move

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


def yardstick(game: Game) -> Yardstick:
    """How the searching levels judge a playout of the game (see ``engine.ai.search``)."""
    found: Yardstick = _module(game).YARDSTICK
    return found


def agent(game: Game, level: str, budget: Budget = DEFAULT_BUDGET) -> Agent | StateAgent:
    """A player program for ``game`` at ``level`` (``budget``: how long hard thinks)."""
    name = level_name(level)
    if name == "random":
        return RandomAgent()
    if name == "normal":
        return heuristic(game)
    if name == "easy":
        return EasyAgent(heuristic(game), yardstick(game))
    return SearchAgent(heuristic(game), yardstick(game), budget)


def decide(
    game_id: str, state: Mapping[str, Any], seat: int, level: str, seed: str, budget: Budget
) -> str | None:
    """The text of ``level``'s move for ``seat`` in a state saved by ``State.to_json`` (None:
    it declines an optional move); ``seed`` seeds its generator. Picklable, for a worker."""
    game = get_game(game_id)
    action = agent_move(
        game.state_from_json(state), seat, agent(game, level, budget), random.Random(seed)
    )
    return None if action is None else action.text
