"""Which language a reader reads, and the catalog that speaks it.

Cardroom's words are marked with ``engine.words`` (``_``, ``N_``, ``ngettext``) in the engine
and the bot alike; a message is rendered inside ``engine.words.speaking(catalog(language))``.
Languages are Babel's identifiers (``pt_BR``); Discord's locales (``pt-BR``, ``es-419``) map
onto them by ``language_of``. Catalogs live in ``data/locales/<language>/LC_MESSAGES/``.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "es", "pt_BR", "fr", "de")
"""Every language Cardroom speaks, English (the messages' own ids) first."""
DOMAIN = "cardroom"
LOCALES_DIR = Path(__file__).resolve().parents[1] / "data" / "locales"


def language_of(locale: str | None) -> str:
    """Cardroom's language for a Discord (or Babel) locale; English when none fits.

    >>> language_of("pt-BR"), language_of("es-419"), language_of("de"), language_of("ja")
    ('pt_BR', 'es', 'de', 'en')
    """
    if not locale:
        return SOURCE_LANGUAGE
    wanted = locale.replace("-", "_")
    if wanted in LANGUAGES:
        return wanted
    base = wanted.split("_")[0]
    return base if base in LANGUAGES else SOURCE_LANGUAGE


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (English, the ids themselves, where none is)."""
    return gettext.translation(DOMAIN, LOCALES_DIR, languages=[language], fallback=True)
