"""stuck's rules as functions and its moves (docs/rules/stuck.md, cited by section): which
cards may start a play, which may follow, and the moves' text and choice path."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import FULL_DECK, RANK_TEXT, Card
from engine.core import Word, seat_name

PLAYER_COUNTS = (2, 3, 4, 5, 6)  # §1.1
MAX_PLAYERS = max(PLAYER_COUNTS)
HAND_SIZE = 7  # §2.2
MAX_STUCK = 3  # §6.1

# The phases of a turn: its first card (or a draw), the cards that may follow (§4), the bonus
# (§5).
PLAY, FOLLOW, GIVE = "play", "follow", "give"
PHASES = (PLAY, FOLLOW, GIVE)


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play ``card`` from the hand: the first card of a turn or one that follows it (§10.1)."""

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
    """Give the bonus stuck card to ``seat`` (§5.1, §10.1)."""

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
DONE = Word("done")  # end a rank play (or a rank-then-suit play) here: §4.3
DRAW = Word("draw")  # no card can be played; a pass when there is nothing to draw: §3.4
GIVES = tuple(Give(seat) for seat in range(MAX_PLAYERS))


def may_start(card: Card, current: Card) -> bool:
    """Whether ``card`` may start a play on the ``current`` card: of its rank (a rank play,
    §3.1, §3.2) or of its suit (a suit play, §3.3)."""
    return card.rank == current.rank or card.suit == current.suit


def may_follow(card: Card, run: Sequence[Card]) -> bool:
    """Whether ``card`` may follow this turn's cards ``run`` (§4), whose first card X is of
    the current rank: another card of X's rank while every card played has it (§4.1), or a
    card of X's suit right after X or once the play has turned to X's suit (§4.2)."""
    first = run[0]
    if len(run) == 1:
        return card.rank == first.rank or card.suit == first.suit
    # Only X has both its rank and its suit, so the last card's rank tells the phases apart.
    if run[-1].rank == first.rank:
        return card.rank == first.rank
    return card.suit == first.suit


def rank_name(rank: int) -> str:
    """The rank in people form: ``7``, ``Q``."""
    return RANK_TEXT[rank]
