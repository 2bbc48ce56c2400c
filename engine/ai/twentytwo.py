"""The normal level of twentytwo: the heuristic player."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

from engine.ai.search import Yardstick, spread
from engine.cards import Card
from engine.core import Action, View, cards_from_json
from engine.games.twentytwo import (
    ELIMINATED_AT,
    KEEP,
    STRENGTH,
    Exchange,
    ExchangeOptions,
    Play,
    is_beat,
    rank_key,
    ranks_of,
)


class TwentyTwoAgent:
    """Keeps a low card for the showdown and sheds the rest while it still can.

    Exchange: throw away the middling cards (too high to keep for the end, too low to beat
    with). Lead: the highest rank, all copies (keeping the lowest card back). Follow: keep the
    lowest card possible; then prefer a beat (the lead is worth having), the cheapest one.
    """

    needs_view = True
    keep_low = 5  # cards up to this rank are worth keeping for the showdown
    keep_high = 12  # cards from this rank up win tricks

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        """The heuristic choice among ``legal``."""
        assert view is not None
        hand = sorted(cards_from_json(view["hand"]), key=rank_key)
        first = legal[0]
        if first == KEEP:
            return self.exchange(hand, legal)
        plays = [action for action in legal if isinstance(action, Play)]
        if not view["trick"]:
            return self.lead(hand, plays)
        return self.follow(hand, plays, view)

    def exchange(self, hand: list[Card], legal: Sequence[Action]) -> Action:
        """Discard the middling cards (as many as the stock allows), or keep."""
        lowest = STRENGTH[hand[0]]
        # The lowest card stays if it is fairly low: it may be the card kept for the end.
        middling = [
            card
            for card in hand
            if self.keep_low < STRENGTH[card] < self.keep_high
            and not (STRENGTH[card] == lowest and lowest <= 7)
        ]
        # With a short stock, the highest middling cards go first: the worst to be left with.
        middling.sort(key=rank_key, reverse=True)
        assert isinstance(legal, ExchangeOptions)
        return legal.listed(ranks_of(middling[: legal.limit])) or KEEP

    def lead(self, hand: list[Card], plays: list[Play]) -> Action:
        """Lead the highest rank, as many copies as allowed."""
        # The highest rank, as many copies as allowed: it sheds the most and is hard to beat.
        return max(plays, key=lambda play: (play.ranks[0], len(play.ranks)))

    def follow(self, hand: list[Card], plays: list[Play], view: View) -> Action:
        """Keep the lowest card possible; then beat if possible, as cheaply as possible."""
        best = next(
            ranks_of(cards_from_json(entry["cards"]))
            for entry in view["trick"]
            if entry["seat"] == view["best_seat"]
        )

        def worth(play: Play) -> tuple[int, bool, int]:
            remaining = list(STRENGTH[card] for card in hand)
            for rank in play.ranks:
                remaining.remove(rank)
            low = min(remaining) if remaining else 0
            # A beat as cheap as possible keeps the high cards for later beats.
            return (-low, is_beat(play.ranks, best), -sum(play.ranks))

        return max(plays, key=worth)


def candidates(
    legal: Sequence[Action], first: Action, width: int, rng: random.Random
) -> list[Action]:
    """The moves hard compares: in the exchange, ``first`` and the ``width - 1`` nearest it
    (fewest cards discarded differently; ties at random) among keeping and the exchanges of
    one band of ranks (every card between a low and a high rank, the lowest card always kept:
    what a player would try); for a play, ``spread`` (leads and follows are few)."""
    if not isinstance(legal, ExchangeOptions):
        return spread(legal, first, width, rng)
    hand = legal.hand
    strengths = [STRENGTH[card] for card in hand]
    tried: dict[tuple[int, ...], Action] = {(): KEEP}
    edges = [0, *sorted(set(strengths)), 15]
    for low in edges:
        for high in edges:
            ranks = tuple(strength for strength in strengths[1:] if low < strength < high)
            band = legal.listed(ranks)
            if band is not None:
                tried[ranks] = band
    chosen = Counter(first.ranks) if isinstance(first, Exchange) else Counter[int]()

    def distance(ranks: tuple[int, ...]) -> int:
        return (Counter(ranks) - chosen).total() + (chosen - Counter(ranks)).total()

    others = [ranks for ranks, action in tried.items() if action != first]
    rng.shuffle(others)
    others.sort(key=distance)
    return [first, *(tried[ranks] for ranks in others[: width - 1])]


LOSS_PENALTIES = {
    2: 0.026, 3: 0.117, 4: 0.220, 5: 0.237, 6: 0.106,
    7: 0.091, 8: 0.052, 9: 0.043, 10: 0.105, 11: 0.003,
}  # fmt: skip
"""How often a two-player hand is lost with each penalty: normal against normal, seeds 0-2999
(19,412 hands lost)."""


@cache
def win_chance(mine: int, theirs: int) -> float:
    """A two-player game's chance to be won from the totals ``mine`` and ``theirs`` if every
    hand is lost by either player alike, with a penalty as often as in ``LOSS_PENALTIES``."""
    if mine >= ELIMINATED_AT:
        return 0.0
    if theirs >= ELIMINATED_AT:
        return 1.0
    return sum(
        share * (win_chance(mine + penalty, theirs) + win_chance(mine, theirs + penalty)) / 2
        for penalty, share in LOSS_PENALTIES.items()
    )


def chances(totals: Sequence[int], seat: int) -> float:
    """The seat's chance to win a two-player game from ``totals`` (see ``win_chance``): the
    totals are public, and the penalties' frequencies a fixed estimate, so the search stays
    fair."""
    return win_chance(totals[seat], totals[1 - seat])


NORMAL = TwentyTwoAgent
"""The normal level's agent class (found by ``engine.ai``)."""

YARDSTICK = Yardstick(
    scale=5.0,
    confidence=0.5,
    playouts=256,
    candidates=candidates,
    chances=chances,
    last_standing=True,
)
"""How the searching levels judge a playout: hands are short, played out to their end, and at
two players judged by the chance to win the game after them, at three or more by the seat's
points against the others' average (the last seat not knocked out wins); a rival half a
standard error ahead of the heuristic's move is played (at 128 playouts hard won 60% of a
200-game probe against normal; 55% when asking 1.5 standard errors). 256 playouts: what
0.3 s of one quiet core buys in the fewest of 36 positions (a median of 960)."""
