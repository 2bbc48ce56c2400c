"""Each person's deck style, turn ping and language, and whether a server's tables play in
threads and in which language, kept in memory for drawing and in the database across
restarts.

A Hand view is drawn synchronously at every click, so the styles are read once at start (one
small row per person who ever chose) and every change is stored before it is used. Another
process (another shard's) may store a change too: a person's row is read again whenever they
open a Hand, and the deck button names the style it switches to, so a click never switches
back to a style only this process still remembered.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum

from bot.pictures import DeckStyle
from bot.storage import Preferences
from engine.languages import LANGUAGES
from engine.words import N_, _, ngettext

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


class PingKind(Enum):
    """How a person is told that it is their turn."""

    NOW = "now"  # mentioned in the table's channel when the turn begins
    LATER = "later"  # mentioned there after a delay, if the turn is still theirs
    DM = "dm"  # a new direct message instead of a mention
    NEVER = "never"


@dataclass(frozen=True)
class TurnPing:
    """A way of being told it is your turn: its kind and, for ``LATER``, the delay."""

    kind: PingKind
    delay_seconds: int = 0

    @property
    def words(self) -> str:
        """The choice in people's words ("a mention after 30 seconds"), in the active
        language."""
        if self.kind is PingKind.LATER:
            return ngettext(
                "a mention after {count} second if the turn is still yours",
                "a mention after {count} seconds if the turn is still yours",
                self.delay_seconds,
            ).format(count=self.delay_seconds)
        return _(PING_WORDS[self.kind])

    @property
    def stored(self) -> tuple[str, int]:
        """The stored form: the kind's name and the delay."""
        return self.kind.value, self.delay_seconds

    @classmethod
    def from_stored(cls, stored: tuple[str, int]) -> TurnPing:
        """A stored ping back (the inverse of ``stored``)."""
        return cls(PingKind(stored[0]), stored[1])


PING_WORDS = {
    PingKind.NOW: N_("a mention as soon as the turn is yours"),
    PingKind.DM: N_("a direct message instead of a mention"),
    PingKind.NEVER: N_("no ping"),
}
DEFAULT_PING = TurnPing(PingKind.NOW)  # a server whose admin never chose


class TurnPings:
    """Who chose which turn ping, and each server's default for the others."""

    def __init__(
        self, store: Preferences, chosen: dict[int, TurnPing], defaults: dict[int, TurnPing]
    ) -> None:
        self._store = store
        self._chosen = chosen
        self._defaults = defaults

    @classmethod
    async def load(cls, store: Preferences) -> TurnPings:
        """The pings stored in ``store``."""
        people = await store.turn_pings()
        servers = await store.server_turn_pings()
        return cls(
            store,
            {user: TurnPing.from_stored(ping) for user, ping in people.items()},
            {guild: TurnPing.from_stored(ping) for guild, ping in servers.items()},
        )

    def of(self, guild_id: int, user_id: int) -> TurnPing:
        """How ``user_id`` is told it is their turn at a table of ``guild_id``: their own
        choice, else the server's default."""
        return self._chosen.get(user_id) or self.server_default(guild_id)

    def server_default(self, guild_id: int) -> TurnPing:
        """The server's default turn ping."""
        return self._defaults.get(guild_id, DEFAULT_PING)

    async def choose(self, user_id: int, ping: TurnPing) -> None:
        """Store ``user_id``'s choice, then use it (a failed save changes nothing)."""
        await self._store.set_turn_ping(user_id, *ping.stored)
        self._chosen[user_id] = ping

    async def choose_default(self, guild_id: int, ping: TurnPing) -> None:
        """Store the server's default, then use it (a failed save changes nothing)."""
        await self._store.set_server_turn_ping(guild_id, *ping.stored)
        self._defaults[guild_id] = ping


class TableThreads:
    """Whether each server's tables play in a thread of their own (where the bot may create
    threads): the server admin's choice, else the bot's default (``TABLE_THREADS``)."""

    def __init__(self, store: Preferences, chosen: dict[int, bool], default: bool) -> None:
        self._store = store
        self._chosen = chosen
        self._default = default

    @classmethod
    async def load(cls, store: Preferences, default: bool) -> TableThreads:
        """The choices stored in ``store``; ``default`` for the servers that never chose."""
        return cls(store, await store.server_table_threads(), default)

    def enabled(self, guild_id: int) -> bool:
        """Whether the server's tables play in threads."""
        return self._chosen.get(guild_id, self._default)

    async def choose(self, guild_id: int, threads: bool) -> None:
        """Store the server's choice, then use it (a failed save changes nothing)."""
        await self._store.set_server_table_threads(guild_id, threads)
        self._chosen[guild_id] = threads


class Languages:
    """The languages people chose for their private answers, and admins for their server's
    tables; whoever never chose reads their Discord's (``bot.i18n`` decides with these).

    A stored language Cardroom no longer ships counts as never chosen."""

    def __init__(self, store: Preferences, people: dict[int, str], servers: dict[int, str]) -> None:
        self._store = store
        self._people = {user: each for user, each in people.items() if each in LANGUAGES}
        self._servers = {guild: each for guild, each in servers.items() if each in LANGUAGES}

    @classmethod
    async def load(cls, store: Preferences) -> Languages:
        """The choices stored in ``store``."""
        return cls(store, await store.languages(), await store.server_languages())

    def of_person(self, user_id: int) -> str | None:
        """The language ``user_id`` chose (None: their Discord client's)."""
        return self._people.get(user_id)

    def of_server(self, guild_id: int) -> str | None:
        """The language a server's admin chose for its tables (None: the server's locale)."""
        return self._servers.get(guild_id)

    async def refresh(self, user_id: int) -> str | None:
        """Read ``user_id``'s stored choice again (another process may have changed it) and
        return it. A failed read keeps the choice known here: a language is not worth
        failing someone's answer for."""
        try:
            stored = await self._store.language(user_id)
        except Exception:
            log.warning("could not read the language of user %s", user_id, exc_info=True)
            return self.of_person(user_id)
        if stored in LANGUAGES:
            self._people[user_id] = stored
        else:
            self._people.pop(user_id, None)
        return self.of_person(user_id)

    async def choose(self, user_id: int, language: str | None) -> None:
        """Store ``user_id``'s choice (None: their Discord client's again), then use it (a
        failed save changes nothing)."""
        await self._store.set_language(user_id, _shipped(language))
        _remember(self._people, user_id, language)

    async def choose_for_server(self, guild_id: int, language: str | None) -> None:
        """Store the server's choice (None: its own locale again), then use it (a failed
        save changes nothing)."""
        await self._store.set_server_language(guild_id, _shipped(language))
        _remember(self._servers, guild_id, language)


def _shipped(language: str | None) -> str | None:
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"Cardroom does not speak {language!r}")
    return language


def _remember(chosen: dict[int, str], owner_id: int, language: str | None) -> None:
    if language is None:
        chosen.pop(owner_id, None)
    else:
        chosen[owner_id] = language
