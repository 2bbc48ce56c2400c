"""Which language a reader reads, and the catalog that speaks it.

Cardroom's words are marked with ``engine.words`` (``_``, ``N_``, ``ngettext``) in the engine
and the bot alike; a message is rendered inside ``engine.words.speaking(catalog(language))``.
Languages are Babel's identifiers (``pt_BR``); Discord's locales (``pt-BR``, ``es-419``) map
onto them by ``language_of``. The catalogs and rules texts are loaded by ``engine.languages``,
which the terminal shares.

Whose language: a private answer (a Hand, a hand DM, an ephemeral answer) is in the
clicker's (``private_language``: their own choice, else their Discord client's locale); a
public table and its results in the server's (``table_language``: an admin's choice, else
the server's locale). Numbers, dates and lists on boards follow the language through Babel
(``number``, ``percent``, ``day``, ``listing``).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Protocol

from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from engine.languages import (
    LANGUAGES,
    LOCALES_DIR,
    SOURCE_LANGUAGE,
    catalog,
    language_of,
    rules_path,
)

__all__ = [
    "COMMAND_NAME",
    "LANGUAGES",
    "LOCALES_DIR",
    "SOURCE_LANGUAGE",
    "ChosenLanguages",
    "catalog",
    "command_name",
    "day",
    "language_of",
    "listing",
    "number",
    "percent",
    "private_language",
    "rules_path",
    "table_language",
]


class ChosenLanguages(Protocol):
    """The languages people and server admins chose (``bot.preferences.Languages``)."""

    def of_person(self, user_id: int) -> str | None:
        """The language ``user_id`` chose, if any."""

    def of_server(self, guild_id: int) -> str | None:
        """The language a server's admin chose for its tables, if any."""


COMMAND_NAME = "slash command name"
"""The context of a slash command's, group's or option's name in the catalogs: a name is
translated apart from the same word in a sentence, and must stay a name Discord takes."""


def command_name(name: str) -> str:
    """Mark the name of a slash command, group or option for translation (the translator of
    the command tree, ``bot.languages``, looks it up with the context ``COMMAND_NAME``)."""
    return name


def private_language(languages: ChosenLanguages, user_id: int, locale: str | None) -> str:
    """The language of a private answer to ``user_id``: the one they chose, else their
    Discord client's (``str(interaction.locale)``)."""
    return languages.of_person(user_id) or language_of(locale)


def table_language(languages: ChosenLanguages, guild_id: int | None, locale: str | None) -> str:
    """The language of a public table and its results: the one the server's admin chose,
    else ``locale``: the server's own (``str(interaction.guild_locale)``), or where there
    is no server (a DM), the locale of whoever opened the table."""
    chosen = None if guild_id is None else languages.of_server(guild_id)
    return chosen or language_of(locale)


def number(value: float, language: str, pattern: str | None = None) -> str:
    """A number as ``language`` writes it (``1,234.5``; ``1.234,5`` in German); ``pattern``
    fixes its digits (``#,##0.0``: always one after the point)."""
    return format_decimal(value, format=pattern, locale=language)


def percent(value: float, language: str) -> str:
    """A share as ``language`` writes it (``67%``; ``67 %`` in German and French)."""
    return format_percent(value, locale=language)


def day(value: datetime.date, language: str) -> str:
    """A date as ``language`` writes it, short but with its month's name (``Dec 6, 2026``)."""
    return format_date(value, format="medium", locale=language)


def listing(items: Sequence[str], language: str) -> str:
    """Names in a list as ``language`` joins them (``ann, bob and cara``; ``ann, bob y cara``)."""
    return format_list(list(items), locale=language)
