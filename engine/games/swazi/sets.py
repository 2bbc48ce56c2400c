"""The sets of loose cards the rules of swazi build and capture with (docs/rules/swazi.md §4.1,
§4.3, §4.4, §5.1): every set of the loose cards by the total it adds up to, and the unions of
disjoint sets a capture takes. A set is a bit mask of the loose cards' indices (bit i: the i-th
loose card in card order), named as cards by ``cards_of``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card

from .moves import TOP_BUILD


def cards_of(cards: Sequence[Card], mask: int) -> tuple[Card, ...]:
    """The cards of a set of ``cards`` given as a bit mask (bit i: ``cards[i]``), in their
    order: how ``sets_by_total`` names a set."""
    chosen: list[Card] = []
    index = 0
    while mask:
        if mask & 1:
            chosen.append(cards[index])
        mask >>= 1
        index += 1
    return tuple(chosen)


NO_SETS: Final[list[int]] = []
"""The sets of a total no loose cards add up to (shared: never added to)."""


def sets_by_total(cards: list[Card], limit: int) -> tuple[list[list[int]], list[int]]:
    """Every non-empty set of ``cards`` (in card order) adding up to 14 at most, an ace
    counting 1 (§2.2), by total, as a bit mask of indices (bit i: ``cards[i]``); at most about
    ``limit`` in all (the search stops once it found that many); and the totals that have a
    set, lowest first. Depth first: a set's extensions by one card are found in card order,
    then each is extended in turn, from the one with the highest card down."""
    found = [NO_SETS] * (TOP_BUILD + 1)  # a total's own list once it has a set
    totals: list[int] = []
    _extend(cards, found, totals, 0, 0, 0, 0, limit)
    totals.sort()
    return found, totals


def _extend(
    cards: list[Card],
    found: list[list[int]],
    totals: list[int],
    start: int,
    total: int,
    chosen: int,
    count: int,
    limit: int,
) -> int:
    """For ``sets_by_total``: the sets ``chosen`` (adding up to ``total``) grows into with the
    cards from index ``start`` on, put in ``found`` (a new total in ``totals`` too); returns
    ``count`` plus how many."""
    end = start  # in card order, so past the first card too high every later one is too
    while end < len(cards):
        reached = total + cards[end].rank
        if reached > TOP_BUILD:
            break
        sets = found[reached]
        if sets is NO_SETS:
            found[reached] = [chosen | 1 << end]
            totals.append(reached)
        else:
            sets.append(chosen | 1 << end)
        end += 1
    count += end - start
    # from the next to last card found down: a set grows only if the next card, the lowest
    # that could join it, fits (one from end on fits not even ``chosen``)
    for index in range(end - 2, start - 1, -1):
        if count >= limit:
            break
        grown = total + cards[index].rank
        if grown + cards[index + 1].rank <= TOP_BUILD:
            count = _extend(
                cards, found, totals, index + 1, grown, chosen | 1 << index, count, limit
            )
    return count


def unions(groups: list[int], limit: int) -> list[int]:
    """Every non-empty union of pairwise disjoint ``groups``, each once (§4.3: a capture takes
    any disjoint collection of its groups); at most ``limit`` of them."""
    if len(groups) < 2:  # nothing to join
        return groups
    found: list[int] = []
    _join(groups, 0, 0, set(), found, limit)
    return found if len(found) <= limit else found[:limit]


def _join(
    groups: list[int], start: int, used: int, seen: set[int], found: list[int], limit: int
) -> None:
    """For ``unions``: the unions ``used`` grows into with the groups from ``start`` on, put
    in ``found`` once each (``seen``), depth first: ``used`` joined by one more group, in
    order, then each of those grown in turn, from the last down, while fewer than ``limit``
    are found."""
    for index in range(start, len(groups)):
        if not used & groups[index]:
            union = used | groups[index]
            if union not in seen:
                seen.add(union)
                found.append(union)
    for index in range(len(groups) - 1, start - 1, -1):
        if len(found) >= limit:
            return
        if not used & groups[index]:
            _join(groups, index + 1, used | groups[index], seen, found, limit)
