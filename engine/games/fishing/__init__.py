"""fishing: Casino without building, scoring clubs (rules: docs/rules/fishing.md, whose
sections the docstrings cite as ``§4.2``).

Play one card a turn; it may capture one table card of its rank or one set of two or more
numerals adding up to it (option ``multi_capture``: several disjoint sets plus one same-rank
card). Piles score at the end of the hand: most cards 2, most clubs 1, 2♣ 1, 10♦ 1.

Where each rule lives, by the rules document's sections:

- §1 players (2, 3, 4 or 6; five refused) and options: ``FishingGame``,
  ``FishingGame.player_count_message`` (``game``).
- §2 the deal (4 each from the dealer's left, 4 to the table, 4 more each when every hand is
  empty): ``FishingState.start_hand``, ``deal_hands``, ``_apply`` (``state``).
- §3 a turn and §4 captures (one same-rank card or one sum set of numerals; with
  ``multi_capture`` any union): ``card_plays``, ``sum_sets``, ``multi_captures`` (``rules``);
  carried out by ``FishingState._apply``; refusals: ``FishingState.explain_illegal``.
- §5 the end of a hand (the last capturer takes the table) and its scoring, §6 winning:
  ``FishingState.end_hand``, ``score_piles`` (``rules``).
- §7 move text and choice path: ``Play`` (``rules``); reading text:
  ``FishingGame.parse_action``.
- The heuristic AI: ``engine.ai.fishing``.
"""

from engine.games.fishing.game import GAME, FishingGame, capture_words
from engine.games.fishing.rules import (
    HAND_SIZE,
    HIGHEST_SUM,
    PLAYER_COUNTS,
    SCORING_CARDS,
    TABLE_SIZE,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    Play,
    card_plays,
    multi_captures,
    plays,
    score_piles,
    sum_sets,
)
from engine.games.fishing.state import FishingState

__all__ = [
    "GAME",
    "HAND_SIZE",
    "HIGHEST_SUM",
    "PLAYER_COUNTS",
    "SCORING_CARDS",
    "TABLE_SIZE",
    "TEN_OF_DIAMONDS",
    "TWO_OF_CLUBS",
    "FishingGame",
    "FishingState",
    "Play",
    "capture_words",
    "card_plays",
    "multi_captures",
    "plays",
    "score_piles",
    "sum_sets",
]
