"""Shared test settings, and the throwaway PostgreSQL server of the tests."""

import itertools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.postgres import ThrowawayPostgres, throwaway_postgres

# No per-example deadline: the suite runs on a busy 2-core machine, and timing is not what
# these properties check (speed has its own benchmark scripts).
settings.register_profile("cardroom", deadline=None)
settings.load_profile("cardroom")

DATABASE_NUMBERS = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[ThrowawayPostgres]:
    """One throwaway PostgreSQL server per test process (each pytest-xdist worker has its
    own), started by the first test that needs it and stopped when the process's tests end.
    Missing server binaries fail the test with the line saying how to install them."""
    with throwaway_postgres() as server:
        yield server


@pytest.fixture
async def postgres_url(postgres_server: ThrowawayPostgres) -> AsyncIterator[str]:
    """An empty PostgreSQL database of the test's own (dropped after it)."""
    name = f"test_{next(DATABASE_NUMBERS)}"
    yield await postgres_server.create_database(name)
    await postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each dialect in turn: a SQLite file, a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "cardroom.db")
    url: str = request.getfixturevalue("postgres_url")
    return url
