"""fishing's rules as functions (docs/rules/fishing.md, cited by section): the moves, what a
card may capture, and how the piles score."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final

from engine.cards import CLUBS, DIAMONDS, SUIT_CARDS, Card, cards_text
from engine.core import Phrase, held_sets
from engine.words import N_

HAND_SIZE = 4  # §2.2
TABLE_SIZE = 4  # §2.2
PLAYER_COUNTS = (2, 3, 4, 6)  # §1.1
TWO_OF_CLUBS = Card(2, CLUBS)
TEN_OF_DIAMONDS = Card(10, DIAMONDS)
SCORING_CARDS = ((TWO_OF_CLUBS, "2♣"), (TEN_OF_DIAMONDS, "10♦"))  # §5.2
HIGHEST_SUM = 10
"""The highest card a sum set may add up to: only numerals capture by sum (§4.2)."""


class Play:
    """Play ``card``; capture ``take`` (card order; empty: the card stays on the table). §7."""

    def __init__(self, card: Card, take: tuple[Card, ...] = ()) -> None:
        self.card: Final = card
        self.take: Final = take

    @property
    def text(self) -> str:
        """``play 6D`` or ``play 6D take 2H 4S`` (§7.1)."""
        if not self.take:
            return f"play {self.card.text}"
        return f"play {self.card.text} take {cards_text(self.take)}"

    @property
    def path(self) -> tuple[str, ...]:
        """Card first, then what it takes (§7.2)."""
        return (self.card.text, f"take {cards_text(self.take)}" if self.take else "leave it")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self.card == other.card and self.take == other.take

    def __hash__(self) -> int:
        return hash((self.card, self.take))

    def __repr__(self) -> str:
        return f"Play({self.card!r}, {self.take!r})"

    def __reduce__(self) -> tuple[type[Play], tuple[Card, tuple[Card, ...]]]:
        # made again from its card and take, so that it pickles and copies compiled too
        return Play, (self.card, self.take)


def plays(hand: Iterable[Card], table: list[Card], multi: bool) -> list[Play]:
    """Every legal play of a hand (§3.2, §4), card by card, on a ``table`` in card order."""
    ranks = [card.rank for card in table]
    result: list[Play] = []
    for card in hand:
        card_plays(card, table, ranks, multi, result)
    return result


def card_plays(
    card: Card, table: list[Card], ranks: list[int], multi: bool, result: list[Play]
) -> None:
    """Add to ``result`` every legal play of ``card`` on a table in card order (whose ranks are
    ``ranks``): left on the table (§3.2), then its captures: one card of its rank (§4.1) or one
    sum set (§4.2), never both (§4.3); with ``multi``, any union of them (§4.4)."""
    result.append(Play(card))
    value = card.rank
    same_rank = [table[index] for index in range(len(ranks)) if ranks[index] == value]
    sets = _sum_sets(value, table, ranks)
    if multi:
        for take in multi_captures(same_rank, sets):
            result.append(Play(card, take))
        return
    for other in same_rank:
        result.append(Play(card, (other,)))
    for take in sets:
        result.append(Play(card, take))


def sum_sets(value: int, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every set of two or more numeral table cards (A = 1) adding up to ``value`` (§4.2), in
    card order. A jack, queen or king takes no sum.

    >>> sum_sets(4, [Card.parse(t) for t in ("AC", "AD", "2H", "3H", "KS")])
    [(Card('AC'), Card('AD'), Card('2H')), (Card('AC'), Card('3H')), (Card('AD'), Card('3H'))]
    """
    ordered = sorted(table)
    return _sum_sets(value, ordered, [card.rank for card in ordered])


def _sum_sets(value: int, table: list[Card], ranks: list[int]) -> list[tuple[Card, ...]]:
    """``sum_sets`` of a table in card order whose ranks are ``ranks``."""
    sets: list[tuple[Card, ...]] = []
    if value <= HIGHEST_SUM:
        _add_sets(table, ranks, 0, value, [], sets)
    return sets


def _add_sets(
    table: list[Card],
    ranks: list[int],
    start: int,
    left: int,
    chosen: list[Card],
    sets: list[tuple[Card, ...]],
) -> None:
    """Add to ``sets`` each set of the table's cards from ``start`` on that, with ``chosen``,
    adds up to ``left`` more: depth first, so in card order. Ranks rise, so a card as high as
    what is left ends the search (a card of the value itself is a capture by rank, §4.1)."""
    for index in range(start, len(ranks)):
        rank = ranks[index]
        if rank > left or (rank == left and not chosen):
            return
        chosen.append(table[index])
        if rank == left:
            sets.append(tuple(chosen))
        else:
            _add_sets(table, ranks, index + 1, left - rank, chosen, sets)
        chosen.pop()


def multi_captures(
    same_rank: Sequence[Card], sets: Sequence[tuple[Card, ...]]
) -> list[tuple[Card, ...]]:
    """Every union of disjoint sum ``sets`` plus at most one ``same_rank`` card (§4.4), each
    once, fewest cards first."""
    unions: set[tuple[Card, ...]] = set()
    _add_unions(sets, 0, frozenset(), unions)
    unions |= {tuple(sorted((*union, card))) for union in unions for card in same_rank}
    unions.discard(())
    return sorted(unions, key=lambda take: (len(take), take))


def _add_unions(
    sets: Sequence[tuple[Card, ...]],
    start: int,
    used: frozenset[Card],
    unions: set[tuple[Card, ...]],
) -> None:
    """Add ``used`` to ``unions``, and each union of it with disjoint ``sets`` from ``start``."""
    unions.add(tuple(sorted(used)))
    for index in range(start, len(sets)):
        if used.isdisjoint(sets[index]):
            _add_unions(sets, index + 1, used | frozenset(sets[index]), unions)


def score_piles(piles: Sequence[Collection[Card]]) -> tuple[list[int], list[list[Phrase]]]:
    """Points per pile for one hand, with the reasons (§5.2): most cards 2 and most clubs 1 (a
    tie scores nothing), 2♣ 1, 10♦ 1. A pile given as a set is looked up in as it is."""
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
