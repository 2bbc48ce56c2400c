"""The latest private Hand view of each seat, closed to a short line once it is superseded."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import discord

from bot.tables.session import TableSession
from bot.ui import GREY, Message, layout, small

log = logging.getLogger(__name__)


@dataclass
class _OpenHand:
    interaction: discord.Interaction
    message_id: int
    legal: tuple[str, ...]  # the seat's legal actions when the hand was drawn
    opened: datetime


class OpenHands:
    """The latest private Hand view of each seat, so that one superseded (a newer one sent,
    the game moved past it or ended) becomes a short line without cards or controls, while
    Discord still lets its answer be edited (15 minutes after the Hand click)."""

    LIFETIME = timedelta(minutes=14)

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self.clock = clock
        self._open: dict[tuple[str, int], _OpenHand] = {}

    async def opened(
        self, session: TableSession, seat: int, interaction: discord.Interaction
    ) -> None:
        """A Hand view was just sent: the seat's previous one is superseded."""
        key = (session.table_id, seat)
        previous = self._open.pop(key, None)
        if previous is not None:
            await self._close(previous, "You opened a newer hand: this one is closed.")
        sent = await interaction.original_response()
        self._open[key] = _OpenHand(interaction, sent.id, _legal(session, seat), self.clock())

    def redrawn(self, session: TableSession, seat: int, message_id: int) -> None:
        """The seat's Hand view was drawn again in answer to a click in it: it is current."""
        shown = self._open.get((session.table_id, seat))
        if shown is not None and shown.message_id == message_id:
            shown.legal = _legal(session, seat)

    async def moved(self, session: TableSession) -> None:
        """The game moved: close the Hand views it moved past (every one, once it ended)."""
        for key, shown in list(self._open.items()):
            if key[0] != session.table_id:
                continue
            if session.ended:
                text = "The game is over."
            elif session.actions and session.actions[-1][0] == key[1]:
                continue  # the seat's own move: the hand it moved in is drawn again (redrawn)
            elif _legal(session, key[1]) != shown.legal:
                text = "The game moved on: press **Hand** on the table for your current hand."
            else:
                continue
            del self._open[key]
            await self._close(shown, text)

    async def _close(self, shown: _OpenHand, text: str) -> None:
        if self.clock() - shown.opened > self.LIFETIME:
            return  # Discord no longer takes edits of that answer
        try:
            await shown.interaction.edit_original_response(**superseded_message(text).kwargs())
        except discord.HTTPException:
            log.info("could not close a superseded hand (message %s)", shown.message_id)


def superseded_message(text: str) -> Message:
    """What an old private hand becomes: one short line, no cards, no controls."""
    return Message(layout(small([text]), colour=GREY))


def _legal(session: TableSession, seat: int) -> tuple[str, ...]:
    if session.ended:
        return ()
    return tuple(action.text for action in session.state.legal_actions(seat))
