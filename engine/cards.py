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
from typing import Final, NamedTuple, TypeVar

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


class Card(NamedTuple):
    """A card of the standard 52-card deck; sorts in card order (A 2 … K, then C D H S)."""

    rank: int  # 1 (ace) … 13 (king)
    suit: int  # CLUBS, DIAMONDS, HEARTS, SPADES

    @property
    def text(self) -> str:
        """Machine form, as in action text and JSON: ``10D``."""
        return _TEXT[self]

    @property
    def pretty(self) -> str:
        """People form, with the suit symbol: ``10♦``."""
        return _PRETTY[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds."""
        return self.suit in (DIAMONDS, HEARTS)

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]!r})"

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
_TEXT: Final = {card: RANK_TEXT[card.rank] + SUIT_TEXT[card.suit] for card in FULL_DECK}
_PRETTY: Final = {card: RANK_TEXT[card.rank] + SUIT_SYMBOL[card.suit] for card in FULL_DECK}
_BY_TEXT = {text: card for card, text in _TEXT.items()}
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
    return " ".join([_TEXT[card] for card in sorted(cards)])


def cards_pretty(cards: Iterable[Card]) -> str:
    """People form of several cards, in the order given: ``2♥ 4♠``."""
    # a list, not a generator or map: compiled, the loop is C (it is hot in events)
    return " ".join([_PRETTY[card] for card in cards])


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
