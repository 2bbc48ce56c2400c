"""What may be played in swazi (docs/rules/swazi.md §4–§7), stated once.

A ``Turn`` is a position as the rule reads it for the seat to play. ``legal_moves`` yields the
legal moves lazily, group by group as §4 lists them: a group is one kind of move with one
hand card (or none) and one value. Each group first asks ``refusal`` whether §6 and §7 allow
what it leaves (the builds owned, the cards kept, the half of the deal), then lists the cards
that make it, from the shapes of §4.3–§4.7 and §5 (``capture_sets``, ``parts``, …).

``check`` answers for any move, listed or not, with the same two pieces: the shape generator
of the move's group, narrowed to the cards the move names, must make the move, and
``refusal`` must let its group through. So a move is refused for the first rule it breaks,
in plain words, and accepted exactly when ``legal_moves`` of a layout holding just its cards
would list it.

Only the listing has a limit (``LISTED``): on a huge layout of low loose cards it stops
short of every combination, so that a menu stays usable; ``check`` has none.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, overload

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

LISTED: Final = 2000
"""A listing's most sets of loose cards of one total, and most captures of one hand card and
value: far above what a real layout reaches (a dozen mixed cards have a few hundred sets),
reached only by a dozen or more low loose cards, whose combinations run to millions."""


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


class Turn:
    """A position as the rule reads it for ``seat``: its hand and the loose cards in card
    order, the builds by value, the opponent's pile top, the half of the deal; and, worked
    out once, the values it owns, how many hand cards keep each value (§6.3) and the sets of
    loose cards by total (``sets_by_total``, at most ``limit`` of a total)."""

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
        self.owned: list[int] = []  # the values of the seat's builds, lowest first
        for value, build in builds.items():
            if build.owner == seat:
                self.owned.append(value)
        self.owned.sort()
        self.keeping = [0] * (TOP_BUILD + 1)  # by value: the hand cards worth it alone
        self.by_rank: list[list[Card]] = []  # the hand's cards, a list a rank, lowest first
        for card in hand:  # (in card order: a rank's cards one after another)
            rank = card.rank
            self.keeping[rank] += 1
            if rank == 1:
                self.keeping[TOP_BUILD] += 1
            if self.keeping[rank] > 1:
                self.by_rank[-1].append(card)
            else:
                self.by_rank.append([card])
        self.sets = sets_by_total(loose, limit)
        self.aces = 0  # the loose aces, as a mask (bit i: the i-th loose card)
        for index, card in enumerate(loose):
            if card.rank == 1:
                self.aces |= 1 << index
        # the totals some loose cards add up to, lowest first
        self.totals = [total for total in range(1, TOP_BUILD + 1) if self.sets[total]]

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

    def picked(self, mask: int) -> tuple[Card, ...]:
        """The loose cards of a set (bit i: the i-th loose card), in card order."""
        chosen: list[Card] = []
        index = 0
        while mask:
            if mask & 1:
                chosen.append(self.loose[index])
            mask >>= 1
            index += 1
        return tuple(chosen)

    def reaches(self, value: int) -> bool:
        """Whether a card of ``value`` captures some loose cards (``groups`` is not empty)."""
        return bool(self.sets[value]) or (value == TOP_BUILD and bool(self.sets[1]))

    def groups(self, value: int) -> list[int]:
        """The loose groups a card of ``value`` captures (§4.3) or that make a part of a build
        of ``value`` (§5.1): single cards of that value (an ace is 1 or 14) and sets of two or
        more adding up to it."""
        if value != TOP_BUILD:
            return self.sets[value]
        return self.sets[1] + self.sets[TOP_BUILD]  # the sets of total 1: single aces


def sets_by_total(cards: Sequence[Card], limit: int) -> list[list[int]]:
    """Every non-empty set of ``cards`` (in card order) adding up to 14 at most, an ace
    counting 1 (§2.2), by total, as a bit mask of indices (bit i: ``cards[i]``); at most about
    ``limit`` in all (the search stops once it found that many)."""
    found: list[list[int]] = [[] for _total in range(TOP_BUILD + 1)]
    ranks = [card.rank for card in cards]
    stack = [(0, 0, 0)]  # the next index, the total so far, the set so far
    count = 0
    while stack and count < limit:
        start, total, chosen = stack.pop()
        for index in range(start, len(ranks)):
            reached = total + ranks[index]
            if reached > TOP_BUILD:
                break  # in card order: every later rank is at least as high
            subset = chosen | 1 << index
            found[reached].append(subset)
            count += 1
            stack.append((index + 1, reached, subset))
    return found


def unions(groups: list[int], limit: int) -> list[int]:
    """Every non-empty union of pairwise disjoint ``groups``, each once (§4.3: a capture takes
    any disjoint collection of its groups); at most ``limit`` of them."""
    found: list[int] = []
    if len(groups) < 2:  # nothing to join
        return found + groups
    seen: set[int] = set()
    stack = [(0, 0)]  # the next group, the union so far
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


# -- §6, §7: what a move may leave ---------------------------------------------------------------
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
        if made in turn.builds and not (kind == CHANGE and made in owned):  # §6.1, §4.6
            if made in owned:
                return Refusal(OWN_VALUE, made)
            return Refusal(TAKEN_VALUE, made)
        if not _kept(turn, played, made):  # §6.3
            return Refusal(KEEP_NEW, made)
    if played is None:  # §7.1
        if turn.first_half and len(owned) >= 2 and kind == CARDLESS_BUILD:
            return Refusal(SECOND_BUILD)
        return None
    if turn.first_half and owned and kind == DISCARD:  # §7.1
        return Refusal(NO_DISCARD)
    left = 1 if made and made not in owned else 0  # the builds owned once the turn ends
    for value in owned:
        if value != freed:
            left += 1
            if not _kept(turn, played, value):  # §6.3
                return Refusal(KEEP_OWNED, value)
    if turn.first_half and left > 1:  # §7.1
        return Refusal(TWO_BUILDS)
    return None


def _kept(turn: Turn, played: Card | None, value: int) -> bool:
    """Whether the hand keeps a card of ``value`` once ``played`` is played (§6.3)."""
    return turn.keeping[value] > (played is not None and serves(played, value))


# -- §4, §5: the shapes of the moves -------------------------------------------------------------
class Shape:
    """Moves of one shape that differ only by their loose cards: ``Move(kind, card, ace,
    build, cards)`` with the cards of each of ``sets`` (masks of the turn's loose cards). A
    listing counts them and makes one when asked for it."""

    __slots__ = ("ace", "build", "card", "kind", "sets")

    def __init__(self, kind: str, card: Card | None, ace: int, build: int, sets: list[int]):
        self.kind = kind
        self.card = card
        self.ace = ace
        self.build = build
        self.sets = sets

    def move(self, turn: Turn, index: int) -> Move:
        """The move with the cards of ``sets[index]``."""
        return Move(self.kind, self.card, self.ace, self.build, turn.picked(self.sets[index]))


def cardless_builds(turn: Turn, value: int) -> Shape:
    """§4.1: a build of ``value`` from two or more loose cards."""
    sets = [mask for mask in turn.sets[value] if mask & mask - 1]  # two or more cards
    return Shape(CARDLESS_BUILD, None, 0, 0, sets)


def parts(turn: Turn, value: int, card: Card | None) -> list[Move]:
    """§4.2, §4.7, §5.1: the parts that may join a build of ``value``: a single card of that
    value or cards adding up to it, of loose cards, at most one pile top and, if ``card`` is
    given, that hand card (an ace in it: 14 alone, else 1)."""
    found: list[Move] = []
    top = turn.top
    if card is None:
        for mask in turn.groups(value):
            found.append(Move(AUGMENT, build=value, cards=turn.picked(mask)))
        if top is not None:
            if serves(top, value):
                found.append(Move(AUGMENT, build=value, top=True))
            for mask in turn.sets[value - top.rank] if value > top.rank else ():
                found.append(Move(AUGMENT, build=value, cards=turn.picked(mask), top=True))
        return found
    if serves(card, value):  # the hand card alone
        found.append(_with_hand_card(card, value, (), False, alone=True))
    rest = value - card.rank
    for mask in turn.sets[rest] if rest > 0 else ():
        found.append(_with_hand_card(card, value, turn.picked(mask), False, alone=False))
    if top is not None:
        rest -= top.rank
        if rest == 0:
            found.append(_with_hand_card(card, value, (), True, alone=False))
        for mask in turn.sets[rest] if rest > 0 else ():
            found.append(_with_hand_card(card, value, turn.picked(mask), True, alone=False))
    return found


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
    return unions(turn.groups(value), limit)


def captures(turn: Turn, card: Card, ace: int, build: int, taken: list[int]) -> Shape:
    """§4.3: hand ``card`` (an ace worth ``ace``) captures the build of ``build`` (0: none)
    with each of ``taken``; an ace taking loose aces alone is worth 1 (§11: where both values
    allow a move, =1 is written). Capturing the build alone is ``Move(CAPTURE, card, ace,
    build)``."""
    if not build and ace == TOP_BUILD:
        taken = [mask for mask in taken if mask & ~turn.aces]
    return Shape(CAPTURE, card, ace, build, taken)


def builds_on(turn: Turn, card: Card, total: int) -> Shape:
    """§4.4: hand ``card`` on loose cards adding up to ``total`` (an ace in it is 1)."""
    return Shape(BUILD, card, 1 if card.rank == 1 else 0, 0, turn.sets[total])


_CAPTURING_AS: Final = [[(1, 1), (TOP_BUILD, TOP_BUILD)]] + [[(rank, 0)] for rank in range(2, 14)]
"""For each rank from the ace up, the values a hand card of it captures as, with the value
its text names (§2.2: an ace as 1 or 14)."""


# -- the legal moves -----------------------------------------------------------------------------
class Listing:
    """The legal moves of a position, in the order ``legal_moves`` finds them: ``entries``
    holds moves made at once, hand cards that stand for their discard, and ``Shape``s, whose
    moves are counted and made one at a time when asked for: self-play asks for one move of a
    dozen or more. ``in`` knows the moves it handed out and asks the rule (``check``) about
    any other. A sequence by registration, as twentytwo's exchanges."""

    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self.entries: list[Move | Card | Shape] = []
        self.size = 0
        self.handed: list[Move] = []  # the moves asked for by index

    def add(self, entry: Move | Card | Shape) -> None:
        """Count in a move, a hand card's discard, or the moves of a shape."""
        if isinstance(entry, Shape):
            if entry.sets:
                self.entries.append(entry)
                self.size += len(entry.sets)
        else:
            self.entries.append(entry)
            self.size += 1

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self[place] for place in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        move = self.made(index)
        self.handed.append(move)
        return move

    def made(self, index: int) -> Move:
        """The move at ``index`` (within bounds)."""
        for entry in self.entries:
            if isinstance(entry, Shape):
                if index < len(entry.sets):
                    return entry.move(self.turn, index)
                index -= len(entry.sets)
            elif index:
                index -= 1
            else:
                return entry if isinstance(entry, Move) else Move(DISCARD, entry)
        raise IndexError(index)

    def __iter__(self) -> Iterator[Move]:
        for index in range(len(self)):
            yield self.made(index)

    def __eq__(self, other: object) -> bool:
        """Equal to a listing of the same moves in the same order."""
        return isinstance(other, Listing) and list(self) == list(other)

    def __contains__(self, action: object) -> bool:
        for move in self.handed:
            if move is action:
                return True
        return isinstance(action, Move) and check(self.turn, action) is None


Sequence.register(Listing)


def legal_moves(turn: Turn) -> Listing:
    """Every legal move (§4), group by group: card-less builds and augments, then the
    captures, builds, changes, augments and discards of each rank's hand cards. Each group
    asks ``refusal`` before its moves are counted in; captures are listed up to ``LISTED`` a
    hand card and value. A build's value must be one the hand holds a card of (§6.3), so
    only those are asked about."""
    listing = Listing(turn)
    keeping, builds, owned = turn.keeping, turn.builds, turn.owned
    for value in turn.totals:  # §4.1
        if value > 1 and keeping[value] and refusal(turn, CARDLESS_BUILD, None, made=value) is None:
            listing.add(cardless_builds(turn, value))
    for value in owned:  # §4.2, §4.7
        for move in parts(turn, value, None):
            listing.add(move)
    taken: list[list[int] | None] = [None] * (TOP_BUILD + 1)  # by value, once
    for cards in turn.by_rank:  # the hand cards of a rank play alike (§2): ask about one
        first = cards[0]
        rank = first.rank
        for value, ace in _CAPTURING_AS[rank - 1]:  # §4.3
            if value in builds and refusal(turn, CAPTURE, first, freed=value) is None:
                for card in cards:
                    listing.add(Move(CAPTURE, card, ace, value))
                    listing.add(captures(turn, card, ace, value, _taken(turn, taken, value)))
            if turn.reaches(value) and refusal(turn, CAPTURE, first) is None:
                for card in cards:
                    listing.add(captures(turn, card, ace, 0, _taken(turn, taken, value)))
        for total in turn.totals:  # §4.4
            made = rank + total
            if made > TOP_BUILD:
                break
            if keeping[made] and refusal(turn, BUILD, first, made=made) is None:
                for card in cards:
                    listing.add(builds_on(turn, card, total))
        for old, build in builds.items():  # §4.5, §4.6
            if (
                build.owner != turn.seat
                and not build.augmented
                and refusal(turn, CHANGE, first, made=old + rank) is None
            ):
                for card in cards:
                    listing.add(Move(CHANGE, card, 1 if rank == 1 else 0, old))
        if owned and refusal(turn, AUGMENT, first) is None:  # §4.2, §4.7
            for value in owned:
                for card in cards:
                    for move in parts(turn, value, card):
                        listing.add(move)
        if refusal(turn, DISCARD, first) is None:  # §4.8
            for card in cards:
                listing.add(card)
    return listing


def _taken(turn: Turn, taken: list[list[int] | None], value: int) -> list[int]:
    """What a card of ``value`` captures from the loose cards (``capture_sets``), worked out
    the first time a hand card asks: every hand card of that value takes the same."""
    sets = taken[value]
    if sets is None:
        sets = taken[value] = capture_sets(turn, value, LISTED)
    return sets


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
        if move in parts(narrowed, move.build, card):
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
    if every in captures(narrowed, card, move.ace, move.build, taken).sets:
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
