"""swazi: Swazi Casino for two players (rules: docs/rules/swazi.md).

Where each rule lives (all in this module):

- Card values, the ace as 1 or 14 (a hand ace declares one value for its action, written
  ``AH=1`` / ``AH=14``; an ace inside a set of two or more cards counts 1): ``serves``, the
  ``ace`` field of ``Move``, ``_subset_table`` (sets sum ranks, ace 1).
- The deal (4 layout cards first, then 12 each one at a time from the dealer's left; 12 more
  each when both hands are empty; non-dealer first; dealer alternates; seat 0 deals a given
  deck, else the seed draws): ``SwaziState.start_deal``, ``deal_hands``, ``_finish_turn``.
- The legal moves, in one place: ``SwaziState._legal_actions`` (card-less builds; augments via
  ``_add_augments``; per hand card captures, builds, changes, discard). It holds the build rules
  (values 2–14, never two builds of one value, a new part of your own value merges), the
  owner-must-hold rule and the first-half limits; a change into the value of your own build
  merges into it (``merge_mask``). Captures of several groups at once:
  ``_Layout.capture_sets``. ``SwaziState._why_not`` checks a move rule by rule (refusal reasons,
  and legality on huge layouts, see below).
- Carrying a move out (build and pile card orders, the opponent's pile top, ownership, the
  augmented flag, a change's merge): ``SwaziState._apply``.
- The last capturer's sweep, scoring (11 points a deal), game end and ties at the target:
  ``SwaziState.end_deal``, ``score_piles``.
- Move text and choice paths: ``Move.text``, ``Move.path``; reading text:
  ``SwaziGame.parse_action``.
- The heuristic player: ``engine.ai.swazi``.

Text order: cards of a list in card order (A 2 … K, C D H S within a rank); in a ``take`` list
the build comes first; in an ``augment`` list ``top`` comes first. Choice paths: the hand card
(or ``build`` / ``augment bN`` for moves chosen without one), the kind of move, then the taken
or added items one per step, so a step offers at most the layout's cards plus one.

Huge layouts: a layout of a dozen cards has a few hundred captures per card, which are all
listed; one of 20 low cards has millions. The lists stop at ``SUBSET_LIMIT`` layout subsets and
``CAPTURE_LIMIT`` captures per value (only a dozen or more low loose cards reach them); from
``LARGE_LAYOUT`` loose cards on, ``is_legal`` accepts any move that ``_why_not`` finds legal.
"""

from __future__ import annotations

import contextlib
import random
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import Any, ClassVar, NamedTuple, cast

from mypy_extensions import mypyc_attr

from engine.cards import (
    DIAMONDS,
    FULL_DECK,
    SPADES,
    SUIT_CARDS,
    Card,
    cards_pretty,
    cards_text,
    describe_cards,
    is_card_text,
)
from engine.core import (
    Action,
    CardSet,
    DeckPlan,
    Event,
    Game,
    Option,
    OptionValue,
    State,
    TotalsState,
    View,
    Zone,
    cards_from_json,
    cards_json,
    make_rng,
    parse_error,
    pile_counts,
    redeal,
    scores_line,
)
from engine.errors import ActionParseError, CardError, SavedStateError
from engine.layout import Layout, face_up, rows, stack, your_hand
from engine.words import N_, _, ngettext

LAYOUT_SIZE = 4
HAND_SIZE = 12
TOP_BUILD = 14
TWO_OF_SPADES = Card(2, SPADES)
TEN_OF_DIAMONDS = Card(10, DIAMONDS)
SCORING_CARDS = ((TWO_OF_SPADES, "2♠"), (TEN_OF_DIAMONDS, "10♦"))  # for the piles line
_ACES = frozenset(card for card in FULL_DECK if card.rank == 1)

CARDLESS_BUILD, AUGMENT, CAPTURE, BUILD, CHANGE, DISCARD = (
    "build",
    "augment",
    "capture",
    "build on",
    "change",
    "discard",
)


# -- values -------------------------------------------------------------------------------------
def serves(card: Card, value: int) -> bool:
    """Whether holding ``card`` keeps a build of ``value`` (an ace serves for 14)."""
    return card.rank == value or (card.rank == 1 and value == TOP_BUILD)


def _word(card: Card, ace: int) -> str:
    """A hand card in move text: ``9D``, or ``AH=14`` for an ace used for its value."""
    return f"{card.text}={ace}" if ace else card.text


# -- moves --------------------------------------------------------------------------------------
class Move(NamedTuple):
    """One swazi move. ``kind`` says which; the other fields as the kind needs them:

    - ``build`` (card-less): ``cards`` the loose cards;
    - ``build on``: hand ``card`` (``ace`` its declared value) on loose ``cards``;
    - ``augment``: own build ``build`` gets ``cards`` (loose cards and at most one hand card,
      which the state tells apart) and the opponent's pile top when ``top``; ``card`` is a hand
      ace named with its value (then not in ``cards``);
    - ``capture``: hand ``card`` takes build ``build`` (0: none) and loose ``cards``;
    - ``change``: hand ``card`` changes the opponent's build ``build``;
    - ``discard``: hand ``card``.
    """

    kind: str
    card: Card | None = None
    ace: int = 0
    build: int = 0
    cards: tuple[Card, ...] = ()
    top: bool = False

    @property
    def text(self) -> str:
        """The move's text (docs/rules/swazi.md, "Move text")."""
        kind, card = self.kind, self.card
        if kind == CAPTURE:
            assert card is not None
            items = ([f"b{self.build}"] if self.build else []) + [c.text for c in self.cards]
            return f"capture {_word(card, self.ace)} take {' '.join(items)}"
        if kind == AUGMENT:
            return f"augment b{self.build} with {' '.join(self._augment_items())}"
        if kind == BUILD:
            assert card is not None
            return f"build {_word(card, self.ace)} on {cards_text(self.cards)}"
        if kind == CARDLESS_BUILD:
            return f"build {cards_text(self.cards)}"
        if kind == CHANGE:
            assert card is not None
            return f"change b{self.build} with {_word(card, self.ace)}"
        assert card is not None
        return f"discard {card.text}"

    def _augment_items(self) -> list[str]:
        words = [(c, c.text) for c in self.cards]
        if self.card is not None:
            words.append((self.card, _word(self.card, self.ace)))
        return (["top"] if self.top else []) + [word for _card, word in sorted(words)]

    @property
    def path(self) -> tuple[str, ...]:
        """Choice steps: the hand card (or ``build`` / ``augment bN`` for moves that need no
        hand card to be chosen first), the kind of move, then the targets one by one in text
        order, so every step offers at most the layout's cards plus one."""
        kind, card = self.kind, self.card
        if kind == CARDLESS_BUILD:
            return ("build", *[c.text for c in self.cards])
        if kind == AUGMENT:
            return (f"augment b{self.build}", *self._augment_items())
        assert card is not None
        if kind == CAPTURE:
            label = "capture" if not self.ace else f"capture {_word(card, self.ace)}"
            items = ([f"b{self.build}"] if self.build else []) + [c.text for c in self.cards]
            return (card.text, label, *items)
        if kind == BUILD:
            return (card.text, "build on", *[c.text for c in self.cards])
        if kind == CHANGE:
            return (card.text, f"change b{self.build}")
        return (card.text, "discard")


# -- subsets of the layout ------------------------------------------------------------------------
SUBSET_LIMIT = 2000  # at most this many layout subsets are listed (see ``_subset_table``)
CAPTURE_LIMIT = 1000  # at most this many captures per value are listed
_CAPTURE_STEPS = 10000  # and the search for them stops after this many steps
# From this many loose cards, a move not listed is checked rule by rule. Below it no limit can
# be reached: 7 cards have 127 subsets, and at most Bell(8) = 4140 ways to pick disjoint groups.
LARGE_LAYOUT = 8


class _Full(Exception):
    """A search reached its limit."""


def _subset_table(ranks: tuple[int, ...]) -> list[Sequence[tuple[int, ...]]]:
    """For sorted layout ``ranks`` (ace 1), the index tuples of every non-empty subset by total
    (0 … 14), from the cached ``_Layout``.

    A layout of a dozen or so cards has a few hundred such subsets; one of 25 low cards has
    millions, which no list can offer. So the search stops at ``SUBSET_LIMIT`` subsets (only
    a dozen or more low loose cards reach it): the legal moves then list those, and
    ``SwaziState.is_legal`` still accepts any other legal move, checked directly.
    """
    table, size = _layout(ranks).table, len(ranks)
    return [
        tuple(tuple(size + index for index in _indices(mask)) for mask in table.get(total, ()))
        for total in _TOTALS
    ]


@lru_cache(maxsize=1 << 16)
def _unions(groups: tuple[int, ...]) -> tuple[int, ...]:
    """The unions of pairwise disjoint ``groups`` (two or more subset masks), as masks: fewest
    cards first, then in the order of their index tuples, at most ``CAPTURE_LIMIT`` (see
    ``_subset_table``). Cached: many layouts share their groups.

    Subsets of one size are in the order of their index tuples when their masks are highest
    first: the first index that differs is that of the highest bit that differs (the lower
    the card, the higher its bit).

    >>> [_indices(mask) for mask in _unions((0b001, 0b010, 0b100))]
    [(-3,), (-2,), (-1,), (-3, -2), (-3, -1), (-2, -1), (-3, -2, -1)]
    """
    unions: set[int] = set()
    with contextlib.suppress(_Full):
        _add_unions(groups, 0, 0, unions, 0)
    ordered = sorted(unions, reverse=True)
    ordered.sort(key=int.bit_count)  # a stable sort: fewest cards first, each size in order
    return tuple(ordered)


def _add_unions(
    groups: tuple[int, ...], start: int, used: int, unions: set[int], steps: int
) -> int:
    """Add to ``unions`` each union of ``used`` with groups from ``start`` on disjoint from it
    and from each other, depth first; ``steps`` taken so far, returned updated. Raises
    ``_Full`` at ``CAPTURE_LIMIT`` unions or ``_CAPTURE_STEPS`` steps. A module function, not
    a closure that calls itself: that would be a reference cycle, garbage only the cyclic
    collector frees, which self-play pauses (``runner.play_out``)."""
    for index in range(start, len(groups)):
        group = groups[index]
        if not used & group:
            union = used | group
            unions.add(union)
            steps += 1
            if len(unions) >= CAPTURE_LIMIT or steps >= _CAPTURE_STEPS:
                raise _Full
            steps = _add_unions(groups, index + 1, union, unions, steps)
    return steps


@lru_cache(maxsize=1 << 12)
def _indices(mask: int) -> tuple[int, ...]:
    """The indices of subset ``mask``'s cards in the layout, in card order, counted from its
    end (bit i: index -1 - i, the i-th highest card).

    >>> _indices(0b1101)
    (-4, -3, -1)
    """
    return tuple(-1 - bit for bit in reversed(range(mask.bit_length())) if mask >> bit & 1)


_TOTALS = range(TOP_BUILD + 1)

Picker = Callable[[tuple[Card, ...]], tuple[Card, ...]]
"""Picks some loose cards, as a tuple, from the layout's cards (a tuple in card order)."""


PICKER_CACHE = 1 << 12  # pickers kept; a long run meets a few thousand subsets


class _Pickers(dict[int, Picker]):
    """The picker of each subset mask, made when first asked for: ``_PICKERS[mask](loose)``
    picks the cards at the mask's indices in C, with an ``itemgetter`` (one index: a one-card
    slice, so that it still gives a tuple). A dict, not an LRU cache: the lookup happens for
    nearly every listed move, and a dict hit costs a third as much. Starts afresh when
    full."""

    def __missing__(self, mask: int) -> Picker:
        if len(self) >= PICKER_CACHE:
            self.clear()
        indices = _indices(mask)
        picker: Picker
        if len(indices) == 1:
            picker = itemgetter(slice(indices[0], indices[0] + 1 or None))
        else:
            picker = itemgetter(*indices)
        self[mask] = picker
        return picker


_PICKERS = _Pickers()


def _all_bits() -> tuple[tuple[int, ...], ...]:
    """The values (0 … 14) set in each mask below 2**15, lowest first, indexed by the mask:
    ``_BITS[mask]``. The legal moves walk sets of values (totals, build values) through this
    table rather than bit by bit. Made whole at import (each mask with bit v is one without
    it plus v: a few milliseconds, 3.5 MB) so that a read is a plain tuple index, a sixth of
    a dict subclass's lookup with ``__missing__``.

    >>> _BITS[0b10110]
    (1, 2, 4)
    """
    table: list[tuple[int, ...]] = [()]
    for value in _TOTALS:
        table += [(*values, value) for values in table]
    return tuple(table)


_BITS = _all_bits()


_RANK = attrgetter("rank")
_RANK_VALUES = tuple(1 << rank | (1 << TOP_BUILD if rank == 1 else 0) for rank in range(14))
"""Each rank's values as a bit mask: bit v for a card of value v (an ace is 1 and 14)."""
_VALUE_BITS = tuple(1 << value for value in range(TOP_BUILD + 1))
"""Each value's (or rank's) bit in a mask: a tuple index and one ``&`` test a bit for less
than ``mask >> value & 1`` (Python specializes neither shifts nor ``&``)."""
_TOP_BIT = _VALUE_BITS[TOP_BUILD]
_NOT_TOP = ~_TOP_BIT  # every bit but the top value's (a constant: not worked out each step)
_CAPTURING_AS = (
    (),
    ((1, 1, _VALUE_BITS[1]), (TOP_BUILD, TOP_BUILD, _TOP_BIT)),
    *(((0, rank, _VALUE_BITS[rank]),) for rank in range(2, 14)),
)
"""For each rank, how a hand card of it may capture: (the ace field of the move, the value it
captures, that value's bit), an ace as 1 or as 14."""
_TOTAL_BITS = (1 << (TOP_BUILD + 1)) - 1  # the totals 0 … 14 as bits


Subsets = tuple[dict[int, tuple[int, ...]], int, int, int, int]
"""A layout's subsets as ``_depth_first`` and ``_subsets`` give them: the masks by total, how
many, the totals they reach, all and by two or more cards (bit masks), and those totals
mirrored (``_mirrored``)."""


def _mirrored(reach: int) -> int:
    """Bit 14 - t for each total t in ``reach`` and for t = 0: shifted right by 14 - v, the
    ranks r for which v - r is nothing or a total reached (``_Layout.complements``).

    >>> bin(_mirrored(0b110))
    '0b111000000000000'
    """
    return int(format(reach | 1, "015b")[::-1], 2)


def _depth_first(ranks: tuple[int, ...]) -> Subsets:
    """The subsets of sorted ``ranks`` adding up to 14 at most, as masks by total, depth
    first (the order the move lists keep), and how many: at most ``SUBSET_LIMIT`` or so, as
    the search stops once it has found that many (after the subsets of the node at hand);
    then the totals reached by those."""
    found: dict[int, list[int]] = {}
    size = len(ranks)
    stack = [(0, 0, 0)]  # (the next index, the total so far, the mask so far)
    count = 0
    while stack and count < SUBSET_LIMIT:
        start, total, chosen = stack.pop()
        for index in range(start, size):
            reached = total + ranks[index]
            if reached > TOP_BUILD:
                break  # sorted: every later rank is at least as high
            subset = chosen | 1 << (size - 1 - index)
            found.setdefault(reached, []).append(subset)
            count += 1
            # extended later, if the next rank still fits
            if index + 1 < size and reached + ranks[index + 1] <= TOP_BUILD:
                stack.append((index + 1, reached, subset))
    reach = set_reach = 0
    for total, subsets in found.items():
        reach |= 1 << total
        if len(subsets) > ranks.count(total):  # the single cards come first
            set_reach |= 1 << total
    table = {total: tuple(subsets) for total, subsets in found.items()}
    return table, count, reach, set_reach, _mirrored(reach)


def _subsets(ranks: tuple[int, ...], key: int) -> Subsets:
    """What ``_depth_first`` gives for ``ranks``, derived in C from the cached layout without
    the lowest card (most layouts are one card away from one met before): the depth-first
    search takes the lowest card alone first, then searches the other cards as it would
    without it, then searches them again after the lowest card. So, for each total: the
    lowest card alone, the other layout's subsets (the same masks: bits count from the
    highest card), and those subsets of the total less the lowest rank with the lowest card
    added. Only when the search would stop at ``SUBSET_LIMIT`` does it run itself (only it
    knows where it stops). ``key`` is the ``layout_key`` of ``ranks``. The totals reached:
    the other layout's, and those joined with the lowest card (by two or more cards then),
    and the lowest rank; so, mirrored, the other layout's, also moved down by that rank.
    """
    if not ranks:
        return {}, 0, 0, 0, _mirrored(0)
    lowest = ranks[0]
    rest = _cached_layout(ranks[1:], key - _RANK_KEYS[lowest])
    rest_table = rest.table
    lowest_bit = 1 << (len(ranks) - 1)
    table = dict(rest_table)  # the tuples shared: no copy
    table[lowest] = (lowest_bit, *rest_table.get(lowest, ()))
    count = 1 + rest.count
    with_lowest = lowest_bit.__or__
    for total in _BITS[rest.reach & _TOTAL_BITS >> lowest]:  # the totals the lowest card joins
        joined = tuple(map(with_lowest, rest_table[total]))
        table[total + lowest] = table.get(total + lowest, ()) + joined
        count += len(joined)
    if count > SUBSET_LIMIT:
        return _depth_first(ranks)
    joined_reach = rest.reach << lowest
    reach = (rest.reach | joined_reach | 1 << lowest) & _TOTAL_BITS
    set_reach = (rest.set_reach | joined_reach) & _TOTAL_BITS
    return table, count, reach, set_reach, rest.complements | rest.complements >> lowest


class _Layout:
    """What the legal moves need to know of a layout's ranks, worked out once per rank tuple:
    its subsets by total, how many, the totals they reach (all, and by two or more cards, as
    bit masks) and (on demand) each value's captures. A subset is a bit mask of the indices
    of its cards (bit i: the i-th highest card): masks are quick to hash and to join, and a
    layout with a new lowest card keeps the masks of the other cards.

    The subsets are kept only for the totals reached (a dict): a new layout is met every few
    steps. Only dicts of tuples of ints are kept, no lists: the cache holds tens of thousands
    of layouts, and the garbage collector stops walking tuples and dicts that hold nothing
    but ints, while it walks every list at each full collection (a tenth of self-play's time
    went there with lists)."""

    __slots__ = (
        "capturable",
        "captures",
        "complements",
        "count",
        "ranks",
        "reach",
        "set_reach",
        "table",
    )

    def __init__(self, ranks: tuple[int, ...], key: int) -> None:
        self.ranks = ranks
        self.table, self.count, reach, self.set_reach, self.complements = _subsets(ranks, key)
        self.reach = reach
        # the values some capture exists for (an ace captures as 14 too)
        self.capturable = reach | (1 << TOP_BUILD if reach & 2 else 0)
        # each value's captures (``capture_sets``), filled in when first needed
        self.captures: dict[int, tuple[int, ...]] = {}

    def groups(self, value: int) -> tuple[int, ...]:
        """The loose groups a card of ``value`` takes, or that may join a build of ``value``:
        single cards of that value (an ace is 1 or 14), then sets adding up to it."""
        if value == TOP_BUILD:
            return self.table.get(1, ()) + self.table.get(TOP_BUILD, ())
        return self.table.get(value, ())

    def capture_sets(self, value: int) -> tuple[int, ...]:
        """Every non-empty union of disjoint ``groups`` a card of ``value`` captures. (Taking
        aces alone without the build, an ace is written ``=1``: the caller leaves those out for
        14.) Listed up to ``CAPTURE_LIMIT`` (see ``_subset_table``); kept in ``captures``."""
        groups = self.groups(value)
        taken = self.captures[value] = _unions(groups) if len(groups) > 1 else groups
        return taken


LAYOUT_CACHE = 1 << 15  # layouts kept worked out; a long run meets tens of thousands
_LAYOUTS: dict[int, _Layout] = {}
"""Each layout's ``_Layout`` by the ``layout_key`` of its ranks (``_layout``). A plain dict,
not an LRU cache: the lookup happens at every step, and a dict is a third quicker."""

_RANK_KEY_BITS = 4
MOST_OF_A_RANK = (1 << _RANK_KEY_BITS) - 1
"""The most cards of one rank a ``layout_key`` counts (a deck holds 4). One more would carry
into the next rank's count, and the layout would share another's key and cached moves
(sixteen aces would be a single 2): ``layout_key`` refuses such ranks, and the state never
holds them, since it holds each card once (a saved state naming a card twice is refused)."""

_RANK_KEYS = tuple(1 << _RANK_KEY_BITS * rank for rank in range(14))
"""Each rank's part of a ``layout_key``: one in the rank's 4 bits."""


def layout_key(ranks: Iterable[int]) -> int:
    """The key of a layout of ``ranks`` in the layout cache: how many cards of each rank,
    4 bits a rank. An int, quick to hash, which the state keeps up to date as loose cards
    come and go (``SwaziState.loose_key``) instead of reading the ranks at every step. More
    than ``MOST_OF_A_RANK`` cards of a rank raise ValueError.

    >>> hex(layout_key((1, 5, 5)))
    '0x200010'
    """
    ranks = tuple(ranks)
    if len(ranks) > MOST_OF_A_RANK and max(map(ranks.count, set(ranks))) > MOST_OF_A_RANK:
        raise ValueError(f"a layout key counts at most {MOST_OF_A_RANK} cards of a rank")
    return sum(map(_RANK_KEYS.__getitem__, ranks))


def _layout(ranks: tuple[int, ...]) -> _Layout:
    """The cached ``_Layout`` of sorted layout ``ranks``."""
    return _cached_layout(ranks, layout_key(ranks))


def _cached_layout(ranks: tuple[int, ...], key: int) -> _Layout:
    """The cached ``_Layout`` of sorted layout ``ranks``, of ``layout_key`` ``key`` (the cache
    starts afresh when full)."""
    layout = _LAYOUTS.get(key)
    if layout is None:
        layout = _Layout(ranks, key)  # (which may put the layouts it is made from in the cache)
        if len(_LAYOUTS) >= LAYOUT_CACHE:
            _LAYOUTS.clear()
        _LAYOUTS[key] = layout
    return layout


def _splits(value: int, cards: Sequence[Card]) -> bool:
    """Whether loose ``cards`` (in card order) split into groups a card of ``value`` takes:
    single cards of that value and sets of two or more adding up to it. Checked directly,
    group by group around the lowest card left."""
    if not cards:
        return True
    head, rest = cards[0], cards[1:]
    if (head.rank == value or (head.rank == 1 and value in (1, TOP_BUILD))) and _splits(
        value, rest
    ):
        return True
    chosen: list[int] = []

    def extend(start: int, total: int) -> bool:
        for index in range(start, len(rest)):
            reached = total + rest[index].rank
            if reached > value:
                return False  # in card order: every later rank is at least as high
            chosen.append(index)
            if reached == value:
                left = [card for i, card in enumerate(rest) if i not in chosen]
                if _splits(value, left):
                    return True
            elif extend(index + 1, reached):
                return True
            chosen.pop()
        return False

    return extend(0, head.rank)


def _add_augments(
    moves: list[Move],
    value: int,
    top: Card | None,
    loose: tuple[Card, ...],
    layout: _Layout,
    hand: list[Card],
    spare: int,
) -> None:
    """Add to ``moves`` every part that may join the player's own build of ``value``: a single
    card of that value or a set adding up to it, of ``loose`` cards, at most one pile ``top``
    and at most one ``hand`` card, of a ``spare`` value (bit v: a card of value v may go)."""
    table = layout.table
    append = moves.append
    new = tuple.__new__  # Move(...) without the keyword-handling frame
    # card-less parts: loose cards, with or without the top
    for subset in table.get(value, ()) if value != TOP_BUILD else layout.groups(value):
        append(new(Move, (AUGMENT, None, 0, value, _PICKERS[subset](loose), False)))
    top_rank = 99  # no top: every rest below is negative, so nothing uses it
    if top is not None:
        top_rank = top.rank
        if top_rank == value or (top_rank == 1 and value == TOP_BUILD):  # ``serves``
            append(new(Move, (AUGMENT, None, 0, value, (), True)))
        for subset in table.get(value - top_rank, ()):
            append(new(Move, (AUGMENT, None, 0, value, _PICKERS[subset](loose), True)))
    if not spare:
        return
    # parts with a hand card: its rank and some loose cards (or none) make the value, with
    # or without the top
    joining = layout.complements >> (TOP_BUILD - value)
    if top is not None:
        joining |= layout.complements >> (TOP_BUILD - value + top_rank)
    if joining & _TOP_BIT:
        joining |= 2  # an ace alone, as 14
    joining &= spare
    if not joining:
        return
    for card in hand:
        rank = card.rank
        if rank > value:
            break  # too high for a part, and so are the cards after it (card order)
        if not joining & _VALUE_BITS[rank]:
            continue
        if rank == 1:
            if value == TOP_BUILD:
                append(new(Move, (AUGMENT, card, TOP_BUILD, value, (), False)))  # alone
            for subset in table.get(value - 1, ()):
                cards = _PICKERS[subset](loose)
                append(new(Move, (AUGMENT, card, 1, value, cards, False)))
            rest = value - 1 - top_rank
            if rest == 0:
                append(new(Move, (AUGMENT, card, 1, value, (), True)))
            for subset in table.get(rest, ()):
                cards = _PICKERS[subset](loose)
                append(new(Move, (AUGMENT, card, 1, value, cards, True)))
            continue
        if rank == value:
            append(new(Move, (AUGMENT, None, 0, value, (card,), False)))
        for subset in table.get(value - rank, ()):
            part = list(_PICKERS[subset](loose))
            insort(part, card)
            append(new(Move, (AUGMENT, None, 0, value, tuple(part), False)))
        rest = value - rank - top_rank
        if rest == 0:
            append(new(Move, (AUGMENT, None, 0, value, (card,), True)))
        for subset in table.get(rest, ()):
            part = list(_PICKERS[subset](loose))
            insort(part, card)
            append(new(Move, (AUGMENT, None, 0, value, tuple(part), True)))


# -- builds -------------------------------------------------------------------------------------
class Build:
    """A build on the layout: its value, owner, whether augmented, and its cards in the order
    they were put in."""

    __slots__ = ("augmented", "cards", "owner", "value")

    def __init__(self, value: int, owner: int, augmented: bool, cards: list[Card]) -> None:
        self.value = value
        self.owner = owner
        self.augmented = augmented
        self.cards = cards

    def __deepcopy__(self, memo: dict[int, Any]) -> Build:
        """A copy for a copied state (quicker than the generic walk)."""
        return Build(self.value, self.owner, self.augmented, list(self.cards))

    def to_json(self) -> dict[str, Any]:
        """The build as JSON-ready data (also its public view)."""
        return {
            "value": self.value,
            "owner": self.owner,
            "augmented": self.augmented,
            "cards": cards_json(self.cards),
        }


# -- the state ----------------------------------------------------------------------------------
# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class SwaziState(TotalsState):
    """A swazi game at a decision."""

    game: ClassVar[SwaziGame]

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.deal_number = 0
        self.dealer = 0 if deck_plan.is_stacked else make_rng(seed, "dealer").randrange(2)
        self.turn = 0
        self.half = 1
        self.hands: list[list[Card]] = [[], []]
        # Each seat's hand facts, which the legal moves read at every step: kept up to date as
        # cards leave the hand (``_finish_turn``), worked out afresh when hands are dealt,
        # loaded or dealt again (``_count_hands``). Not saved: the hands say it all.
        self.held_values = [0, 0]  # bit v: a card of value v is held (an ace is 1 and 14)
        # how many cards of rank r seat s holds: rank_counts[14 * s + r] (one flat list of
        # ints, which a state's deep copy copies in C)
        self.rank_counts = [0] * 28
        self.piles: list[list[Card]] = [[], []]
        self.loose: list[Card] = []
        self.loose_key = 0  # the loose cards' ``layout_key``, kept up to date with them
        self.builds: dict[int, Build] = {}
        self.stock: list[Card] = []
        self.last_capturer: int | None = None

    # -- dealing -----------------------------------------------------------------------------
    def start(self) -> list[Event]:
        return self.start_deal()

    def start_deal(self) -> list[Event]:
        """Deal: the layout's 4 cards first, then 12 to each player; the rest is the stock."""
        deck = self.deck_plan.deck(self.deal_number)
        self.loose = sorted(deck[:LAYOUT_SIZE])
        self.loose_key = layout_key(map(_RANK, self.loose))
        self.stock = deck[LAYOUT_SIZE:]
        self.builds = {}
        self.piles = [[], []]
        self.hands = [[], []]
        self.last_capturer = None
        self.half = 1
        self.deal_hands()
        self.turn = 1 - self.dealer
        return [
            Event(
                _DEALS[self.dealer],
                "deal",
                args=(("deal", str(self.deal_number + 1)), ("layout", cards_pretty(self.loose))),
            )
        ]

    def deal_hands(self) -> None:
        """12 cards each, one at a time, starting with the dealer's left (the non-dealer)."""
        first = 1 - self.dealer
        dealt = self.stock[: 2 * HAND_SIZE]
        self.hands[first] += dealt[0::2]
        self.hands[1 - first] += dealt[1::2]
        del self.stock[: 2 * HAND_SIZE]
        for hand in self.hands:
            hand.sort()
        self._count_hands()

    def _count_hands(self) -> None:
        """Work out each seat's hand facts (``held_values``, ``rank_counts``) from its hand."""
        counts = [0] * 28
        for seat, hand in enumerate(self.hands):
            held = 0
            for card in hand:
                held |= _RANK_VALUES[card.rank]
                counts[14 * seat + card.rank] += 1
            self.held_values[seat] = held
        self.rank_counts = counts

    # -- decisions ---------------------------------------------------------------------------
    def _to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def pile_top(self, seat: int) -> Card | None:
        """The top of the opponent's pile, the only pile card ``seat`` may use."""
        pile = self.piles[1 - seat]
        return pile[-1] if pile else None

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every legal move, in a fixed order: card-less builds, augments, then each hand card's
        captures, builds, changes and discard.

        Rules checked here: build values 2–14 and never two builds of one value; the owner must
        keep a card of each owned build's value (a card-less move needs one in hand, a hand
        card may go only if another is left or it captures that build); first half: no discard
        while owning a build, no turn ending with two builds, so a card-less move may make a
        second build only (then a hand card must capture one) and never a third.

        This is the hot loop of self-play: the layout's subsets come as index tuples from a
        cache keyed by its ranks, and its cards are picked in C (``_PICKERS``); sets of values
        and ranks are bit masks; a rank that can only be discarded is told at once (``busy``),
        and the moves of a rank are worked out once for all the cards of that rank.
        """
        hand = self.hands[seat]
        loose = tuple(self.loose)
        key = self.loose_key
        layout = _LAYOUTS.get(key) or _cached_layout(tuple(map(_RANK, loose)), key)
        builds = self.builds
        first_half = self.half == 1
        held = self.held_values[seat]  # bit v: a card of value v is held
        counts = self.rank_counts  # read by index: a slice for the seat costs more
        offset = 14 * seat  # the seat's count of rank r: counts[offset + r]
        two_aces = counts[offset + 1] >= 2
        built = 0
        owned: Sequence[int] = ()
        changeable: Sequence[int] = ()  # the opponent's single builds
        scarce = 0  # bit r: rank r keeps an owned build, held once: it must stay or capture it
        if builds:
            owned_bits = single_bits = 0
            for value, build in builds.items():
                bit = _VALUE_BITS[value]
                built |= bit
                if build.owner == seat:
                    owned_bits |= bit
                elif not build.augmented:
                    single_bits |= bit
            owned, changeable = _BITS[owned_bits], _BITS[single_bits]
            for value in owned:
                rank = 1 if value == TOP_BUILD else value
                if counts[offset + rank] < 2:
                    scarce |= _VALUE_BITS[rank]
        n_owned = len(owned)
        # the values a new build may take: held and not built (for an ace, 14 needs another)
        free_mask = held & ~built & ~3
        moves: list[Move] = []
        append = moves.append
        new = tuple.__new__  # Move(...) without the keyword-handling frame

        # Card-less builds: a set of two or more loose cards, of a value not yet built, which
        # the player holds; in the first half at most a second build.
        table = layout.table
        if not first_half or n_owned <= 1:
            for value in _BITS[free_mask & layout.set_reach]:
                # the single cards come first
                for subset in table[value][key >> 4 * value & 15 :]:
                    cards = _PICKERS[subset](loose)
                    append(new(Move, (CARDLESS_BUILD, None, 0, 0, cards, False)))

        # Augments of own builds (a hand card among them ends the turn: so not one that must
        # stay, and in the first half only while the player owns one build).
        if owned:
            pile = self.piles[1 - seat]
            top = pile[-1] if pile else None
            spare = held & ~scarce if not first_half or n_owned == 1 else 0
            for value in owned:
                _add_augments(moves, value, top, loose, layout, hand, spare)

        # The hand card, rank by rank.
        ends_free = not first_half or not owned  # may end the turn owning a new build
        plain_free = not first_half or n_owned <= 1  # may end the turn owning what it owns
        if not ends_free:
            free_mask = 0
        ace_mask = free_mask if two_aces else free_mask & _NOT_TOP
        # the values a change may merge into: own builds (first half: only the one owned)
        merge_mask = 0
        if owned and (not first_half or n_owned == 1):
            for value in owned:
                merge_mask |= held & _VALUE_BITS[value]
        merge_ace_mask = merge_mask if two_aces else merge_mask & _NOT_TOP
        captures = layout.captures
        reach = layout.reach
        capturable = layout.capturable | built
        capturing = (capturable | 2) if capturable & _TOP_BIT else capturable  # by rank
        # busy: the ranks that may do more than a discard (or may not discard): a capture, a
        # change, the last of an owned value, or (told card by card) a build on loose cards,
        # rank + some total free. A few too many is harmless: such a rank is worked out in full.
        busy = capturing | scarce
        if changeable:  # (a loop over nothing still makes an iterator)
            for old in changeable:
                busy |= (free_mask | merge_mask) >> old
        last_rank = 0
        first = stop = 0  # the moves[first:stop] of the last rank's first card, to copy
        for card in hand:
            rank = card.rank
            bit = _VALUE_BITS[rank]
            if not (busy & bit or free_mask >> rank & reach):
                if ends_free:
                    append(_DISCARD[card])
                continue
            if rank == last_rank:  # (a rank held twice never keeps a build alone: not lost)
                for move in moves[first:stop]:
                    append(new(Move, (move[0], card, move[2], move[3], move[4], False)))
                if ends_free:
                    append(_DISCARD[card])
                continue
            last_rank = rank
            first = len(moves)
            lost = scarce & bit  # the last card keeping an owned build
            if capturing & bit:
                for ace, value, value_bit in _CAPTURING_AS[rank]:
                    if not capturable & value_bit:
                        continue
                    taken = captures.get(value)
                    if taken is None:
                        taken = layout.capture_sets(value)
                    # capturing the build frees its value; in the first half one build at most
                    if built & value_bit and (
                        not first_half or n_owned - (builds[value].owner == seat) <= 1
                    ):
                        append(new(Move, (CAPTURE, card, ace, value, (), False)))
                        for union in taken:
                            cards = _PICKERS[union](loose)
                            append(new(Move, (CAPTURE, card, ace, value, cards, False)))
                    if taken and not lost and plain_free:
                        for union in taken:
                            cards = _PICKERS[union](loose)
                            # an ace as 14 does not take aces alone (the last in card order)
                            if ace != TOP_BUILD or cards[-1].rank != 1:
                                append(new(Move, (CAPTURE, card, ace, 0, cards, False)))
            if lost:
                continue
            ace = 1 if rank == 1 else 0
            mask = ace_mask if ace else free_mask
            # build on loose cards: the totals t some loose set reaches with rank + t free (most
            # ranks have none, and a loop over nothing still makes an iterator)
            totals = (mask >> rank) & reach
            if totals:
                for total in _BITS[totals]:
                    for subset in table[total]:
                        cards = _PICKERS[subset](loose)
                        append(new(Move, (BUILD, card, ace, 0, cards, False)))
            # change an opponent's single build into a new value the player holds, or into
            # the value of their own build, which it then merges into
            if changeable:
                mask |= merge_ace_mask if ace else merge_mask
                for old in changeable:
                    if mask >> (old + rank) & 1:
                        append(new(Move, (CHANGE, card, ace, old, (), False)))
            stop = len(moves)
            if ends_free:
                append(_DISCARD[card])
        return tuple(moves)

    # -- carrying a move out -------------------------------------------------------------------
    def hand_card_of(self, seat: int, move: Move) -> Card | None:
        """The hand card a move plays (None for a card-less move)."""
        if move.kind == CARDLESS_BUILD:
            return None
        if move.kind == AUGMENT and move.card is None:
            hand = self.hands[seat]
            held = [card for card in move.cards if card in hand]
            return held[0] if held else None
        return move.card

    def _apply(self, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Move)
        move = action
        kind = move.kind
        if kind == DISCARD:  # the commonest move, first
            card = move.card
            assert card is not None
            insort(self.loose, card)
            self.loose_key += _RANK_KEYS[card.rank]
            return self._finish_turn(seat, card, [_DISCARDED[seat][card]])
        hand_card = move.card if kind != AUGMENT else self.hand_card_of(seat, move)
        loose_cards: Sequence[Card] = move.cards
        if kind == AUGMENT and hand_card is not None and hand_card in loose_cards:
            loose_cards = [card for card in loose_cards if card != hand_card]
        loose, key = self.loose, self.loose_key
        for card in loose_cards:
            loose.remove(card)
            key -= _RANK_KEYS[card.rank]
        self.loose_key = key
        if kind == CAPTURE:  # the commonest move after a discard
            assert hand_card is not None
            value = move.build
            pile = self.piles[seat]
            captured = [("card", hand_card.pretty), ("worth", str(move.ace))]
            if value:
                build_cards = self.builds.pop(value).cards
                pile += build_cards
                captured += [("value", str(value)), ("build", cards_pretty(build_cards))]
            if loose_cards:
                captured.append(("cards", cards_pretty(loose_cards)))
            pile += loose_cards
            pile.append(hand_card)
            self.last_capturer = seat
            taken = (bool(value) << 1 | bool(loose_cards)) - 1  # loose cards, the build, both
            message = _CAPTURED[seat][taken][bool(move.ace)]
            event = Event(message, "capture", None, tuple(captured))
            return self._finish_turn(seat, hand_card, [event])
        if kind == CARDLESS_BUILD:
            value = sum(map(_RANK, move.cards))
            self.builds[value] = Build(value, seat, False, list(move.cards))
            built = (("cards", cards_pretty(move.cards)), ("value", str(value)))
            return [Event(_BUILT[seat], "build", None, built)]
        if kind == AUGMENT:
            build = self.builds[move.build]
            part: list[Card] = []
            if move.top:
                part.append(self.piles[1 - seat].pop())
            part += loose_cards
            if hand_card is not None:
                part.append(hand_card)
            build.cards += part
            build.augmented = True
            added = [("value", str(build.value))]
            if move.top:
                added.append(("top", part[0].pretty))
                if part[1:]:
                    added.append(("cards", cards_pretty(part[1:])))
            else:
                added.append(("cards", cards_pretty(part)))
            message = _ADDED[seat][(2 if part[1:] else 1) if move.top else 0]
            events = [Event(message, "build", None, tuple(added))]
            return events if hand_card is None else self._finish_turn(seat, hand_card, events)
        assert hand_card is not None
        if kind == BUILD:
            value = sum(map(_RANK, move.cards)) + hand_card.rank
            self.builds[value] = Build(value, seat, False, [*loose_cards, hand_card])
            args = (
                ("card", hand_card.pretty),
                ("worth", str(move.ace)),
                ("cards", cards_pretty(loose_cards)),
                ("value", str(value)),
            )
            message = _BUILT_ON[seat][bool(move.ace)]
            return self._finish_turn(seat, hand_card, [Event(message, "build", None, args)])
        if kind == CHANGE:
            build = self.builds.pop(move.build)
            value = move.build + hand_card.rank
            build.cards.append(hand_card)
            own = self.builds.get(value)
            if own is None:
                build.value, build.owner = value, seat
                self.builds[value] = build
            else:  # the player's own build of that value takes the cards in and is augmented
                own.cards += build.cards
                own.augmented = True
            args = (
                ("old", str(move.build)),
                ("value", str(value)),
                ("card", hand_card.pretty),
                ("worth", str(move.ace)),
            )
            message = _CHANGED[seat][own is not None][bool(move.ace)]
            return self._finish_turn(seat, hand_card, [Event(message, "change", None, args)])
        raise AssertionError(f"unknown move kind {kind!r}")  # pragma: no cover

    def _finish_turn(self, seat: int, card: Card, events: list[Event]) -> list[Event]:
        """Hand ``card`` was played, which ends the turn: it leaves the hand (the seat's hand
        facts kept up to date), then the turn passes on, the second half is dealt, or the deal
        ends; returns the move's ``events`` followed by what happened."""
        hand = self.hands[seat]
        hand.remove(card)
        rank = card.rank
        index = 14 * seat + rank
        counts = self.rank_counts
        counts[index] -= 1
        if not counts[index]:
            self.held_values[seat] &= ~_RANK_VALUES[rank]
        self.turn = 1 - seat
        if hand or self.hands[1 - seat]:
            return events
        if self.stock:
            self.half = 2
            self.deal_hands()
            events.append(Event(N_("Second half: 12 more cards to each player"), "half"))
            return events
        return events + self.end_deal()

    # -- end of a deal and of the game -------------------------------------------------------
    def end_deal(self) -> list[Event]:
        """The last capturer sweeps the layout (builds too), the deal is scored, and the game
        ends or the next deal starts with the other dealer."""
        events: list[Event] = []
        left = [card for value in sorted(self.builds) for card in self.builds[value].cards]
        left += self.loose
        if self.last_capturer is not None and left:
            self.piles[self.last_capturer] += left
            events.append(
                Event(_SWEPT[self.last_capturer], "capture", args=(("cards", cards_pretty(left)),))
            )
            self.builds = {}
            self.loose = []
            self.loose_key = 0
        points, reasons = score_piles(self.piles)
        for seat in (0, 1):
            self.totals[seat] += points[seat]
        self.history.append(points)
        counts = pile_counts(self.piles, SPADES, SCORING_CARDS, "1 point each")
        deal = ("deal", str(self.deal_number + 1))
        # each seat's part follows its seat, which a message names itself
        first, _between, second = counts.removeprefix("{s0} ").partition("; {s1} ")
        piles = (deal, ("pile0", first), ("pile1", second))
        events.append(
            Event(N_("Deal {deal} piles: {s0} {pile0}; {s1} {pile1}"), "piles", args=piles)
        )
        scores = [deal]
        for seat in (0, 1):
            scores.append((f"points{seat}", str(points[seat])))
            scores.append(
                (f"reasons{seat}", f" ({', '.join(reasons[seat])})" if reasons[seat] else "")
            )
            scores.append((f"total{seat}", str(self.totals[seat])))
        message = N_(
            "Deal {deal} scores: {s0} {points0}{reasons0}; {s1} {points1}{reasons1}"
            " · totals: {s0} {total0}, {s1} {total1}"
        )
        events.append(Event(message, "hand_end", args=tuple(scores)))
        best = max(self.totals)
        target = int(self.options["target"] or 0)
        if best >= target and self.totals.count(best) == 1:
            self.over = True
            winner = self.totals.index(best)
            events.append(Event(_WINS[winner], "game_end", args=(("points", str(best)),)))
            return events
        self.deal_number += 1
        self.dealer = 1 - self.dealer
        events += self.start_deal()
        return events

    # -- explaining a refusal --------------------------------------------------------------------
    def is_legal(self, seat: int, action: Action) -> bool:
        """Listed moves are legal; on a layout large enough for the lists to be cut short (see
        ``_subset_table``) any other move is checked rule by rule."""
        if action in self.legal_actions(seat):
            return True
        return (
            isinstance(action, Move)
            and seat in self.to_act()
            and len(self.loose) >= LARGE_LAYOUT
            and self._why_not(seat, action) is None
        )

    def explain_illegal(self, seat: int, action: Action) -> str:
        if not isinstance(action, Move) or seat not in self.to_act():
            return super().explain_illegal(seat, action)
        return self._why_not(seat, action) or _("'{move}' is not a legal move now.").format(
            move=action.text
        )

    def _why_not(self, seat: int, move: Move) -> str | None:
        """The first rule a move breaks, in plain words; None when it breaks none (the tests
        hold this to the listed moves and to a brute-force reference)."""
        hand, kind = self.hands[seat], move.kind
        if move.card is not None and move.card not in hand:
            return _("You do not hold {card}.").format(card=move.card.pretty)
        hand_cards = [card for card in move.cards if card in hand]
        if kind != AUGMENT and hand_cards:
            return _("{cards} is in your hand, not on the layout.").format(
                cards=cards_pretty(hand_cards)
            )
        if len(hand_cards) + (move.card is not None and kind == AUGMENT) > 1:
            return _("A part may hold at most one card from your hand.")
        missing = [card for card in move.cards if card not in hand and card not in self.loose]
        if missing:
            return _("{cards} is not loose on the layout.").format(cards=cards_pretty(missing))
        hand_card = self.hand_card_of(seat, move)
        if hand_card is not None and hand_card.rank == 1 and kind != DISCARD and move.ace == 0:
            return _("Say which value your ace has: AH=1 or AH=14.")
        if kind in (AUGMENT, CHANGE, CAPTURE) and move.build and move.build not in self.builds:
            return _("There is no build of {value}.").format(value=move.build)
        if move.top and self.pile_top(seat) is None:
            return _("Your opponent's pile is empty: there is no top card to use.")
        owned = [v for v, b in self.builds.items() if b.owner == seat]
        if kind == AUGMENT and self.builds[move.build].owner != seat:
            return _("You may augment only your own build (you may change a single one).")
        if kind == CHANGE:
            build = self.builds[move.build]
            if build.owner == seat:
                return _("You may change only your opponent's build.")
            if build.augmented:
                return _("An augmented build cannot change its value.")
        if kind in (BUILD, CHANGE) and move.ace not in (0, 1):
            return _("An ace joined to other cards counts 1: write it =1.")
        if kind == AUGMENT:
            top = self.pile_top(seat) if move.top else None
            part = [*move.cards, *([move.card] if move.card else []), *([top] if top else [])]
            single = len(part) == 1
            if move.card is not None and move.ace != (TOP_BUILD if single else 1):
                return _(
                    "An ace alone in a part is 14, with other cards 1: write {card}={value}."
                ).format(card=move.card.text, value=TOP_BUILD if single else 1)
            if not (
                serves(part[0], move.build)
                if single
                else sum(card.rank for card in part) == move.build
            ):
                return _(
                    "A part of the build of {value} is one card of that value or cards "
                    "adding up to {value}."
                ).format(value=move.build)
        if kind == CAPTURE and move.card is not None:
            value = move.ace or move.card.rank
            if move.build and move.build != value:
                return _("A card of value {value} cannot capture a build of {build}.").format(
                    value=value, build=move.build
                )
            if not move.cards and not move.build:
                return _("Say what you capture.")
            if move.cards and not _splits(value, sorted(move.cards)):
                return _(
                    "{cards} do not split into cards of value {value} and sets adding up to "
                    "{value}."
                ).format(cards=cards_pretty(move.cards), value=value)
            if move.ace == TOP_BUILD and all(c.rank == 1 for c in move.cards) and not move.build:
                return _("Taking aces alone, an ace is written =1.")
        new_value = self._new_value(move)
        if new_value is not None:
            if new_value > TOP_BUILD:
                return _("A build may be worth at most {most}, not {value}.").format(
                    most=TOP_BUILD, value=new_value
                )
            merges = kind == CHANGE and new_value in owned
            if new_value in self.builds and not merges:
                if self.builds[new_value].owner == seat:
                    return _(
                        "You already own a build of {value}: write it as an augment of b{value}."
                    ).format(value=new_value)
                return _(
                    "There is already a build of {value}: two builds never share a value."
                ).format(value=new_value)
            kept = [card for card in hand if card != hand_card and serves(card, new_value)]
            if not kept:
                return _("You must keep a card of value {value} in hand to own that build.").format(
                    value=new_value
                )
        if hand_card is not None:
            if self.half == 1 and owned and kind == DISCARD:
                return _("In the first half you may not discard while you own a build.")
            left = [v for v in owned if not (kind == CAPTURE and move.build == v)]
            if new_value is not None and new_value not in left:
                left.append(new_value)
            for value in left:
                if not any(card != hand_card and serves(card, value) for card in hand):
                    return _(
                        "You own the build of {value}: keep a card of value {value}, or use "
                        "your last one to capture it."
                    ).format(value=value)
            if self.half == 1 and len(left) > 1:
                return _("In the first half you may not end your turn owning two builds.")
        elif self.half == 1 and len(owned) >= 2 and kind == CARDLESS_BUILD:
            return _("In the first half you may own a second build only if you then capture one.")
        return None

    @staticmethod
    def _new_value(move: Move) -> int | None:
        """The value of the build a build or change move would make (None for other moves)."""
        if move.kind == CARDLESS_BUILD:
            return sum(card.rank for card in move.cards)
        if move.kind == BUILD and move.card is not None:
            return sum(card.rank for card in move.cards) + move.card.rank
        if move.kind == CHANGE and move.card is not None:
            return move.build + move.card.rank
        return None

    # -- views -------------------------------------------------------------------------------
    def public_view(self) -> View:
        return {
            "game": self.game.id,
            "deal_number": self.deal_number + 1,
            "dealer": self.dealer,
            "half": "first" if self.half == 1 else "second",
            "to_act": list(self.to_act()),
            "turn": None if self.over else self.turn,
            "layout": cards_json(self.loose),
            "builds": [self.builds[value].to_json() for value in sorted(self.builds)],
            "piles": [
                {"size": len(pile), "top": pile[-1].text if pile else None} for pile in self.piles
            ],
            "hand_sizes": [len(hand) for hand in self.hands],
            "stock": len(self.stock),
            "last_capturer": self.last_capturer,
            "scores": list(self.totals),
            "history": [list(points) for points in self.history],
            "target": self.options["target"],
            "over": self.over,
            "winners": list(self.winners()),
        }

    def view(self, seat: int) -> View:
        return {**self.public_view(), "seat": seat, "hand": cards_json(self.hands[seat])}

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        other = self.hands[1 - seat]
        redeal([other, self.stock], rng)
        # The owner of a build holds a card of its value (public knowledge): deal one back.
        theirs = [value for value, build in self.builds.items() if build.owner != seat]
        for value in theirs:
            if any(serves(card, value) for card in other):
                continue
            needed = [index for index, card in enumerate(self.stock) if serves(card, value)]
            spare = [
                index
                for index, card in enumerate(other)
                if not any(serves(card, owned) for owned in theirs)
            ]
            if needed and spare:
                into, out = rng.choice(spare), rng.choice(needed)
                other[into], self.stock[out] = self.stock[out], other[into]
        other.sort()
        self._count_hands()

    def zones(self) -> Iterable[Zone]:
        for seat in (0, 1):
            yield Zone(f"hand s{seat}", tuple(self.hands[seat]), frozenset((seat,)))
            # Every captured card lay face up or was played face up: all have seen the pile.
            yield Zone(f"pile s{seat}", tuple(self.piles[seat]), None)
        yield Zone("layout", tuple(self.loose), None)
        for value in sorted(self.builds):
            yield Zone(f"build {value}", tuple(self.builds[value].cards), None)
        yield Zone("stock", tuple(self.stock), frozenset())

    # -- saving ------------------------------------------------------------------------------
    def _to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "half": self.half,
            "hands": [cards_json(hand) for hand in self.hands],
            "piles": [cards_json(pile) for pile in self.piles],
            "layout": cards_json(self.loose),
            "builds": [self.builds[value].to_json() for value in sorted(self.builds)],
            "stock": cards_json(self.stock),
            "last_capturer": self.last_capturer,
            **self.totals_json(),
        }


# what a hand card may do, for a choice of the card that leads on to several moves
_KIND_WORDS = {
    CAPTURE: N_("capture"),
    BUILD: N_("build"),
    CHANGE: N_("change a build"),
    AUGMENT: N_("add to a build"),
    DISCARD: N_("lay it down"),
}


def _or_list(words: Sequence[str]) -> str:
    """``capture``, ``capture or build``, ``capture, build or lay it down``."""
    if len(words) == 1:
        return words[0]
    return _("{choices} or {last}").format(choices=", ".join(words[:-1]), last=words[-1])


_STEP_WORDS = {
    "build": N_("Build with table cards only"),
    "capture": N_("Capture"),
    "build on": N_("Build on table cards"),
    "discard": N_("Lay it on the table"),
    "top": N_("your opponent's pile top"),
}


def _item_words(word: str) -> str:
    """A path or text item for people: ``b9`` the build of 9, ``AH=14``, ``capture AH=14``,
    ``augment b9``, ``change b9``, ``top``, or a card.

    >>> [_item_words(w) for w in ["b9", "AH=14", "top", "5D"]]
    ['the build of 9', 'A♥ (worth 14)', "your opponent's pile top", '5♦']
    >>> [_item_words(w) for w in ["capture AH=1", "change b7", "augment b9"]]
    ['Capture with A♥ (worth 1)', 'Change the build of 7', 'Add to the build of 9']
    """
    if word in _STEP_WORDS:
        return _(_STEP_WORDS[word])
    verb, _space, rest = word.rpartition(" ")
    if verb == "capture":
        return _("Capture with {card}").format(card=_item_words(rest))
    if verb == "change":
        return _("Change the build of {value}").format(value=rest[1:])
    if verb == "augment":
        return _("Add to the build of {value}").format(value=rest[1:])
    if word[:1] == "b" and word[1:].isdigit():
        return _("the build of {value}").format(value=word[1:])
    text, _equals, ace = word.partition("=")
    return _pretty_word(Card.parse(text), int(ace) if ace else 0)


def _pretty_word(card: Card, ace: int) -> str:
    """A hand card for people: ``9♦``, or ``A♥ (worth 14)``."""
    return _("{card} (worth {worth})").format(card=card.pretty, worth=ace) if ace else card.pretty


def score_piles(piles: Sequence[Sequence[Card]]) -> tuple[list[int], list[list[str]]]:
    """Points per pile for one deal, with reasons: most cards 2 and most spades 2 (a tie: 1
    each), 2♠ 1, 10♦ 2, each ace 1 — 11 points in all."""
    points = [0, 0]
    reasons: list[list[str]] = [[], []]

    def most(counts: list[int], label: str) -> None:
        if counts[0] == counts[1]:
            for seat in (0, 1):
                points[seat] += 1
                reasons[seat].append(f"{label} tied 1")
        else:
            seat = 0 if counts[0] > counts[1] else 1
            points[seat] += 2
            reasons[seat].append(f"{label} 2")

    held = [set(pile) for pile in piles]  # looked up in, rather than searched card by card
    most([len(pile) for pile in piles], "most cards")
    most([len(cards & SUIT_CARDS[SPADES]) for cards in held], "most spades")
    for seat, cards in enumerate(held):
        if TWO_OF_SPADES in cards:
            points[seat] += 1
            reasons[seat].append("2♠ 1")
        if TEN_OF_DIAMONDS in cards:
            points[seat] += 2
            reasons[seat].append("10♦ 2")
        aces = len(cards & _ACES)
        if aces:
            points[seat] += aces
            reasons[seat].append(f"{'ace' if aces == 1 else 'aces'} {aces}")
    return points, reasons


# -- events: each message once for each seat that plays it (a message names seats literally)
_DEALS = (
    N_("Deal {deal}: {s0} deals. Layout: {layout}"),
    N_("Deal {deal}: {s1} deals. Layout: {layout}"),
)
_CAPTURED = (  # [seat][what is taken: loose cards, the build, both][worth said]
    (
        (
            N_("{s0} captured {cards} with {card}"),
            N_("{s0} captured {cards} with {card} (worth {worth})"),
        ),
        (
            N_("{s0} captured the build of {value} ({build}) with {card}"),
            N_("{s0} captured the build of {value} ({build}) with {card} (worth {worth})"),
        ),
        (
            N_("{s0} captured the build of {value} ({build}) and {cards} with {card}"),
            N_(
                "{s0} captured the build of {value} ({build}) and {cards} with {card} "
                "(worth {worth})"
            ),
        ),
    ),
    (
        (
            N_("{s1} captured {cards} with {card}"),
            N_("{s1} captured {cards} with {card} (worth {worth})"),
        ),
        (
            N_("{s1} captured the build of {value} ({build}) with {card}"),
            N_("{s1} captured the build of {value} ({build}) with {card} (worth {worth})"),
        ),
        (
            N_("{s1} captured the build of {value} ({build}) and {cards} with {card}"),
            N_(
                "{s1} captured the build of {value} ({build}) and {cards} with {card} "
                "(worth {worth})"
            ),
        ),
    ),
)
_BUILT = (
    N_("{s0} built {cards} into a build of {value}"),
    N_("{s1} built {cards} into a build of {value}"),
)
_BUILT_ON = (  # [seat][worth said]
    (
        N_("{s0} built {card} on {cards}: a build of {value}"),
        N_("{s0} built {card} (worth {worth}) on {cards}: a build of {value}"),
    ),
    (
        N_("{s1} built {card} on {cards}: a build of {value}"),
        N_("{s1} built {card} (worth {worth}) on {cards}: a build of {value}"),
    ),
)
_ADDED = (  # [seat][cards, the pile top alone, the pile top and cards]
    (
        N_("{s0} added {cards} to the build of {value}"),
        N_("{s0} added {top} (the top of {s1}'s pile) to the build of {value}"),
        N_("{s0} added {top} (the top of {s1}'s pile) and {cards} to the build of {value}"),
    ),
    (
        N_("{s1} added {cards} to the build of {value}"),
        N_("{s1} added {top} (the top of {s0}'s pile) to the build of {value}"),
        N_("{s1} added {top} (the top of {s0}'s pile) and {cards} to the build of {value}"),
    ),
)
_CHANGED = (  # [seat][joins the player's own build][worth said]
    (
        (
            N_("{s0} changed {s1}'s build of {old} into {value} with {card}"),
            N_("{s0} changed {s1}'s build of {old} into {value} with {card} (worth {worth})"),
        ),
        (
            N_(
                "{s0} changed {s1}'s build of {old} into {value} with {card}, "
                "which joins their own build of {value}"
            ),
            N_(
                "{s0} changed {s1}'s build of {old} into {value} with {card} (worth {worth}), "
                "which joins their own build of {value}"
            ),
        ),
    ),
    (
        (
            N_("{s1} changed {s0}'s build of {old} into {value} with {card}"),
            N_("{s1} changed {s0}'s build of {old} into {value} with {card} (worth {worth})"),
        ),
        (
            N_(
                "{s1} changed {s0}'s build of {old} into {value} with {card}, "
                "which joins their own build of {value}"
            ),
            N_(
                "{s1} changed {s0}'s build of {old} into {value} with {card} (worth {worth}), "
                "which joins their own build of {value}"
            ),
        ),
    ),
)
_SWEPT = (
    N_("{s0} took the rest of the layout: {cards}"),
    N_("{s1} took the rest of the layout: {cards}"),
)
_WINS = (N_("{s0} wins with {points} points"), N_("{s1} wins with {points} points"))
_DISCARD = {card: Move(DISCARD, card) for card in FULL_DECK}
_DISCARDED = [
    {card: Event(message, "discard", args=(("card", card.pretty),)) for card in FULL_DECK}
    for message in (N_("{s0} discarded {card}"), N_("{s1} discarded {card}"))
]
"""Each seat's event for a discard of each card, made once (events are immutable): half the
moves of a game are discards."""


# -- the game -----------------------------------------------------------------------------------
class SwaziGame(Game):
    """The game type of swazi."""

    state_class = SwaziState

    id = "swazi"
    name = N_("Swazi Casino")
    player_counts = (2,)
    options = (
        Option(
            "target",
            21,
            N_("points to reach to win (both reach it: the higher total; a tie plays on)"),
            minimum=1,
            maximum=500,
            label=N_("Target"),
            unit=N_("point"),
        ),
    )
    pitch = N_(
        "Two-player casino with builds: capture by value, build, and steal the "
        "top of your opponent's pile."
    )

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise parse_error(text, _(_EXPECTED))
        verb = words[0].lower()
        try:
            if verb == "discard" and len(words) == 2:
                card, ace = _hand_word(words[1], text, valued=False)
                if ace:
                    raise ActionParseError(
                        _("cannot read {text}: a discarded ace has no value").format(
                            text=repr(text)
                        )
                    )
                return Move(DISCARD, card)
            if verb == "capture" and len(words) >= 4 and words[2].lower() == "take":
                card, ace = _hand_word(words[1], text)
                build, cards, top, marked = _items(words[3:], text, builds=True)
                if top or marked is not None:
                    raise parse_error(text, _("capture CARD take [bN] CARD …"))
                _no_repeat(card, cards, text)
                return Move(CAPTURE, card, ace, build, cards)
            if verb == "change" and len(words) == 4 and words[2].lower() == "with":
                card, ace = _hand_word(words[3], text)
                return Move(CHANGE, card, ace, _build_word(words[1], text))
            if verb == "build" and len(words) >= 4 and words[2].lower() == "on":
                card, ace = _hand_word(words[1], text)
                build, cards, top, marked = _items(words[3:], text, builds=False)
                if top or marked is not None:
                    raise parse_error(text, _("build CARD on CARD …"))
                _no_repeat(card, cards, text)
                return Move(BUILD, card, ace, cards=cards)
            if verb == "build" and len(words) >= 3:
                build, cards, top, marked = _items(words[1:], text, builds=False)
                if top or marked is not None:
                    raise parse_error(text, _("build CARD CARD …"))
                return Move(CARDLESS_BUILD, cards=cards)
            if verb == "augment" and len(words) >= 4 and words[2].lower() == "with":
                value = _build_word(words[1], text)
                build, cards, top, marked = _items(words[3:], text, builds=False)
                if marked is None:
                    return Move(AUGMENT, build=value, cards=cards, top=top)
                card, ace = marked
                _no_repeat(card, cards, text)
                return Move(AUGMENT, card, ace, value, cards, top)
        except CardError as error:
            raise ActionParseError(
                _("cannot read {text}: {error}").format(text=repr(text), error=error)
            ) from None
        raise parse_error(text, _(_EXPECTED))

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        if int(data["players"]) != 2:
            raise SavedStateError("a saved swazi game has exactly 2 players")
        state = SwaziState.from_saved_header(data)
        state.deal_number = int(data["deal_number"])
        state.dealer = int(data["dealer"])
        state.turn = int(data["turn"])
        state.half = int(data["half"])
        state.hands = [sorted(cards_from_json(hand)) for hand in data["hands"]]
        state._count_hands()
        state.piles = [cards_from_json(pile) for pile in data["piles"]]
        state.loose = sorted(cards_from_json(data["layout"]))
        state.loose_key = layout_key(map(_RANK, state.loose))
        state.builds = {
            int(build["value"]): Build(
                int(build["value"]),
                int(build["owner"]),
                bool(build["augmented"]),
                cards_from_json(build["cards"]),
            )
            for build in data["builds"]
        }
        state.stock = cards_from_json(data["stock"])
        state.last_capturer = data["last_capturer"]
        state.read_totals(data)
        named = [card for zone in state.zones() for card in zone.cards]
        if len(set(named)) != len(named):  # (also what keeps ``layout_key`` within its limit)
            raise SavedStateError("a saved swazi game names a card twice")
        return state

    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        return _item_words(step)

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if not chosen:
            return _("Your move: which hand card (or a build with table cards only)?")
        first = chosen[0]
        targets = 1 if first == "build" or first.startswith("augment") else 2
        if len(chosen) < targets:
            return _("What to do with {item}?").format(item=_item_words(first))
        # Targets are picked one at a time: say which are picked so far.
        picked = " + ".join(_item_words(word) for word in chosen[targets:])
        if not picked:
            return _pick_question(chosen[:targets], one_at_a_time=True)
        if first == "build":
            return _("Building with {picked}: what else?").format(picked=picked)
        if targets == 1:
            return _("Adding {picked} to {build}: what else?").format(
                picked=picked, build=_item_words(first.split()[1])
            )
        card = _item_words(first)
        if chosen[1] == "build on":
            return _("Building {card} on {picked}: what else?").format(card=card, picked=picked)
        return _("Capturing {picked} with {card}: what else?").format(card=card, picked=picked)

    def leads_label(
        self, chosen: tuple[str, ...], step: str, actions: Sequence[Action], names: Sequence[str]
    ) -> str | None:
        if chosen:  # a kind of move with a hand card: what it does with the card
            if step == "build on":
                return _("Build {card} on table cards").format(card=_item_words(chosen[0]))
            return _item_words(f"capture {chosen[0]}") if step == "capture" else None
        if not is_card_text(step):
            return None
        kinds = dict.fromkeys(cast(Move, action).kind for action in actions)
        return _("{card}: {choices}").format(
            card=Card.parse(step).pretty, choices=_or_list([_(_KIND_WORDS[kind]) for kind in kinds])
        )

    def card_set(self, action: Action) -> CardSet | None:
        """A build, an augment or a capture is a set of targets after its first steps."""
        assert isinstance(action, Move)
        if action.kind in (CHANGE, DISCARD):
            return None
        depth = 1 if action.kind in (CARDLESS_BUILD, AUGMENT) else 2
        targets = action.path[depth:]
        return CardSet(depth, targets, targets)

    def pick_prompt(
        self, chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
    ) -> str | None:
        return _pick_question(chosen, one_at_a_time=False)

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        assert isinstance(action, Move)
        kind, card = action.kind, action.card
        loose = [c.pretty for c in action.cards]
        if kind == CARDLESS_BUILD:
            value = sum(c.rank for c in action.cards)
            return _("Build {value} from {cards}").format(value=value, cards=" + ".join(loose))
        if kind == AUGMENT:
            items = [_item_words(word) for word in action._augment_items()]
            return _("Add {items} to your build of {value}").format(
                items=" + ".join(items), value=action.build
            )
        assert card is not None
        word = _pretty_word(card, action.ace)
        if kind == CAPTURE:
            taken = ([_item_words(f"b{action.build}")] if action.build else []) + loose
            return _("Capture {taken} with {card}").format(taken=" + ".join(taken), card=word)
        if kind == BUILD:
            value = sum(c.rank for c in action.cards) + card.rank
            return _("Build {value}: {card} on {cards}").format(
                value=value, card=word, cards=" + ".join(loose)
            )
        if kind == CHANGE:
            value = action.build + (action.ace or card.rank)
            return _("Change your opponent's build of {old} into {value} with {card}").format(
                old=action.build, value=value, card=word
            )
        return _("Lay {card} on the table").format(card=card.pretty)

    def describe(self, view: View) -> list[str]:
        header, scores = self.summary(view)
        layout = describe_cards(view["layout"]) or _("(empty)")
        lines = [header, _("Layout: {cards}").format(cards=layout)]
        for build in view["builds"]:
            line = _("Build of {value} ({owner}, augmented): {cards}")
            if not build["augmented"]:
                line = _("Build of {value} ({owner}): {cards}")
            owner, cards = _seat(build["owner"]), describe_cards(build["cards"])
            lines.append(line.format(value=build["value"], owner=owner, cards=cards))
        for seat, pile in enumerate(view["piles"]):
            size = pile["size"]
            # the English says "cards" for one too: the plural forms are for other languages
            line = ngettext(
                "Pile of {owner}: {size} cards, top {top}",
                "Pile of {owner}: {size} cards, top {top}",
                size,
            )
            if not pile["top"]:
                line = ngettext(
                    "Pile of {owner}: {size} cards, top empty",
                    "Pile of {owner}: {size} cards, top empty",
                    size,
                )
            top = describe_cards([pile["top"]]) if pile["top"] else ""
            lines.append(line.format(owner=_seat(seat), size=size, top=top))
        lines.append(scores)
        if "hand" in view:
            hand = describe_cards(view["hand"]) or _("(empty)")
            lines.append(_("Your hand: {cards}").format(cards=hand))
        if view["turn"] is not None:
            lines.append(_("To play: {player}").format(player=_seat(view["turn"])))
        return lines

    def summary(self, view: View) -> list[str]:
        header = _("Deal {deal} (second half) · dealer {dealer} · playing to {target}")
        if view["half"] == "first":
            header = _("Deal {deal} (first half) · dealer {dealer} · playing to {target}")
        return [
            header.format(
                deal=view["deal_number"],
                dealer=_seat(view["dealer"]),
                target=self.option("target").amount(view["target"]),
            ),
            scores_line(view["scores"]),
        ]

    def layout(self, view: View) -> Layout:
        builds = [
            face_up(
                _("Build {value} · {owner}").format(
                    value=build["value"], owner=_seat(build["owner"])
                ),
                build["cards"],
            )
            for build in view["builds"]
        ]
        piles = [
            stack(_("{owner}'s pile").format(owner=_seat(seat)), pile["size"], pile["top"])
            for seat, pile in enumerate(view["piles"])
        ]
        return rows(
            [face_up(_("Layout"), view["layout"]), *builds],
            [*piles, stack(_("Stock"), view["stock"])],
            your_hand(view),
        )


def _seat(seat: int) -> str:
    """A seat's placeholder in a text the caller fills with names: ``{s1}``."""
    return f"{{s{seat}}}"


def _pick_question(chosen: tuple[str, ...], one_at_a_time: bool) -> str:
    """What the set of targets after ``chosen`` (a hand card and a kind of move, or a
    card-less ``build`` / ``augment bN``) is asked with; ``one_at_a_time`` when the targets
    are picked one by one."""
    first = chosen[0]
    if first == "build":
        if one_at_a_time:
            return _("Build with which table cards? (one at a time)")
        return _("Build with which table cards?")
    if first.startswith("augment"):
        build = _item_words(first.split()[1])
        if one_at_a_time:
            return _("Add what to {build}? (one at a time)").format(build=build)
        return _("Add what to {build}?").format(build=build)
    card = _item_words(first)
    if chosen[1] == "build on":
        if one_at_a_time:
            return _("Build {card} on which table cards? (one at a time)").format(card=card)
        return _("Build {card} on which table cards?").format(card=card)
    if one_at_a_time:
        return _("Capture what with {card}? (one at a time)").format(card=card)
    return _("Capture what with {card}?").format(card=card)


_EXPECTED = N_(
    "a swazi move such as 'capture 9D take b9 4S 5H', 'build 3H on 2D 5C', 'build 2D 5C', "
    "'augment b9 with top 4S', 'change b10 with 2C' or 'discard JC'"
)


def _hand_word(word: str, text: str, valued: bool = True) -> tuple[Card, int]:
    """A hand card with its ace value when ``valued``: ``9D``, ``AH=14``."""
    base, eq, value = word.partition("=")
    card = Card.parse(base)
    if not eq:
        if card.rank == 1 and valued:
            raise ActionParseError(
                _("cannot read {text}: say which value the ace has ({card}=1 or {card}=14)").format(
                    text=repr(text), card=card.text
                )
            )
        return card, 0
    if card.rank != 1 or value not in ("1", "14"):
        raise ActionParseError(
            _("cannot read {text}: only an ace takes a value, =1 or =14").format(text=repr(text))
        )
    return card, int(value)


def _build_word(word: str, text: str) -> int:
    """A build named by its value: ``b9``."""
    digits = word[1:]
    if word[:1].lower() != "b" or not digits.isdigit() or not 2 <= int(digits) <= TOP_BUILD:
        raise ActionParseError(
            _("cannot read {text}: {word} is not a build (b2 … b14)").format(
                text=repr(text), word=repr(word)
            )
        )
    return int(digits)


def _items(
    words: Sequence[str], text: str, builds: bool
) -> tuple[int, tuple[Card, ...], bool, tuple[Card, int] | None]:
    """A list of a move: at most one build ``bN`` (if ``builds``), ``top`` at most once, cards
    in any order, at most one of them a hand ace with its value."""
    build, top = 0, False
    cards: list[Card] = []
    marked: tuple[Card, int] | None = None
    for word in words:
        lower = word.lower()
        if lower == "top" and not top:
            top = True
        elif builds and lower.startswith("b") and not build:
            build = _build_word(word, text)
        elif "=" in word:
            if marked is not None:
                raise ActionParseError(
                    _("cannot read {text}: only one hand card per move").format(text=repr(text))
                )
            marked = _hand_word(word, text)
        else:
            cards.append(Card.parse(word))
    if len(set(cards)) != len(cards):
        raise ActionParseError(
            _("cannot read {text}: a card is named twice").format(text=repr(text))
        )
    if not cards and not build and not top and marked is None:
        raise parse_error(text, _(_EXPECTED))
    return build, tuple(sorted(cards)), top, marked


def _no_repeat(card: Card, cards: Sequence[Card], text: str) -> None:
    if card in cards:
        raise ActionParseError(
            _("cannot read {text}: a card is named twice").format(text=repr(text))
        )


GAME = SwaziGame()
SwaziState.game = GAME
