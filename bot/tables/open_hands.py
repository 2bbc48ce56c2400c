"""The private Hand view each seat has open in the channel, kept following the game: edited to
each new position while Discord still takes edits of it, replaced (deleted) by a newer one."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import aiohttp
import discord

from bot.answers import in_clickers_language
from bot.tables.session import TableSession
from bot.ui import GREY, Message, layout, small
from engine.words import N_, _

log = logging.getLogger(__name__)

# Discord takes edits of an interaction's answer for 15 minutes after the interaction; the
# last edit is made a minute before, so that it is never refused for being late.
TOKEN_LIFETIME = timedelta(minutes=15)
LIFETIME = timedelta(minutes=14)

GAME_OVER = N_("The game is over.")
STOPPED_FOLLOWING = N_(
    "This view no longer follows the game (Discord lets a private answer change for 15 minutes "
    "only): press **Hand** on the table for your current hand."
)
AI_HAS_THE_SEAT = N_("The AI plays this seat now, so its cards are no longer shown to you.")

# (session, seat, until): the seat's Hand view at the session's position, saying that it
# follows the game until ``until``
Draw = Callable[[TableSession, int, datetime], Message]


@dataclass
class _OpenHand:
    interaction: discord.Interaction  # the latest one answered in the view: its token edits it
    message_id: int
    since: datetime  # when that interaction arrived
    revision: int  # the position it shows
    legal: tuple[str, ...]  # the seat's legal actions then
    mid_move: bool  # it shows a later step of a move than the first

    @property
    def until(self) -> datetime:
        return self.since + TOKEN_LIFETIME


class OpenHands:
    """The latest Hand view of each seat: a newer one replaces it, the game's moves redraw it
    (``follow``), and once Discord no longer takes its edits it says to press Hand again."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self.clock = clock
        self._open: dict[tuple[str, int], _OpenHand] = {}

    def live_until(self) -> datetime:
        """Until when a view answered now can follow the game."""
        return self.clock() + TOKEN_LIFETIME

    async def opened(
        self,
        session: TableSession,
        seat: int,
        interaction: discord.Interaction,
        message_id: int,
    ) -> None:
        """A Hand view was just sent (as message ``message_id``): it replaces the seat's
        previous one."""
        key = (session.table_id, seat)
        previous = self._open.pop(key, None)
        self._open[key] = self._shown(session, seat, interaction, message_id, False)
        if previous is not None and self._editable(previous):
            try:
                await previous.interaction.delete_original_response()
            except discord.HTTPException:
                log.info("could not delete a replaced hand (message %s)", previous.message_id)

    def redrawn(
        self,
        session: TableSession,
        seat: int,
        interaction: discord.Interaction,
        message_id: int,
        *,
        mid_move: bool,
    ) -> None:
        """A click in a Hand view (message ``message_id``) draws it again (in the middle of
        a move when ``mid_move``): it is the seat's current view, and that click's
        interaction edits it from now on."""
        self._open[(session.table_id, seat)] = self._shown(
            session, seat, interaction, message_id, mid_move
        )

    def _shown(
        self,
        session: TableSession,
        seat: int,
        interaction: discord.Interaction,
        message_id: int,
        mid_move: bool,
    ) -> _OpenHand:
        return _OpenHand(
            interaction,
            message_id,
            self.clock(),
            session.revision,
            _legal(session, seat),
            mid_move,
        )

    async def follow(self, session: TableSession, draw: Draw) -> None:
        """The game moved: draw each of the table's Hand views at the new position (one in
        the middle of a move stays there while that move is still possible), or close it
        when the game ended, the AI took the seat or Discord is about to stop taking its
        edits. A refused edit is logged and left: the next move tries again. Each view is
        drawn in the language of whoever opened it."""
        for key, shown in list(self._open.items()):
            if key[0] != session.table_id or shown.revision == session.revision:
                continue
            seat = key[1]
            legal = _legal(session, seat)
            if shown.mid_move and legal == shown.legal and not session.ended:
                continue  # the move being chosen is still possible: the player's steps stay
            if session.ended or session.seats[seat].is_ai or not self._editable(shown):
                del self._open[key]
                text = (
                    GAME_OVER
                    if session.ended
                    else AI_HAS_THE_SEAT
                    if session.seats[seat].is_ai
                    else STOPPED_FOLLOWING
                )
                with in_clickers_language(shown.interaction):
                    closed = superseded_message(_(text))
                await self._edit(key, shown, closed)
                continue
            shown.revision, shown.legal, shown.mid_move = session.revision, legal, False
            try:
                with in_clickers_language(shown.interaction):
                    message = draw(session, seat, shown.until)
            except Exception:  # one view that cannot be drawn is dropped, never the table's edit
                log.exception("table %s: could not draw seat %d's hand", session.table_id, seat)
                del self._open[key]
                continue
            await self._edit(key, shown, message)

    def _editable(self, shown: _OpenHand) -> bool:
        return self.clock() - shown.since < LIFETIME

    async def _edit(self, key: tuple[str, int], shown: _OpenHand, message: Message) -> None:
        try:  # with its pictures: a click in the view may have changed them meanwhile
            await shown.interaction.edit_original_response(**message.kwargs())
        except discord.NotFound:  # dismissed by its reader, or its token expired
            if self._open.get(key) is shown:
                del self._open[key]
            return
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
            # rate limited, Discord's own trouble, or the connection dropped on the way
            log.info("could not redraw a hand (message %s): %s", shown.message_id, error)
            shown.revision = -1  # not shown: the next move redraws it


def superseded_message(text: str) -> Message:
    """What an old private hand becomes: one short line, no cards, no controls."""
    return Message(layout(small([text]), colour=GREY))


def _legal(session: TableSession, seat: int) -> tuple[str, ...]:
    if session.ended:
        return ()
    return tuple(action.text for action in session.state.legal_actions(seat))
