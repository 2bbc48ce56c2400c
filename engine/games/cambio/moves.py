"""Cambio's moves and their text (docs/rules/cambio.md §12): ``look A B``, ``draw``,
``cambio``, ``replace C``, ``discard``, ``peek B``, ``spy s2.C``, ``swap A s2.C``,
``peek A s2.C`` then ``swap`` or ``keep``, ``skip``, ``snap C``, ``snap s2.C``, ``give A``.

Each move is a ``Move``: equal only to a move of its own kind with the same fields, so that
moves of different kinds (and other games' tuple-shaped actions) never compare equal.
"""

from __future__ import annotations

import re
from typing import ClassVar, Final

from engine.core import Action, Word, parse_error
from engine.games.cambio.table import label_index

DRAW, CAMBIO, DISCARD, SKIP, SWAP, KEEP = (
    Word(word) for word in ("draw", "cambio", "discard", "skip", "swap", "keep")
)
PLAIN_WORDS = {action.word: action for action in (DRAW, CAMBIO, DISCARD, SKIP, SWAP, KEEP)}
"""The one-word moves by their text."""


class Move:
    """A move with fields: equal to a move of its own kind with the same fields, hashable,
    and never changed once made (its fields are ``Final``). A plain class rather than a
    frozen dataclass: compiled, it is made several times faster, and every listing makes
    many."""

    def fields(self) -> tuple[str | int | None, ...]:
        """The values that tell this move from another of its kind."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, Move)
            and self.fields() == other.fields()
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.fields()))

    def __repr__(self) -> str:
        return type(self).__name__ + repr(self.fields())


class Look(Move):
    """The opening look at two own positions: ``look A B`` (labels in order)."""

    def __init__(self, first: str, second: str) -> None:
        self.first: Final = first
        self.second: Final = second

    def fields(self) -> tuple[str | int | None, ...]:
        return (self.first, self.second)

    @property
    def text(self) -> str:
        """``look C D``."""
        return f"look {self.first} {self.second}"

    @property
    def path(self) -> tuple[str, ...]:
        """One position, then the other."""
        return ("look", self.first, self.second)


class OwnMove(Move):
    """A move on one of the mover's own positions, ``pos``: its text and its path are its
    ``verb`` and the position (``replace C``)."""

    verb: ClassVar[str]

    def __init__(self, pos: str) -> None:
        self.pos: Final = pos

    def fields(self) -> tuple[str | int | None, ...]:
        return (self.pos,)

    @property
    def text(self) -> str:
        """``replace C``."""
        return f"{self.verb} {self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """The verb, then the position."""
        return (self.verb, self.pos)


class Replace(OwnMove):
    """Put the drawn card in own position ``pos``; the old card goes to the discard (§5.2)."""

    verb = "replace"


class Peek(OwnMove):
    """The 7/8 power: look at own position ``pos`` (§6.1)."""

    verb = "peek"


class Give(OwnMove):
    """After a correct snap of another player's card: move own ``pos`` into the gap (§8.4)."""

    verb = "give"


class Spy(Move):
    """The 9/10 power: look at position ``pos`` of seat ``seat`` (another player)."""

    def __init__(self, seat: int, pos: str) -> None:
        self.seat: Final = seat
        self.pos: Final = pos

    def fields(self) -> tuple[str | int | None, ...]:
        return (self.seat, self.pos)

    @property
    def text(self) -> str:
        """``spy s2.C``."""
        return f"spy s{self.seat}.{self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Spy, the seat, the position."""
        return ("spy", f"s{self.seat}", self.pos)


class OwnAndOtherMove(Move):
    """A power's move on one own position, ``own``, and another player's, ``seat``'s ``pos``:
    its text and path are its ``verb``, the own position and the other (``swap A s2.C``)."""

    verb: ClassVar[str]

    def __init__(self, own: str, seat: int, pos: str) -> None:
        self.own: Final = own
        self.seat: Final = seat
        self.pos: Final = pos

    def fields(self) -> tuple[str | int | None, ...]:
        return (self.own, self.seat, self.pos)

    @property
    def text(self) -> str:
        """``swap A s2.C``."""
        return f"{self.verb} {self.own} s{self.seat}.{self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """The verb, own position, seat, their position."""
        return (self.verb, self.own, f"s{self.seat}", self.pos)


class BlindSwap(OwnAndOtherMove):
    """The J/Q power: swap own ``own`` with ``seat``'s ``pos`` without looking (§6.3)."""

    verb = "swap"


class KingPeek(OwnAndOtherMove):
    """The black king's look (§6.4): own ``own`` and ``seat``'s ``pos``; then ``swap`` or
    ``keep``."""

    verb = "peek"


class Snap(Move):
    """Snap the card at ``pos`` of ``seat`` (None: the snapper's own position)."""

    def __init__(self, seat: int | None, pos: str) -> None:
        self.seat: Final = seat
        self.pos: Final = pos

    def fields(self) -> tuple[str | int | None, ...]:
        return (self.seat, self.pos)

    @property
    def text(self) -> str:
        """``snap C`` (own) or ``snap s2.C``."""
        return f"snap {self.pos}" if self.seat is None else f"snap s{self.seat}.{self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Snap, whose card (``you`` or ``s2``), the position."""
        return ("snap", "you" if self.seat is None else f"s{self.seat}", self.pos)


_SEAT_POS = re.compile(r"^s(\d+)\.(\w+)$", re.IGNORECASE)
_EXPECTED = (
    "look A B, draw, cambio, replace C, discard, peek B, spy s2.C, swap A s2.C, "
    "peek A s2.C, swap, keep, skip, snap C, snap s2.C or give A"
)


def parse_action(text: str) -> Action:
    """A move from its text (§12); ActionParseError when the text is no cambio move."""
    words = text.split()
    if not words:
        raise parse_error(text, _EXPECTED)
    verb = words[0].lower()
    args = words[1:]
    try:
        if not args and verb in PLAIN_WORDS:
            return PLAIN_WORDS[verb]
        if verb == "look" and len(args) == 2:
            first, second = sorted((own_label(args[0]), own_label(args[1])), key=label_index)
            if first == second:
                raise ValueError(text)
            return Look(first, second)
        if len(args) == 1 and verb == "replace":
            return Replace(own_label(args[0]))
        if len(args) == 1 and verb == "peek":
            return Peek(own_label(args[0]))
        if len(args) == 1 and verb == "give":
            return Give(own_label(args[0]))
        if verb == "spy" and len(args) == 1:
            other, pos = seat_label(args[0])
            return Spy(other, pos)
        if verb in ("swap", "peek") and len(args) == 2:
            other, pos = seat_label(args[1])
            if verb == "swap":
                return BlindSwap(own_label(args[0]), other, pos)
            return KingPeek(own_label(args[0]), other, pos)
        if verb == "snap" and len(args) == 1:
            if "." in args[0]:
                other, pos = seat_label(args[0])
                return Snap(other, pos)
            return Snap(None, own_label(args[0]))
    except ValueError:
        pass
    raise parse_error(text, _EXPECTED)


def own_label(text: str) -> str:
    """An own position label (``c`` → ``C``); ValueError when it is not one."""
    label_index(text)
    return text.upper()


def seat_label(text: str) -> tuple[int, str]:
    """``s2.C`` → (2, ``C``); ValueError when it is not that form."""
    match = _SEAT_POS.match(text)
    if not match:
        raise ValueError(text)
    return int(match.group(1)), own_label(match.group(2))
