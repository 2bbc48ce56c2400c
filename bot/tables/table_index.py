"""The running tables of a process by server, by person seated and by the channel of their
thread, so that a Discord event (a channel, role or member changed, a member gone, the bot
removed from a server) reaches only the tables it concerns instead of every table of the
process (the table of a channel or thread is found by ``TableService.by_channel``)."""

from __future__ import annotations

from collections import defaultdict
from typing import TypeVar

from bot.tables.records import TableData

Key = TypeVar("Key")


class TableIndex:
    """Table ids by server, by (server, person) and by the channel their thread is in; a
    table is added when it starts or is restored (and again once it has its thread) and
    dropped when it is forgotten. Its seats' people never change (a seat handed to the AI
    keeps its person's id), so neither do its entries."""

    def __init__(self) -> None:
        self._by_guild: defaultdict[int, set[str]] = defaultdict(set)
        self._by_member: defaultdict[tuple[int, int], set[str]] = defaultdict(set)
        self._in_threads_of: defaultdict[int, set[str]] = defaultdict(set)

    def add(self, table: TableData) -> None:
        """Index a table (again: what it has now)."""
        self._by_guild[table.guild_id].add(table.table_id)
        for user_id in _people(table):
            self._by_member[table.guild_id, user_id].add(table.table_id)
        if table.parent_channel_id is not None:
            self._in_threads_of[table.parent_channel_id].add(table.table_id)

    def drop(self, table: TableData) -> None:
        """Forget a table (empty entries go too: a bot that runs for months keeps none)."""
        _discard(self._by_guild, table.guild_id, table.table_id)
        for user_id in _people(table):
            _discard(self._by_member, (table.guild_id, user_id), table.table_id)
        if table.parent_channel_id is not None:
            _discard(self._in_threads_of, table.parent_channel_id, table.table_id)

    def in_guild(self, guild_id: int) -> list[str]:
        """The ids of a server's tables."""
        return sorted(self._by_guild.get(guild_id, ()))

    def in_threads_of(self, channel_id: int) -> list[str]:
        """The ids of the tables in threads of a channel."""
        return sorted(self._in_threads_of.get(channel_id, ()))

    def of_member(self, guild_id: int, user_id: int) -> list[str]:
        """The ids of a server's tables where a person has a seat."""
        return sorted(self._by_member.get((guild_id, user_id), ()))


def _people(table: TableData) -> set[int]:
    return {seat.user_id for seat in table.seats if seat.user_id is not None}


def _discard(index: defaultdict[Key, set[str]], key: Key, table_id: str) -> None:
    ids = index.get(key)
    if ids is None:
        return
    ids.discard(table_id)
    if not ids:
        del index[key]
