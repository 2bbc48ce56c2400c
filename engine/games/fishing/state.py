"""A fishing game at a decision: the rules of docs/rules/fishing.md carried out, from the
deal to the end of the game, with its views, its zones and its save."""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable
from typing import Any

from mypy_extensions import mypyc_attr

from engine.cards import CLUBS, Card, cards_pretty
from engine.core import (
    Action,
    DeckPlan,
    Event,
    OptionValue,
    Phrase,
    TotalsState,
    View,
    Zone,
    cards_json,
    dealt_hands,
    held_sets,
    listing,
    make_rng,
    pile_phrase,
    redeal,
    seat_words,
)
from engine.games.fishing.rules import (
    HAND_SIZE,
    SCORING_CARDS,
    TABLE_SIZE,
    Play,
    plays,
    score_piles,
)
from engine.words import N_, _


def played_event(seat: int, card: Card) -> Event:
    """The event of a card left on the table."""
    said = (("player", seat_words(seat)), ("card", card.pretty))
    return Event(N_("{player} played {card}"), "play", args=said)


def captured_event(seat: int, play: Play) -> Event:
    """The event of a capture."""
    said = (
        ("player", seat_words(seat)),
        ("cards", cards_pretty(play.take)),
        ("card", play.card.pretty),
    )
    return Event(N_("{player} captured {cards} with {card}"), "capture", args=said)


def refill_event(stock: int) -> Event:
    """The event of new hands dealt, ``stock`` cards left."""
    said = (("count", str(stock)),)
    return Event(N_("New cards dealt; {count} left in the stock"), "refill", args=said)


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class FishingState(TotalsState):
    """A fishing game at a decision."""

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.hand_number = 0
        self.dealer = 0 if deck_plan.is_stacked else make_rng(seed, "dealer").randrange(players)
        self.turn = 0
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.piles: list[list[Card]] = [[] for _ in range(players)]
        self.table: list[Card] = []  # face up, in card order
        self.stock: list[Card] = []
        self.last_capturer: int | None = None
        self.multi_capture = bool(options["multi_capture"])

    # -- dealing -------------------------------------------------------------------------------
    def start(self) -> list[Event]:
        return self.start_hand()

    def start_hand(self) -> list[Event]:
        """Deal the current hand from its deck: hands, then the table, the rest is the stock
        (§2.2)."""
        self.stock = self.deck_plan.deck(self.hand_number)
        self.piles = [[] for _seat in range(self.players)]
        self.last_capturer = None
        self.deal_hands()
        self.table = sorted(self.stock[:TABLE_SIZE])
        del self.stock[:TABLE_SIZE]
        self.turn = (self.dealer + 1) % self.players
        return [
            Event(
                N_("Hand {hand}: {dealer} deals. Table: {cards}"),
                kind="deal",
                args=(
                    ("hand", str(self.hand_number + 1)),
                    ("dealer", seat_words(self.dealer)),
                    ("cards", cards_pretty(self.table)),
                ),
            )
        ]

    def deal_hands(self) -> None:
        """Deal 4 cards to each (empty) hand from the stock, one at a time from the dealer's
        left (§2.2, §2.3)."""
        dealt = HAND_SIZE * self.players
        self.hands = dealt_hands(self.stock[:dealt], (self.dealer + 1) % self.players, self.players)
        del self.stock[:dealt]

    # -- decisions -----------------------------------------------------------------------------
    def _to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        """One card from the hand, left on the table or capturing (§3.2, §4): ``plays``."""
        return tuple(plays(self.hands[seat], self.table, self.multi_capture))

    def explain_illegal(self, seat: int, action: Action) -> str:
        if isinstance(action, Play) and seat in self.to_act():
            if action.card not in self.hands[seat]:
                return _("You do not hold {card}.").format(card=action.card.pretty)
            missing = [card for card in action.take if card not in self.table]
            if missing:
                return _("{cards} is not on the table.").format(cards=cards_pretty(missing))
            if self.options["multi_capture"]:
                message = _(
                    "{card} cannot capture {cards}: take one card of its rank, or numerals "
                    "(A = 1) adding up to it."
                )
            else:
                message = _(
                    "{card} cannot capture {cards}: take one card of its rank, or numerals "
                    "(A = 1) adding up to it, one group per play."
                )
            return message.format(card=action.card.pretty, cards=cards_pretty(action.take))
        return super().explain_illegal(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        """The card leaves the hand; it stays on the table (§3.2) or goes with what it took to
        the pile (§4.5). Play passes left (§3.1); empty hands get 4 more from the stock (§2.3),
        and with none left the hand ends (§5.1)."""
        assert isinstance(action, Play)
        card = action.card
        self.hands[seat].remove(card)
        if action.take:
            for taken in action.take:
                self.table.remove(taken)
            self.piles[seat] += (*action.take, card)
            self.last_capturer = seat
            events = [captured_event(seat, action)]
        else:
            insort(self.table, card)
            events = [played_event(seat, card)]
        self.turn = (seat + 1) % self.players
        if any(self.hands):
            return events
        if self.stock:
            self.deal_hands()
            events.append(refill_event(len(self.stock)))
            return events
        events.extend(self.end_hand())
        return events

    # -- end of a hand and of the game -----------------------------------------------------------
    def end_hand(self) -> list[Event]:
        """The last capturer takes the table (§5.1), the piles score (§5.2), and the game ends
        or the next hand is dealt (§6.1)."""
        events: list[Event] = []
        if self.last_capturer is not None and self.table:
            events.append(
                Event(
                    N_("{player} takes the rest of the table: {cards}"),
                    kind="capture",
                    args=(
                        ("player", seat_words(self.last_capturer)),
                        ("cards", cards_pretty(self.table)),
                    ),
                )
            )
            self.piles[self.last_capturer].extend(self.table)
            self.table = []
        piles = held_sets(self.piles)  # one set a pile, for the points and for their check
        points, reasons = score_piles(piles)
        parts = []
        for seat, gained in enumerate(points):
            self.totals[seat] += gained
            said = (("player", seat_words(seat)), ("points", str(gained)))
            if reasons[seat]:
                why = listing(", ", reasons[seat])
                parts.append(Phrase(N_("{player} {points} ({reasons})"), (*said, ("reasons", why))))
            else:
                parts.append(Phrase(N_("{player} {points}"), said))
        self.history.append(points)
        hand = ("hand", str(self.hand_number + 1))
        counts = pile_phrase(piles, CLUBS, SCORING_CARDS, N_("nobody scores"))
        events += [
            Event(N_("Hand {hand} piles: {piles}"), "piles", args=(hand, ("piles", counts))),
            self.scores_event(Phrase(N_("Hand {hand}"), (hand,)), parts),
        ]
        best = max(self.totals)
        if best >= int(self.options["target"] or 0) and self.totals.count(best) == 1:
            self.over = True
            winner = seat_words(self.totals.index(best))
            events.append(
                Event(
                    N_("{player} wins with {points} points"),
                    "game_end",
                    args=(("player", winner), ("points", str(best))),
                )
            )
            return events
        self.hand_number += 1
        self.dealer = (self.dealer + 1) % self.players
        events.extend(self.start_hand())
        return events

    # -- views -----------------------------------------------------------------------------------
    def public_view(self) -> View:
        return {
            "game": self.game.id,
            "hand_number": self.hand_number + 1,
            "dealer": self.dealer,
            "to_act": list(self.to_act()),
            "table": cards_json(self.table),
            "stock": len(self.stock),
            "hand_sizes": [len(hand) for hand in self.hands],
            "pile_sizes": [len(pile) for pile in self.piles],
            "last_capturer": self.last_capturer,
            "scores": list(self.totals),
            "history": [list(points) for points in self.history],
            "target": self.options["target"],
            "multi_capture": self.options["multi_capture"],
            "over": self.over,
            "winners": list(self.winners()),
        }

    def view(self, seat: int) -> View:
        return {**self.public_view(), "seat": seat, "hand": cards_json(self.hands[seat])}

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        others = [hand for other, hand in enumerate(self.hands) if other != seat]
        redeal([*others, self.stock], rng)
        for hand in others:
            hand.sort()

    def zones(self) -> Iterable[Zone]:
        for seat in range(self.players):
            yield Zone(f"hand s{seat}", tuple(self.hands[seat]), frozenset((seat,)))
            # Every captured card was played or lay face up, so all have seen the pile's cards.
            yield Zone(f"pile s{seat}", tuple(self.piles[seat]), None)
        yield Zone("table", tuple(self.table), None)
        yield Zone("stock", tuple(self.stock), frozenset())

    # -- saving ----------------------------------------------------------------------------------
    def _to_json(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "hands": [cards_json(hand) for hand in self.hands],
            "piles": [cards_json(pile) for pile in self.piles],
            "table": cards_json(self.table),
            "stock": cards_json(self.stock),
            "last_capturer": self.last_capturer,
            **self.totals_json(),
        }
