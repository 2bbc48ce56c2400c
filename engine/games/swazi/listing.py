"""The legal moves of a swazi position (docs/rules/swazi.md §4), listed lazily.

``legal_moves`` goes through the groups of §4 in their order, asks ``rules.refusal`` about
each, and counts in the moves of the group's shapes (``rules.Shape``), which a ``Listing``
makes one at a time when asked for them. A listing's ``in`` asks ``rules.check`` about any
move it did not hand out.
"""

from __future__ import annotations

from typing import Final

from engine.cards import Card
from engine.core import MadeWhenAsked

from .moves import AUGMENT, BUILD, CAPTURE, CARDLESS_BUILD, CHANGE, DISCARD, TOP_BUILD, Move
from .rules import (
    ALONE,
    LISTED,
    NOBODY,
    Shape,
    Turn,
    builds_on,
    capture_sets,
    captures,
    cardless_builds,
    cardless_parts,
    check,
    parts,
    refusal,
)

_CAPTURING_AS: Final = [[(1, 1), (TOP_BUILD, TOP_BUILD)]] + [[(rank, 0)] for rank in range(2, 14)]
"""For each rank from the ace up, the values a hand card of it captures as, with the value
its text names (§2.2: an ace as 1 or 14)."""


# -- the legal moves -----------------------------------------------------------------------------
class Listing(MadeWhenAsked[Move]):
    """The legal moves of a position, in the order ``legal_moves`` finds them: ``entries``
    holds ``Shape``s, whose moves are counted and made one at a time when asked for (self-play
    asks for one move of a dozen or more), and hand cards that stand for their discard (no
    object to make and free for each). ``in`` knows the moves it handed out and asks the rule
    (``check``) about any other."""

    def __init__(self, turn: Turn) -> None:
        super().__init__()
        self.turn = turn
        self.entries: list[Shape | Card] = []
        self.size = 0

    def add(self, shape: Shape) -> None:
        """Count in the moves of a shape."""
        if shape.size:
            self.entries.append(shape)
            self.size += shape.size

    def add_discards(self, hand: list[Card], first: int, stop: int) -> None:
        """Count in the discard of each of the hand cards ``first`` to ``stop``."""
        for index in range(first, stop):
            self.entries.append(hand[index])
        self.size += stop - first

    def __len__(self) -> int:
        return self.size

    def made(self, index: int) -> Move:
        """The move at ``index`` (within bounds)."""
        for entry in self.entries:
            if isinstance(entry, Shape):
                if index < entry.size:
                    return entry.move(self.turn, index)
                index -= entry.size
            elif index:
                index -= 1
            else:
                return Move(DISCARD, entry)
        raise IndexError(index)

    def __eq__(self, other: object) -> bool:
        """Equal to a listing of the same moves in the same order."""
        return isinstance(other, Listing) and list(self) == list(other)

    def __contains__(self, action: object) -> bool:
        if self.was_handed(action):
            return True
        return isinstance(action, Move) and check(self.turn, action) is None


def legal_moves(turn: Turn) -> Listing:
    """Every legal move (§4), group by group: card-less builds and augments, then the
    captures, builds, changes, augments and discards of each rank's hand cards. Each group
    asks ``refusal`` before its moves are counted in; captures are listed up to ``LISTED`` a
    hand card and value. A build's value must be one the hand holds a card of (§6.3), so
    only those are asked about, for a build and a change alike."""
    listing = Listing(turn)
    hand, keeping, owner, owned = turn.hand, turn.keeping, turn.owner, turn.owned
    # owning no build, a move that makes none breaks no rule of §6–§7 (``refusal``'s first):
    # the groups of such moves need not ask
    unbound = not owned
    for value in turn.totals:  # §4.1
        if value > 1 and keeping[value] and refusal(turn, CARDLESS_BUILD, None, made=value) is None:
            listing.add(cardless_builds(turn, value))
    for value in owned:  # §4.2, §4.7
        listing.add(cardless_parts(turn, value))
    first = 0
    while first < len(hand):  # the hand cards of a rank play alike (§2): ask about the first
        card = hand[first]
        rank = card.rank
        stop = first + keeping[rank]  # in card order, a rank's cards come one after another
        for value, ace in _CAPTURING_AS[rank - 1]:  # §4.3
            with_build = (
                owner[value] != NOBODY and refusal(turn, CAPTURE, card, freed=value) is None
            )
            loose_only = bool(turn.groups[value]) and (
                unbound or refusal(turn, CAPTURE, card) is None
            )
            if with_build or loose_only:
                taken = capture_sets(turn, value, LISTED)
                if with_build:
                    listing.add(captures(turn, first, stop, ace, value, taken))
                if loose_only:
                    listing.add(captures(turn, first, stop, ace, 0, taken))
        for total in turn.totals:  # §4.4
            made = rank + total
            if made > TOP_BUILD:
                break
            if keeping[made] and refusal(turn, BUILD, card, made=made) is None:
                listing.add(builds_on(turn, first, stop, total))
        for old in turn.changeable:  # §4.5, §4.6
            made = old + rank
            if (
                made <= TOP_BUILD
                and keeping[made]
                and refusal(turn, CHANGE, card, made=made) is None
            ):
                listing.add(Shape(CHANGE, hand, first, stop, 1 if rank == 1 else 0, old, ALONE))
        if owned and refusal(turn, AUGMENT, card) is None:  # §4.2, §4.7
            for value in owned:
                listing.add(parts(turn, value, first, stop))
        if unbound or refusal(turn, DISCARD, card) is None:  # §4.8
            listing.add_discards(hand, first, stop)
        first = stop
    return listing
