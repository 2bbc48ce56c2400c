"""The interaction tokens of tables where the bot is not a member: a group DM, a DM between
two people, a server that has not invited it (the app installed to a user). There the bot
may only answer interactions, so a table lives on interaction responses and their tokens (15
minutes each; see "Tables without the bot present" in docs/architecture.md).

``bot_absent`` tells such a place from the interaction itself (its context and the installs
that authorised it); ``board_of`` whose scoreboard a game there counts on. ``Anywhere``
keeps, per table, the token that owns the table message and the freshest tokens of its
channel (stored, so that a restart goes on), and watches them: shortly before the last one
expires the table rests (says so and offers Bring it back, ``bot.tables.anywhere``) and its
clocks stand still until a click brings it back.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import discord

from bot.storage import AnywhereRow, AnywhereTables, TokenRow
from bot.tables.records import Clock
from bot.tables.session import TableSession
from engine.words import N_

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

TOKEN_SECONDS = 15 * 60  # how long Discord takes requests with an interaction's token
# How long before its last token expires a table says it is going quiet: enough for the
# edit to land, and for a player who is there to click.
WARN_SECONDS = 120
RECENT_KEPT = 8  # interactions kept per channel: the freshest answered one is used
BROUGHT_BACK = N_("The game goes on: the table was brought back.")


def bot_absent(interaction: discord.Interaction) -> bool:
    """Whether the bot is not a member where this interaction happened, so that it may only
    answer it (``absent_from`` its context, server and authorising installs)."""
    return absent_from(interaction.context, interaction.guild_id, interaction._integration_owners)


def absent_from(
    context: discord.app_commands.AppCommandContext,
    guild_id: int | None,
    owners: Mapping[int, int | str],
) -> bool:
    """Whether an interaction in ``context`` (in server ``guild_id``, authorised by the
    installs ``owners``: install type → server or user id) comes from a place without the
    bot: a DM between people or a group DM (``private_channel``), or a server channel that
    only a user's install of the app reached. The bot's own DM has the bot; so has an
    interaction naming no install (older payloads: a server install then).

    >>> from discord.app_commands import AppCommandContext
    >>> absent_from(AppCommandContext(private_channel=True), None, {1: 7})
    True
    >>> absent_from(AppCommandContext(guild=True), 5, {0: 5, 1: 7})
    False
    >>> absent_from(AppCommandContext(guild=True), 5, {1: 7})
    True
    >>> absent_from(AppCommandContext(dm_channel=True), None, {1: 7})
    False
    >>> absent_from(AppCommandContext(guild=True), 5, {})
    False
    """
    if context.private_channel:
        return True
    if context.dm_channel or guild_id is None:
        return False
    return bool(owners) and owners.get(0) != guild_id


def board_of(interaction: discord.Interaction) -> int:
    """Whose scoreboard a game played here counts on: the server's (its id); a group DM's
    own (its channel id: ids never repeat across servers and channels); in a DM, each
    player's personal board (0: every DM game, rated together)."""
    if interaction.guild_id is not None:
        return interaction.guild_id
    channel = interaction.channel
    if getattr(channel, "type", None) is discord.ChannelType.group and interaction.channel_id:
        return interaction.channel_id
    return 0


@dataclass
class Token:
    """An interaction token: when it expires, how many follow-ups it posted, and (while the
    interaction is in memory) whether it was answered; a stored one was."""

    value: str
    expires: datetime
    interaction: discord.Interaction | None = None
    followups: int = 0

    def alive(self, now: datetime, margin: float = 0) -> bool:
        """Whether Discord still takes it, ``margin`` seconds from now."""
        answered = self.interaction is None or self.interaction.response.is_done()
        return answered and (self.expires - now).total_seconds() > margin

    def row(self) -> TokenRow:
        """Its stored form."""
        return TokenRow(self.value, int(self.expires.timestamp()))

    @classmethod
    def of_row(cls, row: TokenRow | None) -> Token | None:
        """The token stored as ``row``."""
        if row is None:
            return None
        return cls(row.token, datetime.fromtimestamp(row.expires, UTC))


@dataclass
class AbsentTable:
    """A table shown through tokens: its message and the token that may edit it."""

    table_id: str
    channel_id: int
    message_id: int | None = None
    owner: Token | None = None
    asleep: bool = False
    watch: asyncio.Task[None] | None = field(default=None, repr=False)


class Anywhere:
    """The places where the bot is not a member, and the tokens that show their tables."""

    def __init__(self, store: AnywhereTables, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self.channels: set[int] = set()  # channels where the bot is not a member
        self.recent: dict[int, deque[Token]] = {}  # channel → its latest interactions' tokens
        self.tables: dict[str, AbsentTable] = {}
        self.service: TableService | None = None  # attached once the service is built
        # says on the table that it rests (the presenter's, once built)
        self.show_resting: Callable[[TableSession], Awaitable[None]] | None = None

    @classmethod
    async def load(cls, store: AnywhereTables, clock: Clock) -> Anywhere:
        """The stored tables' tokens (before the tables are restored)."""
        anywhere = cls(store, clock)
        for row in await store.all():
            table = AbsentTable(
                row.table_id, row.channel_id, row.message_id, Token.of_row(row.message_token)
            )
            table.asleep = row.asleep
            anywhere.tables[row.table_id] = table
            anywhere.channels.add(row.channel_id)
            fresh = Token.of_row(row.fresh_token)
            if fresh is not None:
                anywhere.recent[row.channel_id] = deque([fresh], maxlen=RECENT_KEPT)
        return anywhere

    def resting(self) -> set[str]:
        """The stored tables that rest (told to the service before it restores them, so
        that no clock of theirs ever starts)."""
        return {table.table_id for table in self.tables.values() if table.asleep}

    def attach(self, service: TableService) -> None:
        """Drive the tables of ``service`` (restored knowing ``resting``): each table shown
        through a token sleeps or is watched until its tokens run out."""
        self.service = service
        for table in list(self.tables.values()):
            if table.table_id not in service.tables:  # ended, or no longer this process's
                self.tables.pop(table.table_id)
                service.resting.discard(table.table_id)
                service.spawn(self.store.drop(table.table_id), f"anywhere-drop-{table.table_id}")
            elif not table.asleep:
                self._watch(table)

    def absent(self, channel_id: int) -> bool:
        """Whether the bot is not a member of the channel (its tables go through tokens)."""
        return channel_id in self.channels

    def noted(self, interaction: discord.Interaction) -> None:
        """An interaction where the bot is not a member: its token may show that channel's
        table for 15 minutes (once answered)."""
        channel_id = interaction.channel_id
        if channel_id is None:
            return
        self.channels.add(channel_id)
        expires = self.clock() + timedelta(seconds=TOKEN_SECONDS)
        token = Token(interaction.token, expires, interaction)
        self.recent.setdefault(channel_id, deque(maxlen=RECENT_KEPT)).append(token)
        table = self._table_in(channel_id)
        if table is not None:
            self._watch(table)
            self._save(table)

    def _table_in(self, channel_id: int) -> AbsentTable | None:
        if self.service is None:
            return None
        table_id = self.service.by_channel.get(channel_id)
        session = self.service.tables.get(table_id) if table_id else None
        if session is None or session.ended:
            return None
        return self.table(session)

    def table(self, session: TableSession) -> AbsentTable:
        """The token side of a table in a channel where the bot is not a member."""
        table = self.tables.get(session.table_id)
        if table is None:
            table = self.tables[session.table_id] = AbsentTable(
                session.table_id, session.channel_id
            )
        return table

    def freshest(self, channel_id: int, margin: float = 0) -> Token | None:
        """The channel's freshest answered token alive ``margin`` seconds from now."""
        now = self.clock()
        for token in reversed(self.recent.get(channel_id, ())):
            if token.alive(now, margin):
                return token
        return None

    def owned(self, session: TableSession, token: Token, message_id: int) -> None:
        """``token`` may edit the table's message ``message_id`` from now on."""
        table = self.table(session)
        table.owner, table.message_id = token, message_id
        self._watch(table)
        self._save(table)

    def _last_expiry(self, table: AbsentTable) -> datetime | None:
        tokens = list(self.recent.get(table.channel_id, ()))
        if table.owner is not None:
            tokens.append(table.owner)
        return max((token.expires for token in tokens), default=None)

    def _watch(self, table: AbsentTable) -> None:
        """Plan the table's rest: shortly before its last token expires."""
        if self.service is None:
            return
        if table.watch is not None and table.watch is not asyncio.current_task():
            table.watch.cancel()
        table.watch = self.service.spawn(self._rest_when_due(table), f"rest-{table.table_id}")

    async def _rest_when_due(self, table: AbsentTable) -> None:
        last = self._last_expiry(table)
        if last is not None:
            wait = (last - self.clock()).total_seconds() - WARN_SECONDS
            await asyncio.sleep(max(0.0, wait))
        assert self.service is not None
        session = self.service.tables.get(table.table_id)
        if session is None or session.ended or table.asleep:
            return
        if self.freshest(table.channel_id, WARN_SECONDS) is not None:
            return  # a click came meanwhile: its own watch runs
        await self.rest(session)

    async def rest(self, session: TableSession) -> None:
        """Every token is about to expire: the table says so and offers Bring it back; its
        clocks stand still (no timeout, no AI move) until a click brings it back."""
        assert self.service is not None
        table = self.table(session)
        table.asleep = True
        self.service.resting.add(session.table_id)
        self.service.timers.cancel(session)
        self._save(table)
        if self.show_resting is not None:
            await self.show_resting(session)

    def brought_back(self, session: TableSession) -> None:
        """A click brought the resting table back (it showed the table in its answer): every
        waiting seat gets a whole turn, and the clocks run again."""
        assert self.service is not None
        table = self.table(session)
        self.service.resting.discard(session.table_id)
        if table.asleep:
            table.asleep = False
            session.resume(BROUGHT_BACK)  # an event: rendered in its reader's language
        self._save(table)
        if not session.paused:
            self.service.timers.schedule(session)

    def woke(self, session: TableSession) -> None:
        """A move at a resting table showed it again through a fresh token."""
        table = self.table(session)
        if self.service is not None:
            self.service.resting.discard(session.table_id)
        if table.asleep:
            table.asleep = False
            self._save(table)

    def forget(self, session: TableSession) -> None:
        """The table ended: its tokens are forgotten."""
        table = self.tables.pop(session.table_id, None)
        if table is not None and table.watch is not None:
            table.watch.cancel()
        if self.service is not None:
            self.service.resting.discard(session.table_id)
            drop = self.store.drop(session.table_id)
            self.service.spawn(drop, f"anywhere-drop-{session.table_id}")

    def _save(self, table: AbsentTable) -> None:
        """Store the table's tokens in the background (a failed save only loses them for a
        restart, after which Bring it back gives new ones)."""
        if self.service is None or table.table_id not in self.tables:
            return
        fresh = self.freshest(table.channel_id)
        row = AnywhereRow(
            table.table_id,
            table.channel_id,
            table.message_id,
            table.owner.row() if table.owner is not None else None,
            fresh.row() if fresh is not None else None,
            table.asleep,
        )

        async def save() -> None:
            try:
                await self.store.save(row)
            except Exception:
                log.exception("table %s: its tokens were not stored", table.table_id)

        self.service.spawn(save(), f"anywhere-save-{table.table_id}")
