"""Playing cards: frozen, typed cards with a machine text form (``10D``) and a people form.

>>> Card.parse("10D")
Card('10D')
>>> Card.parse("qs").pretty
'Q♠'
>>> sorted([Card.parse("2C"), Card.parse("AS"), Card.parse("AC")])
[Card('AC'), Card('AS'), Card('2C')]
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from functools import cache
from typing import Final, TypeVar

from engine.errors import CardError
from engine.words import N_, _

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_TEXT = ("C", "D", "H", "S")
SUIT_SYMBOL = ("♣", "♦", "♥", "♠")
SUIT_NAME = (N_("club"), N_("diamond"), N_("heart"), N_("spade"))
"""Each suit's name for people, by suit: marked, translated where it is shown."""

T = TypeVar("T")

_CARD_TEXT = re.compile(r"^(10|[2-9AJQK])([CDHS])$", re.IGNORECASE)


class Card:
    """A card of the standard 52-card deck; sorts in card order (A 2 … K, then C D H S).

    Immutable, compared, ordered and hashed as the tuple ``(rank, suit)`` (so sets and dicts
    of cards keep the order a tuple's hash gives). A plain class, not a NamedTuple: compiled
    (mypyc), it is a C struct whose fields and texts are read directly, where a tuple's are
    looked up by name at every read; its texts and hash are worked out once, when it is made.
    """

    __slots__ = ("_hash", "pretty", "rank", "suit", "text")

    def __init__(self, rank: int, suit: int) -> None:
        self.rank: Final = rank
        """1 (ace) … 13 (king)."""
        self.suit: Final = suit
        """CLUBS, DIAMONDS, HEARTS, SPADES."""
        self.text: Final = RANK_TEXT[rank] + SUIT_TEXT[suit]
        """Machine form, as in action text and JSON: ``10D``."""
        self.pretty: Final = RANK_TEXT[rank] + SUIT_SYMBOL[suit]
        """People form, with the suit symbol: ``10♦``."""
        self._hash: Final = hash((rank, suit))

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds."""
        return self.suit == DIAMONDS or self.suit == HEARTS

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Card) and self.rank == other.rank and self.suit == other.suit
        )

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Card) -> bool:
        return self.rank < other.rank or (self.rank == other.rank and self.suit < other.suit)

    def __le__(self, other: Card) -> bool:
        return self.rank < other.rank or (self.rank == other.rank and self.suit <= other.suit)

    def __gt__(self, other: Card) -> bool:
        return self.rank > other.rank or (self.rank == other.rank and self.suit > other.suit)

    def __ge__(self, other: Card) -> bool:
        return self.rank > other.rank or (self.rank == other.rank and self.suit >= other.suit)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return Card, (self.rank, self.suit)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @staticmethod
    def parse(text: str) -> Card:
        """The card named by ``text`` (``10D``, ``qs``); raises CardError otherwise."""
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise CardError(
                _("{text} is not a card (write rank then suit, like 10D or QS)").format(
                    text=repr(text)
                )
            )
        return card


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in range(4))
_BY_TEXT: Final = {card.text: card for card in FULL_DECK}
SUIT_CARDS = tuple(frozenset(card for card in FULL_DECK if card.suit == suit) for suit in range(4))
"""Each suit's cards, by suit: a set of cards held meets one in C (``len(held & SUIT_CARDS[s])``),
where counting a suit card by card costs many times more."""
PRETTY_CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")
"""Matches a card in people form inside any text (used to check that nothing leaks)."""


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Parse several card texts; raises CardError naming the first bad one or a repeat."""
    cards = tuple(Card.parse(text) for text in texts)
    if len(set(cards)) != len(cards):
        raise CardError(_("the same card is named twice"))
    return cards


def cards_text(cards: Iterable[Card]) -> str:
    """Machine form of several cards in card order: ``2H 4S``."""
    return " ".join([card.text for card in sorted(cards)])


def cards_pretty(cards: Iterable[Card]) -> str:
    """People form of several cards, in the order given: ``2♥ 4♠``."""
    # a list, not a generator or map: compiled, the loop is C (it is hot in events)
    return " ".join([card.pretty for card in cards])


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place from ``rng`` (never the global generator), in exactly the
    order ``rng.shuffle(items)`` gives with Python 3.11, about a third quicker: Fisher-Yates
    from the end, each swap's index drawn by rejection from ``getrandbits``. Written out here
    so that decks also stay the same whatever Python's ``shuffle`` becomes.

    >>> deck, same = list(range(10)), list(range(10))
    >>> shuffle(deck, random.Random(5)); random.Random(5).shuffle(same); deck == same
    True
    """
    getrandbits = rng.getrandbits
    for last, bits in _shuffle_steps(len(items)):
        pick = getrandbits(bits)
        while pick > last:
            pick = getrandbits(bits)
        items[last], items[pick] = items[pick], items[last]


@cache
def _shuffle_steps(count: int) -> tuple[tuple[int, int], ...]:
    """The swaps of ``shuffle`` for ``count`` items: each last index, from the end, with the
    bits drawn for its pick (those of ``last + 1``). A table: a quarter of a deck's shuffle
    was working them out."""
    return tuple((last, (last + 1).bit_length()) for last in range(count - 1, 0, -1))


def is_card_text(text: str) -> bool:
    """Whether ``text`` is a card in machine form."""
    return bool(_CARD_TEXT.match(text))


def describe_cards(texts: Iterable[str]) -> str:
    """Card texts (as in a view) in people form: ``["10D", "QS"]`` → ``10♦ Q♠``."""
    return cards_pretty(Card.parse(text) for text in texts)
