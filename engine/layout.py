"""What a picture of a view shows: rows of card groups, face up or face down, with labels.

Each game turns one of its views (a seat's or the public one) into a ``Layout`` with
``Game.layout(view)``, from the view alone, so a picture can never show more than the view.
A renderer (the bot's ``bot/pictures``) draws any layout without knowing the game. Labels may
name seats as ``{s0}``, ``{s1}`` … like event text; the renderer fills in the names.

>>> table = face_up("Table", ["3H", "10D"])
>>> Layout((Row((table, stack("Stock", 40))),)).alt_text(["Ann", "Bob"])
'Table: 3 of hearts, 10 of diamonds. Stock: 40 cards face down.'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from engine.cards import Card
from engine.words import N_, _, ngettext

_RANK_WORD = (
    "",
    N_("ace"),
    *(str(rank) for rank in range(2, 11)),
    N_("jack"),
    N_("queen"),
    N_("king"),
)
_SUIT_WORD = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))


def card_words(card: Card) -> str:
    """A card as a screen reader should say it: ``10 of diamonds``, ``queen of spades``.

    >>> card_words(Card.parse("QS"))
    'queen of spades'
    """
    return _("{rank} of {suit}").format(
        rank=_(_RANK_WORD[card.rank]), suit=_(_SUIT_WORD[card.suit])
    )


def _short(card: Card) -> str:
    return card.pretty


class Shown(NamedTuple):
    """One card in a picture: face up (``card``) or face down (None), with an optional caption
    under it (a position's name, "new" …)."""

    card: Card | None
    caption: str = ""


class Group(NamedTuple):
    """Cards shown together under one label: a hand, a trick, a build, a pile.

    With ``size`` set the group is a stack of that many cards of which ``cards`` (at most one)
    is the visible top; the renderer writes the size on it. ``mine`` marks the seat's own
    cards (its hand, what it drew): what ``Layout.own`` keeps for a picture of a hand alone.
    """

    label: str
    cards: tuple[Shown, ...] = ()
    size: int | None = None
    mine: bool = False

    def alt_text(self, words: bool = True) -> str:
        """The group for a screen reader (cards in words, else in the short ``10♦`` form);
        seats stay ``{sN}`` placeholders."""
        name_of = card_words if words else _short
        if self.size is not None:
            top = [shown.card for shown in self.cards if shown.card is not None]
            if top:
                message = ngettext(
                    "{label}: {count} card, top {card}",
                    "{label}: {count} cards, top {card}",
                    self.size,
                )
            elif self.size:
                message = ngettext(
                    "{label}: {count} card face down", "{label}: {count} cards face down", self.size
                )
            else:
                message = _("{label}: 0 cards")
            card = name_of(top[0]) if top else ""
            return message.format(label=self.label, count=self.size, card=card)
        parts = []
        for shown in self.cards:
            name = _("face down") if shown.card is None else name_of(shown.card)
            if shown.caption:
                name = _("{caption} {card}").format(caption=shown.caption, card=name)
            parts.append(name)
        return _("{label}: {cards}").format(label=self.label, cards=", ".join(parts) or _("none"))


class Row(NamedTuple):
    """Groups side by side (a renderer wraps them onto more lines when they do not fit)."""

    groups: tuple[Group, ...]


class Layout(NamedTuple):
    """A whole picture: rows from top to bottom."""

    rows: tuple[Row, ...]

    def groups(self) -> Iterator[Group]:
        """Every group, top to bottom, left to right."""
        for row in self.rows:
            yield from row.groups

    def face_up(self) -> list[Card]:
        """Every card shown face up, in drawing order."""
        return [
            shown.card for group in self.groups() for shown in group.cards if shown.card is not None
        ]

    def own(self) -> Layout:
        """Only the seat's own groups (``Group.mine``), one line: a picture of a hand alone."""
        mine = tuple(group for group in self.groups() if group.mine)
        return Layout((Row(mine),) if mine else ())

    def alt_text(self, names: Sequence[str], words: bool = True) -> str:
        """Every group and the cards it shows (in words, else in the short form), with seat
        names filled in."""
        return " ".join(fill_seats(group.alt_text(words), names) + "." for group in self.groups())


class _Seats(dict[str, str]):
    """Seat names by placeholder; a seat without a name is called by its number."""

    def __missing__(self, key: str) -> str:
        return _("seat {number}").format(number=int(key[1:]) + 1)


def fill_seats(text: str, names: Sequence[str]) -> str:
    """``text`` with ``{s0}``, ``{s1}`` … replaced by ``names`` (a missing name: "seat N").

    >>> fill_seats("{s0}'s pile, {s2}'s pile", ["Ann", "Bob"])
    "Ann's pile, seat 3's pile"
    """
    return text.format_map(_Seats({f"s{seat}": name for seat, name in enumerate(names)}))


def face_up(label: str, texts: Iterable[str], mine: bool = False) -> Group:
    """A group of face-up cards given as card texts (as views hold them)."""
    return Group(label, tuple(Shown(Card.parse(text)) for text in texts), mine=mine)


def face_down(label: str, count: int, mine: bool = False) -> Group:
    """A group of ``count`` face-down cards, drawn one by one."""
    return Group(label, (Shown(None),) * count, mine=mine)


def your_hand(view: Mapping[str, Any]) -> list[Group]:
    """The seat's hand (a view's ``hand``) as its own group; nothing for the public view."""
    return [face_up(_("Your hand"), view["hand"], mine=True)] if "hand" in view else []


def stack(label: str, count: int, top: str | None = None) -> Group:
    """A stack of ``count`` cards, face down unless its ``top`` card text is given."""
    return Group(label, (Shown(Card.parse(top) if top else None),) if count else (), count)


def rows(*lines: Sequence[Group]) -> Layout:
    """A layout from lines of groups, leaving out empty lines."""
    return Layout(tuple(Row(tuple(line)) for line in lines if line))
