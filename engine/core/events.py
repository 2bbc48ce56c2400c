"""The table log's words: events, and the phrases inside them, each a message id with its
arguments, rendered later in the reader's language (see ``engine.words``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from engine.cards import Card, cards_pretty
from engine.errors import SavedStateError
from engine.words import ENGLISH, N_, _, ngettext


# acyclic: see Event
@mypyc_attr(acyclic=True)
class Phrase:
    """A part of an event's line that is itself a message: a reason, a title, a list of
    each seat's points. It is translated with the line, so a sentence is never glued from
    pieces in one language: ``Phrase(N_("most cards {points}"), (("points", "2"),))``. A
    phrase that counts (``counted_phrase``) holds both forms of a plural entry and its count.

    Immutable, compared and hashed by its fields (as ``Event``).
    """

    __slots__ = ("args", "counted", "message", "plural")

    def __init__(
        self,
        message: str,
        args: tuple[tuple[str, Arg], ...] = (),
        plural: str | None = None,
        counted: int = 0,
    ) -> None:
        self.message: Final = message
        self.args: Final = args
        self.plural: Final = plural
        """The message's plural form, when it counts something (``counted``): the pair is
        one plural entry of the catalogs, whose language picks the form for the count."""
        self.counted: Final = counted

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Phrase)
            and self.message == other.message
            and self.args == other.args
            and self.plural == other.plural
            and self.counted == other.counted
        )

    def __hash__(self) -> int:
        return hash((self.message, self.args, self.plural, self.counted))

    def __repr__(self) -> str:
        return (
            f"Phrase(message={self.message!r}, args={self.args!r}, plural={self.plural!r},"
            f" counted={self.counted!r})"
        )

    def __reduce__(self) -> tuple[type[Phrase], tuple[object, ...]]:
        return Phrase, (self.message, self.args, self.plural, self.counted)

    @property
    def text(self) -> str:
        """The English phrase with its arguments filled in and its seats still ``{s0}`` …."""
        if self.plural is None:
            return _english(self.message, self.args)
        return _english(ENGLISH.ngettext(self.message, self.plural, self.counted), self.args)

    def translated(self) -> str:
        """The phrase in the active language, its seats still ``{s0}`` … (for a description,
        rendered where it is read)."""
        return _rendered(self.message, self.args, _KeepSeats({}), self.plural, self.counted)


Arg = str | Phrase
"""An argument of a message: a value (a card text, a count, a seat as ``{s2}``) put in as it
is, or a phrase translated with the message."""


def counted_phrase(
    forms: tuple[str, str], count: int, args: tuple[tuple[str, Arg], ...] = ()
) -> Phrase:
    """A phrase that counts: ``forms`` (marked with ``Nn_``), its ``{count}`` filled with
    ``count`` and its other placeholders from ``args``, in the form that the reader's
    language needs for ``count``.

    >>> [counted_phrase(("{count} card", "{count} cards"), count).text for count in (0, 1)]
    ['0 cards', '1 card']
    """
    singular, plural = forms
    return Phrase(singular, (*args, ("count", str(count))), plural, count)


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
    filled = {}  # a loop, not a generator: compiled, it is C (swazi renders a deal's piles)
    for name, value in args:
        filled[name] = value if isinstance(value, str) else value.text
    return message.format_map(_KeepSeats(filled))


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
    return words.format_map(_KeepSeats(filled, seats.args))


def seat_words(seat: int) -> str:
    """A seat as a message's argument: ``{s2}``, filled with the seat's name when rendered.

    >>> seat_words(2), seat_words(12)
    ('{s2}', '{s12}')
    """
    return _SEAT_WORDS[seat] if 0 <= seat < len(_SEAT_WORDS) else _seat_placeholder(seat)


def _seat_placeholder(seat: int) -> str:
    return f"{{s{seat}}}"


_SEAT_WORDS: Final = tuple(_seat_placeholder(seat) for seat in range(8))
"""``seat_words`` of the seats a game can have (six at most), written once: nearly every
event names a seat, and formatting the text anew cost a twentieth of a short game."""


def listing(separator: str, parts: Iterable[Arg]) -> Phrase:
    """Parts read one after another, ``separator`` (punctuation, never a word) between them.

    >>> listing("; ", ["{s0} 3", Phrase("most cards {points}", (("points", "2"),))]).text
    '{s0} 3; most cards 2'
    """
    named: list[tuple[str, Arg]] = []
    placeholders: list[str] = []
    for part in parts:  # a loop: compiled, it is C
        index = len(named)
        name, placeholder = _PARTS[index] if index < len(_PARTS) else _part(index)
        named.append((name, part))
        placeholders.append(placeholder)
    return Phrase(separator.join(placeholders), tuple(named))


def _part(index: int) -> tuple[str, str]:
    """The name of a listing's part and its placeholder: ``part2``, ``{part2}``."""
    name = f"part{index}"
    return name, "{" + name + "}"


_PARTS: Final = tuple(_part(index) for index in range(16))
"""``_part`` of the parts a listing mostly has, written once (as ``_SEAT_WORDS``): swazi lists
each deal's piles and each seat's reasons, and writing the names anew cost as much as the
rest of the listing."""


def joined(parts: Sequence[Arg]) -> Arg:
    """Parts joined with "and" (``{s0} and {s1} and {s2}``), as one phrase to translate.

    >>> Event("{players} share the win", args=(("players", joined(["{s0}", "{s1}"])),)).text
    '{s0} and {s1} share the win'
    """
    if len(parts) == 1:
        return parts[0]
    return Phrase(N_("{first} and {rest}"), (("first", parts[0]), ("rest", joined(parts[1:]))))


# acyclic: see Event
@mypyc_attr(acyclic=True)
class Cards:
    """Cards as an event's argument, in the order given: the event writes them in people
    form (``2♥ 4♠``, as ``cards_pretty``) when its arguments are first read, not when it is
    made, as self-play makes and drops most events unread (writing a capture's cards out
    cost more than taking them)."""

    __slots__ = ("cards",)

    def __init__(self, cards: Iterable[Card]) -> None:
        self.cards: Final = tuple(cards)  # a copy: the list given may change after the event

    @property
    def text(self) -> str:
        """The cards in people form.

        >>> Cards([Card(2, 2), Card(4, 3)]).text
        '2♥ 4♠'
        """
        return cards_pretty(self.cards)


@mypyc_attr(acyclic=True)
class Event:
    """One line of the table log: a message, its kind, who may see it, and its arguments.

    ``message`` is a message id (see ``engine.words``): English, marked with ``N_`` where it
    is written and translated only when rendered, since a log line is read later, by readers
    of several languages. Seats appear in it as ``{s0}``, ``{s1}`` …; any other placeholder is
    filled from ``args`` (names and values: cards, counts, seats written ``{s2}``, phrases),
    never from words of a language; an event may be given cards as ``Cards``, which its
    ``args`` hold written out.
    ``kind`` groups events for the UI: ``deal`` (a new hand or round starts), ``hand_end`` (a
    hand's or round's scores), ``game_end``, or anything else (``play``, ``capture`` …).
    ``visible_to`` is None for a public event, else the seats that may see it.

    Immutable, compared and hashed by its fields. A plain class rather than a NamedTuple, as
    nearly every step of every game makes one: compiled (mypyc), it is a C struct made and
    read in C, where a NamedTuple is made by its Python-level ``__new__``. It holds only
    texts, seats, cards and phrases, so it can never be part of a reference cycle: compiled
    as ``acyclic``, the cyclic collector does not track it, which makes it quicker to make
    and to free.
    """

    __slots__ = ("_args", "_given", "kind", "message", "visible_to")

    def __init__(
        self,
        message: str,
        kind: str = "info",
        visible_to: frozenset[int] | None = None,
        args: tuple[tuple[str, Arg | Cards], ...] = (),
    ) -> None:
        self.message: Final = message
        self.kind: Final = kind
        self.visible_to: Final = visible_to
        self._given: Final = args
        self._args: tuple[tuple[str, Arg], ...] | None = None  # ``args``, once read

    @property
    def args(self) -> tuple[tuple[str, Arg], ...]:
        """The arguments, names and values, any ``Cards`` written out (the first time they
        are read).

        >>> aces = Cards([Card(1, 0), Card(1, 1)])
        >>> Event("{card} takes {cards}", args=(("card", "9♦"), ("cards", aces))).args
        (('card', '9♦'), ('cards', 'A♣ A♦'))
        """
        args = self._args
        if args is None:
            written: list[tuple[str, Arg]] = []  # a loop: compiled, it is C
            for name, value in self._given:
                written.append((name, value.text if isinstance(value, Cards) else value))
            args = self._args = tuple(written)
        return args

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Event)
            and self.message == other.message
            and self.kind == other.kind
            and self.visible_to == other.visible_to
            and self.args == other.args
        )

    def __hash__(self) -> int:
        return hash((self.message, self.kind, self.visible_to, self.args))

    def __repr__(self) -> str:
        return (
            f"Event(message={self.message!r}, kind={self.kind!r},"
            f" visible_to={self.visible_to!r}, args={self.args!r})"
        )

    def __reduce__(self) -> tuple[type[Event], tuple[object, ...]]:
        return Event, (self.message, self.kind, self.visible_to, self.args)

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
        return _rendered(self.message, self.args, _KeepSeats({}))

    def render(self, names: Sequence[str]) -> str:
        """The line in the active language, seat names and arguments filled in."""
        seats = _KeepSeats({f"s{seat}": name for seat, name in enumerate(names)})
        return _rendered(self.message, self.args, seats)

    def visible(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: an onlooker) may see this event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


class _KeepSeats:
    """Arguments for ``str.format_map`` (then ``more``), leaving every other placeholder (the
    seats, named later) as it is."""

    def __init__(self, args: dict[str, str], more: Mapping[str, str] | None = None):
        self.args = {**more, **args} if more else args

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
