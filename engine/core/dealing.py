"""Helpers the games' rules share for dealing and saving cards."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.cards import Card, parse_cards
from engine.errors import CardError, SavedStateError


def cards_json(cards: Iterable[Card]) -> list[str]:
    """Cards as a JSON list of texts, in the order given."""
    return [card.text for card in cards]


def cards_from_json(texts: Iterable[str]) -> list[Card]:
    """Cards from a JSON list of texts."""
    try:
        return list(parse_cards(texts))
    except CardError as error:
        raise SavedStateError(f"saved state is malformed: {error}") from None


def redeal(places: Sequence[list[Card]], rng: random.Random) -> None:
    """Shuffle the cards of ``places`` together and deal them back, each place keeping its
    count (the card order within a place is the shuffled order).

    The cards are sorted first, so states that differ only in where these cards are give the
    same deal for the same ``rng``: what a search sees cannot depend on them.
    """
    cards = sorted(card for place in places for card in place)
    rng.shuffle(cards)
    deal_out(places, cards)


def deal_out(places: Sequence[list[Card]], cards: Sequence[Card]) -> None:
    """Fill ``places`` in order from ``cards``, each place keeping its count."""
    start = 0
    for place in places:
        end = start + len(place)
        place[:] = cards[start:end]
        start = end


def leader_order(first: int, players: int) -> list[int]:
    """Seats clockwise starting at ``first``."""
    return [(first + offset) % players for offset in range(players)]


def dealt_hands(cards: list[Card], first: int, players: int) -> list[list[Card]]:
    """Each seat's hand, in card order, when ``cards`` are dealt one at a time clockwise
    starting with seat ``first`` (the dealer's left): the seat ``offset`` places after
    ``first`` gets every ``players``-th card from index ``offset``.

    >>> dealt_hands(cards_from_json(["2C", "3C", "4C", "5C", "6C", "7C"]), 1, 2)
    [[Card('3C'), Card('5C'), Card('7C')], [Card('2C'), Card('4C'), Card('6C')]]
    """
    hands = [cards[(seat - first) % players :: players] for seat in range(players)]
    for hand in hands:
        hand.sort()  # in place: quicker than sorted() on these short lists
    return hands
