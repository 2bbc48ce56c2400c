"""The active language: the engine's words come from the catalog made active around them."""

from __future__ import annotations

import gettext
import threading

from engine.words import N_, _, ngettext, speaking


class Shouting(gettext.NullTranslations):
    """A catalog whose every message is its id in capitals."""

    def gettext(self, message: str) -> str:
        return message.upper()

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return (msgid1 if n == 1 else msgid2).upper()


def test_untranslated_words_are_their_english_ids() -> None:
    assert _("Your turn") == "Your turn"
    assert ngettext("{count} card", "{count} cards", 1) == "{count} card"
    assert N_("Cambio") == "Cambio"


def test_speaking_makes_a_catalog_active_only_inside_the_block() -> None:
    with speaking(Shouting()):
        assert _("Your turn") == "YOUR TURN"
        assert ngettext("{count} card", "{count} cards", 3) == "{COUNT} CARDS"
    assert _("Your turn") == "Your turn"


def test_another_thread_keeps_its_own_language() -> None:
    seen: list[str] = []
    with speaking(Shouting()):
        worker = threading.Thread(target=lambda: seen.append(_("Your turn")))
        worker.start()
        worker.join()
    assert seen == ["Your turn"]
