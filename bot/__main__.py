"""``python -m bot``: run Cardroom with settings from the environment and ``.env``."""

import logging
import sys

from pydantic import ValidationError

from bot.settings import Settings


def main() -> int:
    """Start the bot; without a token, say how to set one and exit non-zero."""
    try:
        settings = Settings()
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in error.errors()
        )
        print(f"error: bad setting ({problems}); see .env.example.", file=sys.stderr)
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "error: DISCORD_TOKEN is not set; put DISCORD_TOKEN=<your bot token> in .env "
            "(copy .env.example) or in the environment.",
            file=sys.stderr,
        )
        return 2
    from bot.app import create_bot

    bot = create_bot(settings)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_level=logging.INFO)
    except Exception as error:  # a bad token or no network: one line, not a traceback
        print(f"error: the bot stopped: {error}", file=sys.stderr)
        return 1
    return 0


sys.exit(main())
