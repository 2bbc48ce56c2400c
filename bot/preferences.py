"""Each person's deck style, kept in memory for drawing and in the database across restarts.

A Hand view is drawn synchronously at every click, so the styles are read once at start (one
small row per person who ever chose) and every change is stored before it is used. Another
process (another shard's) may store a change too: a person's row is read again whenever they
open a Hand, and the deck button names the style it switches to, so a click never switches
back to a style only this process still remembered.
"""

from __future__ import annotations

import logging

from bot.pictures import DeckStyle
from bot.storage import Preferences

log = logging.getLogger(__name__)


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

    async def refresh(self, user_id: int) -> DeckStyle:
        """Read ``user_id``'s stored style again (another process may have changed it) and
        return it. A failed read keeps the style known here: colours are not worth failing
        someone's Hand for."""
        try:
            stored = await self._store.deck_style(user_id)
            style = None if stored is None else DeckStyle(stored)
        except Exception:
            log.warning("could not read the deck style of user %s", user_id, exc_info=True)
            return self.of(user_id)
        if style is None:
            self._chosen.pop(user_id, None)
        else:
            self._chosen[user_id] = style
        return self.of(user_id)

    async def choose(self, user_id: int, style: DeckStyle) -> None:
        """Store ``user_id``'s choice, then use it (a failed save changes nothing)."""
        await self._store.set_deck_style(user_id, style.value)
        self._chosen[user_id] = style
