"""``python -m bot migrate --check``: the pending migrations, found without applying any."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.ops.migrate import main
from bot.storage import Storage, StorageError
from bot.storage.migrations import MIGRATIONS_DIR


async def test_check_lists_what_an_older_database_lacks_and_changes_nothing(
    database_url: str,
) -> None:
    await (await Storage.open(database_url, up_to=7)).close()
    pending = await Storage.pending_migrations(database_url)
    assert [m.version for m in pending][:1] == [8]
    assert await Storage.pending_migrations(database_url) == pending  # nothing applied
    await (await Storage.open(database_url)).close()
    assert await Storage.pending_migrations(database_url) == []


@pytest.mark.slow
async def test_check_refuses_a_database_migrated_by_other_code(
    tmp_path: Path, database_url: str
) -> None:
    await (await Storage.open(database_url, up_to=2)).close()
    other = tmp_path / "other"
    shutil.copytree(MIGRATIONS_DIR, other)
    for found in other.rglob("002_*.sql"):
        found.rename(found.with_name("002_another_branch.sql"))
    with pytest.raises(StorageError, match="migrated by other code"):
        await Storage.pending_migrations(database_url, migrations=other)


def test_the_command_exits_1_while_migrations_are_pending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "cardroom.db"
    monkeypatch.setenv("DATABASE_URL", str(database))
    assert main(["--check"]) == 2
    assert f"there is no database at {database}" in capsys.readouterr().err
    assert not database.exists()  # a check creates nothing
    database.touch()
    assert main(["--check"]) == 1
    assert "migration(s) to apply: 001_initial" in capsys.readouterr().out
    assert main([]) == 0
    assert main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out
    assert main(["--apply"]) == 2
