"""A game's settings (options, with their words for people) and where each hand's deck comes
from (deck plans, seeded generators)."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from engine.cards import FULL_DECK, Card, shuffle
from engine.errors import CardError, DeckError, SetupError
from engine.words import _, ngettext

OptionValue = int | bool | None


def make_rng(seed: int, *labels: object) -> random.Random:
    """A generator derived from the game's seed and labels (never the global generator).

    Derived generators need no saved state: the deck of hand 3 is ``make_rng(seed, "deck", 3)``.
    """
    return random.Random("/".join([str(seed), *map(str, labels)]))


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
