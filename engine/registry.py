"""Every game by id. A game is a package (or module) in engine/games/ that defines ``GAME``;
nothing else needs to change to add one."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import engine.games
from engine.core import Game
from engine.errors import SetupError


@cache
def games() -> dict[str, Game]:
    """All registered games, by id, in id order."""
    found: dict[str, Game] = {}
    for module_info in pkgutil.iter_modules(engine.games.__path__):
        module = importlib.import_module(f"engine.games.{module_info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.id] = game
    return dict(sorted(found.items()))


def get_game(game_id: str) -> Game:
    """The game with this id; raises SetupError naming the known ids otherwise."""
    try:
        return games()[game_id]
    except KeyError:
        raise SetupError(f"unknown game {game_id!r} (known: {', '.join(games())})") from None
