"""The shape every game follows: a Game (rules, options, factory) and its States.

A State is always at a decision: dealing, revealing and scoring happen inside ``apply``. It
answers who may act, each seat's legal actions, the views, the scores and the result, and it
serialises to JSON exactly. Hidden information leaves a state only through its views.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, Protocol, Self, cast

from mypy_extensions import mypyc_attr

from engine.cards import FULL_DECK, SUIT_CARDS, Card, parse_cards, shuffle
from engine.errors import (
    ActionParseError,
    CardError,
    DeckError,
    IllegalActionError,
    SavedStateError,
    SetupError,
)
from engine.layout import Layout
from engine.words import N_, _, ngettext

View = dict[str, Any]
"""A JSON-ready description of what one seat (or everyone) can see. Cards are in machine form."""

OptionValue = int | bool | None


def make_rng(seed: int, *labels: object) -> random.Random:
    """A generator derived from the game's seed and labels (never the global generator).

    Derived generators need no saved state: the deck of hand 3 is ``make_rng(seed, "deck", 3)``.
    """
    return random.Random("/".join([str(seed), *map(str, labels)]))


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


# mypyc_attr: how setup.py's mypyc compiles a class (nothing in the pure build); the AI's
# searches, which stay Python, subclass it
@mypyc_attr(allow_interpreted_subclasses=True)
class StateAgent(ABC):
    """A player program that thinks about the game itself (a search). It is handed the real
    state but may look at it only through ``State.determinize(seat, …)``: worlds the seat
    cannot tell from the real one, so it stays fair."""

    @abstractmethod
    def choose_in(
        self,
        state: State,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
        optional: bool,
    ) -> Action | None:
        """Pick one of ``legal`` (never empty) for ``seat``; None declines an optional one."""


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


class Phrase(NamedTuple):
    """A part of an event's line that is itself a message: a reason, a title, a list of
    each seat's points. It is translated with the line, so a sentence is never glued from
    pieces in one language: ``Phrase(N_("most cards {points}"), (("points", "2"),))``."""

    message: str
    args: tuple[tuple[str, Arg], ...] = ()
    plural: str | None = None
    """The message's plural form, when it counts something (``counted``): ``ngettext`` picks."""
    counted: int = 0

    @property
    def text(self) -> str:
        """The English phrase with its arguments filled in and its seats still ``{s0}`` …."""
        plural = self.plural if self.plural is not None and self.counted != 1 else None
        return _english(plural or self.message, self.args)

    def translated(self) -> str:
        """The phrase in the active language, its seats still ``{s0}`` … (for a description,
        rendered where it is read)."""
        return _rendered(self.message, self.args, _KeepSeats(()), self.plural, self.counted)


Arg = str | Phrase
"""An argument of a message: a value (a card text, a count, a seat as ``{s2}``) put in as it
is, or a phrase translated with the message."""


def args_json(args: Iterable[tuple[str, Arg]]) -> list[list[Any]]:
    """A message's arguments as JSON: ``[name, value]``, a phrase as an object.

    >>> args_json([("card", "6♦"), ("why", Phrase("most cards {points}", (("points", "2"),)))])
    [['card', '6♦'], ['why', {'message': 'most cards {points}', 'args': [['points', '2']], \
'plural': None, 'counted': 0}]]
    """
    return [
        [
            name,
            value
            if isinstance(value, str)
            else {
                "message": value.message,
                "args": args_json(value.args),
                "plural": value.plural,
                "counted": value.counted,
            },
        ]
        for name, value in args
    ]


def args_from_json(data: Iterable[Any]) -> tuple[tuple[str, Arg], ...]:
    """A message's arguments back from ``args_json``; SavedStateError if they are not."""
    try:
        return tuple(
            (
                str(name),
                value
                if isinstance(value, str)
                else Phrase(
                    str(value["message"]),
                    args_from_json(value["args"]),
                    None if value["plural"] is None else str(value["plural"]),
                    int(value["counted"]),
                ),
            )
            for name, value in data
        )
    except (KeyError, TypeError, ValueError) as error:
        raise SavedStateError(f"a message's arguments are malformed: {error}") from None


def _english(message: str, args: tuple[tuple[str, Arg], ...]) -> str:
    if not args:
        return message
    return message.format_map(
        _KeepSeats((name, value if isinstance(value, str) else value.text) for name, value in args)
    )


def _rendered(
    message: str,
    args: tuple[tuple[str, Arg], ...],
    seats: _KeepSeats,
    plural: str | None = None,
    count: int = 0,
) -> str:
    """``message`` in the active language, its arguments (and theirs) and seats filled in."""
    filled = {
        name: value.format_map(seats)
        if isinstance(value, str)
        else _rendered(value.message, value.args, seats, value.plural, value.counted)
        for name, value in args
    }
    words = _(message) if plural is None else ngettext(message, plural, count)
    return words.format_map(_KeepSeats(filled.items(), seats.args))


def seat_words(seat: int) -> str:
    """A seat as a message's argument: ``{s2}``, filled with the seat's name when rendered."""
    return f"{{s{seat}}}"


def listing(separator: str, parts: Iterable[Arg]) -> Phrase:
    """Parts read one after another, ``separator`` (punctuation, never a word) between them.

    >>> listing("; ", ["{s0} 3", Phrase("most cards {points}", (("points", "2"),))]).text
    '{s0} 3; most cards 2'
    """
    named = tuple((f"part{index}", part) for index, part in enumerate(parts))
    return Phrase(separator.join(f"{{{name}}}" for name, _part in named), named)


def joined(parts: Sequence[Arg]) -> Arg:
    """Parts joined with "and" (``{s0} and {s1} and {s2}``), as one phrase to translate.

    >>> Event("{players} share the win", args=(("players", joined(["{s0}", "{s1}"])),)).text
    '{s0} and {s1} share the win'
    """
    if len(parts) == 1:
        return parts[0]
    return Phrase(N_("{first} and {rest}"), (("first", parts[0]), ("rest", joined(parts[1:]))))


class Event(NamedTuple):
    """One line of the table log: a message, its kind, who may see it, and its arguments.

    ``message`` is a message id (see ``engine.words``): English, marked with ``N_`` where it
    is written and translated only when rendered, since a log line is read later, by readers
    of several languages. Seats appear in it as ``{s0}``, ``{s1}`` …; any other placeholder is
    filled from ``args`` (names and values: cards, counts, seats written ``{s2}``, phrases),
    never from words of a language.
    ``kind`` groups events for the UI: ``deal`` (a new hand or round starts), ``hand_end`` (a
    hand's or round's scores), ``game_end``, or anything else (``play``, ``capture`` …).
    ``visible_to`` is None for a public event, else the seats that may see it.
    """

    message: str
    kind: str = "info"
    visible_to: frozenset[int] | None = None
    args: tuple[tuple[str, Arg], ...] = ()

    @property
    def text(self) -> str:
        """The English line with its arguments filled in and its seats still ``{s0}`` ….

        >>> Event("{player} plays {card}", "play", args=(("player", "{s1}"), ("card", "6♦"))).text
        '{s1} plays 6♦'
        """
        return _english(self.message, self.args)

    def translated(self) -> str:
        """The line in the active language, its arguments filled in and its seats still
        ``{s0}`` … (for a reader who names the seats itself, as the terminal does)."""
        return _rendered(self.message, self.args, _KeepSeats(()))

    def render(self, names: Sequence[str]) -> str:
        """The line in the active language, seat names and arguments filled in."""
        seats = _KeepSeats((f"s{seat}", name) for seat, name in enumerate(names))
        return _rendered(self.message, self.args, seats)

    def visible(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: an onlooker) may see this event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


def listed_objects(legal: Sequence[Action]) -> tuple[Action, ...]:
    """The listed actions to find a chosen one among by identity: a tuple's own; none of a
    sequence that makes its actions when asked (the rule answers for those: ``is_legal``)."""
    return legal if type(legal) is tuple else ()


class _KeepSeats:
    """Arguments for ``str.format_map`` (then ``more``), leaving every other placeholder (the
    seats, named later) as it is."""

    def __init__(self, args: Iterable[tuple[str, str]], more: Mapping[str, str] | None = None):
        self.args = dict(args)
        if more:
            self.args = {**more, **self.args}

    def __getitem__(self, key: str) -> str:
        return self.args.get(key, "{" + key + "}")


def score_lines(text: str) -> list[str]:
    """A hand's or round's scores (a ``hand_end`` event's text: ``<title>: <each seat's part>;
    … · totals: …``) laid out for reading: the title, each seat's part, then the rest, one a
    line.

    >>> score_lines("Hand 2 scores: {s0} 0; {s1} 3 (most cards 2, 2♣ 1) · totals: {s0} 5, {s1} 9")
    ['Hand 2 scores', '{s0} 0', '{s1} 3 (most cards 2, 2♣ 1)', 'Totals: {s0} 5, {s1} 9']
    """
    title, _, rest = text.partition(": ")
    each, *after = rest.split(" · ")
    return [title, *each.split("; "), *(part[:1].upper() + part[1:] for part in after)]


class Zone(NamedTuple):
    """A place cards are in, and who sees them there (None: everyone). For invariant checks."""

    name: str
    cards: tuple[Card, ...]
    seen_by: frozenset[int] | None


@dataclass(frozen=True, slots=True)
class Option:
    """A per-game setting with its default, as shown in the lobby.

    ``name`` is the machine's (the slash command's and ``--option``'s); people read ``label``,
    ``description``, ``unset`` and, for a number, its ``unit``: a game marks them with ``N_``
    and they are translated where they are shown (``_(option.label)``).
    """

    name: str
    default: OptionValue
    description: str
    kind: type = int
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False  # None is allowed (and means ``unset``)
    unset: str = "off"  # what None means, in words
    label: str = field(kw_only=True)  # the setting's name for people: "Snap window"
    unit: str = field(default="", kw_only=True)  # what a number counts, singular: "second"

    def words(self, value: OptionValue) -> str:
        """A value as written after ``--option`` (and read there, but for ``unset``).

        >>> rounds = Option("rounds", None, "", optional=True, unset="one per player", label="")
        >>> rounds.words(None), rounds.words(3)
        ('one per player', '3')
        >>> Option("memory_aid", False, "show seen cards", kind=bool, label="").words(True)
        'on'
        """
        if value is None:
            return self.unset
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def amount(self, value: OptionValue) -> str:
        """A value as people read it, in the active language: a number with its unit.

        >>> snap = Option("snap_seconds", 5, "time to snap", label="Snap window", unit="second")
        >>> snap.amount(5), snap.amount(1), snap.amount(True)
        ('5 seconds', '1 second', 'on')
        """
        if value is None:
            return _(self.unset)
        if isinstance(value, bool):
            return _("on") if value else _("off")
        if self.unit == "point":
            return ngettext("{count} point", "{count} points", value).format(count=value)
        if self.unit == "second":
            return ngettext("{count} second", "{count} seconds", value).format(count=value)
        assert not self.unit, f"no words for an amount of {self.unit}s: add them here"
        return str(value)

    def setting(self, value: OptionValue) -> str:
        """The setting as people read it.

        >>> Option("target", 21, "points to win", label="Target", unit="point").setting(21)
        'Target: 21 points'
        """
        return _("{setting}: {amount}").format(setting=_(self.label), amount=self.amount(value))

    def coerce(self, value: object) -> OptionValue:
        """Check ``value`` for this option; raises SetupError in plain language."""
        if value is None and self.optional:
            return None
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "on", "yes", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "off", "no", "0"):
                return False
            raise SetupError(
                _("option {name} is on or off (true/false), not {value}").format(
                    name=self.name, value=repr(value)
                )
            )
        number: int
        if isinstance(value, bool):
            raise SetupError(
                _("option {name} is a number, not {value}").format(
                    name=self.name, value=repr(value)
                )
            )
        if isinstance(value, int):
            number = value
        elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
            number = int(value)
        elif isinstance(value, str) and value.strip().lower() in ("none", "off") and self.optional:
            return None
        else:
            raise SetupError(
                _("option {name} is a whole number, not {value}").format(
                    name=self.name, value=repr(value)
                )
            )
        if self.minimum is not None and number < self.minimum:
            raise SetupError(
                _("option {name} must be at least {minimum}").format(
                    name=self.name, minimum=self.minimum
                )
            )
        if self.maximum is not None and number > self.maximum:
            raise SetupError(
                _("option {name} must be at most {maximum}").format(
                    name=self.name, maximum=self.maximum
                )
            )
        return number


@dataclass(frozen=True, slots=True)
class Result:
    """The final (or running) scores and the winning seats (empty until the game is over)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


class DeckPlan:
    """Where each hand's deck comes from: a given order (tests, replays) or the seed.

    ``stacked[i]`` is the order of hand (or round) ``i``, top card first; later hands shuffle.
    """

    __slots__ = ("seed", "stacked")

    def __init__(self, seed: int, stacked: Sequence[Sequence[Card]] = ()) -> None:
        self.seed = seed
        self.stacked = tuple(map(tuple, stacked))

    def deck(self, index: int, cards: Collection[Card] = FULL_DECK) -> list[Card]:
        """The deck for hand ``index``, holding exactly ``cards``, top card first."""
        if index < len(self.stacked):
            given = self.stacked[index]
            if len(given) != len(cards) or set(given) != set(cards):
                missing = sorted(set(cards) - set(given))
                extra = sorted(set(given) - set(cards))
                # for whoever stacked the deck (a test, a replay file): machine words
                raise DeckError(
                    f"the deck given for hand {index + 1} is not the {len(cards)} cards in play"
                    + (f"; missing: {' '.join(c.text for c in missing)}" if missing else "")
                    + (f"; not in play: {' '.join(c.text for c in extra)}" if extra else "")
                )
            return list(given)
        deck = list(FULL_DECK) if cards is FULL_DECK else sorted(cards)  # FULL_DECK is sorted
        shuffle(deck, make_rng(self.seed, "deck", index))
        return deck

    def check(self, hands: int | None = None) -> None:
        """Check the first ``hands`` given decks (None: all) hold the full deck, so a bad one
        is refused before play rather than when its hand is reached."""
        for index in range(len(self.stacked) if hands is None else min(hands, len(self.stacked))):
            self.deck(index)

    @property
    def is_stacked(self) -> bool:
        """Whether the first hand's deck was given (then seat 0 deals first)."""
        return bool(self.stacked)

    def to_json(self) -> list[list[str]]:
        """The given decks, as card texts."""
        return [[card.text for card in deck] for deck in self.stacked]

    @staticmethod
    def normalise(seed: int, deck: object) -> DeckPlan:
        """Read a deck argument: None (or empty), a list of cards, or a list of such lists."""
        if deck is None or (isinstance(deck, (list, tuple)) and not deck):
            return DeckPlan(seed)
        if not isinstance(deck, (list, tuple)):
            raise DeckError("the deck must be a list of cards or a list of such lists")
        lists = deck if deck and all(isinstance(item, (list, tuple)) for item in deck) else [deck]
        stacked = []
        for cards in lists:
            if not isinstance(cards, (list, tuple)):
                raise DeckError("the deck must be a list of cards or a list of such lists")
            try:
                stacked.append(
                    tuple(c if isinstance(c, Card) else Card.parse(str(c)) for c in cards)
                )
            except CardError as error:
                raise DeckError(f"bad card in the deck: {error}") from None
            if len(set(stacked[-1])) != len(stacked[-1]):
                raise DeckError("a card appears twice in the deck")
        return DeckPlan(seed, stacked)


PITCH_LIMIT = 100


# twentytwo's game and state stay Python (setup.py)
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A game type: its id, name, player counts and options, and the factory of its states."""

    id: ClassVar[str]
    name: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[Option, ...]] = ()
    pitch: ClassVar[str]
    """The game in one line for newcomers (the slash menu, /help, the terminal): at most
    PITCH_LIMIT characters, Discord's limit on a command's description."""
    lowest_wins: ClassVar[bool] = False  # scores are penalties: the lowest total wins
    full_deck_hands: ClassVar[int | None] = None
    """How many hands are dealt from the whole deck (None: all; later hands may hold fewer)."""

    def new_state(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deck: object = None,
    ) -> State:
        """A new game at its first decision; raises SetupError for a bad count, option or deck."""
        self.check_players(players)
        resolved = self.resolve_options(options)
        plan = DeckPlan.normalise(seed, deck)
        plan.check(self.full_deck_hands)
        return self._new_state(players, seed, resolved, plan)

    def check_players(self, players: int) -> None:
        """Raise SetupError unless the game can be played by ``players``."""
        if players not in self.player_counts:
            raise SetupError(self.player_count_message(players))

    def player_count_text(self) -> str:
        """How many may play, in words: ``2 to 6``, ``2, 3 or 5``, ``2``."""
        counts = self.player_counts
        if len(counts) == 1:
            return str(counts[0])
        if counts == tuple(range(counts[0], counts[-1] + 1)):
            return _("{lowest} to {highest}").format(lowest=counts[0], highest=counts[-1])
        return _("{counts} or {last}").format(
            counts=", ".join(map(str, counts[:-1])), last=counts[-1]
        )

    def player_count_message(self, players: int) -> str:
        """Why ``players`` cannot play this game."""
        if len(self.player_counts) == 1:
            message = _("{game} is for exactly {allowed} players, not {players}")
        else:
            message = _("{game} is for {allowed} players, not {players}")
        return message.format(game=_(self.name), allowed=self.player_count_text(), players=players)

    def option(self, name: str) -> Option:
        """The option called ``name``."""
        return next(option for option in self.options if option.name == name)

    def resolve_options(self, options: Mapping[str, object] | None) -> dict[str, OptionValue]:
        """All options with defaults filled in; raises SetupError for an unknown or bad one."""
        known = {option.name: option for option in self.options}
        resolved: dict[str, OptionValue] = {name: option.default for name, option in known.items()}
        for name, value in (options or {}).items():
            if name not in known:
                if known:
                    message = _("{game} has no option {name} (its options: {names})")
                else:
                    message = _("{game} has no option {name} (it has none)")
                raise SetupError(
                    message.format(game=self.id, name=repr(name), names=", ".join(known))
                )
            resolved[name] = known[name].coerce(value)
        return resolved

    state_class: ClassVar[type[State]]

    def _new_state(
        self, players: int, seed: int, options: dict[str, OptionValue], deck: DeckPlan
    ) -> State:
        """Make the state, already dealt and at its first decision."""
        state = self.state_class(players, seed, options, deck)
        state.first_events = state.start()
        return state

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written as ``text``; raises ActionParseError (never IllegalActionError)."""

    @abstractmethod
    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from ``State.to_json`` output (schema already checked)."""

    schema: ClassVar[int] = 1

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a saved state; raises SavedStateError for anything malformed."""
        if not isinstance(data, Mapping) or data.get("game") != self.id:
            raise SavedStateError(f"this saved state is not a {self.id} game")
        if data.get("schema") != self.schema:
            raise SavedStateError(
                f"saved {self.id} state has schema {data.get('schema')!r}, expected {self.schema}"
            )
        try:
            return self._state_from_json(data)
        except SavedStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise SavedStateError(f"saved {self.id} state is malformed: {error!r}") from None

    def out_of_turn_seconds(self, options: Mapping[str, OptionValue]) -> float | None:
        """How long out-of-turn actions (snaps) stay open before the waited-for seat may act,
        when the game's options decide it; None lets the host choose (the bot's setting)."""
        return None

    @abstractmethod
    def describe(self, view: View) -> list[str]:
        """Lines of text showing a view to a person (cards with suit symbols)."""

    @abstractmethod
    def layout(self, view: View) -> Layout:
        """What a picture of ``view`` shows (see engine.layout), made from the view alone."""

    def summary(self, view: View) -> list[str]:
        """What to say beside a picture of ``view``: the lines of ``describe`` the picture does
        not show (the hand or round, the dealer, the scores …), never whose turn it is, which
        the bot says in a line of its own. A game that leaves it out gets all of ``describe``."""
        return self.describe(view)

    # Wording hooks for engine/choices.py; None leaves a step to the generic words there.
    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        """This game's words for the path element ``step`` chosen after ``chosen``."""
        return None

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        """The question the step after ``chosen`` asks, in this game's words (``offered``: the
        path elements it offers, which tell a turn's phases apart)."""
        return None

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        """This game's words for a whole action (``Play 7♣ to the table``)."""
        return None

    def leads_label(
        self, chosen: tuple[str, ...], step: str, actions: Sequence[Action], names: Sequence[str]
    ) -> str | None:
        """This game's words for the choice ``step`` (after ``chosen``) that leads on to several
        ``actions``: what choosing it does next (``Capture with K♠``)."""
        return None

    def card_set(self, action: Action) -> CardSet | None:
        """When ``action`` may be chosen as a set of cards (or positions) in one step, which:
        ``engine.choices.pick_at`` offers the step as one choice of several members."""
        return None

    def pick_prompt(
        self, chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
    ) -> str | None:
        """What choosing a set after ``chosen`` does, in this game's words (``sizes``: the
        legal counts): ``Look at two of your cards``."""
        return None

    def confirmation(self, action: Action) -> str | None:
        """The question to confirm ``action`` with before it is made (a move that changes
        the game for everyone and cannot be taken back), or None: offered as a step of its
        own (``engine.choices.resolve``)."""
        return None

    def only_move_reason(self, view: View, action: Action) -> str | None:
        """Why ``action`` is the only legal move of the seat seeing ``view``, as a sentence
        ("You can't beat K♠, so you must play your lowest card.")."""
        return None


# serializable: a compiled state can be made without __init__ and lists its fields in
# __getstate__ (see __deepcopy__); twentytwo's state stays Python (setup.py)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class State(ABC):
    """One position of a game. Subclasses implement the underscored hooks."""

    game: ClassVar[Game]
    players: int
    seed: int
    options: dict[str, OptionValue]
    deck_plan: DeckPlan

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        self.players = players
        self.seed = seed
        self.options = options
        self.deck_plan = deck_plan
        self._legal_cache: dict[int, Sequence[Action]] = {}
        self._acting: tuple[int, ...] | None = None  # to_act's answer for this position
        self.first_events: list[Event] = []  # not saved: shown only when the game starts
        # The public view as the last hand or round was scored, in a game that turns hidden
        # cards up then (cambio): what everyone was shown before the next deal replaced it.
        # Set with each such scoring; not saved (whoever shows it keeps it).
        self.last_reveal: View | None = None

    @classmethod
    def from_saved_header(cls, data: Mapping[str, Any]) -> Self:
        """A state with the saved players, seed, options and deck, for a game's
        ``_state_from_json`` to fill in its own fields."""
        seed = int(data["seed"])
        return cls(
            int(data["players"]),
            seed,
            cls.game.resolve_options(data["options"]),
            DeckPlan.normalise(seed, data["deck"] or None),
        )

    @abstractmethod
    def start(self) -> list[Event]:
        """Deal the first hand (or draw for the dealer first), called once by ``new_state``;
        returns what happened, as ``opening_events`` shows it."""

    # -- who acts and what they may do ---------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (several when out-of-turn actions are open); () when over.

        Worked out once per position, like the legal actions: a step asks it several times.
        """
        acting = self._acting
        if acting is None:
            acting = self._acting = self._to_act()
        return acting

    @abstractmethod
    def _to_act(self) -> tuple[int, ...]:
        """The seats that may act now (``to_act`` caches it until the next action)."""

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits for; other seats in ``to_act`` have optional actions only."""
        return self.to_act()

    def opening_events(self) -> list[Event]:
        """What happened while the game was set up (a draw for the first dealer, the first
        deal's opening line), for the table log when the game starts; ``new_state`` itself
        returns no events."""
        return list(self.first_events)

    def timeout_action(self, seat: int) -> Action | None:
        """The action a game's rules name for a seat whose time ran out (None: the AI decides)."""
        return None

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The seat's legal actions in a fixed order; empty for a seat that may not act. A
        tuple, or a sequence that makes its actions when asked (twentytwo's up to 2,048
        exchanges), whose ``in`` asks the rule."""
        cached = self._legal_cache.get(seat)
        if cached is None:
            acting = self._acting  # to_act's cache, read here to save its call
            if acting is None:
                acting = self._acting = self._to_act()
            cached = self._legal_actions(seat) if seat in acting else ()
            self._legal_cache[seat] = cached
        return cached

    @abstractmethod
    def _legal_actions(self, seat: int) -> Sequence[Action]:
        """Legal actions of a seat that may act."""

    def play_sole_turns(
        self, choosers: Sequence[Choose | None], rngs: Sequence[random.Random], limit: int
    ) -> int:
        """Self-play's loop (``runner.play_out``): while one seat alone may act and has a
        chooser (the ``choose`` of an agent that needs no view), list its legal actions, let it
        choose one (never optional) with its generator from ``rngs`` and apply it, at most
        ``limit`` times; returns how many actions were applied.

        Each step is ``to_act``, ``legal_actions``, the chooser and ``apply``, written out in one
        frame: their calls and the listed actions' cache cost 2,600 instructions a step, 7% of
        a fishing or stuck step. As in ``apply``, a choice that is not one of the listed objects
        is checked by ``is_legal``, and ``_apply`` sees ``to_act``'s answer for its position.
        """
        to_act, list_actions, carry_out = self._to_act, self._legal_actions, self._apply
        cache = self._legal_cache
        applied = 0
        while applied < limit:
            acting = self._acting = to_act()
            if len(acting) != 1 or (choose := choosers[seat := acting[0]]) is None:
                break
            legal = list_actions(seat)
            action = choose(None, legal, rngs[seat], False)
            for listed in listed_objects(legal):
                if listed is action:
                    break
            else:
                if action is None:
                    raise RuntimeError(f"seat {seat} did not move; the game waits for it")
                cache[seat] = legal
                self.apply(seat, action)  # checks it, as any action given from outside
                applied += 1
                continue
            carry_out(seat, action)
            self._acting = None
            if cache:  # a listing ``_apply`` asked for (or one made before this loop)
                cache.clear()
            applied += 1
        return applied

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may take ``action`` now."""
        return action in self.legal_actions(seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Take ``action`` for ``seat`` and return what happened.

        Raises IllegalActionError, changing nothing, when the action is not legal now.
        """
        # A listed action itself (what agents and buttons give) needs no further check: found
        # by identity, it saves is_legal's frames, and the Python-level ``__eq__`` of the
        # dataclass actions listed before it, on every self-play step. A loop, as the lists
        # are short: quicker than any C-level search set up for them.
        for listed in listed_objects(self._legal_cache.get(seat, ())):
            if listed is action:
                break
        else:
            if not self.is_legal(seat, action):
                raise IllegalActionError(self.explain_illegal(seat, action))
        events = self._apply(seat, action)
        self._legal_cache.clear()
        self._acting = None
        return events

    def apply_text(self, seat: int, text: str) -> list[Event]:
        """Parse ``text`` and apply it (ActionParseError or IllegalActionError on failure)."""
        return self.apply(seat, self.game.parse_action(text))

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Carry out a legal action, and everything that follows by itself (deals, scoring)."""

    def explain_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` now, in plain language."""
        if self.is_over:
            return _("The game is over.")
        if not 0 <= seat < self.players:
            return _("There is no seat {seat} in this game.").format(seat=seat)
        if seat not in self.to_act():
            return _("It is not your turn.")
        return _("'{move}' is not a legal move now.").format(move=action.text)

    # -- what people see -----------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int) -> View:
        """What ``seat`` sees: the public view plus that seat's private information."""

    @abstractmethod
    def public_view(self) -> View:
        """What everyone (and an onlooker) sees."""

    def agent_view(self, seat: int) -> View:
        """What an agent in ``seat`` is given: the seat's view (games with memory add to it)."""
        return self.view(seat)

    # -- what a seat may believe ------------------------------------------------------------------
    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A world ``seat`` cannot tell from this one: a copy in which everything the seat has
        seen stays and the cards hidden from it are dealt again at random among the places
        hidden from it, each keeping its count; later hands shuffle from a new seed.

        Searching AIs look only at such worlds, so they are fair by construction.
        """
        world = copy.deepcopy(self)
        world.seed = rng.getrandbits(48)
        world.deck_plan = DeckPlan(world.seed)
        world._legal_cache = {}
        world._acting = None
        world._redeal_hidden(seat, rng)
        return world

    @abstractmethod
    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Deal again, in place, the cards hidden from ``seat`` (see ``determinize``)."""

    @abstractmethod
    def zones(self) -> Iterable[Zone]:
        """Every card of the game, each in exactly one zone, with who sees it there."""

    # -- scores and the end ----------------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Running total per seat."""

    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """The winning seats (shared wins list several); empty until the game is over."""

    def is_in(self, seat: int) -> bool:
        """Whether ``seat`` still takes part (a game that puts players out overrides this)."""
        return True

    def result(self) -> Result:
        """Scores and winners."""
        return Result(self.scores(), self.winners())

    # -- saving ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; ``game.state_from_json`` reads it back exactly."""
        return {
            "game": self.game.id,
            "schema": self.game.schema,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "deck": self.deck_plan.to_json(),
            **self._to_json(),
        }

    @abstractmethod
    def _to_json(self) -> dict[str, Any]:
        """The game-specific part of ``to_json``."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A copy sharing only immutable values (cards, events, the deck plan, the listed
        actions) with this state: ``copy.deepcopy(state)`` without the generic walk, many times
        quicker, as searching AIs copy a state for every world they look at."""
        clone = type(self).__new__(type(self))  # no __init__ (a compiled state too: serializable)
        memo[id(self)] = clone
        for name, value in state_fields(self).items():
            # The listed actions are immutable, and still right for the copy.
            setattr(clone, name, dict(value) if name == "_legal_cache" else copied(value, memo))
        return clone

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


# mypyc calls __init__ when the class is called only for a class open to interpreted
# subclasses, as a serializable state needs (so each game's state class is, too)
@mypyc_attr(allow_interpreted_subclasses=True)
class TotalsState(State):
    """A state scored by running totals per seat, won by the best total(s) once it is over
    (the highest, or the lowest when ``game.lowest_wins``; equal best totals share the win)."""

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.totals = [0] * players
        self.history: list[list[int]] = []  # each seat's points of every hand, round or deal
        self.over = False

    def scores_event(self, title: Arg, parts: Iterable[Arg]) -> Event:
        """The ``hand_end`` event of a hand's or round's points (each seat's ``parts``, with the
        running totals after them), as ``score_lines`` lays it out.

        >>> from engine.registry import games
        >>> state = games()["stuck"].new_state(2, seed=1)
        >>> state.totals = [3, 5]
        >>> state.scores_event("Round 1", ["{s0} 3", "{s1} 5"]).text
        'Round 1 scores: {s0} 3; {s1} 5 · totals: {s0} 3, {s1} 5'
        """
        totals = [
            Phrase(N_("{player} {points}"), (("player", seat_words(seat)), ("points", str(total))))
            for seat, total in enumerate(self.totals)
        ]
        return Event(
            N_("{title} scores: {scores} · totals: {totals}"),
            "hand_end",
            args=(
                ("title", title),
                ("scores", listing("; ", parts)),
                ("totals", listing(", ", totals)),
            ),
        )

    def totals_json(self) -> dict[str, Any]:
        """The running totals, the points history and whether it is over, for ``_to_json``."""
        return {
            "totals": list(self.totals),
            "history": [list(points) for points in self.history],
            "over": self.over,
        }

    def read_totals(self, data: Mapping[str, Any]) -> None:
        """Read back what ``totals_json`` wrote."""
        self.totals = [int(total) for total in data["totals"]]
        self.history = [[int(points) for points in scored] for scored in data["history"]]
        self.over = bool(data["over"])

    @property
    def is_over(self) -> bool:
        return self.over

    def scores(self) -> tuple[int, ...]:
        return tuple(self.totals)

    def winners(self) -> tuple[int, ...]:
        if not self.over:
            return ()
        best = min(self.totals) if self.game.lowest_wins else max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)


NOT_FIELDS = frozenset({"__dict__", "__hash__"})
"""What a compiled state's ``__getstate__`` lists besides its fields: values of its class,
and the ``__dict__`` that holds an interpreted subclass's own fields."""


def state_fields(state: State) -> dict[str, Any]:
    """A state's fields by name. The pure-Python build keeps them in the instance's
    ``__dict__``, which ``__getstate__`` gives; a compiled state (mypyc) keeps those its class
    declares in C slots, which its ``__getstate__`` lists with its ``__dict__``."""
    saved = cast(dict[str, Any], state.__getstate__())
    if "__dict__" not in saved:
        return saved
    fields = {name: value for name, value in saved.items() if name not in NOT_FIELDS}
    fields.update(saved["__dict__"])
    return fields


SHARED_TYPES = frozenset({int, str, bool, float, type(None), frozenset, Card, Event, DeckPlan})
"""The immutable values a copy of a state shares (its frozensets hold seats; a DeckPlan is
never changed once made)."""


def copied(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of a part of a state: lists, dicts, sets and tuples are copied down to the
    immutable values they hold, which are shared; any other object by ``copy.deepcopy`` (give
    a mutable class of a state ``__deepcopy__`` to keep this quick)."""
    kind = type(value)
    if kind in SHARED_TYPES:
        return value
    if kind is list:
        if SHARED_TYPES.issuperset(map(type, value)):  # checked in C: most lists hold cards
            return value.copy()
        return [copied(item, memo) for item in value]
    if kind is dict:
        if SHARED_TYPES.issuperset(map(type, value.values())):
            return value.copy()
        return {key: copied(item, memo) for key, item in value.items()}
    if kind is set:
        return value.copy()  # of seats or ranks
    if kind is tuple:
        if SHARED_TYPES.issuperset(map(type, value)):
            return value
        return tuple(copied(item, memo) for item in value)
    return copy.deepcopy(value, memo)


SUIT_COUNTS = (
    (N_("{count} club"), N_("{count} clubs"), N_("{piles} (most clubs: a tie, {rule})")),
    (N_("{count} diamond"), N_("{count} diamonds"), N_("{piles} (most diamonds: a tie, {rule})")),
    (N_("{count} heart"), N_("{count} hearts"), N_("{piles} (most hearts: a tie, {rule})")),
    (N_("{count} spade"), N_("{count} spades"), N_("{piles} (most spades: a tie, {rule})")),
)
"""A count of a suit's cards in a pile (singular, plural), and a tie for most of them."""


def pile_counts(
    piles: Sequence[Collection[Card]],
    suit: int,
    scoring: Sequence[tuple[Card, str]],
    tie_rule: str,
) -> str:
    """``pile_phrase`` in English.

    >>> piles = [cards_from_json(["2C", "3C", "4D"]), cards_from_json(["5C", "10D", "KH"])]
    >>> scoring = [(Card.parse("2C"), "2♣"), (Card.parse("10D"), "10♦")]
    >>> pile_counts(piles, 0, scoring, "nobody scores")
    '{s0} 3 cards, 2 clubs, 2♣; {s1} 3 cards, 1 club, 10♦ (most cards: a tie, nobody scores)'
    """
    return pile_phrase(piles, suit, scoring, tie_rule).text


def pile_phrase(
    piles: Sequence[Collection[Card]],
    suit: int,
    scoring: Sequence[tuple[Card, str]],
    tie_rule: str,
) -> Phrase:
    """What each pile holds that scores (its cards, its cards of ``suit``, the ``scoring``
    cards it has), so a hand's points can be checked; a tie for a "most" says ``tie_rule`` (a
    message marked with ``N_``). A pile given as a set is looked up in as it is (see
    ``held_sets``)."""
    one, several, suit_tie = SUIT_COUNTS[suit]
    suit_cards = SUIT_CARDS[suit]
    sizes, in_suit, parts = [], [], []
    for seat, held in enumerate(held_sets(piles)):
        suited = len(suit_cards & held)
        sizes.append(len(held))
        in_suit.append(suited)
        part: list[Arg] = [
            Phrase(
                N_("{player} {count} card"),
                (("player", seat_words(seat)), ("count", str(len(held)))),
                N_("{player} {count} cards"),
                len(held),
            ),
            Phrase(one, (("count", str(suited)),), several, suited),
        ]
        part += [label for card, label in scoring if card in held]
        parts.append(listing(", ", part))
    phrase = listing("; ", parts)
    rule = Phrase(tie_rule)
    for tie, counts in ((N_("{piles} (most cards: a tie, {rule})"), sizes), (suit_tie, in_suit)):
        if counts.count(max(counts)) > 1:
            phrase = Phrase(tie, (("piles", phrase), ("rule", rule)))
    return phrase


def held_sets(piles: Iterable[Collection[Card]]) -> list[AbstractSet[Card]]:
    """Each pile as a set of its cards, to look cards up in rather than search the pile card
    by card; a pile that is a set already is kept as it is, so scoring a hand builds each set
    once (hashing a card costs as much as several list steps).

    >>> pile = {Card.parse("2C")}
    >>> held_sets([pile, [Card.parse("3D")]])[0] is pile
    True
    """
    return [pile if isinstance(pile, (set, frozenset)) else set(pile) for pile in piles]


def cards_json(cards: Iterable[Card]) -> list[str]:
    """Cards as a JSON list of texts, in the order given."""
    return [card.text for card in cards]


def cards_from_json(texts: Iterable[str]) -> list[Card]:
    """Cards from a JSON list of texts."""
    try:
        return list(parse_cards(texts))
    except CardError as error:
        raise SavedStateError(f"saved state is malformed: {error}") from None


def redeal(places: Sequence[list[Card]], rng: random.Random) -> None:
    """Shuffle the cards of ``places`` together and deal them back, each place keeping its
    count (the card order within a place is the shuffled order).

    The cards are sorted first, so states that differ only in where these cards are give the
    same deal for the same ``rng``: what a search sees cannot depend on them.
    """
    cards = sorted(card for place in places for card in place)
    rng.shuffle(cards)
    deal_out(places, cards)


def deal_out(places: Sequence[list[Card]], cards: Sequence[Card]) -> None:
    """Fill ``places`` in order from ``cards``, each place keeping its count."""
    start = 0
    for place in places:
        end = start + len(place)
        place[:] = cards[start:end]
        start = end


def parse_error(text: str, expected: str) -> ActionParseError:
    """The error for action text that does not parse, saying what was expected."""
    return ActionParseError(
        _("cannot read {text} as a move; expected {expected}").format(
            text=repr(text), expected=expected
        )
    )


def scores_line(scores: Sequence[int]) -> str:
    """The running scores with seat placeholders, as the games' texts show them.

    >>> scores_line([3, 0])
    'Scores: {s0} 3, {s1} 0'
    """
    each = ", ".join(
        _("{player} {points}").format(player=seat_words(seat), points=score)
        for seat, score in enumerate(scores)
    )
    return _("Scores: {scores}").format(scores=each)


def seat_name(seat: int) -> str:
    """The text form of a seat in actions: ``s2``."""
    return f"s{seat}"


def leader_order(first: int, players: int) -> list[int]:
    """Seats clockwise starting at ``first``."""
    return [(first + offset) % players for offset in range(players)]


def dealt_hands(cards: list[Card], first: int, players: int) -> list[list[Card]]:
    """Each seat's hand, in card order, when ``cards`` are dealt one at a time clockwise
    starting with seat ``first`` (the dealer's left): the seat ``offset`` places after
    ``first`` gets every ``players``-th card from index ``offset``.

    >>> dealt_hands(cards_from_json(["2C", "3C", "4C", "5C", "6C", "7C"]), 1, 2)
    [[Card('3C'), Card('5C'), Card('7C')], [Card('2C'), Card('4C'), Card('6C')]]
    """
    hands = [cards[(seat - first) % players :: players] for seat in range(players)]
    for hand in hands:
        hand.sort()  # in place: quicker than sorted() on these short lists
    return hands
