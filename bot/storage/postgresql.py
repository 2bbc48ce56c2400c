"""The PostgreSQL database: a pool of asyncpg connections shared by the stores.

Several bot processes (each driving the guilds of its shards) share one PostgreSQL database;
each process has its own pool. Statements are written with named parameters (``:name``) for
both dialects; here they become asyncpg's numbered ones (``$1``), once per statement text.
Transactions keep PostgreSQL's default isolation (READ COMMITTED): every guarded write is one
statement that checks the stored revision as it writes (the compare-and-swap), so two writers
racing for a game cannot both succeed.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
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
    """Statements on one pooled connection."""

    def __init__(self, connection: PoolConnectionProxy[asyncpg.Record]) -> None:
        self.connection = connection

    async def execute(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> None:
        """Run one statement, discarding any rows."""
        text, names = numbered(sql)
        await self.connection.execute(text, *(parameters[name] for name in names))

    async def fetchall(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> Sequence[Row]:
        """Every row of one statement."""
        text, names = numbered(sql)
        rows: list[Row] = await self.connection.fetch(text, *(parameters[n] for n in names))
        return rows

    async def fetchone(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> Row | None:
        """The first row of one statement, or None."""
        text, names = numbered(sql)
        return await self.connection.fetchrow(text, *(parameters[name] for name in names))

    async def run_script(self, script: str) -> None:
        """Run a script of several statements as one transaction (asyncpg sends a script
        without parameters as one simple query)."""
        async with self.connection.transaction():
            await self.connection.execute(script)


class PostgresDatabase:
    """A pool of connections to one PostgreSQL database. Open with
    ``await PostgresDatabase.open(url)``."""

    dialect: Dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url

    @classmethod
    async def open(cls, url: str, pool_size: int = POOL_SIZE) -> PostgresDatabase:
        """Connect a pool of up to ``pool_size`` connections to ``url`` (StorageError with one
        line if the server cannot be reached or refuses)."""
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(f"cannot connect to the PostgreSQL database: {error}") from None
        return cls(pool, url)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[PostgresSql]:
        """A pooled connection for the block; each statement commits on its own."""
        async with self._pool.acquire() as connection:
            yield PostgresSql(connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresSql]:
        """A pooled connection whose statements in the block commit together."""
        async with self._pool.acquire() as connection, connection.transaction():
            yield PostgresSql(connection)

    async def connect(self) -> asyncpg.Connection:
        """A connection of its own, outside the pool (one that holds session locks)."""
        return await asyncpg.connect(self.url)

    async def pragma(self, name: str) -> Any:
        """SQLite's pragmas have no PostgreSQL counterpart here."""
        raise StorageError(f"pragma {name}: PostgreSQL has no pragmas")

    async def close(self) -> None:
        """Close the pool (saved work is already committed)."""
        await self._pool.close()
