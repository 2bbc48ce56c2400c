"""stuck's moves (their text and choice path) and the table-log events a turn makes."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import FULL_DECK, Card
from engine.core import Event, Word, seat_name, seat_words
from engine.words import N_

PLAYER_COUNTS = (2, 3, 4, 5, 6)  # §1.1
MAX_PLAYERS = max(PLAYER_COUNTS)


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play ``card`` from the hand: the first card of a turn or one that follows it."""

    card: Card

    @property
    def text(self) -> str:
        """``play 7H``."""
        return f"play {self.card.text}"

    @property
    def path(self) -> tuple[str, ...]:
        """One step: the card."""
        return (self.text,)


@dataclass(frozen=True, slots=True)
class Give:
    """Give the bonus stuck card to ``seat``."""

    seat: int

    @property
    def text(self) -> str:
        """``give s2``."""
        return f"give {seat_name(self.seat)}"

    @property
    def path(self) -> tuple[str, ...]:
        """One step: the seat."""
        return (self.text,)


PLAYS = {card: PlayCard(card) for card in FULL_DECK}
DONE = Word("done")  # end a rank play (or a rank-then-suit play) here
DRAW = Word("draw")  # no card can be played; a pass when there is nothing to draw
GIVES = tuple(Give(seat) for seat in range(MAX_PLAYERS))


def played_event(seat: int, card: Card) -> Event:
    """The event of a card played."""
    said = (("player", seat_words(seat)), ("card", card.pretty))
    return Event(N_("{player} plays {card}"), "play", args=said)


def drew_stuck_event(seat: int) -> Event:
    """The event of a seat that could not play drawing a stuck card."""
    said = (("player", seat_words(seat)),)
    return Event(N_("{player} cannot play and draws a stuck card"), "draw", args=said)


STALLED = Event(N_("Nobody played a card for a whole turn of the table: stalled"), "stall")


def gave_event(seat: int, target: int) -> Event:
    """The event of the bonus stuck card given to ``target``."""
    said = (("player", seat_words(seat)), ("target", seat_words(target)))
    return Event(N_("{player} sticks a card in front of {target}"), "give", args=said)
