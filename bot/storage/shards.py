"""Shards: which servers' games a bot process drives, and the locks that keep two processes
off the same shard.

Discord puts a server on shard ``(guild_id >> 22) % shard_count``. Each process runs a set of
shards (``SHARD_IDS``) and drives only their servers' games. On PostgreSQL, where several
processes share one database, a process holds an advisory lock per shard on a connection of
its own for as long as it runs: a second process asking for a held shard is refused. When the
lock connection drops (a database restart or failover, a cut link), the server lets the locks
go; the process connects again and takes them again, and carries on, unless another process
took one in between: then its shards are lost, and it must stop driving their games. SQLite
needs none of this: its file lock already keeps the database to one process, whatever shards
it runs.

A link can also fail without dropping: a network cut or a frozen process leaves both ends
waiting. So the lock connection has a heartbeat (``Heartbeat``): the process asks it every few
seconds whether it still holds its shards, and ends that connection when no answer comes in
time (then takes them again, as after a drop; a lock still held by its own old connection, not
yet ended at the server's end, is no other process's: that connection is ended); and the
server ends the lock connection after a minute without a question (PostgreSQL 14's
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import asyncpg

from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

SHARD_LOCKS = 0x43415243  # the advisory locks' first key ("CARC"); the shard id is the second
SHARD_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


class ShardInUseError(StorageError):
    """Another process holds one of the shards asked for."""


class OldLockConnectionError(StorageError):
    """A shard is still held by this process's previous lock connection, which the server
    has not ended yet (it is being ended: try again)."""


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
        """Whether the server's games are this process's.

        >>> Shards(4, (1,)).owns(5 << 22), Shards(4, (1,)).owns(6 << 22)
        (True, False)
        """
        return self.of(guild_id) in self.ids

    def of(self, guild_id: int) -> int:
        """The shard of a server (Discord's formula): its gateway brings that server's events.

        >>> Shards(4, (1,)).of(6 << 22)
        2
        """
        return (guild_id >> 22) % self.count

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


Connect = Callable[[], Awaitable[asyncpg.Connection]]
LOCK_HOLDER = (
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1"
    " AND objid = $2 AND objsubid = 2"
)
"""The server process holding one shard's lock (two-key advisory locks: objsubid 2)."""


class ShardLocks:
    """A process's hold on its shards in a PostgreSQL database: advisory locks on a
    connection of its own, kept under a heartbeat and taken again on a new connection when
    that one drops or stops answering (a database restart, a failover, a cut link), for as
    long as no other process holds them. Released at close; lost (``on_lost``, once) only
    when another process holds one of them."""

    def __init__(
        self,
        connect: Connect,
        shards: Shards,
        on_lost: Callable[[Shards], None],
        heartbeat: Heartbeat,
    ) -> None:
        self._connect = connect
        self.shards = shards
        self._on_lost = on_lost
        self._heartbeat = heartbeat
        self._connection: asyncpg.Connection | None = None
        self._server_pid = 0  # the server process of the lock connection
        self._why_ended: str | None = None  # why this end ended the connection, if it did
        self._done = False  # released or lost: on_lost is called at most once
        self._watching: asyncio.Task[None] | None = None
        self._taking_again: asyncio.Task[None] | None = None

    @classmethod
    async def claim(
        cls,
        connect: Connect,
        shards: Shards,
        on_lost: Callable[[Shards], None],
        heartbeat: Heartbeat,
    ) -> ShardLocks:
        """Lock every shard of ``shards`` on a connection from ``connect``; ShardInUseError
        naming the first shard another process holds (nothing kept). ``on_lost`` is called
        once if, later, another process holds them."""
        locks = cls(connect, shards, on_lost, heartbeat)
        await locks._take(previous=None)
        return locks

    async def _take(self, previous: int | None) -> None:
        """Lock every shard on a new connection (closed again on failure) and watch it. A
        shard still held by ``previous``, the server process of this process's last lock
        connection (not yet ended by the server after a cut), is not another process's: that
        process is ended, and OldLockConnectionError says to try again soon."""
        connection = await self._connect()
        try:
            if connection.get_server_version() >= (14,):  # older servers lack the setting
                await connection.execute(
                    f"SET idle_session_timeout = '{self._heartbeat.server_gives_up_after}s'"
                )
            for shard in self.shards.ids:
                while not await connection.fetchval(
                    "SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCKS, shard
                ):
                    holder = await connection.fetchval(LOCK_HOLDER, SHARD_LOCKS, shard)
                    if holder is None:  # let go in the meantime: ask again
                        continue
                    if holder == previous:
                        await connection.fetchval("SELECT pg_terminate_backend($1)", previous)
                        raise OldLockConnectionError(f"shard {shard}: held by the old connection")
                    raise ShardInUseError(
                        f"shard {shard} of {self.shards.count} is run by another Cardroom process"
                        " on this database: give this process other SHARD_IDS, or stop the other"
                    )
        except BaseException:
            await connection.close(timeout=self._heartbeat.answer_within)
            raise
        self._connection, self._server_pid = connection, connection.get_server_pid()
        connection.add_termination_listener(self._ended)
        self._watching = asyncio.create_task(self._watch(connection), name="shard heartbeat")

    async def _watch(self, connection: asyncpg.Connection) -> None:
        """Ask the lock connection, now and then, whether it still holds every shard; end it
        when it cannot say so (at this end too, so that the server lets the locks go as soon
        as the link works again, and a late answer changes nothing)."""
        heartbeat = self._heartbeat
        while not self._done:
            await asyncio.sleep(heartbeat.every)
            try:
                held = await connection.fetchval(
                    HELD_LOCKS, SHARD_LOCKS, timeout=heartbeat.answer_within
                )
            except Exception as error:  # whatever failed, the locks can no longer be vouched for
                timed_out = isinstance(error, TimeoutError)
                self._why_ended = "did not answer in time" if timed_out else f"failed: {error!r}"
                connection.terminate()
                return
            if held != len(self.shards.ids):
                self._why_ended = f"holds {held} of its {len(self.shards.ids)} shard locks"
                connection.terminate()
                return

    def _ended(self, connection: object) -> None:
        """The lock connection ended (dropped, or ended here): take the shards again."""
        if self._done or self._connection is None:
            return
        previous = self._server_pid
        why, self._why_ended = self._why_ended or "dropped", None
        if self._watching is not None:
            self._watching.cancel()
        log.warning("the database connection holding %s %s: taking them again", self.shards, why)
        self._taking_again = asyncio.create_task(
            self._take_again(previous), name="shard locks taken again"
        )

    async def _take_again(self, previous: int) -> None:
        """Take the shards on a new connection, trying again (every beat at most) while the
        database cannot be reached, until they are held again or another process holds one
        (then they are lost)."""
        delay = min(0.1, self._heartbeat.every)
        while not self._done:
            try:
                await self._take(previous)
                log.warning("%s held again, on a new database connection", self.shards)
                return
            except ShardInUseError as error:
                self._lose(str(error))
                return
            except OldLockConnectionError:
                pass
            except Exception as error:  # the server restarting, a link still cut
                log.info("%s: the database cannot be reached yet (%r)", self.shards, error)
            await asyncio.sleep(delay)
            delay = min(delay * 2, self._heartbeat.every)

    @property
    def held(self) -> bool:
        """Whether this process holds its shards now (not while taking them again)."""
        retaking = self._taking_again is not None and not self._taking_again.done()
        return not self._done and self._connection is not None and not retaking

    def _lose(self, why: str) -> None:
        """The shards are no longer this process's: say so once (not after a release)."""
        if self._done:
            return
        self._done = True
        log.error("lost %s: %s", self.shards, why)
        self._on_lost(self.shards)

    async def release(self) -> None:
        """Let the shards go (at shutdown)."""
        self._done = True
        for task in (self._watching, self._taking_again):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._connection is not None and not self._connection.is_closed():
            await self._connection.close()
