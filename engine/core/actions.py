"""What acts in a game: actions (a text form and a choice path, read back by the game's
parser) and the agents that choose them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, overload

from mypy_extensions import mypyc_attr

from engine.errors import ActionParseError
from engine.words import _

View = dict[str, Any]
"""A JSON-ready description of what one seat (or everyone) can see. Cards are in machine form."""


class Action(Protocol):
    """What every game's actions offer: a stable text form and a choice path for UIs."""

    @property
    def text(self) -> str:
        """The short stable form (``play 6D take 2H 4S``); the game's parser reads it back."""
        ...

    @property
    def path(self) -> tuple[str, ...]:
        """Steps to offer the action in: legal actions sharing a prefix share those steps."""
        ...


@dataclass(frozen=True, slots=True)
class Word:
    """An action that is one word (``draw``, ``done``, ``keep`` …): its text and its one step.

    A frozen dataclass, so it never equals another game's tuple-shaped action.
    """

    word: str

    @property
    def text(self) -> str:
        """The word itself."""
        return self.word

    @property
    def path(self) -> tuple[str, ...]:
        """One step."""
        return (self.word,)


@dataclass(frozen=True, slots=True)
class CardSet:
    """How an action may be chosen as a set in one step (``Game.card_set``): from path depth
    ``depth`` on, its path names the ``members`` (then perhaps a closing word such as
    ``done``). Members of equal ``keys`` are interchangeable: twentytwo's cards of one rank
    (where suits never matter), keyed by rank."""

    depth: int
    members: tuple[str, ...]
    keys: tuple[str, ...]


class Agent(Protocol):
    """A player program. It sees what a human in the seat sees: the view and the legal actions."""

    needs_view: bool

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        """Pick one of ``legal`` (never empty); ``view`` is None when ``needs_view`` is false.

        ``optional`` is true when the game does not wait for this seat (an out-of-turn action
        such as a snap): then None declines, for now.
        """
        ...


Choose = Callable[[View | None, Sequence[Action], random.Random, bool], Action | None]
"""An agent's ``choose`` (see ``Agent``)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class RandomAgent:
    """Plays a uniformly random legal action; declines an optional one as often as any action."""

    needs_view = False

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        """Any legal action (or, when optional, declining), uniformly."""
        # random() and int() instead of randrange(): a third of the cost in self-play.
        count = len(legal)
        pick = int(rng.random() * (count + optional))
        return legal[pick] if pick < count else None


ActionT = TypeVar("ActionT", bound=Action)


class MadeWhenAsked(Generic[ActionT]):
    """Legal actions counted rather than listed, each made when asked for by its index: swazi's
    captures and twentytwo's exchanges run to thousands, of which self-play asks for one. A
    subclass says how many there are (``__len__``) and makes the one at an index (``made``);
    this class answers indexing as a sequence does (negative indices, slices, IndexError) and
    keeps the actions it handed out (``handed``): found by identity, an action taken from the
    listing needs no check (``was_handed``). A sequence by registration (below): a compiled
    subclass of the ``Sequence`` ABC shares the ABC's type caches, after which
    ``isinstance(x, Sequence)`` answers wrongly."""

    def __init__(self) -> None:
        self.handed: list[ActionT] = []

    def __len__(self) -> int:
        raise NotImplementedError

    def made(self, index: int) -> ActionT:
        """The action at ``index`` (within bounds)."""
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> ActionT: ...

    @overload
    def __getitem__(self, index: slice) -> list[ActionT]: ...

    def __getitem__(self, index: int | slice) -> ActionT | list[ActionT]:
        # an index first: compiled, telling an int is one C test, a slice a look-up of the type
        if isinstance(index, int):
            size = len(self)
            if index < 0:
                index += size
            if not 0 <= index < size:
                raise IndexError(index)
            action = self.made(index)
            self.handed.append(action)
            return action
        return [self[place] for place in range(*index.indices(len(self)))]

    def __iter__(self) -> Iterator[ActionT]:
        for index in range(len(self)):
            yield self.made(index)

    def was_handed(self, action: object) -> bool:
        """Whether ``action`` is one this listing handed out (the object itself)."""
        for handed in self.handed:  # noqa: SIM110 - compiled, any() of a generator costs more
            if handed is action:
                return True
        return False


Sequence.register(MadeWhenAsked)


def was_listed(legal: Sequence[Action], action: object) -> bool:
    """Whether ``action`` is one of the objects ``legal`` holds or handed out (found by
    identity, it needs no check): one of a tuple's own, or one a ``MadeWhenAsked`` made when
    asked. Any other action may still be legal: the rule answers for it (``is_legal``)."""
    if type(legal) is tuple:
        for listed in legal:  # noqa: SIM110 - compiled, any() of a generator costs more
            if listed is action:
                return True
        return False
    return isinstance(legal, MadeWhenAsked) and legal.was_handed(action)


def parse_error(text: str, expected: str) -> ActionParseError:
    """The error for action text that does not parse, saying what was expected."""
    return ActionParseError(
        _("cannot read {text} as a move; expected {expected}").format(
            text=repr(text), expected=expected
        )
    )


def seat_name(seat: int) -> str:
    """The text form of a seat in actions: ``s2``."""
    return f"s{seat}"
