"""The normal level of fishing: the heuristic player."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.search import Yardstick
from engine.cards import CLUBS, Card
from engine.core import Action, State, View, cards_from_json
from engine.games.fishing import (
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    FishingState,
    Play,
    plays,
    score_piles,
)

ONE_PER_RANK = tuple(Card(rank, CLUBS) for rank in range(1, 14))
"""A card of every rank: what any opponent card could capture does not depend on its suit."""


class FishingAgent:
    """Captures the most valuable set (cards, clubs, 2♣, 10♦); otherwise gives away the least."""

    needs_view = True

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        """The best-scoring legal play, ties broken at random."""
        assert view is not None
        table = cards_from_json(view["table"])
        plays = [action for action in legal if isinstance(action, Play)]
        scored = [(self.worth(play, table), rng.random(), play) for play in plays]
        return max(scored)[2]

    @staticmethod
    def card_worth(card: Card) -> float:
        return 1 + (card.suit == CLUBS) * 0.6 + (card in (TWO_OF_CLUBS, TEN_OF_DIAMONDS)) * 3

    def worth(self, play: Play, table: list[Card]) -> float:
        if play.take:
            return 10 + sum(map(self.card_worth, (*play.take, play.card)), 0.0)
        # Leaving a card: it may be taken by the next player, together with what it completes.
        after = sorted([*table, play.card])
        exposed = {card for reply in plays(ONE_PER_RANK, after, multi=False) for card in reply.take}
        exposure = sum(map(self.card_worth, exposed), 0.0)
        low_value_bias = -0.05 * play.card.rank if play.card.rank <= 10 else 0.2
        return -self.card_worth(play.card) - 0.3 * exposure + low_value_bias


NORMAL = FishingAgent
"""The normal level's agent class (found by ``engine.ai``)."""


def standing(world: State) -> list[int]:
    """The points the piles would score if the hand ended now."""
    assert isinstance(world, FishingState)
    return score_piles(world.piles)[0]


YARDSTICK = Yardstick(
    scale=2.0, standing=standing, rounds=3, confidence=0.5, playouts=32, settle_strictness=4.0
)
"""How the searching levels judge a playout: three turns each, then the piles' points; a
rival half a standard error ahead of the heuristic's move is played (short playouts tell the
moves apart well here: hard won 63% of a 100-game probe against normal at 32 playouts). A
search stops half way for a rival only two standard errors ahead: at one, 14 of 288 decisions
on normal games' positions stopped for a rival the full search did not play, at two none."""
