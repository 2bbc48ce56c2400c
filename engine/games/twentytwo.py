"""twentytwo: Twenty-Two, a trick game where the last card you hold must not be the highest
(rules: docs/rules/twentytwo.md). Scores are penalties: lower is better.

Where each rule lives, in the order of the rules document:

- Suits never matter, A is high: ``STRENGTH`` (A = 14) and ``rank_key``; actions compare by
  ranks only (``Exchange``, ``Play``), so one legal action is offered per choice of ranks,
  written with the lowest suits held (the front of each rank: ``rank_sizes``); any held
  cards of those ranks may be named (``TwentyTwoState.is_legal`` checks they are held).
- First dealer by a high-card draw, tied highest redraw (shown as events):
  ``draw_for_dealer``; with a given deck seat 0 deals and there is no draw.
- The deal, one card at a time clockwise from the dealer's left, skipping eliminated players;
  7 cards in hand 1, later the losing card's penalty, or floor(deck / players in) when the
  deck is short: ``TwentyTwoState.start_hand`` and ``hand_size``.
- The exchange, once each clockwise from the dealer's left (``keep`` or one ``exchange`` of
  1..min(hand, stock) cards), skipped once the stock is empty: ``exchanges``,
  ``TwentyTwoState.apply_exchange``.
- Leads of k cards of one rank, keeping one card back: ``leads``, ``is_lead``.
- Following with a beat (sorted high to low, each card ≥ the same place of the best play) or
  with exactly one's k lowest cards (a beat if they pass the test): ``is_beat``, ``follows``,
  ``is_follow``.
- The last beater (or the leader) wins the trick and leads next: ``TwentyTwoState.apply_play``.
- The showdown when everyone holds one card, revealed clockwise from the last trick's winner;
  the highest rank loses its penalty (A 11, K Q J 10, 2–10 face), ties all score, and the
  penalty card stays face up in front of its owner, out of the deck: ``PENALTY``,
  ``TwentyTwoState.showdown``.
- Next dealer (the loser; tied losers: the last in reveal order), elimination at 22 (an
  eliminated loser still deals but gets no cards), the end and the winners:
  ``TwentyTwoState.showdown`` and ``TwentyTwoState.finish``.
- The heuristic AI: ``engine.ai.twentytwo``.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from itertools import accumulate, chain, combinations, compress, repeat, starmap
from operator import ge, gt, is_, itemgetter, ne
from typing import Any, ClassVar, Self, TypeGuard, TypeVar, cast

from engine.cards import FULL_DECK, Card, cards_pretty, describe_cards, is_card_text, shuffle
from engine.choices import count_words
from engine.core import (
    Action,
    CardSet,
    DeckPlan,
    Event,
    Game,
    OptionValue,
    State,
    View,
    Word,
    Zone,
    cards_from_json,
    cards_json,
    deal_out,
    make_rng,
    parse_error,
    redeal,
)
from engine.errors import ActionParseError, CardError, SavedStateError
from engine.layout import Layout, face_up, rows, stack, your_hand
from engine.words import N_, _, ngettext

FIRST_HAND_SIZE = 7
ELIMINATED_AT = 22

STRENGTH: dict[Card, int] = {card: 14 if card.rank == 1 else card.rank for card in FULL_DECK}
"""A card's rank for this game: 2 … 10, J 11, Q 12, K 13, A 14 (aces are high)."""

RANK_LABEL = {
    **{value: str(value) for value in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
RANK_NAME = {
    **{value: f"{value}s" for value in range(2, 11)},
    11: "jacks",
    12: "queens",
    13: "kings",
    14: "aces",
}

PENALTY = {**{value: value for value in range(2, 11)}, 11: 10, 12: 10, 13: 10, 14: 11}
"""Penalty points of a losing last card, by strength: A 11, K Q J 10, 2–10 face value."""

PLAYER_COUNTS = (2, 3, 4, 5, 6)
ONLY = tuple(frozenset((seat,)) for seat in range(max(PLAYER_COUNTS)))
"""``ONLY[seat]``: who may see a private event of ``seat`` (made once, not per event), for each
seat a table can have."""


def rank_key(card: Card) -> tuple[int, int]:
    """Order of cards in this game: by rank with aces high, then by suit (C D H S).

    >>> sorted([Card.parse("AC"), Card.parse("2S"), Card.parse("2C")], key=rank_key)
    [Card('2C'), Card('2S'), Card('AC')]
    """
    return STRENGTH[card], card.suit


RANK_ORDER: dict[Card, int] = {
    card: place for place, card in enumerate(sorted(FULL_DECK, key=rank_key))
}
"""Each card's place in ``rank_key`` order: the same sort, with the key looked up in C (hands
are sorted after every deal and exchange)."""


def deck_place(card: Card) -> int:
    """Where ``card`` is in ``FULL_DECK`` (card order: by rank, ace first, then suit).

    >>> all(FULL_DECK[deck_place(card)] is card for card in FULL_DECK)
    True
    """
    rank, suit = card
    return (rank - 1) * 4 + suit


def ranks_of(cards: Iterable[Card]) -> tuple[int, ...]:
    """The strengths of ``cards``, low to high (how actions compare)."""
    return tuple(sorted(map(STRENGTH.__getitem__, cards)))


# -- actions ---------------------------------------------------------------------------------
class CardChoice(tuple[tuple[int, ...], tuple[Card, ...]]):
    """Some cards of a hand: the cards at positions ``picked`` of ``pool``, a hand sorted by
    ``rank_key``; made from the pair ``(picked, pool)``. The base of ``Exchange`` and ``Play``.

    The legal actions of one decision share the hand as their pool, and their positions come
    from tables cached per shape of hand: listing the 2,047 exchanges of an 11-card hand builds
    one small tuple each (a plain tuple subclass, so that ``card_choices`` makes them in C).
    Equal (and hashed) by type and ranks only, since suits never matter: ``exchange 7H`` equals
    the legal ``exchange 7C``; the state checks that the named cards are held.
    """

    __slots__ = ()

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Self:
        """The choice of exactly these cards."""
        ordered = tuple(sorted(cards, key=rank_key))
        return cls((tuple(range(len(ordered))), ordered))

    @property
    def picked(self) -> tuple[int, ...]:
        """Positions in ``pool``, ascending."""
        return self[0]

    @property
    def pool(self) -> tuple[Card, ...]:
        """The hand the cards are chosen from, sorted by ``rank_key``."""
        return self[1]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The named cards, in ``rank_key`` order."""
        picked, pool = self
        if len(picked) > 1:
            # One itemgetter call: a third of the cost of ``map(pool.__getitem__, picked)``,
            # as a tuple's ``__getitem__`` is a slow wrapper.
            return cast(tuple[Card, ...], itemgetter(*picked)(pool))
        return (pool[picked[0]],) if picked else ()  # itemgetter would give the card itself

    @property
    def ranks(self) -> tuple[int, ...]:
        """Their strengths, low to high (how actions compare)."""
        return tuple(map(STRENGTH.__getitem__, self.cards))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.ranks == other.ranks

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.ranks))


Choice = TypeVar("Choice", bound=CardChoice)


class Exchange(CardChoice):
    """Discard ``cards`` and draw as many from the stock."""

    __slots__ = ()

    @property
    def text(self) -> str:
        """``exchange 3C 7H``."""
        return "exchange " + " ".join(card.text for card in self.cards)

    @property
    def path(self) -> tuple[str, ...]:
        """``exchange``, then the cards low to high one a step, then ``done``."""
        return ("exchange", *(card.text for card in self.cards), "done")


class Play(CardChoice):
    """Play ``cards`` to the trick (a lead, a beat or one's lowest cards)."""

    __slots__ = ()

    @property
    def text(self) -> str:
        """``play 7C 7D``."""
        return "play " + " ".join(card.text for card in self.cards)

    @property
    def path(self) -> tuple[str, ...]:
        """The cards high to low (suits low to high within a rank), one a step, then ``done``:
        a lead picks its rank, then how many; a follow picks its cards one by one."""
        ordered = sorted(self.cards, key=lambda card: (-STRENGTH[card], card.suit))
        return (*(card.text for card in ordered), "done")


KEEP = Word("keep")  # exchange nothing


def card_choices(
    kind: type[Choice], picks: Iterable[tuple[int, ...]], pool: tuple[Card, ...]
) -> Iterator[Choice]:
    """``kind((picked, pool))`` for each of ``picks``, made in C: the hot loop of listing
    exchanges (up to 2,047 a hand). ``starmap`` hands each pair to ``kind`` inside the
    one-item tuple that ``zip`` makes, which saves the argument tuple of a plain call
    (``map(kind, pairs)``): about 6% of the cost of each exchange listed."""
    return starmap(kind, zip(zip(picks, repeat(pool))))  # noqa: RUF058 (see above)


def plays(picks: Iterable[tuple[int, ...]], pool: tuple[Card, ...]) -> tuple[Play, ...]:
    """``Play((picked, pool))`` for each of ``picks``: the few leads or follows of a hand.
    A plain comprehension, as setting up ``card_choices``' four iterators costs more than it
    saves on a handful of plays."""
    return tuple([Play((picked, pool)) for picked in picks])


# -- the rules as functions --------------------------------------------------------------------
def rank_sizes(hand: Sequence[Card]) -> tuple[int, ...]:
    """How many cards of each rank a hand sorted by ``rank_key`` holds, low to high: the
    hand's shape, which is all the lists of leads and exchanges depend on."""
    sizes: list[int] = []
    last = 0
    for card in hand:  # a plain loop: quicker than any C-level grouping for ≤ 11 cards
        strength = STRENGTH[card]
        if strength == last:
            sizes[-1] += 1
        else:
            sizes.append(1)
            last = strength
    return tuple(sizes)


SPANS = tuple(
    tuple(tuple(range(first, first + count)) for count in range(5)) for first in range(52)
)
"""``SPANS[first][count]``: the positions of ``count`` cards from ``first`` on (one rank's)."""


def is_beat(play_ranks: Sequence[int], best_ranks: Sequence[int]) -> bool:
    """Whether a play beats the best play: same count and, both sorted high to low, every card
    at least the card in the same place (equal counts as a beat).

    >>> is_beat((9, 14), (7, 7)), is_beat((7, 7), (7, 7)), is_beat((3, 14), (7, 7))
    (True, True, False)
    """
    if len(play_ranks) != len(best_ranks):
        return False
    return beats_in_order(sorted(play_ranks), sorted(best_ranks))


def beats_in_order(play_ranks: Sequence[int], best_ranks: Sequence[int]) -> bool:
    """``is_beat`` for plays of as many cards, both already low to high (as played cards are):
    the places pair the same cards as both high to low.

    >>> beats_in_order((9, 14), (7, 7)), beats_in_order((3, 14), (7, 7))
    (True, False)
    """
    return all(map(ge, play_ranks, best_ranks))


def lead_limit(hand_size: int) -> int:
    """The most cards a lead may have: all but one, or the only card held."""
    return hand_size - 1 if hand_size >= 2 else 1


def is_lead(play_ranks: Sequence[int], hand_size: int) -> bool:
    """Whether a play of ``play_ranks`` (held) may lead: one rank, within ``lead_limit``."""
    return len(set(play_ranks)) == 1 and len(play_ranks) <= lead_limit(hand_size)


def is_follow(play_ranks: Sequence[int], hand: Sequence[Card], best_ranks: Sequence[int]) -> bool:
    """Whether a play of ``play_ranks`` (held) may follow: a beat, or exactly one's lowest
    cards. ``hand`` is sorted by ``rank_key``."""
    lowest = ranks_of(hand[: len(best_ranks)])
    return is_beat(play_ranks, best_ranks) or tuple(sorted(play_ranks)) == lowest


def leads(hand: Sequence[Card]) -> tuple[Play, ...]:
    """Every lead: k ≥ 1 cards of one rank, keeping at least one card back when holding two or
    more. Ordered by rank, then count. ``hand`` is sorted by ``rank_key``."""
    pool = tuple(hand)
    return plays(_lead_picks(rank_sizes(pool)), pool)


@cache  # one entry per shape of hand: a few thousand at most
def _lead_picks(sizes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For a hand whose ranks come in groups of ``sizes`` (low to high), the positions of each
    lead's cards (the lowest suits of its rank), by rank then count."""
    limit = lead_limit(sum(sizes))
    picks: list[tuple[int, ...]] = []
    first = 0
    for size in sizes:
        picks += SPANS[first][1 : min(size, limit) + 1]
        first += size
    return tuple(picks)


def follows(hand: Sequence[Card], best_ranks: Sequence[int]) -> tuple[Play, ...]:
    """Every legal follow to a best play of ``best_ranks``: each beat, and the k lowest cards
    (one action whatever their suits). Ordered by ranks. ``hand`` is sorted by ``rank_key``."""
    pool = tuple(hand)
    strengths = list(map(STRENGTH.__getitem__, pool))
    need = sorted(best_ranks)
    count = len(need)
    # A beat holds only cards at least the best play's lowest.
    start = bisect_left(strengths, need[0])
    if count == 1:  # most follows: the quick way to the same list
        made = [Play((SPANS[0][1], pool))] if start else []  # the lowest card, not a beat
        last = 0
        for position in range(start, len(pool)):
            if strengths[position] != last:  # the lowest suit of each rank that beats
                made.append(Play((SPANS[position][1], pool)))
                last = strengths[position]
        return tuple(made)
    # Which plays beat depends only on how each card from ``start`` on compares with the best
    # play's cards (its level: how many of them it reaches) and whether its rank is new: a
    # pattern that repeats far more often than hands do.
    tail = strengths[start:]
    levels = bytes(map(bisect_right, repeat(need), tail))
    new_ranks = bytes(map(ne, tail, [0, *tail]))
    return plays(_follow_picks(start, count, levels, new_ranks), pool)


@cache  # one entry per pattern: far fewer than hands (95% found after 3,000 games)
def _follow_picks(
    start: int, count: int, levels: bytes, new_ranks: bytes
) -> tuple[tuple[int, ...], ...]:
    """The positions of each follow of ``count`` cards by a hand whose cards from ``start`` on
    reach ``levels`` of the best play's cards (sorted low to high) and start a new rank where
    ``new_ranks`` is 1: the hand's ``count`` lowest cards first (the lowest ranks there are),
    then each beat by ranks, in the lowest suits.

    >>> _follow_picks(1, 2, bytes([2, 2, 2]), bytes([1, 0, 1]))  # 6 | 7 7 9 against 7 7
    ((0, 1), (1, 2), (1, 3))
    """
    lowest = SPANS[0][count]
    found: dict[tuple[int, ...], tuple[int, ...]] = {}  # the ranks of each beat: its positions
    # Both sorted low to high, a beat's i-th card reaches the best play's i-th card (a level
    # above i). Choices of the same ranks come lowest suits first, as combinations go in order
    # of positions, which is also the order of their ranks.
    places = range(count)
    choices = zip(
        combinations(range(start, start + len(levels)), count),
        combinations(accumulate(new_ranks), count),  # the ranks, as a count of ranks so far
        combinations(levels, count),
        strict=True,
    )
    for positions, ranks, reached in choices:
        if ranks not in found and all(map(gt, reached, places)):
            found[ranks] = positions
    return (lowest, *(positions for positions in found.values() if positions != lowest))


def exchanges(hand: Sequence[Card], stock: int) -> tuple[Exchange, ...]:
    """Every exchange of 1..min(hand, stock) cards, one per choice of ranks, by size then
    ranks. ``hand`` is sorted by ``rank_key``."""
    return cast(tuple[Exchange, ...], exchange_options(hand, stock)[1:])


def exchange_options(hand: Sequence[Card], stock: int) -> tuple[Action, ...]:
    """The legal actions of an exchange: ``keep``, then ``exchanges``, made in one go: the hot
    loop of self-play, up to 2,048 actions, each made in C from positions cached per shape."""
    pool = tuple(hand)
    picks, ends = _exchange_picks(rank_sizes(pool))
    if stock < len(pool):  # a short stock: only the smaller exchanges
        picks = picks[: ends[stock]]
    return (KEEP, *card_choices(Exchange, picks, pool))


@cache  # one entry per shape of hand: a few thousand at most
def _exchange_picks(sizes: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """For a hand whose ranks come in groups of ``sizes`` (low to high), the positions of each
    exchange's cards (the lowest suits of each rank), by size then ranks, and for each size n
    how many exchanges have at most n cards. Cached: the shapes of hands repeat far more often
    than hands, and an 11-card hand has up to 2,047 exchanges."""
    count = sum(sizes)
    picks, no_run_from = _position_sets(count)
    if len(sizes) < count:
        # A position holding a higher suit of the rank before it is picked only with that
        # card: keep the sets where no run of picked positions starts there (positions grow
        # with rank, so the order of positions stays the order of ranks). One flag byte a set,
        # the flags of each such position ANDed as one int, then filtered in C: a new shape
        # (a few a game) costs a third of testing every set.
        kept_flags = -1  # every set, until a follower rules some out
        first = 0
        for size in sizes:
            for follower in range(first + 1, first + size):
                kept_flags &= no_run_from[follower]
            first += size
        picks = tuple(compress(picks, kept_flags.to_bytes(len(picks), "little")))
    # Sorted by size: each count of exchanges of at most n cards is found by bisection.
    return picks, tuple(bisect_right(picks, size, key=len) for size in range(count + 1))


@lru_cache(maxsize=16)
def _position_sets(count: int) -> tuple[tuple[tuple[int, ...], ...], list[int]]:
    """Every non-empty set of the positions 0 … count-1, by size then positions; and for each
    position p, the sets where no run of picked positions starts at p (p picked without the
    position before it), as an int holding one byte a set, 1 for such a set and 0 otherwise
    (the flags ``compress`` takes, combined by ``&`` in one step each).

    >>> picks, no_run_from = _position_sets(2)
    >>> picks, no_run_from[1].to_bytes(len(picks), "little")
    (((0,), (1,), (0, 1)), b'\\x01\\x00\\x01')
    """
    picks = tuple(
        chain.from_iterable(combinations(range(count), size) for size in range(1, count + 1))
    )
    masks = [sum(1 << position for position in pick) for pick in picks]
    run_starts = [mask & ~(mask << 1) for mask in masks]
    no_run_from = [
        int.from_bytes(bytes([1 - (starts >> position & 1) for starts in run_starts]), "little")
        for position in range(count)
    ]
    return picks, no_run_from


def hand_size(wanted: int, deck: int, players_in: int) -> int:
    """Cards each for the next hand: the penalty (``wanted``), or floor(deck / players) if the
    deck is short.

    >>> hand_size(10, 50, 4), hand_size(11, 49, 5)
    (10, 9)
    """
    return min(wanted, deck // players_in)


def draw_for_dealer(seed: int, players: int) -> list[list[tuple[int, Card]]]:
    """The high-card draw for the first dealer: everyone draws from a deck shuffled from the
    seed; those tied for the highest rank draw again until one is alone. Returns the rounds of
    (seat, card); the first dealer is the highest of the last round."""
    rounds: list[list[tuple[int, Card]]] = []
    deck: list[Card] = []
    drawers = list(range(players))
    while True:
        if len(deck) < len(drawers):  # only after many ties: draw from a fresh shuffle
            deck = list(FULL_DECK)  # in card order
            shuffle(deck, make_rng(seed, "dealer draw", len(rounds)))
        drawn = [(seat, deck.pop(0)) for seat in drawers]
        rounds.append(drawn)
        top = max(STRENGTH[card] for _, card in drawn)
        drawers = [seat for seat, card in drawn if STRENGTH[card] == top]
        if len(drawers) == 1:
            return rounds


# -- the state ---------------------------------------------------------------------------------
class TwentyTwoState(State):
    """A twentytwo game at a decision."""

    game: ClassVar[TwentyTwoGame]

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
        self.best: tuple[int, ...] = ()  # the best play's ranks, low to high (asked each step)
        self.played: list[Card] = []  # earlier tricks of this hand, face up, out of play
        self.revealed: list[Card] = []  # the showdown's non-losing cards (kept at the end only)
        self.pending: list[int] = []  # seats still to act in this exchange round or trick
        # Per seat, the least strength its hand can hold this hand (0: unknown): a follow that
        # does not beat is its player's lowest cards, so what stays is at least as high.
        self.floors = [0] * players
        self.penalties: list[list[Card]] = [[] for _ in range(players)]  # face up, out of deck
        self.totals = [0] * players
        self.last_hand: dict[str, Any] | None = None  # the previous showdown, for the views
        self.winner_seats: list[int] = []

    # -- seats -------------------------------------------------------------------------------
    def is_in(self, seat: int) -> bool:
        """Whether ``seat`` is still in the game (below 22)."""
        return self.totals[seat] < ELIMINATED_AT

    def seats_in_from(self, first: int) -> list[int]:
        """The seats still in, clockwise starting at ``first``."""
        totals, players = self.totals, self.players
        start = first % players
        order = [*range(start, players), *range(start)]
        if max(totals) < ELIMINATED_AT:  # nobody is out (always, in a game of two)
            return order
        return [seat for seat in order if totals[seat] < ELIMINATED_AT]  # is_in, inlined

    def others_after(self, seat: int) -> list[int]:
        """The other seats in this hand, clockwise after ``seat`` (one of them)."""
        place = self.in_hand.index(seat)
        return self.in_hand[place + 1 :] + self.in_hand[:place]

    # -- dealing -----------------------------------------------------------------------------
    def start(self) -> list[Event]:
        return self.start_game()

    def start_game(self) -> list[Event]:
        """Choose the first dealer (a draw, unless the deck was given) and deal hand 1."""
        events: list[Event] = []
        if not self.deck_plan.is_stacked:
            self.dealer_draw = draw_for_dealer(self.seed, self.players)
            events.extend(draw_events(self.dealer_draw))
            self.dealer = max(self.dealer_draw[-1], key=lambda pair: STRENGTH[pair[1]])[0]
        events.extend(self.start_hand(FIRST_HAND_SIZE))
        return events

    def in_play(self) -> Sequence[Card]:
        """The cards of the deck this hand: all but the penalty cards out so far, in card
        order (the full deck itself while none is out: ``DeckPlan.deck`` then sorts nothing)."""
        if not any(self.penalties):
            return FULL_DECK
        deck = list(FULL_DECK)
        # Deleted by place in FULL_DECK (card order), highest first so that the lower places
        # stay put: a search by list.remove compares cards one by one (~13k instructions a
        # hand).
        for card in sorted(chain.from_iterable(self.penalties), reverse=True):
            del deck[deck_place(card)]
        return deck

    def start_hand(self, wanted: int) -> list[Event]:
        """Deal hand ``hand_number`` one card at a time clockwise from the dealer's left to the
        seats still in; the rest is the stock. Then the exchange (or play, if no stock)."""
        deck = self.deck_plan.deck(self.hand_number, self.in_play())
        order = self.seats_in_from(self.dealer + 1)
        seats = len(order)
        self.in_hand = sorted(order)
        self.dealt = dealt = hand_size(wanted, len(deck), seats)
        # One card at a time round the table: the seat at place p in ``order`` gets the cards
        # at p, p + seats, p + 2 * seats ... of the dealt part of the deck.
        dealt_cards = dealt * seats
        self.stock = deck[dealt_cards:]
        self.discards = [[] for _ in range(self.players)]
        self.trick, self.best_seat, self.best, self.played, self.revealed = [], None, (), [], []
        self.floors = [0] * self.players
        deal = (
            N_("Hand {hand}: {player} deals {count} cards each; {left} left in the stock")
            if dealt == wanted
            else N_(
                "Hand {hand}: {player} deals {count} cards each (the deck of {deck} is short"
                " for {wanted} each); {left} left in the stock"
            )
        )
        numbers = {
            "hand": self.hand_number + 1,
            "count": dealt,
            "left": len(self.stock),
            "deck": len(deck),
            "wanted": wanted,
        }
        events = [Event(deal, "deal", args=(seat_arg(self.dealer), *number_args(numbers)))]
        hands = self.hands = [[] for _ in range(self.players)]
        for place, seat in enumerate(order):
            hand = hands[seat] = sorted(deck[place:dealt_cards:seats], key=RANK_ORDER.__getitem__)
            events.append(
                Event(
                    N_("{player} is dealt {cards}"),
                    "hand",
                    ONLY[seat],
                    (seat_arg(seat), ("cards", cards_pretty(hand))),
                )
            )
        if self.stock:
            self.phase = "exchange"
            self.pending = order
            return events
        events.append(Event(N_("The stock is empty: nobody exchanges"), "exchange"))
        return events + self.start_play()

    def start_play(self) -> list[Event]:
        """After the exchange: the first player still in to the dealer's left leads."""
        self.phase = "play"
        leader = self.seats_in_from(self.dealer + 1)[0]
        if self.dealt == 1:  # everyone holds the one card dealt: no tricks
            return self.showdown(leader)
        self.pending = [leader]
        return []

    # -- decisions ---------------------------------------------------------------------------
    def _to_act(self) -> tuple[int, ...]:
        return (self.pending[0],) if self.phase != "over" and self.pending else ()

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        hand = self.hands[seat]
        if self.phase == "exchange":
            return exchange_options(hand, len(self.stock))
        if not self.trick:
            return leads(hand)
        return follows(hand, self.best)

    def _find_listed(self, action: Action | None, legal: tuple[Action, ...]) -> TypeGuard[Action]:
        """Whether ``action`` is one of the exchanges ``legal`` lists, found by its place (by
        size, then positions; where each size starts, from the hand's shape table) rather than
        by a loop over up to 2,048 of them; False for any other action (the loop then looks)."""
        if type(action) is not Exchange or len(legal) < 2:
            return False
        picked, pool = action
        choices = cast(tuple[Exchange, ...], legal)  # keep first, then the exchanges
        if pool is not choices[1][1] or len(picked) > len(pool):  # not from this listing
            return False
        ends = _exchange_picks(rank_sizes(pool))[1]  # (cached by shape, as the listing used)
        first, last = ends[len(picked) - 1] + 1, min(ends[len(picked)] + 1, len(legal))
        place = bisect_left(choices, picked, first, last, key=itemgetter(0))
        return place < last and choices[place] is action

    def best_ranks(self) -> tuple[int, ...]:
        """The ranks of the best play of the current trick so far, low to high."""
        if not self.trick:
            raise AssertionError("no trick is being played")
        return self.best

    def is_legal(self, seat: int, action: Action) -> bool:
        """Legal by ranks (suits never matter), and the named cards are really held. One of the
        listed actions itself (what agents and buttons give) is legal at once; any other is
        checked by the rules, as comparing it with every listed action (up to 2,048) costs more.
        """
        legal = self.legal_actions(seat)
        if any(map(is_, legal, repeat(action))):
            return True
        if not legal:
            return False
        if not isinstance(action, (Exchange, Play)):
            return action == KEEP and self.phase == "exchange"
        hand = self.hands[seat]
        cards = action.cards
        if not cards or len(set(cards)) != len(cards) or not all(card in hand for card in cards):
            return False
        if isinstance(action, Exchange):
            return self.phase == "exchange" and len(cards) <= len(self.stock)
        if self.phase != "play":
            return False
        if not self.trick:
            return is_lead(action.ranks, len(hand))
        return is_follow(action.ranks, hand, self.best_ranks())

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.phase == "over" or seat not in self.to_act():
            return super().explain_illegal(seat, action)
        hand = self.hands[seat]
        if isinstance(action, (Exchange, Play)):
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
        assert isinstance(action, (Word, Exchange))
        return self.apply_exchange(seat, action)

    def apply_exchange(self, seat: int, action: Word | Exchange) -> list[Event]:
        """One player's exchange; the round ends when all had theirs or the stock is empty."""
        del self.pending[0]
        if isinstance(action, Word):
            events = [seat_event(seat, N_("{player} keeps their cards"), "exchange")]
        else:
            cards = action.cards
            hand = self.hands[seat]
            for card in cards:
                hand.remove(card)
            self.discards[seat].extend(cards)
            count = len(cards)
            drawn = self.stock[:count]
            del self.stock[:count]
            hand += drawn
            hand.sort(key=RANK_ORDER.__getitem__)
            drawn.sort(key=RANK_ORDER.__getitem__)
            events = [
                exchange_event(seat, count, len(self.stock)),
                Event(
                    N_("{player} discards {cards} and draws {drawn}"),
                    "exchange",
                    ONLY[seat],
                    (
                        seat_arg(seat),
                        ("cards", cards_pretty(cards)),
                        ("drawn", cards_pretty(drawn)),
                    ),
                ),
            ]
        if not self.stock and self.pending:
            skipped = ", ".join(f"{{s{other}}}" for other in self.pending)
            events.append(
                Event(
                    N_("The stock is empty: {players} keep their cards"),
                    "exchange",
                    args=(("players", skipped),),
                )
            )
            self.pending = []
        if not self.pending:
            events.extend(self.start_play())
        return events

    def apply_play(self, seat: int, action: Play) -> list[Event]:
        """A lead or a follow; the last beater (or the leader) wins the trick and leads next."""
        cards = action.cards
        ranks = tuple(map(STRENGTH.__getitem__, cards))  # low to high, as cards are
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        del self.pending[0]
        trick = self.trick
        if not trick:
            self.trick = [(seat, cards)]
            self.best_seat, self.best = seat, ranks
            self.pending = self.others_after(seat)
            events = [cards_event(seat, N_("{player} leads {cards}"), cards, "play")]
        else:
            trick.append((seat, cards))
            if beats_in_order(ranks, self.best):  # a legal follow: as many cards
                self.best_seat, self.best = seat, ranks
                events = [cards_event(seat, N_("{player} beats with {cards}"), cards, "play")]
            else:
                self.floors[seat] = ranks[-1]
                events = [
                    cards_event(seat, N_("{player} plays their lowest: {cards}"), cards, "play")
                ]
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

    # -- the showdown, the next hand and the end -------------------------------------------------
    def showdown(self, first: int) -> list[Event]:
        """Everyone reveals their last card clockwise from ``first``; the highest rank loses
        its penalty (ties all score) and that card stays face up in front of its owner."""
        hands, totals = self.hands, self.totals
        reveals = [(seat, hands[seat][0]) for seat in self.seats_in_from(first)]
        top = max([STRENGTH[card] for _, card in reveals])
        penalty = PENALTY[top]
        events, losers, shown = [], [], []
        for seat, card in reveals:
            events.append(cards_event(seat, N_("{player} shows {cards}"), (card,), "reveal"))
            shown.append([seat, card.text])
            hands[seat] = []
            if STRENGTH[card] == top:
                losers.append(seat)
                totals[seat] += penalty
                self.penalties[seat].append(card)
            else:
                self.revealed.append(card)
        self.last_hand = {
            "hand": self.hand_number + 1,
            "reveals": shown,
            "losers": losers,
            "penalty": penalty,
        }
        out = [seat for seat in losers if totals[seat] >= ELIMINATED_AT]
        if len(losers) == 1:
            message = LOSS_OUT if out else LOSS
        else:
            message = TIES_OUT[top] if out else TIES[top]
        args = {
            "hand": str(self.hand_number + 1),
            "players": seat_names(losers),
            "rank": RANK_LABEL[top],
            "penalty": str(penalty),
            "totals": totals_text(totals),
            "out": ", ".join(f"{{s{seat}}}" for seat in out),
        }
        events.append(Event(message, "hand_end", args=tuple(args.items())))
        still_in = self.seats_in_from(0)
        if len(still_in) <= 1:
            events.extend(self.finish(still_in))
            return events
        self.dealer = losers[-1]  # tied losers: the last of them in reveal order deals
        self.hand_number += 1
        events.extend(self.start_hand(penalty))
        return events

    def finish(self, still_in: list[int]) -> list[Event]:
        """The end: the one player left wins; if everyone still in was eliminated in this
        hand, the lowest total among them wins (equal lowest: shared)."""
        if still_in:
            self.winner_seats = still_in
        else:
            low = min(self.totals[seat] for seat in self.in_hand)
            self.winner_seats = [seat for seat in self.in_hand if self.totals[seat] == low]
        self.phase, self.pending = "over", []
        if len(self.winner_seats) == 1:
            return [seat_event(self.winner_seats[0], N_("{player} wins"), "game_end")]
        shared = N_("{players} share the win")
        return [Event(shared, "game_end", args=(("players", seat_names(self.winner_seats)),))]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> tuple[int, ...]:
        """Running penalty totals (lower is better)."""
        return tuple(self.totals)

    def winners(self) -> tuple[int, ...]:
        return tuple(self.winner_seats)

    # -- views -----------------------------------------------------------------------------------
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
                [[seat, RANK_LABEL[STRENGTH[card]]] for seat, card in draw]
                for draw in self.dealer_draw
            ],
            "last_hand": None
            if last is None
            else {
                "hand": last["hand"],
                "reveals": [
                    [seat, RANK_LABEL[STRENGTH[Card.parse(text)]]] for seat, text in last["reveals"]
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
                hand[:] = [card for card in pool if STRENGTH[card] >= self.floors[other]][
                    : len(hand)
                ]
                taken = set(hand)
                pool = [card for card in pool if card not in taken]
            free = [place for place in places if all(place is not self.hands[o] for o in floored)]
            deal_out(free, pool)
        for hand in hands:
            hand.sort(key=rank_key)

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


LOSS = N_("Hand {hand}: {players} loses with {rank} and scores {penalty} · totals: {totals}")
LOSS_OUT = N_(
    "Hand {hand}: {players} loses with {rank} and scores {penalty} · totals: {totals} · out: {out}"
)
TIES = {
    2: N_("Hand {hand}: {players} tie with 2s and score {penalty} each · totals: {totals}"),
    3: N_("Hand {hand}: {players} tie with 3s and score {penalty} each · totals: {totals}"),
    4: N_("Hand {hand}: {players} tie with 4s and score {penalty} each · totals: {totals}"),
    5: N_("Hand {hand}: {players} tie with 5s and score {penalty} each · totals: {totals}"),
    6: N_("Hand {hand}: {players} tie with 6s and score {penalty} each · totals: {totals}"),
    7: N_("Hand {hand}: {players} tie with 7s and score {penalty} each · totals: {totals}"),
    8: N_("Hand {hand}: {players} tie with 8s and score {penalty} each · totals: {totals}"),
    9: N_("Hand {hand}: {players} tie with 9s and score {penalty} each · totals: {totals}"),
    10: N_("Hand {hand}: {players} tie with 10s and score {penalty} each · totals: {totals}"),
    11: N_("Hand {hand}: {players} tie with jacks and score {penalty} each · totals: {totals}"),
    12: N_("Hand {hand}: {players} tie with queens and score {penalty} each · totals: {totals}"),
    13: N_("Hand {hand}: {players} tie with kings and score {penalty} each · totals: {totals}"),
    14: N_("Hand {hand}: {players} tie with aces and score {penalty} each · totals: {totals}"),
}
"""The end of a hand lost by several players at once, by the rank they tie with."""
TIES_OUT = {
    2: N_(
        "Hand {hand}: {players} tie with 2s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    3: N_(
        "Hand {hand}: {players} tie with 3s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    4: N_(
        "Hand {hand}: {players} tie with 4s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    5: N_(
        "Hand {hand}: {players} tie with 5s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    6: N_(
        "Hand {hand}: {players} tie with 6s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    7: N_(
        "Hand {hand}: {players} tie with 7s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    8: N_(
        "Hand {hand}: {players} tie with 8s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    9: N_(
        "Hand {hand}: {players} tie with 9s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    10: N_(
        "Hand {hand}: {players} tie with 10s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    11: N_(
        "Hand {hand}: {players} tie with jacks and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    12: N_(
        "Hand {hand}: {players} tie with queens and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    13: N_(
        "Hand {hand}: {players} tie with kings and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    14: N_(
        "Hand {hand}: {players} tie with aces and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
}
"""``TIES``, when one of them or more reaches 22 and is out."""


def seat_arg(seat: int) -> tuple[str, str]:
    """The argument naming the seat a message is about: ``{player}`` is ``{s2}``."""
    return ("player", f"{{s{seat}}}")


def number_args(numbers: Mapping[str, int]) -> tuple[tuple[str, str], ...]:
    """Numbers as an event's arguments."""
    return tuple((name, str(number)) for name, number in numbers.items())


@lru_cache(maxsize=1 << 14)
def cards_event(seat: int, message: str, cards: tuple[Card, ...], kind: str) -> Event:
    """A public table-log line of a seat showing cards (``{s0} leads 7♣ 7♦``). Made once per
    seat, message and cards (events are immutable, so sharing them is safe): the same plays
    come back game after game, and the look-up costs less than writing the cards in people
    form."""
    return Event(message, kind, args=(seat_arg(seat), ("cards", cards_pretty(cards))))


@cache  # a few per seat
def seat_event(seat: int, message: str, kind: str) -> Event:
    """A table-log line naming only a seat (``{s0} wins the trick``), made once."""
    return Event(message, kind, args=(seat_arg(seat),))


@cache  # a few thousand at most: by seat, count and stock size
def exchange_event(seat: int, count: int, left: int) -> Event:
    """The public line of an exchange (``{s0} exchanges 3 cards; 25 left in the stock``),
    made once."""
    message = (
        N_("{player} exchanges {count} card; {left} left in the stock")
        if count == 1
        else N_("{player} exchanges {count} cards; {left} left in the stock")
    )
    return Event(
        message, "exchange", args=(seat_arg(seat), ("count", str(count)), ("left", str(left)))
    )


def seat_names(seats: Sequence[int]) -> str:
    """Seats for people: ``{s0}``, ``{s0} and {s1}``, ``{s0}, {s1} and {s2}``."""
    names = [f"{{s{seat}}}" for seat in seats]
    if len(names) == 1:
        return names[0]
    return _("{players} and {last}").format(players=", ".join(names[:-1]), last=names[-1])


def totals_text(totals: Sequence[int]) -> str:
    """Every seat's penalty total, for the end of a hand: ``{s0} 10, {s1} 0``."""
    return ", ".join([f"{{s{seat}}} {total}" for seat, total in enumerate(totals)])


def draw_events(rounds: Sequence[Sequence[tuple[int, Card]]]) -> list[Event]:
    """The high-card draw as table-log lines (ranks only: suits never matter, and the cards go
    back into the deck before the shuffle)."""
    events = []
    for index, drawn in enumerate(rounds):
        what = ", ".join(f"{{s{seat}}} {RANK_LABEL[STRENGTH[card]]}" for seat, card in drawn)
        message = (
            N_("Draw for the first dealer: {draws}")
            if index == 0
            else N_("Tied players draw again: {draws}")
        )
        events.append(Event(message, "draw", args=(("draws", what),)))
    dealer = max(rounds[-1], key=lambda pair: STRENGTH[pair[1]])[0]
    events.append(seat_event(dealer, N_("{player} drew highest and deals first"), "draw"))
    return events


# -- the game type -------------------------------------------------------------------------------
class TwentyTwoGame(Game):
    """The game type of twentytwo."""

    state_class = TwentyTwoState

    lowest_wins = True
    full_deck_hands = 1  # penalty cards leave the deck, so later hands hold fewer

    id = "twentytwo"
    name = N_("Twenty-Two")
    player_counts = PLAYER_COUNTS
    options = ()
    pitch = N_(
        "Don't hold the highest last card: its penalty counts against you, and "
        "22 points puts you out."
    )

    def parse_action(self, text: str) -> Action:
        words = text.split()
        expected = "'keep', 'exchange CARD …' or 'play CARD …' (e.g. play 7C 7D)"
        if not words:
            raise parse_error(text, expected)
        verb = words[0].lower()
        if verb == "keep" and len(words) == 1:
            return KEEP
        if verb not in ("exchange", "play") or len(words) < 2:
            raise parse_error(text, expected)
        try:
            cards = [Card.parse(word) for word in words[1:]]
        except CardError as error:
            raise ActionParseError(f"cannot read {text!r}: {error}") from None
        if len(set(cards)) != len(cards):
            raise ActionParseError(f"cannot read {text!r}: a card is named twice")
        return Exchange.of(cards) if verb == "exchange" else Play.of(cards)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        state = TwentyTwoState.from_saved_header(data)
        players = state.players
        state.hand_number = int(data["hand_number"])
        state.dealer = int(data["dealer"])
        state.dealer_draw = [
            [(int(seat), Card.parse(text)) for seat, text in draw] for draw in data["dealer_draw"]
        ]
        state.phase = str(data["phase"])
        if state.phase not in ("exchange", "play", "over"):
            raise SavedStateError(f"unknown twentytwo phase {state.phase!r}")
        state.dealt = int(data["dealt"])
        state.in_hand = [int(seat) for seat in data["in_hand"]]
        state.hands = [sorted(cards_from_json(hand), key=rank_key) for hand in data["hands"]]
        state.discards = [cards_from_json(pile) for pile in data["discards"]]
        state.stock = cards_from_json(data["stock"])
        state.trick = [(int(seat), tuple(cards_from_json(cards))) for seat, cards in data["trick"]]
        best = data["best_seat"]
        state.best_seat = None if best is None else int(best)
        state.best = next(
            (ranks_of(cards) for seat, cards in state.trick if seat == state.best_seat), ()
        )
        state.played = cards_from_json(data["played"])
        state.revealed = cards_from_json(data["revealed"])
        state.pending = [int(seat) for seat in data["pending"]]
        # Games saved before floors were kept know none (a search then assumes less).
        state.floors = [int(floor) for floor in data.get("floors", [0] * players)]
        state.penalties = [cards_from_json(pile) for pile in data["penalties"]]
        state.totals = [int(total) for total in data["totals"]]
        last = data["last_hand"]
        state.last_hand = (
            None
            if last is None
            else {
                "hand": int(last["hand"]),
                "reveals": [[int(seat), str(text)] for seat, text in last["reveals"]],
                "losers": [int(seat) for seat in last["losers"]],
                "penalty": int(last["penalty"]),
            }
        )
        state.winner_seats = [int(seat) for seat in data["winners"]]
        if not (
            len(state.hands) == len(state.discards) == len(state.penalties) == players
            and len(state.totals) == players
        ):
            raise SavedStateError("saved twentytwo state does not match its player count")
        return state

    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        if is_card_text(step):  # suits never matter: a card is its rank
            return RANK_LABEL[STRENGTH[Card.parse(step)]]
        if step == "keep":
            return _("Keep your hand")
        if step == "exchange":
            return _("Exchange cards")
        return None

    def card_set(self, action: Action) -> CardSet | None:
        """An exchange or a play is a set of cards, told apart by ranks only."""
        if not isinstance(action, Exchange | Play):
            return None
        members = tuple(card.text for card in action.cards)
        ranks = tuple(str(STRENGTH[card]) for card in action.cards)
        return CardSet(1 if isinstance(action, Exchange) else 0, members, ranks)

    def pick_prompt(
        self, chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
    ) -> str | None:
        count = count_words(sizes)
        if chosen == ("exchange",):
            return _(
                "Exchange which cards for new ones from the stock? ({count}; only ranks matter)"
            ).format(count=count)
        if len(sizes) == 1:  # a follow plays as many cards as the lead
            return _("Play which {count} cards? (a beat, or your {count} lowest)").format(
                count=count
            )
        return _("Lead which cards? ({count} of one rank)").format(count=count)

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if "keep" in offered:
            return _("Keep your hand, or exchange cards for new ones from the stock?")
        if chosen == ("exchange",):
            return _("Exchange which cards? Pick the lowest one first, then each next one up:")
        if chosen[:1] == ("exchange",):
            held = describe_cards(chosen[1:])
            return _("Exchanging {cards}: pick a higher card too, or take these?").format(
                cards=held
            )
        if chosen:
            return _("Playing {cards}: add a card, or play these?").format(
                cards=describe_cards(chosen)
            )
        return _("Play which cards?")

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        if isinstance(action, Exchange):
            count = len(action.cards)
            return _("Exchange {cards} (draw {count} new)").format(
                cards=cards_pretty(action.cards), count=count
            )
        if isinstance(action, Play):
            return _("Play {cards}").format(cards=cards_pretty(action.cards))
        return self.step_label((), action.text, names)

    def only_move_reason(self, view: View, action: Action) -> str | None:
        if not isinstance(action, Play):  # an exchange always offers keeping too
            return None
        if not view["trick"]:
            rank = RANK_LABEL[action.ranks[0]]
            return _("You must keep a card in hand, so you lead a single {rank}.").format(rank=rank)
        best = next(play["cards"] for play in view["trick"] if play["seat"] == view["best_seat"])
        if is_beat(action.ranks, ranks_of(map(Card.parse, best))):
            shown = describe_cards(best)
            return _(
                "Whichever cards you pick, the play is the same, and it beats {cards}."
            ).format(cards=shown)
        return ngettext(
            "You can't beat {cards}, so you must play your lowest card.",
            "You can't beat {cards}, so you must play your {count} lowest cards.",
            len(best),
        ).format(cards=describe_cards(best), count=len(best))

    def describe(self, view: View) -> list[str]:
        lines = self._opening(view)
        if view["phase"] == "exchange" and view["to_act"]:
            player = f"{{s{view['to_act'][0]}}}"
            lines.append(_("Exchange: {player} to choose").format(player=player))
        if view["trick"]:
            parts = []
            for entry in view["trick"]:
                player, cards = f"{{s{entry['seat']}}}", describe_cards(entry["cards"])
                part = (
                    _("{player} {cards} (best)")
                    if entry["seat"] == view["best_seat"]
                    else _("{player} {cards}")
                )
                parts.append(part.format(player=player, cards=cards))
            lines.append(_("Trick: {plays}").format(plays="; ".join(parts)))
        elif view["phase"] == "play" and view["to_act"]:
            lines.append(_("{player} leads").format(player=f"{{s{view['to_act'][0]}}}"))
        scores = []
        for seat, total in enumerate(view["scores"]):
            pile = describe_cards(view["penalties"][seat])
            score = (_("{player} {total} ({cards})") if pile else _("{player} {total}")).format(
                player=f"{{s{seat}}}", total=total, cards=pile
            )
            scores.append(score if seat in view["in"] else _("{score} out").format(score=score))
        lines.append(_("Penalties: {scores}").format(scores=", ".join(scores)))
        if "hand" in view:
            held = describe_cards(view["hand"])
            lines.append(
                _("Your hand: {cards}").format(cards=held) if held else _("Your hand: (none)")
            )
        if view["over"]:
            lines.append(_("Winner: {players}").format(players=seat_names(view["winners"])))
        return lines

    def summary(self, view: View) -> list[str]:
        totals = ", ".join(
            (_("{player} {total}") if seat in view["in"] else _("{player} {total} out")).format(
                player=f"{{s{seat}}}", total=total
            )
            for seat, total in enumerate(view["scores"])
        )
        return [*self._opening(view), _("Penalties: {scores}").format(scores=totals)]

    def _opening(self, view: View) -> list[str]:
        """The first dealer's draw (in hand 1), the last hand's reveal, and this hand."""
        lines = []
        if view["hand_number"] == 1 and view["phase"] == "exchange" and view["dealer_draw"]:
            draws = _(" · then ").join(
                ", ".join(f"{{s{seat}}} {rank}" for seat, rank in draw)
                for draw in view["dealer_draw"]
            )
            lines.append(_("Draw for the first dealer: {draws}").format(draws=draws))
        last = view["last_hand"]
        if last is not None:
            shown = ", ".join(f"{{s{seat}}} {rank}" for seat, rank in last["reveals"])
            lines.append(
                _("Last hand: {shown} → {players} +{penalty}").format(
                    shown=shown, players=seat_names(last["losers"]), penalty=last["penalty"]
                )
            )
        lines.append(
            _("Hand {hand} · dealer {player} · {count} cards each · stock {stock}").format(
                hand=view["hand_number"],
                player=f"{{s{view['dealer']}}}",
                count=view["dealt"],
                stock=view["stock"],
            )
        )
        return lines

    def layout(self, view: View) -> Layout:
        best = view["best_seat"]
        trick = [
            face_up(
                (
                    _("{player}'s play · best") if play["seat"] == best else _("{player}'s play")
                ).format(player=f"{{s{play['seat']}}}"),
                play["cards"],
            )
            for play in view["trick"]
        ]
        hands = [
            stack(f"{{s{seat}}}", size)
            for seat, size in enumerate(view["hand_sizes"])
            if size and seat != view.get("seat")
        ]
        penalties = [
            face_up(_("{player}'s penalties").format(player=f"{{s{seat}}}"), pile)
            for seat, pile in enumerate(view["penalties"])
            if pile
        ]
        mine = your_hand(view)
        if view.get("discards"):
            mine.append(face_up(_("Your discards"), view["discards"], mine=True))
        shown = [face_up(_("Shown at the end"), view["revealed"])] if view["revealed"] else []
        return rows([*trick, stack(_("Stock"), view["stock"])], hands, [*shown, *penalties], mine)


GAME = TwentyTwoGame()
TwentyTwoState.game = GAME
