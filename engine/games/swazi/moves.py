"""swazi's moves as written and read (docs/rules/swazi.md §11, "Move text").

A move is a ``Move``: its kind and the cards, build and pile top it names. Its text is the
machine form the bot and the saves use; its path is the choice steps a player clicks through.
``parse_move`` reads any text a player may type back into a ``Move``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from engine.cards import Card, cards_text
from engine.core import parse_error
from engine.errors import ActionParseError, CardError
from engine.words import N_, _

TOP_BUILD: Final = 14
"""The highest build value (§6.2), and an ace's high value (§2.2)."""

# the kinds of move (Final: the compiled build reads them without a look-up)
CARDLESS_BUILD: Final = "build"
AUGMENT: Final = "augment"
CAPTURE: Final = "capture"
BUILD: Final = "build on"
CHANGE: Final = "change"
DISCARD: Final = "discard"


def serves(card: Card, value: int) -> bool:
    """Whether ``card`` is worth ``value`` alone (§2: an ace is 1 or 14), as a single card of
    a part (§5.1) or the card that keeps a build (§6.3)."""
    return card.rank == value or (card.rank == 1 and value == TOP_BUILD)


def _word(card: Card, ace: int) -> str:
    """A hand card in move text: ``9D``, or ``AH=14`` for an ace used for its value."""
    return f"{card.text}={ace}" if ace else card.text


@mypyc_attr(acyclic=True)  # as rules.Build
class Move:
    """One swazi move. ``kind`` says which; the other fields as the kind needs them:

    - ``build`` (card-less, §4.1): ``cards`` the loose cards;
    - ``build on`` (§4.4): hand ``card`` (``ace`` its declared value) on loose ``cards``;
    - ``augment`` (§4.2, §4.7): own build ``build`` gets ``cards`` (loose cards and at most one
      hand card, which the state tells apart) and the opponent's pile top when ``top``;
      ``card`` is a hand ace named with its value (then not in ``cards``);
    - ``capture`` (§4.3): hand ``card`` takes build ``build`` (0: none) and loose ``cards``;
    - ``change`` (§4.5): hand ``card`` changes the opponent's build ``build``;
    - ``discard`` (§4.8): hand ``card``.

    A value: never changed once made, equal to a move of the same fields. A plain class
    rather than a frozen dataclass, whose ``__init__`` mypyc leaves to the interpreter.
    """

    __slots__ = ("ace", "build", "card", "cards", "kind", "top")  # made quicker by the pure build

    def __init__(
        self,
        kind: str,
        card: Card | None = None,
        ace: int = 0,
        build: int = 0,
        cards: tuple[Card, ...] = (),
        top: bool = False,
    ) -> None:
        self.kind = kind
        self.card = card
        self.ace = ace
        self.build = build
        self.cards = cards
        self.top = top

    def fields(self) -> tuple[str, Card | None, int, int, tuple[Card, ...], bool]:
        """What tells one move from another."""
        return (self.kind, self.card, self.ace, self.build, self.cards, self.top)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    @property
    def text(self) -> str:
        """The move's text (§11)."""
        kind, card = self.kind, self.card
        if kind == CARDLESS_BUILD:
            return f"build {cards_text(self.cards)}"
        if kind == AUGMENT:
            return f"augment b{self.build} with {' '.join(self.augment_items())}"
        assert card is not None
        if kind == CAPTURE:
            return f"capture {_word(card, self.ace)} take {' '.join(self.taken_items())}"
        if kind == BUILD:
            return f"build {_word(card, self.ace)} on {cards_text(self.cards)}"
        if kind == CHANGE:
            return f"change b{self.build} with {_word(card, self.ace)}"
        return f"discard {card.text}"

    def augment_items(self) -> list[str]:
        """What an augment adds, as written: ``top`` first, then the cards in card order."""
        words = [(card, card.text) for card in self.cards]
        if self.card is not None:
            words.append((self.card, _word(self.card, self.ace)))
        return (["top"] if self.top else []) + [word for _card, word in sorted(words)]

    def taken_items(self) -> list[str]:
        """What a capture takes, as written: the build first, then the loose cards."""
        return ([f"b{self.build}"] if self.build else []) + [card.text for card in self.cards]

    @property
    def path(self) -> tuple[str, ...]:
        """Choice steps: the hand card (or ``build`` / ``augment bN`` for moves that need no
        hand card to be chosen first), the kind of move, then the targets one by one in text
        order, so every step offers at most the layout's cards plus one."""
        kind, card = self.kind, self.card
        if kind == CARDLESS_BUILD:
            return ("build", *[c.text for c in self.cards])
        if kind == AUGMENT:
            return (f"augment b{self.build}", *self.augment_items())
        assert card is not None
        if kind == CAPTURE:
            label = "capture" if not self.ace else f"capture {_word(card, self.ace)}"
            return (card.text, label, *self.taken_items())
        if kind == BUILD:
            return (card.text, "build on", *[c.text for c in self.cards])
        if kind == CHANGE:
            return (card.text, f"change b{self.build}")
        return (card.text, "discard")


# -- reading a move --------------------------------------------------------------------------
EXPECTED = N_(
    "a swazi move such as 'capture 9D take b9 4S 5H', 'build 3H on 2D 5C', 'build 2D 5C', "
    "'augment b9 with top 4S', 'change b10 with 2C' or 'discard JC'"
)


def parse_move(text: str) -> Move:
    """The move ``text`` writes (any order of a list; case does not matter)."""
    words = text.split()
    if not words:
        raise parse_error(text, _(EXPECTED))
    verb = words[0].lower()
    try:
        if verb == "discard" and len(words) == 2:
            card, ace = _hand_word(words[1], text, valued=False)
            if ace:
                raise ActionParseError(
                    _("cannot read {text}: a discarded ace has no value").format(text=repr(text))
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
    raise parse_error(text, _(EXPECTED))


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
        raise parse_error(text, _(EXPECTED))
    return build, tuple(sorted(cards)), top, marked


def _no_repeat(card: Card, cards: Sequence[Card], text: str) -> None:
    if card in cards:
        raise ActionParseError(
            _("cannot read {text}: a card is named twice").format(text=repr(text))
        )
