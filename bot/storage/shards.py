"""Shards: which servers' games a bot process drives, and the locks that keep two processes
off the same shard.

Discord puts a server on shard ``(guild_id >> 22) % shard_count``. Each process runs a set of
shards (``SHARD_IDS``) and drives only their servers' games. On PostgreSQL, where several
processes share one database, a process holds an advisory lock per shard on a connection of
its own for as long as it runs: a second process asking for a held shard is refused, and a
process whose lock connection drops has lost its shards (another process may take them) and
must stop driving their games. SQLite needs none of this: its file lock already keeps the
database to one process, whatever shards it runs.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

import asyncpg

from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

SHARD_LOCKS = 0x43415243  # the advisory locks' first key ("CARC"); the shard id is the second
SHARD_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


class ShardInUseError(StorageError):
    """Another process holds one of the shards asked for."""


@dataclass(frozen=True)
class Shards:
    """The shards a process runs, of ``count`` in all."""

    count: int
    ids: tuple[int, ...]

    @classmethod
    def every(cls, count: int = 1) -> Shards:
        """All the shards: one process for every server."""
        return cls(count, tuple(range(count)))

    def owns(self, guild_id: int) -> bool:
        """Whether the server's games are this process's (Discord's shard formula).

        >>> Shards(4, (1,)).owns(5 << 22), Shards(4, (1,)).owns(6 << 22)
        (True, False)
        """
        return (guild_id >> 22) % self.count in self.ids

    def __str__(self) -> str:
        plural = "s" if len(self.ids) > 1 else ""
        return f"shard{plural} {', '.join(map(str, self.ids))} of {self.count}"


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``0-1``, ``0,2`` or ``0-3,6`` as shard ids (sorted, each below ``count``); ValueError
    with one line for anything else.

    >>> parse_shard_ids("2, 0-1", 4)
    (0, 1, 2)
    """
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        match = SHARD_RANGE.match(part)
        if not match:
            raise ValueError(f"{text!r} is not a list of shard ids like 0-1 or 0,2")
        first, last = int(match[1]), int(match[2] or match[1])
        if first > last:
            raise ValueError(f"the range {part} runs backwards")
        ids.update(range(first, last + 1))
    if max(ids) >= count:
        raise ValueError(f"shard {max(ids)} does not exist: SHARD_COUNT is {count} (0-{count - 1})")
    return tuple(sorted(ids))


class ShardLocks:
    """A process's hold on its shards in a PostgreSQL database: advisory locks on a
    connection of its own, released when it closes (or when the connection drops)."""

    def __init__(self, connection: asyncpg.Connection, shards: Shards) -> None:
        self._connection = connection
        self.shards = shards
        self._released = False

    @classmethod
    async def claim(
        cls, connection: asyncpg.Connection, shards: Shards, on_lost: Callable[[Shards], None]
    ) -> ShardLocks:
        """Lock every shard of ``shards`` on ``connection`` (closed on failure);
        ShardInUseError naming the first shard another process holds. ``on_lost`` is called
        once if the connection drops while the locks are held."""
        try:
            for shard in shards.ids:
                if not await connection.fetchval(
                    "SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCKS, shard
                ):
                    raise ShardInUseError(
                        f"shard {shard} of {shards.count} is run by another Cardroom process on"
                        " this database: give this process other SHARD_IDS, or stop the other"
                    )
        except BaseException:
            await connection.close()
            raise
        locks = cls(connection, shards)

        def dropped(_: object) -> None:
            if not locks._released:
                log.error("the database connection holding %s dropped: they are lost", shards)
                on_lost(shards)

        connection.add_termination_listener(dropped)
        return locks

    async def release(self) -> None:
        """Let the shards go (at shutdown)."""
        self._released = True
        await self._connection.close()
