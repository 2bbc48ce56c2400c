"""Services used by the bot: logic that is neither Discord nor SQL."""
