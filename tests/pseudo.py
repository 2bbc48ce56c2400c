"""A pseudo-language for the tests: every message about 40% longer than its English, its
letters accented (``Ýöür túrñ ⁓⁓``), its placeholders kept, so that a screen rendered in it
shows both that every word went through the catalogs and that a longer language still fits
Discord's limits. Generated from the message ids when asked; never shipped as a language."""

from __future__ import annotations

import gettext
import math
import re

from bot.i18n import COMMAND_NAME

ACCENTED = str.maketrans("aceinousyAEINOUSYC", "áçéíñöüšýÅÉÍÑÖÜŠÝÇ")
PADDING = "⁓"  # a swung dash: no Markdown, and seen nowhere else in Cardroom's words
GROWTH = 0.4
# kept as they are: placeholders ({player}, {count:>3}) and Discord's markup (<@1>, <t:…>, <:e:1>)
KEPT = re.compile(r"(\{[^{}]*\}|<[^<>\s]+>)")


def pseudo(message: str) -> str:
    """``message`` in the pseudo-language.

    >>> pseudo("{player} draws")
    '{player} dráwš ⁓⁓⁓⁓⁓'
    """
    parts = KEPT.split(message)
    accented = "".join(
        part if index % 2 else part.translate(ACCENTED) for index, part in enumerate(parts)
    )
    return f"{accented} {PADDING * max(1, _growth(message) - 1)}"


def pseudo_name(name: str) -> str:
    """A command's name in the pseudo-language: still one word Discord takes.

    >>> pseudo_name("language")
    'láñgüágéẋẋẋẋ'
    """
    return name.translate(ACCENTED) + "ẋ" * _growth(name)


def _growth(message: str) -> int:
    return math.ceil(len(message) * GROWTH)


class PseudoCatalog(gettext.NullTranslations):
    """Every message, singular or plural, with or without a context, in the pseudo-language."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo_name(message) if context == COMMAND_NAME else pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
