"""Shards: which servers' games a bot process drives, and the locks that keep two processes
off the same shard.

Discord puts a server on shard ``(guild_id >> 22) % shard_count``. Each process runs a set of
shards (``SHARD_IDS``) and drives only their servers' games. On PostgreSQL, where several
processes share one database, a process holds an advisory lock per shard on a connection of
its own for as long as it runs: a second process asking for a held shard is refused, and a
process whose lock connection drops has lost its shards (another process may take them) and
must stop driving their games. SQLite needs none of this: its file lock already keeps the
database to one process, whatever shards it runs.

A link can also fail without dropping: a network cut or a frozen process leaves both ends
waiting. So the lock connection has a heartbeat (``Heartbeat``): the process asks it every few
seconds whether it still holds its shards, and gives them up when no answer comes in time; and
the server ends the lock connection after a minute without a question (PostgreSQL 14's
``idle_session_timeout``), which frees the shards of a process that froze or was cut off, for
another process to take. Saves never rely on the locks alone: each one checks the stored
revision as it writes, so a process that wakes up late cannot overwrite newer moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
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


@dataclass(frozen=True)
class Heartbeat:
    """How a process checks the connection holding its shard locks: a question every
    ``every`` seconds, to be answered within as long again or the shards are given up. The
    server ends the connection (freeing the shards) after ``server_gives_up_after`` seconds
    without a question: six beats, so that a slow answer or a busy event loop never costs a
    healthy process its shards.

    >>> Heartbeat(10).server_gives_up_after
    60
    """

    every: float

    @property
    def answer_within(self) -> float:
        """Seconds an answer may take."""
        return self.every

    @property
    def server_gives_up_after(self) -> int:
        """Whole seconds the server waits for the next question."""
        return math.ceil(6 * self.every)


HELD_LOCKS = (
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND pid = pg_backend_pid() AND classid = $1"
)
"""How many shard locks the asking connection holds (the heartbeat's question)."""


class ShardLocks:
    """A process's hold on its shards in a PostgreSQL database: advisory locks on a
    connection of its own, released when it closes, when the connection drops, or when its
    heartbeat goes unanswered."""

    def __init__(
        self,
        connection: asyncpg.Connection,
        shards: Shards,
        on_lost: Callable[[Shards], None],
        heartbeat: Heartbeat,
    ) -> None:
        self._connection = connection
        self.shards = shards
        self._on_lost = on_lost
        self._heartbeat = heartbeat
        self._done = False  # released or lost: on_lost is called at most once
        self._beating: asyncio.Task[None] | None = None

    @classmethod
    async def claim(
        cls,
        connection: asyncpg.Connection,
        shards: Shards,
        on_lost: Callable[[Shards], None],
        heartbeat: Heartbeat,
    ) -> ShardLocks:
        """Lock every shard of ``shards`` on ``connection`` (closed on failure);
        ShardInUseError naming the first shard another process holds. ``on_lost`` is called
        once if the connection drops or misses a ``heartbeat`` while the locks are held."""
        try:
            if connection.get_server_version() >= (14,):  # older servers lack the setting
                await connection.execute(
                    f"SET idle_session_timeout = '{heartbeat.server_gives_up_after}s'"
                )
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
        locks = cls(connection, shards, on_lost, heartbeat)
        connection.add_termination_listener(lambda _: locks._lose("dropped"))
        locks._beating = asyncio.create_task(locks._keep_checking(), name="shard heartbeat")
        return locks

    async def _keep_checking(self) -> None:
        """Ask the lock connection, now and then, whether it still holds every shard."""
        heartbeat = self._heartbeat
        while not self._done:
            await asyncio.sleep(heartbeat.every)
            try:
                held = await self._connection.fetchval(
                    HELD_LOCKS, SHARD_LOCKS, timeout=heartbeat.answer_within
                )
            except Exception as error:  # whatever failed, the locks can no longer be vouched for
                # Dropped at this end too, so that the server lets the locks go as soon as
                # the link works again, and a late answer changes nothing.
                self._connection.terminate()
                timed_out = isinstance(error, TimeoutError)
                self._lose("did not answer in time" if timed_out else f"failed: {error!r}")
                return
            if held != len(self.shards.ids):
                self._connection.terminate()
                self._lose(f"holds {held} of its {len(self.shards.ids)} shard locks")
                return

    def _lose(self, why: str) -> None:
        """The shards are no longer this process's: say so once (not after a release)."""
        if self._done:
            return
        self._done = True
        log.error("the database connection holding %s %s: they are lost", self.shards, why)
        self._on_lost(self.shards)

    async def release(self) -> None:
        """Let the shards go (at shutdown)."""
        self._done = True
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
        await self._connection.close()
