"""``python -m bot``: run Cardroom with settings from the environment and ``.env``."""

import sys

from bot.ops import migrate
from bot.ops.logs import configure_logging
from bot.settings import SettingsError, load_settings
from bot.storage import DatabaseLock, StorageError
from bot.storage.connection import parse_database_url


def main() -> int:
    """Start the bot; with bad settings or without a token, say so in one line and exit 2.
    ``python -m bot migrate [--check]``: only the database's migrations (bot/ops/migrate.py)."""
    if sys.argv[1:2] == ["migrate"]:
        return migrate.main(sys.argv[2:])
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "error: DISCORD_TOKEN is not set; put DISCORD_TOKEN=<your bot token> in .env "
            "(copy .env.example) or in the environment.",
            file=sys.stderr,
        )
        return 2
    try:  # before connecting to Discord; the bot takes the lock for good when it opens storage
        database = parse_database_url(settings.database_url)
        if database.dialect == "sqlite":
            database.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
            DatabaseLock.acquire(database.sqlite_path).release()
    except (StorageError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from bot.app import create_bot

    configure_logging(settings.log_format, settings.log_level, settings.shards.count)
    bot = create_bot(settings)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    except Exception as error:  # a bad token or no network: one line, not a traceback
        print(f"error: the bot stopped: {error}", file=sys.stderr)
        return 1
    if bot.lost_shards:
        print(
            "error: the bot stopped: its database connection holding its shards dropped;"
            " start it again to claim them",
            file=sys.stderr,
        )
        return 1
    return 0


sys.exit(main())
