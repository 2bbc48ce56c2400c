"""Each person's deck style, kept in memory for drawing and in the database across restarts.

A Hand view is drawn synchronously at every click, so the styles are read once at start (one
small row per person who ever chose) and every change is stored before it is used.
"""

from __future__ import annotations

from bot.pictures import DeckStyle
from bot.storage import Preferences


class DeckStyles:
    """Who chose which deck style for their own pictures (everyone else: the standard one)."""

    def __init__(self, store: Preferences, chosen: dict[int, DeckStyle]) -> None:
        self._store = store
        self._chosen = chosen

    @classmethod
    async def load(cls, store: Preferences) -> DeckStyles:
        """The styles stored in ``store``."""
        stored = await store.deck_styles()
        return cls(store, {user: DeckStyle(name) for user, name in stored.items()})

    def of(self, user_id: int | None) -> DeckStyle:
        """The style of ``user_id``'s private pictures."""
        return self._chosen.get(user_id or 0, DeckStyle.STANDARD)

    async def choose(self, user_id: int, style: DeckStyle) -> None:
        """Store ``user_id``'s choice, then use it (a failed save changes nothing)."""
        await self._store.set_deck_style(user_id, style.value)
        self._chosen[user_id] = style
