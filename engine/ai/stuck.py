"""The normal level of stuck: the heuristic player."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.ai.search import Yardstick
from engine.cards import FULL_DECK, Card
from engine.core import Action, View, cards_from_json
from engine.games.stuck import DONE, GIVE, MAX_STUCK, PLAYS, Give


class StuckAgent:
    """Plans the rest of its play at every step and plays its first card (or ``done``).

    A plan is worth the cards it sheds, the bonus it earns, going out above all, and what the
    last card leaves the next player: a card they likely cannot play on (they must draw) and
    whose rank they likely lack (a rank play of theirs would stick a card on us), ideally one
    we can still follow ourselves. Keeping one card back is considered for that. What the next
    player lacks is known from their draws (``StuckState.agent_view``). The bonus goes to the
    opponent closest to going out, weighed with their lead on total points."""

    needs_view = True

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        """The first step of the best plan (a card, ``done``), or the best bonus target."""
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        if view["phase"] == GIVE:
            return self.target(view, legal)
        table = Table(view)
        best: tuple[float, float, Action] | None = None
        for head, rest, bonus in self.plans(view, table.hand, cards_from_json(view["run"])):
            for played in self.orders(head, rest):
                if not played and not table.run:
                    continue  # a turn's play has at least one card
                value = table.worth(played, bonus)
                candidate = (value, rng.random(), PLAYS[played[0]] if played else DONE)
                if best is None or candidate[:2] > best[:2]:
                    best = candidate
        assert best is not None
        return best[2]

    @staticmethod
    def plans(
        view: View, hand: list[Card], run: list[Card]
    ) -> list[tuple[Card | None, list[Card], bool]]:
        """Candidate rests of this turn's play: a card that must come first (or None), the
        cards that may follow in any order, and whether a bonus follows."""
        if not run:
            current = Card.parse(view["current"])
            same_rank = [card for card in hand if card.rank == current.rank]
            plans: list[tuple[Card | None, list[Card], bool]] = [
                (card, [], False)
                for card in hand
                if card.suit == current.suit and card.rank != current.rank
            ]
            if same_rank:
                plans.append((None, same_rank, True))
            for card in same_rank:
                plans.append((card, [c for c in hand if c.suit == card.suit and c != card], True))
            return plans
        first = run[0]
        if all(card.rank == first.rank for card in run):
            plans = [(None, [card for card in hand if card.rank == first.rank], True)]
            if len(run) == 1:
                plans.append((None, [card for card in hand if card.suit == first.suit], True))
            return [*plans, (None, [], True)]
        return [(None, [card for card in hand if card.suit == first.suit], True)]

    @staticmethod
    def orders(head: Card | None, rest: list[Card]) -> Iterable[list[Card]]:
        """The plays worth comparing: all of ``rest`` or all but one, each card of it last."""
        start = [head] if head is not None else []
        if not rest:
            yield start
            return
        variants = [rest] + [[c for c in rest if c != kept] for kept in rest]
        for cards in variants:
            if not cards:
                yield start
            for last in cards:
                yield [*start, *(card for card in cards if card != last), last]

    @staticmethod
    def target(view: View, legal: Sequence[Action]) -> Action:
        """The opponent closest to going out (fewest cards to clear), weighed with how far
        they lead on total points; level: the next one to play."""
        seat, players, scores = view["seat"], len(view["stuck"]), view["scores"]
        best = min(scores[other] for other in range(players) if other != seat)

        def key(action: Action) -> tuple[float, int]:
            assert isinstance(action, Give)
            other = action.seat
            cards = view["hand_sizes"][other] + view["stuck"][other]
            return (cards + 0.5 * (scores[other] - best), (other - seat) % players)

        return min(legal, key=key)


class Table:
    """What the agent knows when weighing a plan: its hand, the seen cards, the next player."""

    # Weights in points, tuned by self-play against the random agent (figures in docs/ai.md).
    BONUS = 2.0  # a stuck card on an opponent
    RANK_RISK = 4.0  # times the chance that the next player can rank-play on our last card
    BLOCK = 3.0  # times the chance that the next player cannot play at all and must draw
    FOLLOW = 0.5  # … and that we can then play on our own last card

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.players = len(view["stuck"])
        self.hand = cards_from_json(view["hand"])
        self.current = Card.parse(view["current"])
        self.run = cards_from_json(view["run"])
        self.stuck: int = view["stuck"][self.seat]
        seen = set(cards_from_json(view["discard"])) | set(self.hand)
        self.next_seat = (self.seat + 1) % self.players
        # The cards the next player may hold: unseen, and not of a suit or rank they lack.
        lacks = view.get("lacks", [{"suits": [], "ranks": []}] * self.players)[self.next_seat]
        self.unseen = [
            card
            for card in FULL_DECK
            if card not in seen
            and card.suit not in lacks["suits"]
            and card.rank not in lacks["ranks"]
        ]
        self.next_hand: int = view["hand_sizes"][self.next_seat]
        self.next_stuck: int = view["stuck"][self.next_seat]
        self.can_draw = view["draw_pile"] > 0 or len(view["discard"]) > 1
        self.bonus_room = any(
            count < MAX_STUCK for other, count in enumerate(view["stuck"]) if other != self.seat
        )

    def none_held(self, matching: int) -> float:
        """The chance that the next player holds none of ``matching`` unseen cards."""
        total = len(self.unseen)
        chance = 1.0
        for index in range(min(self.next_hand, total)):
            chance *= max(total - matching - index, 0) / (total - index)
        return chance

    def worth(self, played: list[Card], bonus: bool) -> float:
        """How good it is to play ``played`` (in this order) now and end the play there."""
        left = [card for card in self.hand if card not in played]
        value = float(len(played))
        if not left:
            if self.stuck == 0:
                return 1000.0 + value
            value += self.stuck  # picked up, each costs 1 instead of 2
        if bonus and self.can_draw and self.bonus_room:
            value += self.BONUS
        last = played[-1] if played else (self.run[-1] if self.run else self.current)
        same_rank = sum(card.rank == last.rank for card in self.unseen)
        same_suit = sum(card.suit == last.suit for card in self.unseen)
        rank_play = 1.0 - self.none_held(same_rank)
        blocked = self.none_held(same_rank + same_suit)
        # A rank play against us likely sticks a card on us (2 points), on someone else if many.
        value -= (
            rank_play
            * self.RANK_RISK
            * (1.0 if self.players == 2 else 0.5)
            * (self.stuck < MAX_STUCK)
        )
        # A blocked next player draws: a stuck card (2 points) or, with 3 already, a hand card.
        value += blocked * self.BLOCK * (1.0 if self.next_stuck < MAX_STUCK else 0.5)
        if left and any(card.rank == last.rank or card.suit == last.suit for card in left):
            value += self.FOLLOW * blocked  # and we can play on again instead of drawing
        return value


NORMAL = StuckAgent
"""The normal level's agent class (found by ``engine.ai``)."""

YARDSTICK = Yardstick(scale=3.0, confidence=1.5, playouts=128)
"""How the searching levels judge a playout: hands are short, played out to their end; a
rival must beat the heuristic's move by 1.5 standard errors."""
