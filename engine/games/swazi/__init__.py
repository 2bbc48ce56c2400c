"""swazi: Swazi Casino for two players (rules: docs/rules/swazi.md, whose sections the
docstrings cite as §N).

Where each rule lives:

- ``moves``: a move as written and read (§11): ``Move``, its text and choice path,
  ``parse_move``; a card's values (§2: ``serves``).
- ``rules``: what may be played (§4–§7), stated once: the shapes of the moves, what a move
  may leave (``refusal``); ``check`` answers (and explains) for any move.
- ``sets``: the sets of loose cards by total, and the unions a capture takes (the searches
  the shapes of §4 and §5 are made from).
- ``listing``: ``legal_moves`` lists what may be played as a ``Listing`` that counts the
  moves of each shape and makes one when asked for it; its ``in`` asks ``check``.
- ``state``: the deal (§3), carrying a move out (§4, §6.4, §8), the end of a deal, scoring and
  winning (§9, §10), views and saves.
- ``game``: the game type: options, reading moves, saved games, the words of choices and views.
- ``words``: the messages of the events and the words of the choices.
- The heuristic player: ``engine.ai.swazi``.
"""

from engine.games.swazi.game import GAME, SwaziGame
from engine.games.swazi.moves import (
    AUGMENT,
    BUILD,
    CAPTURE,
    CARDLESS_BUILD,
    CHANGE,
    DISCARD,
    TOP_BUILD,
    Move,
    serves,
)
from engine.games.swazi.rules import Build
from engine.games.swazi.sets import sets_by_total
from engine.games.swazi.state import TEN_OF_DIAMONDS, TWO_OF_SPADES, SwaziState, score_piles

__all__ = [
    "AUGMENT",
    "BUILD",
    "CAPTURE",
    "CARDLESS_BUILD",
    "CHANGE",
    "DISCARD",
    "GAME",
    "TEN_OF_DIAMONDS",
    "TOP_BUILD",
    "TWO_OF_SPADES",
    "Build",
    "Move",
    "SwaziGame",
    "SwaziState",
    "score_piles",
    "serves",
    "sets_by_total",
]
