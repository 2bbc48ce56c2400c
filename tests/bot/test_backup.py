"""./run backup while games are played, ./run restore into a fresh folder: the games resume
from the copy, at the moves they had when it was made."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import simcord

from bot.app import create_bot
from bot.ops.backup import backup, main, restore
from bot.settings import Settings
from bot.storage import DatabaseInUseError, Storage, StorageError
from bot.storage.connection import parse_database_url
from tests.bot.conftest import fast_settings
from tests.bot.helpers import release
from tests.bot.test_restart import start
from tests.postgres import server_binaries


@pytest.mark.slow
async def test_a_backup_made_during_a_game_restores_into_a_fresh_folder_and_resumes(
    tmp_path: Path,
) -> None:
    settings = fast_settings(tmp_path / "live")
    bot = create_bot(settings)
    try:
        async with simcord.run(bot) as env:
            play = await start(env, bot, "swazi")
            for _ in range(6):
                await play.step()
            copy = backup(parse_database_url(settings.database_url), tmp_path / "copy.db")
            backed_up = (play.table.revision, play.table.state.to_json())
            while play.table.revision == backed_up[0]:  # the live game moves on
                await play.step()
            assert stat.S_IMODE(os.stat(copy).st_mode) == 0o600  # it holds hidden cards

            fresh = fast_settings(tmp_path / "fresh")
            restore(copy, parse_database_url(fresh.database_url))
            restored = create_bot(fresh)
            await env.restart_bot(restored)
            try:
                assert not restored.restore_problems
                table = restored.tables.tables[play.table.table_id]
                assert (table.revision, table.state.to_json()) == backed_up
                play.table = table
                await play.to_the_end()
                [finished] = await restored.storage.results.history(table.guild_id)
                assert finished.table_id == table.table_id
            finally:
                await release(restored)
    finally:
        await release(bot)


async def test_restore_refuses_a_database_a_bot_has_open(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path)
    where = parse_database_url(settings.database_url)
    storage = await Storage.open(where.target)
    try:
        copy = backup(where, tmp_path / "copy.db")
        with pytest.raises(DatabaseInUseError):
            restore(copy, where)
        with pytest.raises(StorageError, match="already exists"):
            backup(where, copy)
    finally:
        await storage.close()


def test_the_commands_say_what_they_did_and_what_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", str(tmp_path / "none.db"))
    assert main(["backup"]) == 1
    assert "there is no database at" in capsys.readouterr().err
    assert main(["restore"]) == 2
    assert main(["restore", "missing.db"]) == 1
    assert "there is no backup at missing.db" in capsys.readouterr().err


@pytest.mark.slow
async def test_postgresql_is_backed_up_with_pg_dump_and_restored_with_pg_restore(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PG_BIN", str(server_binaries()))
    settings: Settings = fast_settings(tmp_path, database_url=postgres_url)
    where = parse_database_url(settings.database_url)
    storage = await Storage.open(where.target)
    try:
        await storage.preferences.set_deck_style(1, "four_colour")
        copy = backup(where, tmp_path / "copy.dump")
        await storage.preferences.set_deck_style(1, "standard")
    finally:
        await storage.close()
    restore(copy, where)
    storage = await Storage.open(where.target)
    try:
        assert await storage.preferences.deck_style(1) == "four_colour"
    finally:
        await storage.close()
