"""What may be played in swazi (docs/rules/swazi.md §4–§7), stated once.

A ``Turn`` is a position as the rule reads it for the seat to play. ``legal_moves`` (in
``listing``) lists the legal moves lazily, group by group as §4 lists them: a group is one
kind of move with one hand card (or none) and one value. Each group first asks ``refusal``
whether §6 and §7 allow what it leaves (the builds owned, the cards kept, the half of the
deal), then lists the cards that make it, from the shapes of §4.3–§4.7 and §5
(``capture_sets``, ``parts``, …).

``check`` answers for any move, listed or not, with the same two pieces: the shape generator
of the move's group, narrowed to the cards the move names, must make the move, and
``refusal`` must let its group through. So a move is refused for the first rule it breaks,
in plain words, and accepted exactly when ``legal_moves`` of a layout holding just its cards
would list it.

Only the listing has a limit (``LISTED``): on a huge layout of low loose cards it stops
short of every combination, so that a menu stays usable; ``check`` has none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from engine.cards import Card, cards_pretty
from engine.words import N_, _

from .moves import (
    AUGMENT,
    BUILD,
    CAPTURE,
    CARDLESS_BUILD,
    CHANGE,
    DISCARD,
    TOP_BUILD,
    Move,
    serves,
)
from .sets import NO_SETS, cards_of, sets_by_total, unions

NOBODY: Final = -1
"""The owner of a build that is not there (``Turn.owner``)."""

LISTED: Final = 2000
"""A listing's most sets of loose cards of one total, and most captures of one hand card and
value: far above what a real layout reaches (a dozen mixed cards have a few hundred sets),
reached only by a dozen or more low loose cards, whose combinations run to millions."""


# acyclic (compiled): it holds no object that could refer back to it, so the cyclic collector
# need not track it, which makes it quicker to make and to free; so the other classes marked
@mypyc_attr(acyclic=True)
class Build:
    """A build on the layout (§6): its value, owner, whether augmented, and its cards in the
    order they were put in (§6.4)."""

    __slots__ = ("augmented", "cards", "owner", "value")

    def __init__(self, value: int, owner: int, augmented: bool, cards: list[Card]) -> None:
        self.value = value
        self.owner = owner
        self.augmented = augmented
        self.cards = cards

    def __deepcopy__(self, memo: dict[int, object]) -> Build:
        """A copy for a copied state (its own list of cards)."""
        return Build(self.value, self.owner, self.augmented, list(self.cards))


@mypyc_attr(acyclic=True)
class Turn:
    """A position as the rule reads it for ``seat``: its hand and the loose cards in card
    order, the builds by value, the opponent's pile top, the half of the deal; and, worked
    out once, who owns the build of each value, the values it owns, how many hand cards
    keep each value (§6.3), the sets of loose cards by total (``sets_by_total``, at most
    ``limit`` of a total) and the loose groups of each value (``groups``)."""

    def __init__(
        self,
        seat: int,
        hand: list[Card],
        loose: list[Card],
        builds: dict[int, Build],
        top: Card | None,
        first_half: bool,
        limit: int = LISTED,
    ) -> None:
        self.seat = seat
        self.hand = hand
        self.loose = loose
        self.builds = builds
        self.top = top
        self.first_half = first_half
        # by value (2 to 14, §6.2: as a saved game is read too): the seat owning that build
        self.owner = [NOBODY] * (TOP_BUILD + 1)
        self.owned: list[int] = []  # the values of the seat's builds, lowest first
        self.changeable: list[int] = []  # the opponent's single builds (§4.5), in layout order
        for value, build in builds.items():
            self.owner[value] = build.owner
            if build.owner == seat:
                self.owned.append(value)
            elif not build.augmented:
                self.changeable.append(value)
        self.owned.sort()
        # by value: the hand cards worth it alone; for a rank (1 to 13), its hand cards
        keeping = self.keeping = [0] * (TOP_BUILD + 1)
        for card in hand:
            keeping[card.rank] = keeping[card.rank] + 1
        keeping[TOP_BUILD] = keeping[1]  # an ace is worth 14 too (§2.2)
        # the sets by total, and the totals some loose cards add up to, lowest first
        self.sets, self.totals = sets_by_total(loose, limit)
        sets = self.sets
        # by value (1 to 14): the loose groups a card of that value captures (§4.3) or that
        # make a part of a build of it (§5.1): single cards of that value (an ace is 1 or 14)
        # and sets of two or more adding up to it; the sets of total 1 are the single aces
        self.groups = list(sets)
        if sets[1]:
            self.groups[TOP_BUILD] = sets[1] + sets[TOP_BUILD]
        self.aces = 0  # the loose aces, as a mask (bit i: the i-th loose card)
        for ace in sets[1]:
            self.aces |= ace

    def narrowed(self, loose: Sequence[Card], top: bool) -> Turn:
        """The same turn with only ``loose`` on the layout (and the pile top if ``top``): the
        cards a move names, for ``check``."""
        return Turn(
            self.seat,
            self.hand,
            sorted(loose),
            self.builds,
            self.top if top else None,
            self.first_half,
            limit=1 << 62,
        )


# -- §6, §7: what a move may leave ---------------------------------------------------------------
@mypyc_attr(acyclic=True)
class Refusal:
    """A rule a move breaks: its message (marked with ``N_``; ``{value}`` the build value it
    names) and that value."""

    __slots__ = ("message", "value")

    def __init__(self, message: str, value: int = 0) -> None:
        self.message = message
        self.value = value

    def words(self) -> str:
        """The refusal in the reader's language."""
        return _(self.message).format(value=self.value, most=TOP_BUILD)


# the rules of §6 and §7 a move may break by what it leaves, in words ({value}: the build
# value it names), for refusal
TOO_HIGH: Final = N_("A build may be worth at most {most}, not {value}.")
OWN_VALUE: Final = N_("You already own a build of {value}: write it as an augment of b{value}.")
TAKEN_VALUE: Final = N_("There is already a build of {value}: two builds never share a value.")
KEEP_NEW: Final = N_("You must keep a card of value {value} in hand to own that build.")
SECOND_BUILD: Final = N_(
    "In the first half you may own a second build only if you then capture one."
)
NO_DISCARD: Final = N_("In the first half you may not discard while you own a build.")
TWO_BUILDS: Final = N_("In the first half you may not end your turn owning two builds.")
KEEP_OWNED: Final = N_(
    "You own the build of {value}: keep a card of value {value}, or use your last one to "
    "capture it."
)
# the refusals, made once: a listing asks ``refusal`` a dozen times a step; those naming a
# value a build may have (at most TOP_BUILD, §6.2) by that value
SECOND_BUILD_REFUSED: Final = Refusal(SECOND_BUILD)
NO_DISCARD_REFUSED: Final = Refusal(NO_DISCARD)
TWO_BUILDS_REFUSED: Final = Refusal(TWO_BUILDS)
OWN_VALUE_REFUSED: Final = [Refusal(OWN_VALUE, value) for value in range(TOP_BUILD + 1)]
TAKEN_VALUE_REFUSED: Final = [Refusal(TAKEN_VALUE, value) for value in range(TOP_BUILD + 1)]
KEEP_NEW_REFUSED: Final = [Refusal(KEEP_NEW, value) for value in range(TOP_BUILD + 1)]
KEEP_OWNED_REFUSED: Final = [Refusal(KEEP_OWNED, value) for value in range(TOP_BUILD + 1)]


def refusal(
    turn: Turn, kind: str, played: Card | None, made: int = 0, freed: int = 0
) -> Refusal | None:
    """The first rule of §6–§7 that a move of ``kind`` breaks by what it leaves, or None:
    ``played`` the hand card it plays (None: a card-less move), ``made`` the value of the
    build it makes (0: none), ``freed`` that of the build it captures (0: none)."""
    owned = turn.owned
    if not made and not owned:  # §6 and §7 are rules of builds: a move that makes or leaves none
        return None
    if made:
        if made > TOP_BUILD:  # §6.2
            return Refusal(TOO_HIGH, made)
        owner = turn.owner[made]
        if owner != NOBODY and not (kind == CHANGE and owner == turn.seat):  # §6.1, §4.6
            if owner == turn.seat:
                return OWN_VALUE_REFUSED[made]
            return TAKEN_VALUE_REFUSED[made]
        # §6.3: the hand keeps no card of that value once ``played`` is played
        if turn.keeping[made] <= (played is not None and serves(played, made)):
            return KEEP_NEW_REFUSED[made]
    if played is None:  # §7.1
        if turn.first_half and len(owned) >= 2 and kind == CARDLESS_BUILD:
            return SECOND_BUILD_REFUSED
        return None
    if turn.first_half and owned and kind == DISCARD:  # §7.1
        return NO_DISCARD_REFUSED
    left = 1 if made and turn.owner[made] != turn.seat else 0  # the builds owned once it ends
    for value in owned:
        if value != freed:
            left += 1
            if turn.keeping[value] <= serves(played, value):  # §6.3, as above
                return KEEP_OWNED_REFUSED[value]
    if turn.first_half and left > 1:  # §7.1
        return TWO_BUILDS_REFUSED
    return None


# -- §4, §5: the shapes of the moves -------------------------------------------------------------
@mypyc_attr(acyclic=True)
class Shape:
    """Moves of one shape that differ only by their hand card, loose cards and pile top: for
    each card of ``hand[first:stop]`` (hand cards of one rank, which play alike (§2), or None
    alone for a card-less move), card by card, a move with the cards of each of ``sets``
    (masks of the turn's loose cards; 0: none), then one with the pile top and the cards of
    each of ``topped``. A move is ``Move(kind, card, ace, build, cards, top)``, but for an
    augment with a hand card (``_with_hand_card``). A listing counts them and makes one when
    asked for it."""

    __slots__ = ("ace", "build", "first", "hand", "kind", "sets", "size", "topped")

    def __init__(
        self,
        kind: str,
        hand: Sequence[Card | None],
        first: int,
        stop: int,
        ace: int,
        build: int,
        sets: list[int],
        topped: list[int] = NO_SETS,
    ) -> None:
        self.kind = kind
        self.hand = hand
        self.first = first
        self.ace = ace
        self.build = build
        self.sets = sets
        self.topped = topped
        self.size = (stop - first) * (len(sets) + len(topped))

    def move(self, turn: Turn, index: int) -> Move:
        """The move at ``index``: with the hand card ``index // each`` of the shape's (``each``
        moves a card) and the ``index % each``-th of its sets, ``sets`` then ``topped``."""
        each = len(self.sets) + len(self.topped)
        card = self.hand[self.first + index // each]
        index %= each
        top = index >= len(self.sets)
        mask = self.topped[index - len(self.sets)] if top else self.sets[index]
        loose = cards_of(turn.loose, mask)
        if self.kind == AUGMENT and card is not None:
            return _with_hand_card(card, self.build, loose, top, alone=not (mask or top))
        return Move(self.kind, card, self.ace, self.build, loose, top)

    def moves(self, turn: Turn) -> list[Move]:
        """Every move of the shape, in order."""
        return [self.move(turn, index) for index in range(self.size)]


CARDLESS: Final[list[Card | None]] = [None]
"""The hand of a card-less move's shape (its one card: ``CARDLESS[0:1]``)."""
ALONE: Final = [0]
"""The sets of a shape whose moves take no loose cards: a change, a build captured alone."""
NO_MOVES: Final = Shape(AUGMENT, CARDLESS, 0, 0, 0, 0, NO_SETS)
"""A shape of no moves, made once: the shapes of parts and of card-less builds are often
empty, and a listing counts in none of its moves."""


def cardless_builds(turn: Turn, value: int) -> Shape:
    """§4.1: a build of ``value`` from two or more loose cards."""
    sets = [mask for mask in turn.sets[value] if mask & mask - 1]  # two or more cards
    return Shape(CARDLESS_BUILD, CARDLESS, 0, 1, 0, 0, sets) if sets else NO_MOVES


def cardless_parts(turn: Turn, value: int) -> Shape:
    """§4.2, §4.7, §5.1: the parts without a hand card that may join a build of ``value``: a
    single card of that value or cards adding up to it, of loose cards and at most one pile
    top."""
    topped = NO_SETS
    if turn.top is not None:
        topped = _parts_adding_up(turn, value - turn.top.rank, serves(turn.top, value))
    sets = turn.groups[value]
    return Shape(AUGMENT, CARDLESS, 0, 1, 0, value, sets, topped) if sets or topped else NO_MOVES


def parts(turn: Turn, value: int, first: int, stop: int) -> Shape:
    """§4.2, §4.7, §5.1: the parts with each of the hand cards ``first`` to ``stop`` (of one
    rank) that may join a build of ``value``: the hand card alone if worth that value, or
    with loose cards and at most one pile top, adding up to it (an ace in it: 14 alone, else
    1)."""
    card = turn.hand[first]
    rest = value - card.rank  # what the rest of the part adds up to
    if rest < 0:  # the card alone is worth more than the build (an ace's 1 never is)
        return NO_MOVES
    sets = _parts_adding_up(turn, rest, serves(card, value))
    topped = NO_SETS
    if turn.top is not None:
        topped = _parts_adding_up(turn, rest - turn.top.rank, rest == turn.top.rank)
    if not sets and not topped:
        return NO_MOVES
    return Shape(AUGMENT, turn.hand, first, stop, 0, value, sets, topped)


def _parts_adding_up(turn: Turn, rest: int, alone: bool) -> list[int]:
    """For the parts: the sets of loose cards adding up to ``rest``, after none (0) if
    ``alone`` (what the part holds besides loose cards makes it whole)."""
    sets = turn.sets[rest] if rest > 0 else NO_SETS
    return ALONE + sets if alone else sets


def _with_hand_card(
    card: Card, value: int, loose: tuple[Card, ...], top: bool, alone: bool
) -> Move:
    """An augment with a hand card: an ace is named with its value (§2.2), another card goes
    among the cards (§11)."""
    if card.rank == 1:
        return Move(AUGMENT, card, TOP_BUILD if alone else 1, value, loose, top)
    return Move(AUGMENT, None, 0, value, tuple(sorted((*loose, card))), top)


def capture_sets(turn: Turn, value: int, limit: int) -> list[int]:
    """§4.3: what a card of ``value`` may take from the loose cards: every union of disjoint
    ``Turn.groups`` (at most ``limit`` of them)."""
    return unions(turn.groups[value], limit)


def captures(turn: Turn, first: int, stop: int, ace: int, build: int, taken: list[int]) -> Shape:
    """§4.3: each of the hand cards ``first`` to ``stop`` (of one rank; an ace worth ``ace``)
    captures the build of ``build`` (0: none) with ``captured`` loose cards."""
    return Shape(CAPTURE, turn.hand, first, stop, ace, build, captured(turn, ace, build, taken))


def captured(turn: Turn, ace: int, build: int, taken: list[int]) -> list[int]:
    """§4.3: what a hand card (an ace worth ``ace``) capturing the build of ``build`` (0:
    none) takes with it of ``taken``: with a build, nothing more first; an ace taking loose
    aces alone is worth 1 (§11: where both values allow a move, =1 is written)."""
    if build:
        return ALONE + taken
    if ace == TOP_BUILD:
        return [mask for mask in taken if mask & ~turn.aces]
    return taken


def builds_on(turn: Turn, first: int, stop: int, total: int) -> Shape:
    """§4.4: each of the hand cards ``first`` to ``stop`` (of one rank) on loose cards adding
    up to ``total`` (an ace in it is 1)."""
    ace = 1 if turn.hand[first].rank == 1 else 0
    return Shape(BUILD, turn.hand, first, stop, ace, 0, turn.sets[total])


def check(turn: Turn, move: Move) -> str | None:
    """Why ``move`` is not legal, in plain words (the first rule it breaks), or None if it is:
    what it names must be there (``_naming``), the shapes of its group narrowed to the cards
    it names must hold it (``_shape``), and ``refusal`` must let its group through."""
    said = _naming(turn, move) or _shape(turn, move)
    if said is not None:
        return said
    refused = _group_refusal(turn, move)
    return None if refused is None else refused.words()


def _group_refusal(turn: Turn, move: Move) -> Refusal | None:
    """``refusal`` of the group ``legal_moves`` lists ``move`` in."""
    kind, card = move.kind, _hand_card(turn, move)
    if kind == CARDLESS_BUILD:
        return refusal(turn, kind, None, made=sum(loose.rank for loose in move.cards))
    if kind == AUGMENT:
        return refusal(turn, kind, card)
    assert card is not None
    if kind == CAPTURE:
        return refusal(turn, kind, card, freed=move.build)
    if kind == BUILD:
        return refusal(turn, kind, card, made=card.rank + sum(c.rank for c in move.cards))
    if kind == CHANGE:
        return refusal(turn, kind, card, made=move.build + card.rank)
    return refusal(turn, kind, card)


def _shape(turn: Turn, move: Move) -> str | None:
    """Whether the shapes of §4 and §5, narrowed to the loose cards ``move`` names, make it;
    if not, why, in words. Any two or more loose cards make a card-less build, any loose cards
    a build on a hand card (``refusal`` then says whether their total may be built)."""
    card = _hand_card(turn, move)
    narrowed = turn.narrowed([loose for loose in move.cards if loose not in turn.hand], move.top)
    if move.kind in (BUILD, CHANGE) and move.ace not in (0, 1):
        return _("An ace joined to other cards counts 1: write it =1.")
    if move.kind == AUGMENT:
        if card is None:
            shape = cardless_parts(narrowed, move.build)
        else:
            index = narrowed.hand.index(card)
            shape = parts(narrowed, move.build, index, index + 1)
        if move in shape.moves(narrowed):
            return None
        if move.card is not None:
            alone = not move.cards and not move.top
            if move.ace != (TOP_BUILD if alone else 1):
                return _(
                    "An ace alone in a part is 14, with other cards 1: write {card}={value}."
                ).format(card=move.card.text, value=TOP_BUILD if alone else 1)
        return _(
            "A part of the build of {value} is one card of that value or cards adding up to "
            "{value}."
        ).format(value=move.build)
    if move.kind != CAPTURE:
        return None
    assert card is not None
    value = move.ace or card.rank
    if move.build and move.build != value:
        return _("A card of value {value} cannot capture a build of {build}.").format(
            value=value, build=move.build
        )
    if not move.cards and not move.build:
        return _("Say what you capture.")
    if not move.cards:  # the build alone
        return None
    every = (1 << len(narrowed.loose)) - 1  # the narrowed layout holds the move's cards only
    taken = capture_sets(narrowed, value, 1 << 62)
    if every in captured(narrowed, move.ace, move.build, taken):
        return None
    if every not in taken:
        return _(
            "{cards} do not split into cards of value {value} and sets adding up to {value}."
        ).format(cards=cards_pretty(move.cards), value=value)
    return _("Taking aces alone, an ace is written =1.")


def _hand_card(turn: Turn, move: Move) -> Card | None:
    """The hand card a move plays (None for a card-less move)."""
    if move.kind == AUGMENT and move.card is None:
        held = [card for card in move.cards if card in turn.hand]
        return held[0] if held else None
    return move.card


def _naming(turn: Turn, move: Move) -> str | None:
    """Whether what ``move`` names is there to be used as it says (§4, §5.2), in words."""
    hand, kind = turn.hand, move.kind
    if move.card is not None and move.card not in hand:
        return _("You do not hold {card}.").format(card=move.card.pretty)
    in_hand = [card for card in move.cards if card in hand]
    if kind != AUGMENT and in_hand:
        return _("{cards} is in your hand, not on the layout.").format(cards=cards_pretty(in_hand))
    if len(in_hand) + (move.card is not None and kind == AUGMENT) > 1:
        return _("A part may hold at most one card from your hand.")
    missing = [card for card in move.cards if card not in hand and card not in turn.loose]
    if missing:
        return _("{cards} is not loose on the layout.").format(cards=cards_pretty(missing))
    played = _hand_card(turn, move)
    if played is not None and played.rank == 1 and kind != DISCARD and move.ace == 0:
        return _("Say which value your ace has: AH=1 or AH=14.")
    if kind in (AUGMENT, CHANGE, CAPTURE) and move.build and move.build not in turn.builds:
        return _("There is no build of {value}.").format(value=move.build)
    if move.top and turn.top is None:
        return _("Your opponent's pile is empty: there is no top card to use.")
    if kind == AUGMENT and turn.builds[move.build].owner != turn.seat:
        return _("You may augment only your own build (you may change a single one).")
    if kind == CHANGE:
        build = turn.builds[move.build]
        if build.owner == turn.seat:
            return _("You may change only your opponent's build.")
        if build.augmented:
            return _("An augmented build cannot change its value.")
    return None
