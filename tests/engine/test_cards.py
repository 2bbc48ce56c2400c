"""The card helpers every game shares."""

from __future__ import annotations

import copy
import pickle
import random

from engine.cards import FULL_DECK, SUIT_CARDS, Card, cards_pretty, cards_text, shuffle


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


def test_a_card_is_made_by_position_or_keyword_and_reads_as_before() -> None:
    """Every field and text form a game, the bot or a save reads."""
    card = Card(10, 1)
    assert card == Card(rank=10, suit=1) == Card.parse("10d")
    assert (card.rank, card.suit, card.text, card.pretty) == (10, 1, "10D", "10♦")
    assert (str(card), repr(card), card.is_red) == ("10D", "Card('10D')", True)
    assert [c.is_red for c in (Card(1, 0), Card(1, 1), Card(1, 2), Card(1, 3))] == [
        False,
        True,
        True,
        False,
    ]
    assert cards_text([Card(4, 3), Card(2, 2)]) == "2H 4S"
    assert cards_pretty([Card(4, 3), Card(2, 2)]) == "4♠ 2♥"


def test_cards_compare_order_and_hash_as_the_tuple_rank_then_suit() -> None:
    """Sets and dicts of cards iterate in the order the NamedTuple gave (its hash was the
    tuple's), and sorting, ``min``, ``max`` and every comparison follow (rank, suit): the same
    games, step for step."""
    rng = random.Random(3)
    for _ in range(2000):
        one, two = rng.choice(FULL_DECK), rng.choice(FULL_DECK)
        first, second = (one.rank, one.suit), (two.rank, two.suit)
        assert hash(one) == hash(first)
        assert (one == two, one != two) == (first == second, first != second)
        assert (one < two, one <= two, one > two, one >= two) == (
            first < second,
            first <= second,
            first > second,
            first >= second,
        )
    hands = [rng.sample(FULL_DECK, 13) for _ in range(50)]
    for hand in hands:
        pairs = [(card.rank, card.suit) for card in hand]
        assert [(c.rank, c.suit) for c in set(hand)] == list(set(pairs))
        assert [(c.rank, c.suit) for c in sorted(hand)] == sorted(pairs)
        assert (min(hand).text, max(hand).text) == (Card(*min(pairs)).text, Card(*max(pairs)).text)
    assert Card(5, 2) == Card(5, 2) and Card(5, 2) != Card(5, 3) and Card(5, 2) != (5, 2)
    assert len(SUIT_CARDS[2] & set(hands[0])) == sum(card.suit == 2 for card in hands[0])


def test_a_card_survives_pickling_and_a_copy_shares_it() -> None:
    """Saved tables (pickled for the AI's worker processes) and copied states keep cards."""
    for card in FULL_DECK:
        again = pickle.loads(pickle.dumps(card))
        assert again == card and hash(again) == hash(card) and again.text == card.text
        assert copy.copy(card) is card and copy.deepcopy([card])[0] is card
