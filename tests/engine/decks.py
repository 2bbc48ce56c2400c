"""Stacked decks for scenario tests: say who gets what, get the deck order the deal needs."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import FULL_DECK, Card, parse_cards


def cards(text: str) -> list[Card]:
    """``"2H 4S"`` → two Cards."""
    return list(parse_cards(text.split()))


def round_robin_deck(
    hands: Sequence[str],
    dealer: int = 0,
    after: Sequence[str] = (),
    pool: Sequence[Card] = FULL_DECK,
) -> list[str]:
    """A deck (card texts, top first) that deals ``hands[seat]`` to each seat one card at a time
    clockwise from the dealer's left, then the cards in ``after`` in order (table, stock top),
    then every other card of ``pool`` in card order."""
    players = len(hands)
    dealt = [cards(hand) for hand in hands]
    size = len(dealt[0])
    assert all(len(hand) == size for hand in dealt), "hands must be the same size"
    order = [(dealer + 1 + offset) % players for offset in range(players)]
    deck = [dealt[seat][index] for index in range(size) for seat in order]
    deck += [card for text in after for card in cards(text)]
    assert len(set(deck)) == len(deck), "a card is named twice"
    deck += [card for card in pool if card not in deck]
    return [card.text for card in deck]
