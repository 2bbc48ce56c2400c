"""``python -m bot``: run Cardroom with settings from the environment and ``.env``."""

import sys

from bot.settings import Settings


def main() -> int:
    """Start the bot; without a token, say how to set one and exit non-zero."""
    settings = Settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "error: DISCORD_TOKEN is not set; put DISCORD_TOKEN=<your bot token> in .env "
            "(copy .env.example) or in the environment.",
            file=sys.stderr,
        )
        return 2
    print("error: the Discord bot is not built yet (see the open issues).", file=sys.stderr)
    return 1


sys.exit(main())
