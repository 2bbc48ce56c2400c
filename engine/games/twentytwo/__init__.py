"""twentytwo: Twenty-Two, a trick game where the last card you hold must not be the highest
(rules: docs/rules/twentytwo.md, whose sections the docstrings cite as ``§5.3``). Scores are
penalties: lower is better.

- ``rules``: the rules as functions (ranks, the moves and which are legal, the penalty) and
  the moves themselves (``Exchange``, ``Play``, ``KEEP``);
- ``state``: a game at a decision, carrying the rules out;
- ``words``: what the table log says;
- ``game``: the game type (move text, saves, descriptions and pictures).
- The heuristic AI: ``engine.ai.twentytwo``.
"""

from engine.games.twentytwo.game import GAME, TwentyTwoGame
from engine.games.twentytwo.rules import (
    ELIMINATED_AT,
    KEEP,
    PLAYER_COUNTS,
    RANK_LABEL,
    STRENGTH,
    Exchange,
    ExchangeOptions,
    Play,
    draw_for_dealer,
    follows,
    is_beat,
    leads,
    options,
    penalty,
    rank_key,
    ranks_of,
    strength,
)
from engine.games.twentytwo.state import TwentyTwoState

__all__ = [
    "ELIMINATED_AT",
    "GAME",
    "KEEP",
    "PLAYER_COUNTS",
    "RANK_LABEL",
    "STRENGTH",
    "Exchange",
    "ExchangeOptions",
    "Play",
    "TwentyTwoGame",
    "TwentyTwoState",
    "draw_for_dealer",
    "follows",
    "is_beat",
    "leads",
    "options",
    "penalty",
    "rank_key",
    "ranks_of",
    "strength",
]
