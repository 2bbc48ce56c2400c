"""Text helpers: seat names, card symbols readable in dark mode, Discord's length limits.

Red suits get the emoji presentation (``♥️ ♦️``, drawn red by Discord on every theme); black
suits stay text symbols (``♠ ♣``), drawn in the theme's text colour, so they stay readable in
dark mode and the two colours never look alike.

>>> red_suits("10♦ Q♠")
'10♦️ Q♠'
>>> action_label("play 10D take 2H 4S", ["Ann", "Bob"])
'play 10♦️ take 2♥️ 4♠'
>>> action_label("swap A s1.C", ["Ann", "Bob"])
"swap A Bob's C"
>>> plural(1, "game"), plural(3, "win")
('1 game', '3 wins')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.cards import Card

_SEAT = re.compile(r"\{s(\d+)\}")
_CARD_WORD = re.compile(r"(?<![\w.])(10|[2-9AJQK])([CDHS])(?![\w])")
_SEAT_WORD = re.compile(r"(?<![\w.])s(\d+)(?:\.([A-Z]))?(?![\w])")
_VS16 = "\ufe0f"


def red_suits(text: str) -> str:
    """Give hearts and diamonds the (red) emoji presentation; idempotent."""
    text = text.replace("♥" + _VS16, "♥").replace("♦" + _VS16, "♦")
    return text.replace("♥", "♥" + _VS16).replace("♦", "♦" + _VS16)


def fill_names(text: str, names: Sequence[str]) -> str:
    """Replace ``{s2}`` placeholders (engine event and describe text) by seat names."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return _SEAT.sub(name, text)


def show(text: str, names: Sequence[str]) -> str:
    """Engine text as people read it: names filled in, red suits red."""
    return red_suits(fill_names(text, names))


def action_label(text: str, names: Sequence[str]) -> str:
    """Machine action text or a path step (``play 6D take 2H``, ``s2.C``) in people form."""

    def card(match: re.Match[str]) -> str:
        return Card.parse(match.group(0)).pretty

    def seat(match: re.Match[str]) -> str:
        index = int(match.group(1))
        who = names[index] if index < len(names) else f"seat {index}"
        return f"{who}'s {match.group(2)}" if match.group(2) else who

    return red_suits(_SEAT_WORD.sub(seat, _CARD_WORD.sub(card, text)))


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless the count is one."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
