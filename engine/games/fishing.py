"""fishing: Casino without building, scoring clubs (rules: docs/rules/fishing.md).

Play one card a turn; it may capture one table card of its rank or one set of two or more
numerals adding up to it (option ``multi_capture``: several disjoint sets plus one same-rank
card). Piles score at the end of the hand: most cards 2, most clubs 1, 2♣ 1, 10♦ 1.

Where each rule lives, in the order of the rules document:

- players (2, 3, 4 or 6; five refused) and options: ``FishingGame``,
  ``FishingGame.player_count_message``.
- the deal (4 each from the dealer's left, 4 to the table, 4 more each when every hand is
  empty): ``FishingState.start_hand``, ``deal_hands``, ``_apply``.
- captures (one same-rank card or one sum set of numerals; ``multi_capture``): ``plays``,
  ``sum_sets``, ``multi_captures``; refusals: ``FishingState.explain_illegal``.
- the end of a hand (the last capturer takes the table), scoring and winning:
  ``FishingState.end_hand``, ``score_piles``.
- move text and choice path: ``Play``; reading text: ``FishingGame.parse_action``.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any, ClassVar, NamedTuple

from mypy_extensions import mypyc_attr

from engine.cards import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    SUIT_CARDS,
    Card,
    cards_pretty,
    cards_text,
    describe_cards,
    parse_cards,
)
from engine.core import (
    Action,
    DeckPlan,
    Event,
    Game,
    Option,
    OptionValue,
    Phrase,
    State,
    TotalsState,
    View,
    Zone,
    cards_from_json,
    cards_json,
    dealt_hands,
    held_sets,
    listing,
    make_rng,
    parse_error,
    pile_phrase,
    redeal,
    scores_line,
    seat_words,
)
from engine.errors import ActionParseError, CardError
from engine.layout import Layout, face_up, rows, stack, your_hand
from engine.words import N_, _

HAND_SIZE = 4
TABLE_SIZE = 4
PLAYER_COUNTS = (2, 3, 4, 6)
MAX_PLAYERS = max(PLAYER_COUNTS)
TWO_OF_CLUBS = Card(2, CLUBS)
TEN_OF_DIAMONDS = Card(10, DIAMONDS)
SCORING_CARDS = ((TWO_OF_CLUBS, "2♣"), (TEN_OF_DIAMONDS, "10♦"))


class Play(NamedTuple):
    """Play ``card``; capture ``take`` (card order; empty: the card stays on the table)."""

    card: Card
    take: tuple[Card, ...] = ()

    @property
    def text(self) -> str:
        """``play 6D`` or ``play 6D take 2H 4S``."""
        if not self.take:
            return f"play {self.card.text}"
        return f"play {self.card.text} take {cards_text(self.take)}"

    @property
    def path(self) -> tuple[str, ...]:
        """Card first, then what it takes."""
        return (self.card.text, f"take {cards_text(self.take)}" if self.take else "leave it")


def sum_sets(value: int, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every set of two or more numeral table cards (A = 1) adding up to ``value``.

    >>> sum_sets(4, [Card.parse(t) for t in ("AC", "2D", "3H", "KS")])
    [(Card('AC'), Card('3H'))]
    """
    numerals = sorted(card for card in table if card.rank < value)
    return [take(numerals) for take in sum_takers(lower_counts(numerals), value)]


COUNT_BITS = 3
"""The width of one rank's field in ``lower_counts`` (a rank has 4 cards at most)."""
SUM_RANKS = range(1, 10)
"""The ranks that can be part of a sum set: A to 9 (a set adds up to 10 at most)."""


def lower_counts(cards: Iterable[Card]) -> int:
    """How many of ``cards`` there are of each rank from A to 9, as ``COUNT_BITS``-bit fields,
    the ace's lowest: what a table offers to sum sets, in one small int (below 2**30, so
    Python's arithmetic on it takes its quick one-digit path).

    >>> bin(lower_counts(Card.parse(t) for t in ("AC", "AD", "3H", "KS")))
    '0b1000010'
    """
    return sum(_MARKS[card][2] for card in cards)


def suit_sets(cards: Iterable[Card]) -> list[int]:
    """The suits of each rank among ``cards``, by rank (index 0 unused), as 4 bits a rank.

    >>> suit_sets(Card.parse(t) for t in ("AC", "AD", "KS"))[1::12]
    [3, 8]
    """
    suits = [0] * 14
    for card in cards:
        suits[card.rank] |= 1 << card.suit
    return suits


_MARKS = {
    card: (
        card.rank,
        1 << card.suit,
        1 << COUNT_BITS * (card.rank - 1) if card.rank in SUM_RANKS else 0,
        tuple(
            Event(
                N_("{player} played {card}"),
                "play",
                args=(("player", seat_words(seat)), ("card", card.pretty)),
            )
            for seat in range(MAX_PLAYERS)
        ),
    )
    for card in FULL_DECK
}
"""What a card adds to a table's ``suit_sets`` (its rank, its suit's bit) and to its
``lower_counts``, and its event when a seat leaves it on the table, by seat (looked up with
the rest: events are immutable, so one serves every game)."""


_SUM_TAKERS: dict[int, tuple[itemgetter[Any], ...]] = {}
"""``sum_takers``'s answers by ``counts | _VALUE_TAGS[value]``, read directly in the hot loop
(a dict lookup on an int costs a fraction of an ``lru_cache`` call); emptied when it holds
``_SUM_TAKERS_KEPT``, which bounds its memory."""
_SUM_TAKERS_KEPT = 1 << 16
_VALUE_TAGS = {value: 1 << COUNT_BITS * (value - 1) for value in range(2, 11)}
"""Tells a value's keys apart: the lowest bit of the value's own field, above the counts of
the ranks below it, which are all a key holds besides."""


def sum_takers(counts: int, value: int) -> tuple[itemgetter[Any], ...]:
    """Getters of each set of two or more table cards adding up to ``value``, for a table (in
    card order) whose cards below ``value`` have the rank ``counts`` (as ``lower_counts``):
    they are the table's first cards, so the getters pick their positions. Cached (in
    ``_SUM_TAKERS``) because tables repeat their ranks far more than their cards."""
    key = counts | _VALUE_TAGS[value]
    found = _SUM_TAKERS.get(key)
    if found is None:
        if len(_SUM_TAKERS) >= _SUM_TAKERS_KEPT:
            _SUM_TAKERS.clear()
        found = _SUM_TAKERS[key] = _find_sum_takers(counts, value)
    return found


def _find_sum_takers(counts: int, value: int) -> tuple[itemgetter[Any], ...]:
    """``sum_takers`` worked out: the sets are a set of the low cards (A-4, the table's first)
    joined to a set of the high ones (5-9, after them), each side's sets looked up by what
    they add up to (``low_subsets``, ``high_subsets``), then put in card order."""
    low = counts & LOW_COUNTS
    low_size, lows = low_subsets(low)
    takes = [
        low_take + high_take
        for high_total, highs in enumerate(high_subsets(counts - low, low_size)[: value + 1])
        if highs
        for low_take in lows[value - high_total]
        for high_take in highs
    ]
    takes.sort()  # in card order: the order of the positions, the first differing one first
    return tuple([itemgetter(*take) for take in takes])


MAX_SUM = 10
"""The highest value a sum set adds up to."""
SPLIT_RANK = 5
"""The lowest of the high ranks in ``_find_sum_takers``. A sum set holds at most two cards of
rank 5 or more, and the four low ranks have 625 counts at most: either side's tables are few,
so a table met for the first time is made of sides met before (a search of its own cost
three times more, and one step in eight of the first games met a new table)."""
LOW_COUNTS = (1 << COUNT_BITS * (SPLIT_RANK - 1)) - 1
"""The part of ``lower_counts`` that counts the low ranks."""

_Subsets = tuple[tuple[tuple[int, ...], ...], ...]


@cache
def low_subsets(counts: int) -> tuple[int, _Subsets]:
    """How many cards ``counts`` (of low ranks only, as ``lower_counts``) has, and the
    positions of each set of them (the cards in card order from position 0) by the sum they
    add up to, up to ``MAX_SUM`` (the empty set adds up to 0). Cached: there are 625 such
    counts at most.

    >>> low_subsets(lower_counts(Card.parse(t) for t in ("AC", "AD", "2H")))[1][:4]
    (((),), ((0,), (1,)), ((0, 1), (2,)), ((0, 2), (1, 2)))
    """
    return card_count(counts), subsets_by_sum(counts, 1, 0)


@cache
def high_subsets(counts: int, first: int) -> _Subsets:
    """``low_subsets``' sets for ``counts`` of high ranks only, the first of them at position
    ``first`` (after the low cards). Cached: these tables have few high cards below a value."""
    return subsets_by_sum(counts, SPLIT_RANK, first)


def card_count(counts: int) -> int:
    """How many cards ``counts`` (as ``lower_counts``) has.

    >>> card_count(lower_counts(Card.parse(t) for t in ("AC", "AD", "9H")))
    3
    """
    field = (1 << COUNT_BITS) - 1
    return sum(counts >> COUNT_BITS * (rank - 1) & field for rank in SUM_RANKS)


def subsets_by_sum(counts: int, lowest: int, first: int) -> _Subsets:
    """The positions of each set of the cards ``counts`` has of ranks ``lowest`` and up (as
    ``lower_counts``; in card order from position ``first``), by the sum they add up to, from
    0 to ``MAX_SUM``."""
    field = (1 << COUNT_BITS) - 1
    ranks = [
        rank
        for rank in range(lowest, MAX_SUM)
        for _ in range(counts >> COUNT_BITS * (rank - 1) & field)
    ]
    by_sum: list[list[tuple[int, ...]]] = [[()], *([] for _ in range(MAX_SUM))]
    for position, rank in enumerate(ranks, first):
        for total in range(MAX_SUM - rank, -1, -1):  # downwards: each card joins a set once
            by_sum[total + rank] += [(*subset, position) for subset in by_sum[total]]
    return tuple(map(tuple, by_sum))


def multi_captures(
    same_rank: Sequence[Card], sets: Sequence[tuple[Card, ...]]
) -> list[tuple[Card, ...]]:
    """Every union of disjoint sum ``sets`` plus at most one ``same_rank`` card (no repeats)."""
    unions: set[tuple[Card, ...]] = set()

    def combine(start: int, used: frozenset[Card]) -> None:
        unions.add(tuple(sorted(used)))
        for index in range(start, len(sets)):
            if used.isdisjoint(sets[index]):
                combine(index + 1, used | frozenset(sets[index]))

    combine(0, frozenset())
    unions |= {tuple(sorted((*union, card))) for union in unions for card in same_rank}
    unions.discard(())
    return sorted(unions, key=lambda take: (len(take), take))


def plays(hand: Iterable[Card], table: Sequence[Card], multi: bool) -> list[Play]:
    """Every legal play of a hand: each card left, then its captures (the same-rank cards,
    then the sum sets). ``table`` must be in card order."""
    return table_plays(hand, table, suit_sets(table), lower_counts(table), multi)


def table_plays(
    hand: Iterable[Card], table: Sequence[Card], suits: Sequence[int], counts: int, multi: bool
) -> list[Play]:
    """``plays`` on a table (in card order) whose ``suit_sets`` and ``lower_counts`` are known
    (the state keeps them with its table).

    This is the hot loop of self-play: a card's play to the table and its same-rank captures
    are ready-made, chosen by which suits of its rank the table holds; the numerals below a
    value are the table's first cards, picked by the getters of ``sum_takers``.
    """
    if multi:
        return multi_table_plays(hand, table, suits, counts)
    result: list[Play] = []
    for card in hand:
        rank, lower_mask, tag, with_same_rank = _READY_PLAYS[card]
        result += with_same_rank[suits[rank]]
        lower = counts & lower_mask
        if lower:
            takers = _SUM_TAKERS.get(lower | tag)
            if takers is None:
                takers = sum_takers(lower, rank)
            for take in takers:
                # tuple.__new__ builds the NamedTuple without its Python-level __new__.
                result.append(_new_tuple(Play, (card, take(table))))
    return result


def multi_table_plays(
    hand: Iterable[Card], table: Sequence[Card], suits: Sequence[int], counts: int
) -> list[Play]:
    """``table_plays`` with the option ``multi_capture``: each card left, then every union of
    its disjoint sum sets and at most one same-rank card (``multi_captures``)."""
    result: list[Play] = []
    for card in hand:
        rank, lower_mask, _, _ = _READY_PLAYS[card]
        below = bisect_left(table, Card(rank, CLUBS))  # where the cards of its rank start
        same_rank = table[below : below + suits[rank].bit_count()]
        lower = counts & lower_mask
        sets = [take(table) for take in sum_takers(lower, rank)] if lower else []
        result.append(Play(card))
        result += [Play(card, take) for take in multi_captures(same_rank, sets)]
    return result


_new_tuple = tuple.__new__


_READY_PLAYS = {
    card: (
        card.rank,
        # the counts of the ranks below it, whose cards may add up to it (a numeral's only)
        (1 << COUNT_BITS * (card.rank - 1)) - 1 if card.rank <= 10 else 0,
        _VALUE_TAGS.get(card.rank, 0),
        tuple(
            (Play(card), *(Play(card, (same,)) for same in same_rank if suits >> same.suit & 1))
            for suits in range(16)
        ),
    )
    for card in FULL_DECK
    for same_rank in [FULL_DECK[4 * (card.rank - 1) : 4 * card.rank]]
}
"""Per card: its rank, the mask of the ``lower_counts`` its sum sets are made of (none for a
court card), its value's tag in ``sum_takers``' keys, and for each set of suits of its rank on
the table (4 bits), its play to the table followed by its captures of each of those cards."""


@lru_cache(maxsize=1 << 14)
def captured_event(seat: int, play: Play) -> Event:
    """The event of a capture (cached like a card's play in ``_MARKS``; bounded, as captures
    are many)."""
    return Event(
        N_("{player} captured {cards} with {card}"),
        "capture",
        args=(
            ("player", seat_words(seat)),
            ("cards", cards_pretty(play.take)),
            ("card", play.card.pretty),
        ),
    )


@cache
def refill_event(stock: int) -> Event:
    """The event of new hands dealt, ``stock`` cards left (one serves every game)."""
    return Event(
        N_("New cards dealt; {count} left in the stock"), "refill", args=(("count", str(stock)),)
    )


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
        self.set_table([])
        self.stock: list[Card] = []
        self.last_capturer: int | None = None
        self.multi_capture = bool(options["multi_capture"])

    game: ClassVar[FishingGame]

    # -- dealing -------------------------------------------------------------------------------
    def start(self) -> list[Event]:
        return self.start_hand()

    def start_hand(self) -> list[Event]:
        """Deal the current hand from its deck: hands, then the table, the rest is the stock."""
        self.stock = self.deck_plan.deck(self.hand_number)
        self.piles = [[] for _ in range(self.players)]
        self.last_capturer = None
        self.deal_hands()
        self.set_table(self.stock[:TABLE_SIZE])
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
        left."""
        dealt = HAND_SIZE * self.players
        self.hands = dealt_hands(self.stock[:dealt], (self.dealer + 1) % self.players, self.players)
        del self.stock[:dealt]

    def set_table(self, cards: Iterable[Card]) -> None:
        """Put exactly ``cards`` on the table, in card order, with the table's ``suit_sets``
        and ``lower_counts``, which listing plays reads (``_apply`` keeps them as it goes)."""
        self.table = sorted(cards)
        self.table_suits = suit_sets(self.table)
        self.table_counts = lower_counts(self.table)

    # -- decisions -----------------------------------------------------------------------------
    def _to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        suits, counts = self.table_suits, self.table_counts
        return tuple(table_plays(self.hands[seat], self.table, suits, counts, self.multi_capture))

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
        assert isinstance(action, Play)
        card, take = action
        self.hands[seat].remove(card)
        if take:
            table, suits = self.table, self.table_suits
            for taken in take:
                rank, suit_bit, count, _ = _MARKS[taken]
                table.remove(taken)
                suits[rank] -= suit_bit
                self.table_counts -= count
            self.piles[seat] += (*take, card)
            self.last_capturer = seat
            events = [captured_event(seat, action)]
        else:
            rank, suit_bit, count, played = _MARKS[card]
            insort(self.table, card)
            self.table_suits[rank] += suit_bit
            self.table_counts += count
            events = [played[seat]]
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
            self.set_table([])
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


def score_piles(piles: Sequence[Collection[Card]]) -> tuple[list[int], list[list[Phrase]]]:
    """Points per pile for one hand, with the reasons: most cards 2 and most clubs 1 (a tie
    scores nothing), 2♣ 1, 10♦ 1. A pile given as a set is looked up in as it is."""
    points = [0] * len(piles)
    reasons: list[list[Phrase]] = [[] for _ in piles]
    held = held_sets(piles)
    for counts, worth, label in (
        ([len(pile) for pile in piles], 2, N_("most cards {points}")),
        ([len(cards & SUIT_CARDS[CLUBS]) for cards in held], 1, N_("most clubs {points}")),
    ):
        best = max(counts)
        if counts.count(best) == 1:  # a tie scores nothing
            seat = counts.index(best)
            points[seat] += worth
            reasons[seat].append(Phrase(label, (("points", str(worth)),)))
    for seat, cards in enumerate(held):
        for card, label in SCORING_CARDS:
            if card in cards:
                points[seat] += 1
                reasons[seat].append(Phrase("{card} {points}", (("card", label), ("points", "1"))))
    return points, reasons


def capture_words(take: Iterable[Card], card: Card) -> str:
    """``Capture 3♥ + 4♠ with 7♣``."""
    return _("Capture {cards} with {card}").format(
        cards=" + ".join(c.pretty for c in take), card=card.pretty
    )


class FishingGame(Game):
    """The game type of fishing."""

    state_class = FishingState

    id = "fishing"
    name = N_("Fishing")
    player_counts = PLAYER_COUNTS
    options = (
        Option(
            "target",
            21,
            N_("points to reach to win (highest total, no tie)"),
            minimum=1,
            maximum=500,
            label=N_("Target"),
            unit="point",
        ),
        Option(
            "multi_capture",
            False,
            N_("one card may take several sum sets plus one same-rank card (Casino style)"),
            kind=bool,
            label=N_("Several captures at once"),
        ),
    )
    pitch = N_("Capture table cards by rank or by sum; most cards, most clubs, 2♣ and 10♦ score.")

    def player_count_message(self, players: int) -> str:
        if players == 5:
            return _(
                "fishing cannot be played by 5: the 48 cards after the table do not deal "
                "out evenly; play with 2, 3, 4 or 6"
            )
        return super().player_count_message(players)

    def parse_action(self, text: str) -> Action:
        words = text.split()
        expected = _("'play CARD' or 'play CARD take CARD …' (e.g. play 6D take 2H 4S)")
        if len(words) < 2 or words[0].lower() != "play" or len(words) == 3:
            raise parse_error(text, expected)
        if len(words) > 2 and words[2].lower() != "take":
            raise parse_error(text, expected)
        try:
            card = Card.parse(words[1])
            take = tuple(sorted(Card.parse(word) for word in words[3:]))
        except CardError as error:
            raise ActionParseError(
                _("cannot read {text}: {error}").format(text=repr(text), error=error)
            ) from None
        if len(set(take)) != len(take) or card in take:
            raise ActionParseError(
                _("cannot read {text}: a card is named twice").format(text=repr(text))
            )
        return Play(card, take)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        state = FishingState.from_saved_header(data)
        state.hand_number = int(data["hand_number"])
        state.dealer = int(data["dealer"])
        state.turn = int(data["turn"])
        state.hands = [sorted(cards_from_json(hand)) for hand in data["hands"]]
        state.piles = [cards_from_json(pile) for pile in data["piles"]]
        state.set_table(cards_from_json(data["table"]))
        state.stock = cards_from_json(data["stock"])
        state.last_capturer = data["last_capturer"]
        state.read_totals(data)
        return state

    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        if chosen and step == "leave it":
            return _("Play {card} to the table").format(card=Card.parse(chosen[0]).pretty)
        if chosen and step.startswith("take "):
            return capture_words(parse_cards(step.split()[1:]), Card.parse(chosen[0]))
        return None

    def leads_label(
        self, chosen: tuple[str, ...], step: str, actions: Sequence[Action], names: Sequence[str]
    ) -> str | None:
        # a card leads on only when it may capture (leaving it is always possible too)
        if chosen:
            return None
        return _("Capture with {card}").format(card=Card.parse(step).pretty)

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if not chosen:
            return _("Your move: play which card?")
        return _("Capture with {card}, or leave it on the table?").format(
            card=Card.parse(chosen[0]).pretty
        )

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        assert isinstance(action, Play)
        if action.take:
            return capture_words(action.take, action.card)
        return _("Play {card} to the table").format(card=action.card.pretty)

    def describe(self, view: View) -> list[str]:
        header, scores = self.summary(view)
        piles = ", ".join(
            _("{player} {count}").format(player=seat_words(seat), count=size)
            for seat, size in enumerate(view["pile_sizes"])
        )
        lines = [
            header,
            _("Table: {cards}").format(cards=describe_cards(view["table"]) or _("(empty)")),
            _("Piles: {piles}").format(piles=piles),
            scores,
        ]
        if "hand" in view:
            hand = describe_cards(view["hand"]) or _("(empty)")
            lines.append(_("Your hand: {cards}").format(cards=hand))
        return lines

    def summary(self, view: View) -> list[str]:
        if view["multi_capture"]:
            header = _(
                "Hand {hand} · dealer {dealer} · stock {stock} · playing to {target}"
                " · several captures at once"
            )
        else:
            header = _("Hand {hand} · dealer {dealer} · stock {stock} · playing to {target}")
        words = header.format(
            hand=view["hand_number"],
            dealer=seat_words(view["dealer"]),
            stock=view["stock"],
            target=self.option("target").amount(view["target"]),
        )
        return [words, scores_line(view["scores"])]

    def layout(self, view: View) -> Layout:
        piles = [
            stack(_("{player}'s pile").format(player=seat_words(seat)), size)
            for seat, size in enumerate(view["pile_sizes"])
        ]
        return rows(
            [face_up(_("Table"), view["table"])],
            [stack(_("Stock"), view["stock"]), *piles],
            your_hand(view),
        )


GAME = FishingGame()
FishingState.game = GAME
