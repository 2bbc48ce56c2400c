"""A swazi game at a decision: the deal, carrying a move out, the end of a deal and its
scoring, views and saves (docs/rules/swazi.md §3, §6.4, §8–§10). What may be played is
``listing.legal_moves``; ``is_legal`` and ``explain_illegal`` ask ``rules.check``."""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Collection, Iterable, Sequence
from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from engine.cards import ACE, DIAMONDS, FULL_DECK, SPADES, SUIT_CARDS, Card
from engine.core import (
    Action,
    Arg,
    Cards,
    DeckPlan,
    Event,
    OptionValue,
    Phrase,
    TotalsState,
    View,
    Zone,
    cards_json,
    counted_phrase,
    held_sets,
    listing,
    make_rng,
    pile_phrase,
    redeal,
)
from engine.words import N_

from . import words
from .listing import legal_moves
from .moves import AUGMENT, BUILD, CAPTURE, CARDLESS_BUILD, CHANGE, DISCARD, Move, serves
from .rules import Build, Turn, check

LAYOUT_SIZE: Final = 4
HAND_SIZE: Final = 12
TWO_OF_SPADES: Final = Card(2, SPADES)
TEN_OF_DIAMONDS: Final = Card(10, DIAMONDS)
ACE_CARDS: Final = frozenset(card for card in FULL_DECK if card.rank == ACE)
"""The four aces: a pile's set meets them in C (as ``SUIT_CARDS``) to count its aces."""
SCORING_CARDS: Final = ((TWO_OF_SPADES, "2♠"), (TEN_OF_DIAMONDS, "10♦"))  # for the piles line
_DISCARDED: Final = [
    {card: Event(message, "discard", args=(("card", card.pretty),)) for card in FULL_DECK}
    for message in words.DISCARDED
]
"""Each seat's event for the discard of each card, made once: an event never changes, and
about half the moves of a game are discards."""


def build_json(build: Build) -> dict[str, Any]:
    """A build as JSON-ready data (also its public view)."""
    return {
        "value": build.value,
        "owner": build.owner,
        "augmented": build.augmented,
        "cards": cards_json(build.cards),
    }


def score_piles(piles: Sequence[Collection[Card]]) -> tuple[list[int], list[list[Phrase]]]:
    """§9.2: points per pile for one deal, with reasons: most cards 2 and most spades 2 (a
    tie: 1 each), 2♠ 1, 10♦ 2, each ace 1 — 11 points in all. A pile given as a set is looked
    up in as it is."""
    points = [0, 0]
    reasons: list[list[Phrase]] = [[], []]
    held = held_sets(piles)
    for counts, most, tied in (
        ([len(pile) for pile in piles], N_("most cards {points}"), N_("most cards tied {points}")),
        (
            [len(cards & SUIT_CARDS[SPADES]) for cards in held],
            N_("most spades {points}"),
            N_("most spades tied {points}"),
        ),
    ):
        if counts[0] == counts[1]:
            for seat in (0, 1):
                points[seat] += 1
                reasons[seat].append(Phrase(tied, (("points", "1"),)))
        else:
            seat = 0 if counts[0] > counts[1] else 1
            points[seat] += 2
            reasons[seat].append(Phrase(most, (("points", "2"),)))
    for seat, cards in enumerate(held):
        if TWO_OF_SPADES in cards:
            points[seat] += 1
            reasons[seat].append(Phrase("{card} {points}", (("card", "2♠"), ("points", "1"))))
        if TEN_OF_DIAMONDS in cards:
            points[seat] += 2
            reasons[seat].append(Phrase("{card} {points}", (("card", "10♦"), ("points", "2"))))
        aces = len(cards & ACE_CARDS)
        if aces:
            points[seat] += aces
            reasons[seat].append(counted_phrase(words.ACES, aces))
    return points, reasons


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class SwaziState(TotalsState):
    """A swazi game at a decision."""

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.deal_number = 0
        self.dealer = 0 if deck_plan.is_stacked else make_rng(seed, "dealer").randrange(2)
        self.turn = 0
        self.half = 1
        self.hands: list[list[Card]] = [[], []]  # each in card order
        self.piles: list[list[Card]] = [[], []]
        self.loose: list[Card] = []  # in card order
        self.builds: dict[int, Build] = {}
        self.stock: list[Card] = []
        self.last_capturer: int | None = None

    # -- §3: dealing ---------------------------------------------------------------------------
    def start(self) -> list[Event]:
        return self.start_deal()

    def start_deal(self) -> list[Event]:
        """§3.2: the layout's 4 cards first, then 12 to each player; the rest is the stock."""
        deck = self.deck_plan.deck(self.deal_number)
        self.loose = sorted(deck[:LAYOUT_SIZE])
        self.stock = deck[LAYOUT_SIZE:]
        self.builds = {}
        self.piles = [[], []]
        self.hands = [[], []]
        self.last_capturer = None
        self.half = 1
        self.deal_hands()
        self.turn = 1 - self.dealer
        deal = ("deal", str(self.deal_number + 1))
        layout = ("layout", Cards(self.loose))
        return [Event(words.DEALS[self.dealer], "deal", args=(deal, layout))]

    def deal_hands(self) -> None:
        """§3.2: 12 cards each, one at a time, starting with the dealer's left (the
        non-dealer)."""
        first = 1 - self.dealer
        dealt = self.stock[: 2 * HAND_SIZE]
        self.hands[first] += dealt[0::2]
        self.hands[1 - first] += dealt[1::2]
        del self.stock[: 2 * HAND_SIZE]
        for hand in self.hands:
            hand.sort()

    # -- §4: what may be played ----------------------------------------------------------------
    def _to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def pile_top(self, seat: int) -> Card | None:
        """§5.2: the top of the opponent's pile, the only pile card ``seat`` may use."""
        pile = self.piles[1 - seat]
        return pile[-1] if pile else None

    def turn_of(self, seat: int) -> Turn:
        """The position as the rules read it for ``seat``: of copies of the hand, the layout
        and the builds, as a listing made from it makes its moves when asked, maybe after the
        state moved on (as a tuple of moves would have stayed as it was made)."""
        hand, loose, builds = list(self.hands[seat]), list(self.loose), dict(self.builds)
        return Turn(seat, hand, loose, builds, self.pile_top(seat), self.half == 1)

    def _legal_actions(self, seat: int) -> Sequence[Action]:
        return cast(Sequence[Action], legal_moves(self.turn_of(seat)))

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether the rules allow ``action``: a move the listing handed out, or any other the
        rule (``rules.check``) allows, listed or not, as a huge layout's listing stops short
        of every capture."""
        return isinstance(action, Move) and action in self.legal_actions(seat)

    def explain_illegal(self, seat: int, action: Action) -> str:
        if not isinstance(action, Move) or seat not in self.to_act():
            return super().explain_illegal(seat, action)
        return check(self.turn_of(seat), action) or super().explain_illegal(seat, action)

    # -- carrying a move out -------------------------------------------------------------------
    def hand_card_of(self, seat: int, move: Move) -> Card | None:
        """The hand card a move plays (None for a card-less move)."""
        if move.kind == CARDLESS_BUILD:
            return None
        if move.kind == AUGMENT and move.card is None:
            held = [card for card in move.cards if card in self.hands[seat]]
            return held[0] if held else None
        return move.card

    def _apply(self, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Move)
        move = action
        kind = move.kind
        if kind == DISCARD:  # §4.8
            card = move.card
            assert card is not None
            insort(self.loose, card)
            return self._finish_turn(seat, card, [_DISCARDED[seat][card]])
        hand_card = self.hand_card_of(seat, move)
        loose_cards = [card for card in move.cards if card != hand_card]
        for card in loose_cards:
            self.loose.remove(card)
        if kind == CAPTURE:
            assert hand_card is not None
            return self._finish_turn(seat, hand_card, [self._capture(seat, move, loose_cards)])
        if kind == CARDLESS_BUILD:  # §4.1
            value = sum(card.rank for card in move.cards)
            self.builds[value] = Build(value, seat, False, list(move.cards))
            built = (("cards", Cards(move.cards)), ("value", str(value)))
            return [Event(words.BUILT[seat], "build", None, built)]
        if kind == AUGMENT:
            events = [self._augment(seat, move, loose_cards, hand_card)]
            return events if hand_card is None else self._finish_turn(seat, hand_card, events)
        assert hand_card is not None
        if kind == BUILD:  # §4.4
            value = sum(card.rank for card in move.cards) + hand_card.rank
            self.builds[value] = Build(value, seat, False, [*loose_cards, hand_card])
            args = (
                ("card", hand_card.pretty),
                ("worth", str(move.ace)),
                ("cards", Cards(loose_cards)),
                ("value", str(value)),
            )
            event = Event(words.BUILT_ON[seat][bool(move.ace)], "build", None, args)
            return self._finish_turn(seat, hand_card, [event])
        assert kind == CHANGE, kind
        return self._finish_turn(seat, hand_card, [self._change(seat, move, hand_card)])

    def _capture(self, seat: int, move: Move, loose_cards: list[Card]) -> Event:
        """§4.3, §8.1: the captured build's cards, then the loose cards, then the hand card go
        to the capturer's pile."""
        hand_card = move.card
        assert hand_card is not None
        value = move.build
        pile = self.piles[seat]
        args: list[tuple[str, Arg | Cards]] = [("card", hand_card.pretty), ("worth", str(move.ace))]
        if value:
            build_cards = self.builds.pop(value).cards
            pile += build_cards
            args.append(("value", str(value)))
            args.append(("build", Cards(build_cards)))
        if loose_cards:
            args.append(("cards", Cards(loose_cards)))
        pile += loose_cards
        pile.append(hand_card)
        self.last_capturer = seat
        taken = (bool(value) << 1 | bool(loose_cards)) - 1  # loose cards, the build, both
        return Event(words.CAPTURED[seat][taken][bool(move.ace)], "capture", None, tuple(args))

    def _augment(
        self, seat: int, move: Move, loose_cards: list[Card], hand_card: Card | None
    ) -> Event:
        """§4.2, §4.7, §6.4: the part joins the build, pile card first, then the loose cards,
        then the hand card; the build is augmented."""
        build = self.builds[move.build]
        part: list[Card] = []
        if move.top:
            part.append(self.piles[1 - seat].pop())
        part += loose_cards
        if hand_card is not None:
            part.append(hand_card)
        build.cards += part
        build.augmented = True
        args: list[tuple[str, Arg | Cards]] = [("value", str(build.value))]
        if move.top:
            args.append(("top", part[0].pretty))
            if part[1:]:
                args.append(("cards", Cards(part[1:])))
        else:
            args.append(("cards", Cards(part)))
        message = words.ADDED[seat][(2 if part[1:] else 1) if move.top else 0]
        return Event(message, "build", None, tuple(args))

    def _change(self, seat: int, move: Move, hand_card: Card) -> Event:
        """§4.5: the hand card joins the opponent's build, which is now the player's, of the
        new value; §4.6: into the value of the player's own build, it merges into it."""
        build = self.builds.pop(move.build)
        value = move.build + hand_card.rank
        build.cards.append(hand_card)
        own = self.builds.get(value)
        if own is None:
            build.value, build.owner = value, seat
            self.builds[value] = build
        else:
            own.cards += build.cards
            own.augmented = True
        args = (
            ("old", str(move.build)),
            ("value", str(value)),
            ("card", hand_card.pretty),
            ("worth", str(move.ace)),
        )
        return Event(words.CHANGED[seat][own is not None][bool(move.ace)], "change", None, args)

    def _finish_turn(self, seat: int, card: Card, events: list[Event]) -> list[Event]:
        """Hand ``card`` was played, which ends the turn (§4): it leaves the hand, then the
        turn passes on, the second half is dealt (§3.2), or the deal ends; returns the move's
        ``events`` followed by what happened."""
        hand = self.hands[seat]
        hand.remove(card)
        self.turn = 1 - seat
        if hand or self.hands[1 - seat]:
            return events
        if self.stock:
            self.half = 2
            self.deal_hands()
            events.append(Event(words.SECOND_HALF, "half"))
            return events
        return events + self.end_deal()

    # -- §9, §10: the end of a deal and of the game ---------------------------------------------
    def end_deal(self) -> list[Event]:
        """§9.1: the last capturer sweeps the layout (builds too); §9.2: the deal is scored;
        §10: the game ends or the next deal starts with the other dealer."""
        events: list[Event] = []
        left = [card for value in sorted(self.builds) for card in self.builds[value].cards]
        left += self.loose
        if self.last_capturer is not None and left:
            self.piles[self.last_capturer] += left
            swept = (("cards", Cards(left)),)
            events.append(Event(words.SWEPT[self.last_capturer], "capture", args=swept))
            self.builds = {}
            self.loose = []
        piles = held_sets(self.piles)  # one set a pile, for the points and for their check
        points, reasons = score_piles(piles)
        for seat in (0, 1):
            self.totals[seat] += points[seat]
        self.history.append(points)
        deal = ("deal", str(self.deal_number + 1))
        counts = pile_phrase(piles, SPADES, SCORING_CARDS, N_("1 point each"))
        events.append(Event(words.PILES, "piles", args=(deal, ("piles", counts))))
        scores: list[tuple[str, Arg]] = [deal]
        for seat in (0, 1):
            said: Arg = ""
            if reasons[seat]:  # punctuation around the reasons, no word to translate
                said = Phrase(" ({reasons})", (("reasons", listing(", ", reasons[seat])),))
            scores.append((f"points{seat}", str(points[seat])))
            scores.append((f"reasons{seat}", said))
            scores.append((f"total{seat}", str(self.totals[seat])))
        events.append(Event(words.SCORES, "hand_end", args=tuple(scores)))
        best = max(self.totals)
        target = int(self.options["target"] or 0)
        if best >= target and self.totals.count(best) == 1:
            self.over = True
            winner = self.totals.index(best)
            won = (("points", str(best)),)
            events.append(Event(words.WINS[winner], "game_end", args=won))
            return events
        self.deal_number += 1
        self.dealer = 1 - self.dealer
        events += self.start_deal()
        return events

    # -- views -----------------------------------------------------------------------------------
    def public_view(self) -> View:
        return {
            "game": self.game.id,
            "deal_number": self.deal_number + 1,
            "dealer": self.dealer,
            "half": "first" if self.half == 1 else "second",
            "to_act": list(self.to_act()),
            "turn": None if self.over else self.turn,
            "layout": cards_json(self.loose),
            "builds": [build_json(self.builds[value]) for value in sorted(self.builds)],
            "piles": [
                {"size": len(pile), "top": pile[-1].text if pile else None} for pile in self.piles
            ],
            "hand_sizes": [len(hand) for hand in self.hands],
            "stock": len(self.stock),
            "last_capturer": self.last_capturer,
            "scores": list(self.totals),
            "history": [list(points) for points in self.history],
            "target": self.options["target"],
            "over": self.over,
            "winners": list(self.winners()),
        }

    def view(self, seat: int) -> View:
        return {**self.public_view(), "seat": seat, "hand": cards_json(self.hands[seat])}

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        other = self.hands[1 - seat]
        redeal([other, self.stock], rng)
        # The owner of a build holds a card of its value (public knowledge): deal one back.
        theirs = [value for value, build in self.builds.items() if build.owner != seat]
        for value in theirs:
            if any(serves(card, value) for card in other):
                continue
            needed = [index for index, card in enumerate(self.stock) if serves(card, value)]
            spare = [
                index
                for index, card in enumerate(other)
                if not any(serves(card, owned) for owned in theirs)
            ]
            if needed and spare:
                into, out = rng.choice(spare), rng.choice(needed)
                other[into], self.stock[out] = self.stock[out], other[into]
        other.sort()

    def zones(self) -> Iterable[Zone]:
        for seat in (0, 1):
            yield Zone(f"hand s{seat}", tuple(self.hands[seat]), frozenset((seat,)))
            # Every captured card lay face up or was played face up: all have seen the pile.
            yield Zone(f"pile s{seat}", tuple(self.piles[seat]), None)
        yield Zone("layout", tuple(self.loose), None)
        for value in sorted(self.builds):
            yield Zone(f"build {value}", tuple(self.builds[value].cards), None)
        yield Zone("stock", tuple(self.stock), frozenset())

    # -- saving ------------------------------------------------------------------------------
    def _to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "half": self.half,
            "hands": [cards_json(hand) for hand in self.hands],
            "piles": [cards_json(pile) for pile in self.piles],
            "layout": cards_json(self.loose),
            "builds": [build_json(self.builds[value]) for value in sorted(self.builds)],
            "stock": cards_json(self.stock),
            "last_capturer": self.last_capturer,
            **self.totals_json(),
        }
