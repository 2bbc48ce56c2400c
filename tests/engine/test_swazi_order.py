"""swazi's listing order is part of its games: random agents index into the listing, so a
faster way to find the same moves must find them in the same order. These tests hold the
rules' searches to the plain statements of that order they replaced."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.games.swazi import TOP_BUILD, sets_by_total
from engine.games.swazi.sets import unions


def stacked_sets_by_total(cards: list[Card], limit: int) -> list[list[int]]:
    """The order as first written: an explicit stack of (next index, total, set so far); a
    set's extensions are recorded in card order and pushed, the last pushed popped first."""
    found: list[list[int]] = [[] for _total in range(TOP_BUILD + 1)]
    ranks = [card.rank for card in cards]
    stack = [(0, 0, 0)]
    count = 0
    while stack and count < limit:
        start, total, chosen = stack.pop()
        for index in range(start, len(ranks)):
            reached = total + ranks[index]
            if reached > TOP_BUILD:
                break
            subset = chosen | 1 << index
            found[reached].append(subset)
            count += 1
            stack.append((index + 1, reached, subset))
    return found


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=13), max_size=12)
    | st.lists(st.integers(min_value=1, max_value=3), min_size=10, max_size=16),
    st.sampled_from([1, 7, 25, 300, 2000]),
)
def test_sets_by_total_finds_the_sets_in_the_stacks_order_and_stops_where_it_did(
    ranks: list[int], limit: int
) -> None:
    """The recursive search finds the same sets under each total in the same order as the
    stack, and stops after the same set when it reaches ``limit``."""
    loose = [Card(rank, index % 4) for index, rank in enumerate(sorted(ranks))]
    assert sets_by_total(loose, limit)[0] == stacked_sets_by_total(loose, limit)


def stacked_unions(groups: list[int], limit: int) -> list[int]:
    """The order as first written: an explicit stack of (next group, union so far); a
    union's extensions by one disjoint group are recorded in order (each union once) and
    pushed, the last pushed popped first."""
    found: list[int] = []
    if len(groups) < 2:
        return found + groups
    seen: set[int] = set()
    stack = [(0, 0)]
    while stack and len(found) < limit:
        start, used = stack.pop()
        for index in range(start, len(groups)):
            group = groups[index]
            if not used & group:
                union = used | group
                if union not in seen:
                    seen.add(union)
                    found.append(union)
                stack.append((index + 1, union))
    return found[:limit]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=13), max_size=12)
    | st.lists(st.integers(min_value=1, max_value=3), min_size=10, max_size=16),
    st.integers(min_value=2, max_value=TOP_BUILD),
    st.sampled_from([1, 7, 25, 300, 2000]),
)
def test_unions_finds_the_captures_in_the_stacks_order_and_stops_where_it_did(
    ranks: list[int], value: int, limit: int
) -> None:
    """The recursive search finds the same unions of a value's groups (single cards and
    sets adding up to it) in the same order as the stack, and stops where it did."""
    loose = [Card(rank, index % 4) for index, rank in enumerate(sorted(ranks))]
    groups = sets_by_total(loose, 2000)[0][value]
    assert unions(groups, limit) == stacked_unions(groups, limit)
