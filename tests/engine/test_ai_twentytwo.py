"""Twentytwo's hard level: the moves its search compares, and how it judges a hand's end."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.ai.search import rollout_value, spread
from engine.ai.twentytwo import NORMAL, YARDSTICK, candidates, chances, win_chance
from engine.cards import Card
from engine.games.twentytwo import (
    ELIMINATED_AT,
    KEEP,
    STRENGTH,
    Exchange,
    leads,
    options,
    rank_key,
)
from engine.registry import games


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
    legal = options(hand, 38)
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
    legal = options(hand, 2)
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


def test_the_chance_to_win_falls_with_ones_total_and_is_even_between_equals() -> None:
    assert win_chance(0, 0) == pytest.approx(0.5)
    for mine in range(0, ELIMINATED_AT, 3):
        for theirs in range(0, ELIMINATED_AT, 4):
            assert win_chance(mine, theirs) + win_chance(theirs, mine) == pytest.approx(1.0)
            assert win_chance(mine + 1, theirs) < win_chance(mine, theirs)
    assert win_chance(ELIMINATED_AT, 0) == 0.0
    # Eleven points lost in the first hand leave a game to play (by points alone, a hand lost
    # by 11 was judged nearly as bad as a lost game).
    assert win_chance(11, 0) > 0.2


def test_a_two_player_hand_that_ends_is_judged_by_the_chance_to_win_after_it() -> None:
    game = games()["twentytwo"]
    judged = 0
    for seed in range(4):
        state = game.new_state(2, seed)
        seat = state.waiting_for()[0]
        action = state.legal_actions(seat)[0]
        world = state.determinize(seat, random.Random(seed))
        value = rollout_value(world, seat, action, NORMAL(), seed, YARDSTICK)
        assert world.scores() != state.scores()  # played to the hand's end
        if not world.is_over:
            assert value == chances(world.scores(), seat)
            assert value == win_chance(world.scores()[seat], world.scores()[1 - seat])
            judged += 1
    assert judged


def test_at_three_players_a_hand_is_judged_by_its_points_not_the_chances() -> None:
    by_points = replace(YARDSTICK, chances=None)
    state = games()["twentytwo"].new_state(3, 1)
    seat = state.waiting_for()[0]
    action = state.legal_actions(seat)[0]
    values = [
        rollout_value(state.determinize(seat, random.Random(2)), seat, action, NORMAL(), 3, yard)
        for yard in (YARDSTICK, by_points)
    ]
    assert values[0] == values[1] not in (0.0, 1.0)
