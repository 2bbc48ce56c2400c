"""The words of what scoring piles hold, so a hand's points can be checked."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import Final

from engine.cards import SUIT_CARDS, Card
from engine.core.events import Arg, Phrase, counted_phrase, listing, seat_words
from engine.words import N_, Nn_

# typed as a tuple of any length: compiled, one tuple read in place, where a C struct of its
# exact shape would be boxed anew, nested tuples and all, each time a suit indexes it
SUIT_COUNTS: Final[tuple[tuple[tuple[str, str], str], ...]] = (
    (Nn_("{count} club", "{count} clubs"), N_("{piles} (most clubs: a tie, {rule})")),
    (Nn_("{count} diamond", "{count} diamonds"), N_("{piles} (most diamonds: a tie, {rule})")),
    (Nn_("{count} heart", "{count} hearts"), N_("{piles} (most hearts: a tie, {rule})")),
    (Nn_("{count} spade", "{count} spades"), N_("{piles} (most spades: a tie, {rule})")),
)
"""A count of a suit's cards in a pile, and a tie for most of them."""
PILE_CARDS: Final = Nn_("{player} {count} card", "{player} {count} cards")
"""A pile's count of cards."""


def pile_phrase(
    piles: Sequence[Collection[Card]],
    suit: int,
    scoring: Sequence[tuple[Card, str]],
    tie_rule: str,
) -> Phrase:
    """What each pile holds that scores (its cards, its cards of ``suit``, the ``scoring``
    cards it has), so a hand's points can be checked; a tie for a "most" says ``tie_rule`` (a
    message marked with ``N_``). A pile given as a set is looked up in as it is (see
    ``held_sets``)."""
    suit_count, suit_tie = SUIT_COUNTS[suit]
    suit_cards = SUIT_CARDS[suit]
    sizes, in_suit, parts = [], [], []
    for seat, held in enumerate(held_sets(piles)):
        suited = len(suit_cards & held)
        sizes.append(len(held))
        in_suit.append(suited)
        part: list[Arg] = [
            counted_phrase(PILE_CARDS, len(held), (("player", seat_words(seat)),)),
            counted_phrase(suit_count, suited),
        ]
        part += [label for card, label in scoring if card in held]
        parts.append(listing(", ", part))
    phrase = listing("; ", parts)
    rule = Phrase(tie_rule)
    for tie, counts in ((N_("{piles} (most cards: a tie, {rule})"), sizes), (suit_tie, in_suit)):
        if counts.count(max(counts)) > 1:
            phrase = Phrase(tie, (("piles", phrase), ("rule", rule)))
    return phrase


def held_sets(piles: Iterable[Collection[Card]]) -> list[AbstractSet[Card]]:
    """Each pile as a set of its cards, to look cards up in rather than search the pile card
    by card; a pile that is a set already is kept as it is, so scoring a hand builds each set
    once (hashing a card costs as much as several list steps).

    >>> pile = {Card.parse("2C")}
    >>> held_sets([pile, [Card.parse("3D")]])[0] is pile
    True
    """
    return [pile if isinstance(pile, (set, frozenset)) else set(pile) for pile in piles]
