"""The card helpers every game shares."""

from __future__ import annotations

import random

from engine.cards import FULL_DECK, shuffle


def test_shuffle_gives_the_order_random_shuffle_gives() -> None:
    """Decks from a seed stay what they were: the quicker shuffle draws the same numbers, in
    the same order, as ``random.Random.shuffle`` (and leaves the generator in the same state)."""
    for seed in range(300):
        for size in (0, 1, 2, 3, 7, 24, 40, 52, 104):
            ours, theirs = list(range(size)), list(range(size))
            our_rng, their_rng = random.Random(f"{seed}/deck"), random.Random(f"{seed}/deck")
            shuffle(ours, our_rng)
            their_rng.shuffle(theirs)
            assert ours == theirs, (seed, size)
            assert our_rng.getstate() == their_rng.getstate()
    deck = list(FULL_DECK)
    shuffle(deck, random.Random(1))
    assert sorted(deck) == sorted(FULL_DECK) and deck != list(FULL_DECK)
