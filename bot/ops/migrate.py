"""``python -m bot migrate [--check]``: apply the database's pending migrations, or only say
which there are (before an upgrade, to know what starting the new code will change).

Exit codes: 0 up to date (or migrated), 1 migrations pending (``--check``), 2 the database
cannot be checked (unreachable, in use by a bot, or migrated by newer or other code).
"""

from __future__ import annotations

import asyncio
import sys

from bot.settings import SettingsError, load_settings
from bot.storage import Storage, StorageError


async def run(url: str, check: bool) -> int:
    """Check or apply the migrations of the database at ``url``; print what was found."""
    todo = await Storage.pending_migrations(url)
    if not todo:
        print("the database is up to date: nothing to migrate")
        return 0
    names = ", ".join(f"{m.version:03d}_{m.name}" for m in todo)
    if check:
        print(f"{len(todo)} migration(s) to apply: {names}")
        return 1
    storage = await Storage.open(url)
    await storage.close()
    print(f"applied {len(todo)} migration(s): {names}")
    return 0


def main(arguments: list[str]) -> int:
    """``[--check]``."""
    if arguments not in ([], ["--check"]):
        print("usage: python -m bot migrate [--check]", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(load_settings().database_url, check=arguments == ["--check"]))
    except (SettingsError, StorageError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
