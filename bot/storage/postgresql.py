"""The PostgreSQL database: a pool of asyncpg connections shared by the stores.

Several bot processes (each driving the guilds of its shards) share one PostgreSQL database;
each process has its own pool. Statements are written with named parameters (``:name``) for
both dialects; here they become asyncpg's numbered ones (``$1``), once per statement text.
Transactions keep PostgreSQL's default isolation (READ COMMITTED): every guarded write is one
statement that checks the stored revision as it writes (the compare-and-swap), so two writers
racing for a game cannot both succeed.

Every pooled session has time limits (``SessionLimits``): a statement, a wait for a lock held
by another connection, a transaction left idle (a frozen process) and the wait for the server's
reply are each bounded, so that no save hangs on a stuck peer or a cut link: it fails, with
StorageError like every other failure of the driver, and the caller can try again.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.connection import NO_PARAMETERS, Dialect, Parameters, Row
from bot.storage.errors import StorageError

POOL_SIZE = 10
"""Connections per process by default (``DATABASE_POOL_SIZE``): saves are short, one statement
each, so a few connections serve many tables."""
NAMED_PARAMETER = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
DRIVER_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)
"""What asyncpg raises: the server's refusals, a closed or broken connection, the socket's
errors, and its command timeout. (Its pool also raises InternalClientError when a connection
the server ended is given back.)"""
NO_LIMITS = (
    "SET statement_timeout = 0; SET lock_timeout = 0; SET idle_in_transaction_session_timeout = 0"
)
MAINTENANCE_SECONDS = 24 * 3600.0
"""The reply timeout of schema work (a migration may rewrite a large table)."""


@dataclass(frozen=True)
class SessionLimits:
    """Time limits of a pooled session, in seconds: a statement (``statement_timeout``), a
    wait for another connection's lock (``lock_timeout``), a transaction left idle
    (``idle_in_transaction_session_timeout``: the server ends the session and its locks go),
    and the wait for any reply (asyncpg's ``command_timeout``, for a link that hangs; longer
    than the statement's own limit, so that the server's answer comes first)."""

    statement: float = 10.0
    lock: float = 5.0
    idle_in_transaction: float = 30.0
    reply: float = 15.0

    def server_settings(self) -> dict[str, str]:
        """The server's settings for a session, in milliseconds."""
        return {
            "statement_timeout": _milliseconds(self.statement),
            "lock_timeout": _milliseconds(self.lock),
            "idle_in_transaction_session_timeout": _milliseconds(self.idle_in_transaction),
        }


DEFAULT_LIMITS = SessionLimits()


def _milliseconds(seconds: float) -> str:
    return str(max(1, round(seconds * 1000)))


@contextmanager
def storage_errors() -> Iterator[None]:
    """The driver's errors as StorageError (the original as its cause)."""
    try:
        yield
    except DRIVER_ERRORS as error:
        what = type(error).__name__
        raise StorageError(f"PostgreSQL: {what}: {str(error).strip() or 'no details'}") from error


@lru_cache(maxsize=512)
def numbered(sql: str) -> tuple[str, tuple[str, ...]]:
    """A statement with named parameters as asyncpg's numbered ones, and the names in order
    (a ``:name`` is a parameter wherever it stands: the stores write none in a literal).

    >>> numbered("SELECT :a, :b::text, :a")
    ('SELECT $1, $2::text, $1', ('a', 'b'))
    """
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in names:
            names.append(match[1])
        return f"${names.index(match[1]) + 1}"

    return NAMED_PARAMETER.sub(number, sql), tuple(names)


class PostgresSql:
    """Statements on one pooled connection (each reply awaited for up to ``reply_timeout``
    seconds; None: the pool's command timeout)."""

    def __init__(
        self, connection: PoolConnectionProxy[asyncpg.Record], reply_timeout: float | None = None
    ) -> None:
        self.connection = connection
        self.reply_timeout = reply_timeout

    async def execute(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> None:
        """Run one statement, discarding any rows."""
        text, names = numbered(sql)
        with storage_errors():
            await self.connection.execute(
                text, *(parameters[name] for name in names), timeout=self.reply_timeout
            )

    async def fetchall(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> Sequence[Row]:
        """Every row of one statement."""
        text, names = numbered(sql)
        with storage_errors():
            rows: list[Row] = await self.connection.fetch(
                text, *(parameters[n] for n in names), timeout=self.reply_timeout
            )
        return rows

    async def fetchone(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> Row | None:
        """The first row of one statement, or None."""
        text, names = numbered(sql)
        with storage_errors():
            return await self.connection.fetchrow(
                text, *(parameters[name] for name in names), timeout=self.reply_timeout
            )

    async def run_script(self, script: str) -> None:
        """Run a script of several statements as one transaction (asyncpg sends a script
        without parameters as one simple query)."""
        with storage_errors():
            async with self.connection.transaction():
                await self.connection.execute(script, timeout=self.reply_timeout)


class PostgresDatabase:
    """A pool of connections to one PostgreSQL database. Open with
    ``await PostgresDatabase.open(url)``."""

    dialect: Dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url

    @classmethod
    async def open(
        cls, url: str, pool_size: int = POOL_SIZE, limits: SessionLimits = DEFAULT_LIMITS
    ) -> PostgresDatabase:
        """Connect a pool of up to ``pool_size`` connections to ``url``, each session with
        ``limits`` (StorageError with one line if the server cannot be reached or refuses)."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                server_settings=limits.server_settings(),
                command_timeout=limits.reply,
            )
        except DRIVER_ERRORS as error:
            raise StorageError(f"cannot connect to the PostgreSQL database: {error}") from None
        return cls(pool, url)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[PostgresSql]:
        """A pooled connection for the block; each statement commits on its own."""
        with storage_errors():
            async with self._pool.acquire() as connection:
                yield PostgresSql(connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresSql]:
        """A pooled connection whose statements in the block commit together."""
        with storage_errors():
            async with self._pool.acquire() as connection, connection.transaction():
                yield PostgresSql(connection)

    @asynccontextmanager
    async def maintenance(self) -> AsyncIterator[PostgresSql]:
        """A pooled connection without the sessions' time limits, for schema work (a
        migration waits for another process's, and may take long); the pool restores the
        limits when the connection goes back."""
        async with self.session() as sql:
            await sql.execute(NO_LIMITS)
            yield PostgresSql(sql.connection, MAINTENANCE_SECONDS)

    async def connect(self) -> asyncpg.Connection:
        """A connection of its own, outside the pool (one that holds session locks)."""
        return await asyncpg.connect(self.url)

    async def pragma(self, name: str) -> Any:
        """SQLite's pragmas have no PostgreSQL counterpart here."""
        raise StorageError(f"pragma {name}: PostgreSQL has no pragmas")

    async def close(self) -> None:
        """Close the pool (saved work is already committed)."""
        await self._pool.close()
