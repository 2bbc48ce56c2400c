"""A game of Twenty-Two at a decision: the rules of docs/rules/twentytwo.md carried out, from
the deal (§3) through the exchange (§4) and the tricks (§5) to the showdown (§6) and the next
hand or the end (§7)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from engine.cards import FULL_DECK, Card, cards_pretty
from engine.core import (
    Action,
    DeckPlan,
    Event,
    OptionValue,
    State,
    View,
    Word,
    Zone,
    cards_json,
    deal_out,
    redeal,
)
from engine.games.twentytwo.rules import (
    ELIMINATED_AT,
    FIRST_HAND_SIZE,
    RANK_LABEL,
    Exchange,
    ExchangeOptions,
    Play,
    draw_for_dealer,
    follows,
    hand_size,
    holds_cards,
    in_rank_order,
    is_beat,
    is_follow,
    is_lead,
    leads,
    losers,
    options,
    penalty,
    put_in_place,
    strength,
)
from engine.games.twentytwo.words import (
    cards_event,
    deal_event,
    dealt_event,
    draw_events,
    exchange_events,
    loss_event,
    seat_event,
    skipped_event,
    winners_event,
)
from engine.words import N_, _, ngettext


@mypyc_attr(allow_interpreted_subclasses=True)  # a compiled state is made by its class call
class TwentyTwoState(State):
    """A twentytwo game at a decision."""

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.hand_number = 0  # 0-based; hand ``hand_number`` uses deck_plan.deck(hand_number)
        self.dealer = 0
        self.dealer_draw: list[list[tuple[int, Card]]] = []
        self.phase = "exchange"  # exchange, play or over
        self.dealt = 0  # cards each in this hand
        self.in_hand: list[int] = []  # seats still in at the start of this hand
        self.hands: list[list[Card]] = [[] for _ in range(players)]  # sorted by rank_key
        self.discards: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []
        self.trick: list[tuple[int, tuple[Card, ...]]] = []  # (seat, cards) in play order
        self.best_seat: int | None = None  # who made the best play of the trick so far
        self.best: tuple[int, ...] = ()  # the best play's ranks, low to high
        self.played: list[Card] = []  # earlier tricks of this hand, face up, out of play
        self.revealed: list[Card] = []  # the showdown's non-losing cards (kept at the end only)
        self.pending: list[int] = []  # seats still to act in this exchange round or trick
        # Per seat, the least rank its hand can hold this hand (0: unknown): a follow that
        # does not beat is its player's lowest cards, so what stays is at least as high.
        self.floors = [0] * players
        self.penalties: list[list[Card]] = [[] for _ in range(players)]  # face up, out of deck
        self.totals = [0] * players
        self.last_hand: dict[str, Any] | None = None  # the previous showdown, for the views
        self.winner_seats: list[int] = []

    # -- seats -------------------------------------------------------------------------------
    def is_in(self, seat: int) -> bool:
        """§7.2: whether ``seat`` is still in the game (below 22)."""
        return self.totals[seat] < ELIMINATED_AT

    def seats_in_from(self, first: int) -> list[int]:
        """The seats still in, clockwise starting at ``first``."""
        seats = []
        for step in range(self.players):
            seat = (first + step) % self.players
            if self.is_in(seat):
                seats.append(seat)
        return seats

    def others_after(self, seat: int) -> list[int]:
        """The other seats in this hand, clockwise after ``seat`` (one of them)."""
        seats = self.in_hand
        place = seats.index(seat)
        return [seats[(place + step) % len(seats)] for step in range(1, len(seats))]

    # -- §2 the first dealer, §3 the deal -------------------------------------------------------
    def start(self) -> list[Event]:
        """§2.1, §2.2: choose the first dealer (a draw, unless the deck was given), then deal
        hand 1."""
        events: list[Event] = []
        if not self.deck_plan.is_stacked:
            self.dealer_draw = draw_for_dealer(self.seed, self.players)
            events.extend(draw_events(self.dealer_draw))
            self.dealer = max(self.dealer_draw[-1], key=lambda pair: strength(pair[1]))[0]
        events.extend(self.start_hand(FIRST_HAND_SIZE))
        return events

    def in_play(self) -> Sequence[Card]:
        """§6.2: the cards of the deck this hand: all but the penalty cards out so far (the
        full deck itself while none is out, which ``DeckPlan.deck`` needs not sort)."""
        out = {card for pile in self.penalties for card in pile}
        return [card for card in FULL_DECK if card not in out] if out else FULL_DECK

    def start_hand(self, wanted: int) -> list[Event]:
        """§3.1–§3.3: deal ``wanted`` cards each (fewer if the deck is short) one at a time
        clockwise from the dealer's left to the seats still in; the rest is the stock. Then
        the exchange (§4), or play if there is no stock."""
        deck = self.deck_plan.deck(self.hand_number, self.in_play())
        order = self.seats_in_from(self.dealer + 1)
        self.in_hand = sorted(order)
        self.dealt = dealt = hand_size(wanted, len(deck), len(order))
        # One card at a time round the table: the seat at place p in ``order`` gets the cards
        # at p, p + seats, p + 2 * seats … of the dealt part of the deck.
        dealt_cards = dealt * len(order)
        self.stock = deck[dealt_cards:]
        self.discards = [[] for _ in range(self.players)]
        self.trick, self.best_seat, self.best, self.played, self.revealed = [], None, (), [], []
        self.floors = [0] * self.players
        events = [
            deal_event(self.hand_number + 1, self.dealer, dealt, len(deck), wanted, len(self.stock))
        ]
        self.hands = [[] for _ in range(self.players)]
        for place, seat in enumerate(order):
            self.hands[seat] = in_rank_order(deck[place : dealt_cards : len(order)])
            events.append(dealt_event(seat, self.hands[seat]))
        if self.stock:
            self.phase = "exchange"
            self.pending = order
            return events
        events.append(Event(N_("The stock is empty: nobody exchanges"), "exchange"))
        return events + self.start_play()

    def start_play(self) -> list[Event]:
        """§5.1: after the exchange, the first player still in to the dealer's left leads."""
        self.phase = "play"
        leader = self.seats_in_from(self.dealer + 1)[0]
        if self.dealt == 1:  # everyone holds the one card dealt: no tricks
            return self.showdown(leader)
        self.pending = [leader]
        return []

    # -- decisions -----------------------------------------------------------------------------
    def _to_act(self) -> tuple[int, ...]:
        return (self.pending[0],) if self.phase != "over" and self.pending else ()

    def _legal_actions(self, seat: int) -> Sequence[Action]:
        hand = self.hands[seat]
        if self.phase == "exchange":
            return options(hand, len(self.stock))
        if not self.trick:
            return tuple(leads(hand))
        return tuple(follows(hand, self.best))

    def best_ranks(self) -> tuple[int, ...]:
        """The ranks of the best play of the current trick so far, low to high."""
        if not self.trick:
            raise AssertionError("no trick is being played")
        return self.best

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may take ``action`` now, asked of the rule it falls under (§4.1,
        §5.2, §5.3): by ranks, as suits never matter, and with the named cards really held."""
        if seat not in self.to_act():
            return False
        if self.phase == "exchange":
            exchanges = self.legal_actions(seat)
            assert isinstance(exchanges, ExchangeOptions)
            return exchanges.allows(action)
        hand = self.hands[seat]
        if not isinstance(action, Play) or not holds_cards(hand, action.cards):
            return False
        if not self.trick:
            return is_lead(action.ranks, len(hand))
        return is_follow(action.ranks, hand, self.best)

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.phase == "over" or seat not in self.to_act():
            return super().explain_illegal(seat, action)
        hand = self.hands[seat]
        if isinstance(action, Exchange | Play):
            missing = [card for card in action.cards if card not in hand]
            if missing:
                return _("You do not hold {cards}.").format(cards=cards_pretty(missing))
        if self.phase == "exchange":
            if isinstance(action, Play):
                return _("First comes the exchange: keep your cards or exchange some.")
            if isinstance(action, Exchange) and len(action.cards) > len(self.stock):
                left = len(self.stock)
                return ngettext(
                    "The stock has only {count} card to exchange.",
                    "The stock has only {count} cards to exchange.",
                    left,
                ).format(count=left)
            return super().explain_illegal(seat, action)
        if not isinstance(action, Play):
            return _("The exchange is over: play to the trick.")
        if not self.trick:
            if len(set(action.ranks)) != 1:
                return _("A lead is one or more cards of the same rank.")
            return _("You must keep at least one card in your hand when you lead.")
        count = len(self.trick[0][1])
        if len(action.cards) != count:
            return ngettext(
                "Play exactly {count} card, as many as were led.",
                "Play exactly {count} cards, as many as were led.",
                count,
            ).format(count=count)
        return _(
            "{cards} does not beat the best play: beat it (each card at least as high as the"
            " best play's card in the same place) or play your lowest: {lowest}."
        ).format(cards=cards_pretty(action.cards), lowest=cards_pretty(hand[:count]))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Play):
            return self.apply_play(seat, action)
        if isinstance(action, Exchange):
            return self.apply_exchange(seat, action)
        assert isinstance(action, Word)
        return self.apply_keep(seat)

    # -- §4 the exchange ------------------------------------------------------------------------
    def apply_keep(self, seat: int) -> list[Event]:
        """§4.1: a player keeps their hand."""
        del self.pending[0]
        events = [seat_event(seat, N_("{player} keeps their cards"), "exchange")]
        return events + self.end_of_turn_in_exchange()

    def apply_exchange(self, seat: int, action: Exchange) -> list[Event]:
        """§4.1: a player's discards leave play and as many cards come from the stock."""
        del self.pending[0]
        hand = self.hands[seat]
        for card in action.cards:
            hand.remove(card)
        self.discards[seat] += action.cards
        count = len(action.cards)
        drawn = in_rank_order(self.stock[:count])
        del self.stock[:count]
        for card in drawn:
            put_in_place(hand, card)
        events = exchange_events(seat, action.cards, drawn, len(self.stock))
        return events + self.end_of_turn_in_exchange()

    def end_of_turn_in_exchange(self) -> list[Event]:
        """§4.2: the exchange ends when everyone had theirs or the stock is empty."""
        events: list[Event] = []
        if not self.stock and self.pending:
            events.append(skipped_event(self.pending))
            self.pending = []
        if not self.pending:
            events.extend(self.start_play())
        return events

    # -- §5 tricks -----------------------------------------------------------------------------
    def apply_play(self, seat: int, action: Play) -> list[Event]:
        """§5.2–§5.4: a lead or a follow; when all have played, the last beater (or the
        leader) wins the trick and leads the next, or the showdown comes (§6.1)."""
        cards, ranks = action.cards, action.ranks
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        del self.pending[0]
        if not self.trick:
            self.trick = [(seat, cards)]
            self.best_seat, self.best = seat, ranks
            self.pending = self.others_after(seat)
            events = [cards_event(seat, N_("{player} leads {cards}"), cards, "play")]
        else:
            self.trick.append((seat, cards))
            if is_beat(ranks, self.best):  # a legal follow: as many cards
                self.best_seat, self.best = seat, ranks
                events = [cards_event(seat, N_("{player} beats with {cards}"), cards, "play")]
            else:
                self.floors[seat] = ranks[-1]
                lowest = N_("{player} plays their lowest: {cards}")
                events = [cards_event(seat, lowest, cards, "play")]
        if self.pending:
            return events
        winner = self.best_seat
        assert winner is not None
        for _seat, played in self.trick:
            self.played += played
        self.trick, self.best_seat, self.best = [], None, ()
        events.append(seat_event(winner, N_("{player} wins the trick"), "trick"))
        # Everyone in the hand plays as many cards to a trick: all hold as many as this seat.
        if len(hand) == 1:
            events.extend(self.showdown(winner))
        else:
            self.pending = [winner]
        return events

    # -- §6 the last card, §7 the next hand and the end -------------------------------------------
    def showdown(self, first: int) -> list[Event]:
        """§6.1, §6.2: everyone shows their last card clockwise from ``first``; the highest
        rank loses its penalty (ties all score) and that card stays face up in front of its
        owner. Then §7.1: the next hand, dealt by the (last) loser, or the end (§7.3)."""
        reveals = [(seat, self.hands[seat][0]) for seat in self.seats_in_from(first)]
        lost = losers(reveals)
        top = max([strength(card) for _, card in reveals])
        points = penalty(top)
        events = []
        for seat, card in reveals:
            events.append(cards_event(seat, N_("{player} shows {cards}"), (card,), "reveal"))
            self.hands[seat] = []
            if seat in lost:
                self.totals[seat] += points
                self.penalties[seat].append(card)
            else:
                self.revealed.append(card)
        self.last_hand = {
            "hand": self.hand_number + 1,
            "reveals": [[seat, card.text] for seat, card in reveals],
            "losers": lost,
            "penalty": points,
        }
        out = [seat for seat in lost if not self.is_in(seat)]
        events.append(loss_event(self.hand_number + 1, lost, top, points, self.totals, out))
        still_in = self.seats_in_from(0)
        if len(still_in) <= 1:
            return events + self.finish(still_in)
        self.dealer = lost[-1]  # §7.1: tied losers: the last of them in reveal order deals
        self.hand_number += 1
        return events + self.start_hand(points)

    def finish(self, still_in: list[int]) -> list[Event]:
        """§7.3: the one player left wins; if everyone still in was put out in this hand, the
        lowest total among them wins (equal lowest: shared)."""
        if still_in:
            self.winner_seats = still_in
        else:
            low = min([self.totals[seat] for seat in self.in_hand])
            self.winner_seats = [seat for seat in self.in_hand if self.totals[seat] == low]
        self.phase, self.pending = "over", []
        return [winners_event(self.winner_seats)]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> tuple[int, ...]:
        """Running penalty totals (lower is better)."""
        return tuple(self.totals)

    def winners(self) -> tuple[int, ...]:
        return tuple(self.winner_seats)

    # -- views ---------------------------------------------------------------------------------
    def public_view(self) -> View:
        # Rank labels only where cards went back into the deck (the draw, the last showdown):
        # suits never matter here, and the cards have been shuffled back.
        last = self.last_hand
        return {
            "game": self.game.id,
            "hand_number": self.hand_number + 1,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": list(self.to_act()),
            "dealt": self.dealt,
            "in": [seat for seat in range(self.players) if self.is_in(seat)],
            "hand_sizes": [len(hand) for hand in self.hands],
            "stock": len(self.stock),
            "discard_counts": [len(pile) for pile in self.discards],
            "trick": [{"seat": seat, "cards": cards_json(cards)} for seat, cards in self.trick],
            "best_seat": self.best_seat,
            "played": cards_json(self.played),
            "revealed": cards_json(self.revealed),
            "floors": list(self.floors),
            "penalties": [cards_json(pile) for pile in self.penalties],
            "dealer_draw": [
                [[seat, RANK_LABEL[strength(card)]] for seat, card in draw]
                for draw in self.dealer_draw
            ],
            "last_hand": None
            if last is None
            else {
                "hand": last["hand"],
                "reveals": [
                    [seat, RANK_LABEL[strength(Card.parse(text))]] for seat, text in last["reveals"]
                ],
                "losers": list(last["losers"]),
                "penalty": last["penalty"],
            },
            "scores": list(self.totals),
            "eliminated_at": ELIMINATED_AT,
            "over": self.is_over,
            "winners": list(self.winner_seats),
        }

    def view(self, seat: int) -> View:
        return {
            **self.public_view(),
            "seat": seat,
            "hand": cards_json(self.hands[seat]),
            "discards": cards_json(self.discards[seat]),
        }

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        # Other seats' discards went face down: hidden too, like their hands and the stock.
        others = [other for other in range(self.players) if other != seat]
        hands = [self.hands[other] for other in others]
        places = [*hands, *(self.discards[other] for other in others), self.stock]
        floored = sorted((o for o in others if self.floors[o]), key=lambda o: -self.floors[o])
        if not floored:
            redeal(places, rng)
        else:
            # A hand with a floor takes the first cards of the shuffled pool at or above it,
            # highest floor first: uniform over the deals that respect every floor, as a
            # higher floor's cards are among a lower one's. The other places share the rest.
            pool = sorted(card for place in places for card in place)
            rng.shuffle(pool)
            for other in floored:
                hand = self.hands[other]
                floor = self.floors[other]
                hand[:] = [card for card in pool if strength(card) >= floor][: len(hand)]
                taken = set(hand)
                pool = [card for card in pool if card not in taken]
            free = [place for place in places if all(place is not self.hands[o] for o in floored)]
            deal_out(free, pool)
        for hand in hands:
            hand[:] = in_rank_order(hand)

    def zones(self) -> Iterable[Zone]:
        for seat in range(self.players):
            yield Zone(f"hand s{seat}", tuple(self.hands[seat]), frozenset((seat,)))
            # Discards go face down: only the discarder saw them.
            yield Zone(f"discards s{seat}", tuple(self.discards[seat]), frozenset((seat,)))
            yield Zone(f"penalties s{seat}", tuple(self.penalties[seat]), None)
        yield Zone("stock", tuple(self.stock), frozenset())
        yield Zone("trick", tuple(card for _, cards in self.trick for card in cards), None)
        yield Zone("played", tuple(self.played), None)
        yield Zone("revealed", tuple(self.revealed), None)

    # -- saving ----------------------------------------------------------------------------------
    def _to_json(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "dealer_draw": [
                [[seat, card.text] for seat, card in draw] for draw in self.dealer_draw
            ],
            "phase": self.phase,
            "dealt": self.dealt,
            "in_hand": list(self.in_hand),
            "hands": [cards_json(hand) for hand in self.hands],
            "discards": [cards_json(pile) for pile in self.discards],
            "stock": cards_json(self.stock),
            "trick": [[seat, cards_json(cards)] for seat, cards in self.trick],
            "best_seat": self.best_seat,
            "played": cards_json(self.played),
            "revealed": cards_json(self.revealed),
            "floors": list(self.floors),
            "pending": list(self.pending),
            "penalties": [cards_json(pile) for pile in self.penalties],
            "totals": list(self.totals),
            "last_hand": self.last_hand,
            "winners": list(self.winner_seats),
        }
