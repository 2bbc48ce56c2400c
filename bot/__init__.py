"""Cardroom's Discord bot: ``bot.app.create_bot(settings)``; run it with ``python -m bot``."""
