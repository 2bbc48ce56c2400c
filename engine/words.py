"""The words a player reads, in the language of whoever is reading.

Every player-facing string is marked where it is written: ``_("Your turn")`` translates it
now, ``N_("Cambio")`` marks a constant (a class attribute, a table of names) whose use
translates it later with ``_(value)``. Placeholders are named and filled after translating, so
a translator can move them: ``_("{player} plays {card}").format(player=…, card=…)``.

A count's words are one plural entry, never two messages: ``ngettext`` (or, for a constant,
``Nn_("{count} card", "{count} cards")``, whose use asks ``ngettext``) gives the reader's
language the count, so its own plural rule picks the form (French says "0 carte", and a
language may have three forms or more). Code never picks an English form by the count.

The engine stays pure: it never loads a catalog. Whoever renders for a reader (the bot for a
message, the terminal for its user) loads that reader's catalog and makes it the active one
around the rendering with ``speaking``. The active catalog lives in a context variable, so two
renderings in two asyncio tasks never mix their languages. Untranslated, a message is its own
English text (the message id).
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

ENGLISH = gettext.NullTranslations()
"""The catalog of the source language: every message is its own id."""

_active: ContextVar[gettext.NullTranslations] = ContextVar("cardroom_words", default=ENGLISH)


def _(message: str) -> str:
    """``message`` in the active language."""
    return _active.get().gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message that ``count`` needs, in the active language.

    >>> ngettext("{count} card", "{count} cards", 2).format(count=2)
    '2 cards'
    """
    return _active.get().ngettext(singular, plural, count)


def and_list(items: Sequence[str]) -> str:
    """``items`` said as one, each joined to the next by "and" in the active language.

    >>> and_list(["Ann"]), and_list(["Ann", "Bob", "Cy"])
    ('Ann', 'Ann and Bob and Cy')
    """
    said = items[0] if items else ""
    for item in items[1:]:
        said = _("{first} and {second}").format(first=said, second=item)
    return said


def active_catalog() -> gettext.NullTranslations:
    """The catalog speaking now (what is rendered from words depends on it: a cache of
    rendered things keys on it)."""
    return _active.get()


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it: it is translated where used."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a count's two English forms for translation as one plural entry, without
    translating them: where used, ``ngettext(*forms, count)`` picks the language's form.

    >>> ngettext(*Nn_("{count} card", "{count} cards"), 0)
    '{count} cards'
    """
    return singular, plural


@contextmanager
def speaking(catalog: gettext.NullTranslations) -> Iterator[None]:
    """Make ``catalog`` the active language inside the block (this task or thread only)."""
    token = _active.set(catalog)
    try:
        yield
    finally:
        _active.reset(token)
