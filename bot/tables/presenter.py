"""The Discord side of ``bot.tables.display.Presenter``: posts and edits the lobby, table,
hand DM and result messages, and answers what it posted anew (the caller reports it to the
session); it never writes into a session.

It needs no member cache: channels and DMs are reached by id (partial messageables).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime

import aiohttp
import discord

from bot.pictures import DeckStyle
from bot.preferences import DeckStyles
from bot.settings import Settings
from bot.storage import BrokenGame
from bot.tables.backoff import DiscordUnavailable
from bot.tables.display import ChannelLost, MemberGone
from bot.tables.hand_view import hand_message
from bot.tables.lobby import Lobby
from bot.tables.lobby_view import lobby_closed_message, lobby_message
from bot.tables.open_hands import OpenHands, superseded_message
from bot.tables.records import RoundEnd
from bot.tables.session import TableSession
from bot.tables.table_view import (
    headline,
    results_message,
    round_message,
    table_message,
    thread_end_message,
)
from bot.text import said
from bot.ui import CHANNEL_PERMISSIONS, TABLE_THREAD_PERMISSIONS, Message, permission_list
from engine.core import Event
from engine.words import ENGLISH, N_, _, speaking

log = logging.getLogger(__name__)

DM_FAILED = N_(
    "{mention}, I cannot send you direct messages (they are closed for this server), so use "
    "the **Hand** button on the table to see your cards and move."
)

# Discord's answers meaning the channel itself is out of reach (an Unknown Message only means
# one old message is gone): gone for good (Unknown Channel, Unknown Guild), or closed to the
# bot, perhaps for a while (Missing Access, Missing Permissions).
CHANNEL_GONE_CODES = frozenset({10003, 10004})
CHANNEL_CLOSED_CODES = frozenset({50001, 50013})
UNKNOWN_MEMBER = 10007
# What Discord not answering looks like besides its 5xx and 429 answers: a rate limit longer
# than discord.py waits, the connection dropped or refused, no answer in time.
NO_ANSWER = (discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError)

ATTACHED_KEPT = 10_000  # messages whose picture file names are remembered
LAST_DEAL = N_("That deal is over: your hand for the next one is below.")
GAME_OVER = N_("The game is over: **{headline}**. [See the results]({link})")
YOUR_TURN = N_("{mention}, it is your turn in **{game}**.")
YOUR_TURN_BY_DM = N_("⏰ It is your turn in **{game}** on **{guild}**: [go to the table]({link})")
AI_TOOK_THE_SEAT = N_("The AI plays this seat now, so its cards are no longer shown to you.")

# A DM names the channel and the server in words: a channel mention there may not resolve.
PAUSED_FOR_PLAYERS = N_(
    "⏸️ Your {game} game in **{channel}** on **{guild}** is paused: I may no longer see or post "
    "in that channel (a server admin changed my permissions there). It goes on where it stopped "
    "as soon as I have {permissions} there again; if that has not happened within {minutes} "
    "minutes, the game ends without a result."
)
PAUSED_FOR_OWNER = N_(
    "⏸️ A {game} game in **{channel}** on your server **{guild}** is paused: I may no longer "
    "see or post in that channel. Give me {permissions} there and it goes on where it "
    "stopped; otherwise it ends without a result in {minutes} minutes."
)

RESTORE_FAILED = N_(
    "⚠️ The game at this table (table {table}) could not be restored after the bot restarted: "
    "its saved data is damaged. It has been set aside for the bot's admins, and nothing was "
    "recorded for it. Start a new game with `/game start`."
)


def no_answer(error: Exception) -> bool:
    """Whether Discord failed to answer (worth trying again) rather than refused the call."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, NO_ANSWER)


@contextlib.asynccontextmanager
async def reaching_discord() -> AsyncIterator[None]:
    """Turn Discord not answering into DiscordUnavailable (the display tries again later)."""
    try:
        yield
    except Exception as error:
        if no_answer(error):
            raise DiscordUnavailable(str(error)) from error
        raise


@contextlib.asynccontextmanager
async def reaching_the_channel() -> AsyncIterator[None]:
    """Turn Discord refusing the channel itself into ChannelLost, and not answering into
    DiscordUnavailable."""
    async with reaching_discord():
        try:
            yield
        except discord.HTTPException as error:
            if error.code in CHANNEL_GONE_CODES | CHANNEL_CLOSED_CODES:
                raise ChannelLost(str(error), gone=error.code in CHANNEL_GONE_CODES) from error
            raise


def message_link(session: TableSession, message_id: int | None) -> str:
    """A link to a message of the table's channel (to the channel when ``message_id`` is
    None): it opens from a DM, where a channel mention may not resolve."""
    where = f"https://discord.com/channels/{session.guild_id}/{session.channel_id}"
    return where if message_id is None else f"{where}/{message_id}"


class DiscordPresenter:
    """Shows lobbies and tables with discord.py, through ``client`` (the bot): its settings
    say when a table message is reposted and how long a pause lasts; ``clock`` is the
    tables' time; the hand DMs are drawn in each person's deck style; the open Hand views
    follow the game (``open_hands``)."""

    def __init__(
        self,
        client: discord.Client,
        settings: Settings,
        clock: Callable[[], datetime],
        deck_styles: DeckStyles,
        open_hands: OpenHands,
    ) -> None:
        self.client = client
        self.settings = settings
        self.clock = clock
        self.deck_styles = deck_styles
        self.open_hands = open_hands
        # The picture file names each table and lobby message carries now (by message id), so
        # an unchanged picture is not uploaded again; unknown after a restart (uploaded). Only
        # for messages no click edits: a hand DM's own buttons edit it too, so every edit of
        # it carries its pictures (it may hold others than this presenter last sent).
        self._attached: dict[int, list[str]] = {}

    async def _edit(self, message: discord.PartialMessage, shown: Message) -> None:
        """Edit ``message`` (a table or lobby message) to show ``shown``, uploading its
        pictures only when they changed."""
        await message.edit(**shown.kwargs(self._attached.pop(message.id, None)))
        self._note_attached(message.id, shown)

    async def _send(self, channel: discord.abc.Messageable, shown: Message) -> discord.Message:
        sent = await channel.send(**shown.send_kwargs())
        self._note_attached(sent.id, shown)
        return sent

    def _note_attached(self, message_id: int, shown: Message) -> None:
        self._attached[message_id] = shown.filenames()
        if len(self._attached) > ATTACHED_KEPT:  # ended tables' messages are never edited again
            del self._attached[next(iter(self._attached))]

    async def _close_dm(self, dm: discord.DMChannel, message_id: int, text: str) -> None:
        """Turn a superseded hand DM into a short line without cards or controls."""
        try:
            await dm.get_partial_message(message_id).edit(**superseded_message(text).kwargs())
        except discord.HTTPException:
            log.info("could not close the hand DM %s", message_id)

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def lobby_closed(self, lobby: Lobby, reason: Event) -> None:
        """Show that the lobby closed (expired)."""
        if lobby.message_id is None:
            return
        message = self._channel(lobby.channel_id).get_partial_message(lobby.message_id)
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await self._edit(message, lobby_closed_message(lobby, reason))

    async def show_lobby(self, lobby: Lobby) -> bool:
        """Show the lobby as it is now in its message (its buttons work as before); False
        when the message or its channel is gone or closed to the bot."""
        if lobby.message_id is None:
            return False
        message = self._channel(lobby.channel_id).get_partial_message(lobby.message_id)
        try:
            await self._edit(message, lobby_message(lobby))
        except (discord.NotFound, discord.Forbidden):
            return False
        return True

    async def table_changed(self, session: TableSession) -> int | None:
        """Edit the table message in place; post it anew when missing or nearly an hour old
        (returning the new message's id). Then the open Hand views follow: as paced as the
        table message, and a refused edit of one is only logged."""
        async with reaching_the_channel():
            posted = await self._table_changed(session)
        await self.open_hands.follow(session, self._hand_view)
        return posted

    def _hand_view(self, session: TableSession, seat: int, until: datetime) -> Message:
        """The seat's Hand view at the session's position, in its person's deck style."""
        user_id = session.seats[seat].user_id
        style = self.deck_styles.of(user_id) if user_id is not None else DeckStyle.STANDARD
        return hand_message(session, seat, self.clock(), style=style, live_until=until)

    async def _table_changed(self, session: TableSession) -> int | None:
        now = self.clock()
        message = table_message(session, now)
        channel = self._channel(session.channel_id)
        posted = session.table_posted_at
        too_old = (
            posted is not None
            and (now - posted).total_seconds() >= self.settings.table_repost_seconds
        )
        old = session.table_message_id
        if old is not None and not (too_old and not session.ended):
            try:
                await self._edit(channel.get_partial_message(old), message)
                return None
            except discord.NotFound:
                pass
        if session.ended:
            return None
        sent = await self._send(channel, message)
        if old is not None:
            self._attached.pop(old, None)
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException:
                log.info("could not delete the old table message %s", old)
        return sent.id

    async def hand_changed(self, session: TableSession, seat: int) -> tuple[int | None] | None:
        """Send the seat's hand DM (a new one for each deal) or edit the current one."""
        info = session.seats[seat]
        if info.user_id is None or info.dm_failed:
            return None
        style = self.deck_styles.of(info.user_id)
        with session.in_seats_language(seat):  # their DM: theirs alone
            message = hand_message(session, seat, self.clock(), full=True, style=style)
            last_deal = _(LAST_DEAL)
        async with reaching_discord():
            try:
                channel = await self.client.create_dm(discord.Object(id=info.user_id))
                if info.dm_message_id is not None and info.dm_deal == session.deals:
                    try:
                        dm = channel.get_partial_message(info.dm_message_id)
                        await dm.edit(**message.kwargs())  # with its pictures: see _attached
                        return None
                    except discord.NotFound:
                        pass
                if info.dm_message_id is not None:
                    # The last deal's DM is superseded: a short line, no cards, no controls.
                    await self._close_dm(channel, info.dm_message_id, last_deal)
                sent = await channel.send(**message.send_kwargs())
                return (sent.id,)
            except discord.Forbidden:
                if not await self.is_member(session.guild_id, info.user_id):
                    raise MemberGone(info.user_id) from None
                with session.in_its_language():  # said in the table's channel
                    failed = _(DM_FAILED).format(mention=f"<@{info.user_id}>")
                async with reaching_the_channel():
                    await self._channel(session.channel_id).send(
                        failed,
                        allowed_mentions=discord.AllowedMentions(users=True),
                    )
                return (None,)

    async def hand_closed(self, session: TableSession, seat: int) -> None:
        """The last edit of the hand DM of a seat the AI took: no cards, no controls."""
        info = session.seats[seat]
        if info.user_id is None or info.dm_message_id is None:
            return
        async with reaching_discord():
            try:
                dm = await self.client.create_dm(discord.Object(id=info.user_id))
            except discord.HTTPException as error:
                if no_answer(error):
                    raise
                log.info("could not reach the hand DM of seat %s", seat)
                return
        with session.in_seats_language(seat):
            took = _(AI_TOOK_THE_SEAT)
        await self._close_dm(dm, info.dm_message_id, took)

    async def notice(self, session: TableSession, notice: Event) -> None:
        """Say ``notice`` in the table's channel, in its language."""
        with session.in_its_language():
            text = said(notice, session.names)
        async with reaching_the_channel():
            await self._channel(session.channel_id).send(
                text, allowed_mentions=discord.AllowedMentions.none()
            )

    async def round_ended(self, session: TableSession, ended: RoundEnd) -> None:
        """Post a hand's or round's end in the table's channel (the table moves on)."""
        async with reaching_the_channel():
            await self._send(self._channel(session.channel_id), round_message(session, ended))

    async def table_paused(self, session: TableSession) -> None:
        """DM each person seated and the server's owner that the table is paused, what
        brings it back and when it ends."""
        guild = self.client.get_guild(session.guild_id)
        # a table's thread is named by its channel, which stays cached when closed to the bot
        channel_id = session.parent_channel_id or session.channel_id
        channel = self.client.get_channel(channel_id)
        in_thread = session.parent_channel_id is not None
        wanted = TABLE_THREAD_PERMISSIONS if in_thread else CHANNEL_PERMISSIONS
        where = (
            f"#{discord.utils.escape_markdown(channel.name)}"
            if isinstance(channel, discord.abc.GuildChannel)
            else f"<#{channel_id}>"
        )

        def paused(message: str) -> str:  # in the active language: its reader's
            return _(message).format(
                game=_(session.game.name),
                channel=where,
                guild=discord.utils.escape_markdown(guild.name) if guild else _("its server"),
                permissions=permission_list(list(wanted.values())),
                minutes=round(self.settings.paused_table_seconds / 60),
            )

        texts: dict[int, str] = {}
        for seat, info in enumerate(session.seats):
            if info.user_id and info.is_human:
                with session.in_seats_language(seat):
                    texts[info.user_id] = paused(PAUSED_FOR_PLAYERS)
        if guild is not None and guild.owner_id is not None and guild.owner_id not in texts:
            with session.in_its_language():  # the owner's server's language
                texts[guild.owner_id] = paused(PAUSED_FOR_OWNER)
        for user_id, text in texts.items():
            try:
                dm = await self.client.create_dm(discord.Object(id=user_id))
                await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("table %s: could not tell %s it is paused", session.table_id, user_id)

    async def _close_thread(self, session: TableSession, parent_id: int, link: str) -> None:
        """A table's thread once its game is over: its result (or why it stopped) posted in
        the channel, linking to the thread's end, and the thread archived, out of the
        channel's list of active threads (its creator, the bot, may archive it without
        Manage Threads). Not locked: a word after the game reopens it, as any thread.
        Each step once, only logged when Discord refuses it."""
        try:
            await self._send(self._channel(parent_id), thread_end_message(session, link))
        except discord.HTTPException:
            log.warning("table %s: could not post its end in the channel", session.table_id)
        try:
            thread = self.client.get_channel(session.channel_id)
            if not isinstance(thread, discord.Thread):
                fetched = await self.client.fetch_channel(session.channel_id)
                thread = fetched if isinstance(fetched, discord.Thread) else None
            if thread is not None:
                await thread.edit(archived=True)
        except discord.HTTPException:
            log.info("table %s: could not archive its thread", session.table_id)

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the person is still a member of the server: one request, which needs no
        privileged intent. Only Discord's Unknown Member says no; any other failure counts
        as yes (a seat is never taken from someone over a network error)."""
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return True
        try:
            await guild.fetch_member(user_id)
        except discord.HTTPException as error:
            return error.code != UNKNOWN_MEMBER
        return True

    async def ping(self, session: TableSession, seat: int, direct: bool) -> int | None:
        """Mention the seat's person, and only them, in the table's channel (returning the
        message's id); or, when ``direct``, send them a new DM linking to the table (a
        mention after all when their DMs are closed)."""
        user_id = session.seats[seat].user_id
        assert user_id is not None, "only people are pinged"
        if direct and not session.seats[seat].dm_failed:
            guild = self.client.get_guild(session.guild_id)
            with session.in_seats_language(seat):
                text = _(YOUR_TURN_BY_DM).format(
                    game=_(session.game.name),
                    guild=discord.utils.escape_markdown(guild.name) if guild else _("its server"),
                    link=message_link(session, session.table_message_id),
                )
            async with reaching_discord():
                try:
                    dm = await self.client.create_dm(discord.Object(id=user_id))
                    await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
                    return None
                except discord.HTTPException as error:
                    if no_answer(error):
                        raise
                    log.info("table %s: could not DM seat %s its turn", session.table_id, seat)
        only_them = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(id=user_id)]
        )
        with session.in_its_language():  # said in the table's channel
            text = _(YOUR_TURN).format(mention=f"<@{user_id}>", game=_(session.game.name))
        async with reaching_the_channel():
            sent = await self._channel(session.channel_id).send(text, allowed_mentions=only_them)
        return sent.id

    async def unping(self, session: TableSession, message_id: int) -> None:
        """Delete a ping whose turn is over, so pings do not pile up down the channel."""
        async with reaching_discord():
            try:
                await self._channel(session.channel_id).get_partial_message(message_id).delete()
            except discord.HTTPException as error:
                if no_answer(error):
                    raise
                log.info("table %s: could not delete the ping %s", session.table_id, message_id)

    async def restore_failed(self, broken: BrokenGame) -> None:
        """Tell the channel its game could not be restored (the reason goes to the log only:
        it may quote the saved state, hidden cards included)."""
        if broken.channel_id is None:
            return
        with speaking(ENGLISH):  # its language was saved with what could not be read back
            text = _(RESTORE_FAILED).format(table=broken.table_id)
        await self._channel(broken.channel_id).send(
            text,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def post_ending(self, session: TableSession) -> int | None:
        """Post the results (a finished game, returning that message's id) or why the game
        stopped. Discord refusing it is only logged: the DMs still say that it ended."""
        ending = session.ending
        assert ending is not None, "shown once it ended"
        channel = self._channel(session.channel_id)
        async with reaching_discord():
            try:
                if ending.finished:
                    return (await self._send(channel, results_message(session))).id
                with session.in_its_language():
                    why = ending.render()
                await channel.send(why, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as error:
                if no_answer(error):
                    raise
                log.warning("table %s: could not post its end in the channel", session.table_id)
        return None

    async def table_ended(self, session: TableSession, results_id: int | None) -> None:
        """The open Hand views and the hand DMs lose their controls, saying that the game
        ended (linking to its results when they were posted as ``results_id``)."""
        ending = session.ending
        assert ending is not None, "shown once it ended"
        link = message_link(session, results_id)
        if session.parent_channel_id is not None and ending.stored_here:
            await self._close_thread(session, session.parent_channel_id, link)
        await self.open_hands.follow(session, self._hand_view)
        for seat, info in enumerate(session.seats):
            if info.user_id is None or info.dm_failed or info.dm_message_id is None:
                continue
            if info.is_ai:  # the seat went to the AI: its person sees nothing of it
                await self.hand_closed(session, seat)
                continue
            try:
                dm = await self.client.create_dm(discord.Object(id=info.user_id))
            except discord.HTTPException:
                log.info("could not reach the hand DM of seat %s", seat)
                continue
            with session.in_seats_language(seat):  # their DM: theirs alone
                over = (
                    _(GAME_OVER).format(headline=headline(session), link=link)
                    if ending.finished
                    else ending.render()
                )
            await self._close_dm(dm, info.dm_message_id, over)
