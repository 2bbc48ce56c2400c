"""The languages Cardroom speaks, their compiled catalogs and their rules texts.

Whoever renders for a reader loads from here: the bot (``bot.i18n``, which maps Discord's
locales and people's choices onto a language) and the terminal (``engine.terminal``, from the
environment's ``LANG``). The rules of the games never call it: they stay free of files.

Languages are Babel's identifiers (``pt_BR``). Catalogs live in
``data/locales/<language>/LC_MESSAGES/cardroom.mo``, compiled from their ``.po`` by the
install (``scripts/catalogs.py``); rules texts in ``data/rules/<id>.<language>.md``, English
being ``data/rules/<id>.md``.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from functools import cache
from pathlib import Path

SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "es", "pt_BR", "fr", "de")
"""Every language Cardroom speaks, English (the messages' own ids) first."""
DOMAIN = "cardroom"
DATA_DIR = Path(__file__).resolve().parents[1] / "data"
LOCALES_DIR = DATA_DIR / "locales"
RULES_DIR = DATA_DIR / "rules"


def language_of(locale: str | None) -> str:
    """Cardroom's language for a Discord, Babel or POSIX locale; English when none fits.

    >>> language_of("pt-BR"), language_of("es-419"), language_of("de_AT.UTF-8")
    ('pt_BR', 'es', 'de')
    >>> language_of("ja"), language_of("C"), language_of(None)
    ('en', 'en', 'en')
    """
    return _spoken(locale or "") or SOURCE_LANGUAGE


def _spoken(locale: str) -> str | None:
    # POSIX adds an encoding and a modifier: de_DE.UTF-8, ca_ES@valencia
    wanted = locale.split(".")[0].split("@")[0].replace("-", "_")
    base = wanted.split("_")[0]
    return wanted if wanted in LANGUAGES else base if base in LANGUAGES else None


def environment_language(environ: Mapping[str, str]) -> str:
    """The terminal's language from its environment, read as Python's gettext reads it: the
    first set of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``, a list by preference
    (``ja:fr``); English when it names none Cardroom speaks.

    >>> environment_language({"LANGUAGE": "ja:fr", "LANG": "de_DE.UTF-8"})
    'fr'
    >>> environment_language({"LC_ALL": "pt_BR.UTF-8", "LANG": "de_DE.UTF-8"})
    'pt_BR'
    >>> environment_language({"LANG": "C.UTF-8"}), environment_language({})
    ('en', 'en')
    """
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            spoken = (_spoken(locale) for locale in environ[name].split(":"))
            return next(filter(None, spoken), SOURCE_LANGUAGE)
    return SOURCE_LANGUAGE


def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (English, the ids themselves, where none is)."""
    return _compiled(language)


@cache
def _compiled(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALES_DIR, languages=[language], fallback=True)


def rules_path(game_id: str, language: str) -> Path:
    """The rules text of a game in ``language``, or in English where it is not written."""
    translated = RULES_DIR / f"{game_id}.{language}.md"
    return translated if translated.is_file() else RULES_DIR / f"{game_id}.md"
