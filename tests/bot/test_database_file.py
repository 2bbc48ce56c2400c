"""The database file itself: one process at a time, owner-only permissions, durability."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage import DatabaseInUseError, Storage
from bot.storage.connection import Synchronous
from tests.bot.test_settings import ROOT, run_bot

OWNER_ONLY = 0o600


async def test_a_second_process_on_the_database_exits_with_one_line(tmp_path: Path) -> None:
    database = tmp_path / "cardroom.db"
    storage = await Storage.open(database)
    try:
        # a token and the database: the bot gets as far as the database lock
        done = run_bot(tmp_path, DISCORD_TOKEN="not-a-real-token", DATABASE_URL=str(database))
    finally:
        await storage.close()
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert f"{database} is in use by another Cardroom process" in done.stderr


async def test_a_second_storage_on_the_same_file_is_refused_until_the_first_closes(
    tmp_path: Path,
) -> None:
    database = tmp_path / "cardroom.db"
    first = await Storage.open(database)
    with pytest.raises(DatabaseInUseError):
        await Storage.open(database)
    await first.close()
    second = await Storage.open(database)
    await second.close()


async def test_a_killed_process_leaves_no_stale_lock(tmp_path: Path) -> None:
    database = tmp_path / "cardroom.db"
    script = textwrap.dedent(
        f"""
        import asyncio
        from bot.storage import Storage

        async def main():
            storage = await Storage.open({str(database)!r})
            print("open", flush=True)
            await asyncio.sleep(60)
            await storage.close()

        asyncio.run(main())
        """
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with pytest.raises(DatabaseInUseError):
            await Storage.open(database)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=30)
    storage = await Storage.open(database)
    await storage.close()


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


async def test_the_database_and_its_wal_files_are_owner_only(tmp_path: Path) -> None:
    database = tmp_path / "cardroom.db"
    previous = os.umask(0o022)  # a usual umask: files would be world-readable
    try:
        storage = await Storage.open(database)
        try:
            await storage.results.reset_season(1, "fishing")  # a write: the WAL files exist
            files = [database, *(database.with_name(database.name + e) for e in ("-wal", "-shm"))]
            assert all(each.exists() for each in files)
            assert [mode(each) for each in files] == [OWNER_ONLY] * 3
        finally:
            await storage.close()
    finally:
        os.umask(previous)


async def test_a_world_readable_database_from_before_is_made_owner_only(tmp_path: Path) -> None:
    database = tmp_path / "cardroom.db"
    storage = await Storage.open(database)
    await storage.results.reset_season(1, "fishing")
    await storage.close()
    database.chmod(0o644)
    storage = await Storage.open(database)
    try:
        assert mode(database) == OWNER_ONLY
    finally:
        await storage.close()


@pytest.mark.parametrize(("setting", "pragma"), [("normal", 1), ("full", 2)])
async def test_synchronous_is_a_setting(tmp_path: Path, setting: Synchronous, pragma: int) -> None:
    storage = await Storage.open(tmp_path / "cardroom.db", synchronous=setting)
    try:
        assert await storage.pragma("synchronous") == pragma
    finally:
        await storage.close()
