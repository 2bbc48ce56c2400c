"""Twentytwo's hard level: the moves its search compares."""

from __future__ import annotations

import random

from engine.ai.search import spread
from engine.ai.twentytwo import NORMAL, candidates
from engine.cards import Card
from engine.games.twentytwo import KEEP, STRENGTH, Exchange, exchanges, leads, rank_key


def hand_of(text: str) -> list[Card]:
    return sorted((Card.parse(word) for word in text.split()), key=rank_key)


def is_band(action: object, hand: list[Card]) -> bool:
    """Keeping, or discarding every card but the lowest between a low and a high rank."""
    if action == KEEP:
        return True
    assert isinstance(action, Exchange)
    low, high = min(action.ranks), max(action.ranks)
    band = tuple(STRENGTH[card] for card in hand[1:] if low <= STRENGTH[card] <= high)
    return action.ranks == band


def test_hard_weighs_the_heuristics_exchange_against_the_nearest_bands_of_ranks() -> None:
    hand = hand_of("4C 4H 5H 7D 9C JC AS")
    legal = [KEEP, *exchanges(hand, 38)]
    first = NORMAL().exchange(hand, legal)
    assert first.text == "exchange 7D 9C JC"
    picked = candidates(legal, first, 6, random.Random(0))
    assert picked[0] == first and len(set(picked)) == len(picked) == 6
    assert all(is_band(action, hand) for action in picked)
    # Every band one card away from the heuristic's comes before any further one.
    texts = {action.text for action in picked}
    one_away = {"exchange 5H 7D 9C JC", "exchange 7D 9C JC AS", "exchange 9C JC", "exchange 7D 9C"}
    assert one_away < texts


def test_the_exchanges_compared_are_within_the_stock_and_keeping_is_one() -> None:
    hand = hand_of("2C 6D 6H 8S 10C QD KS")
    legal = [KEEP, *exchanges(hand, 2)]
    first = NORMAL().exchange(hand, legal)
    picked = candidates(legal, first, 6, random.Random(3))
    assert KEEP in picked and all(action in legal for action in picked)
    assert all(is_band(action, hand) for action in picked)


def test_plays_are_compared_as_the_generic_spread() -> None:
    hand = hand_of("3C 5D 5H 9S JC KD")
    legal = leads(hand)
    first = legal[-1]
    assert candidates(legal, first, 6, random.Random(5)) == spread(
        legal, first, 6, random.Random(5)
    )
