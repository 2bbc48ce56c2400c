"""Text helpers: seat names, card symbols readable in dark mode, Discord's length limits.
(How an action or a step reads is the engine's: ``engine.choices``.)

Red suits get the emoji presentation (``♥️ ♦️``, drawn red by Discord on every theme); black
suits stay text symbols (``♠ ♣``), drawn in the theme's text colour, so they stay readable in
dark mode and the two colours never look alike.

>>> red_suits("10♦ Q♠")
'10♦️ Q♠'
>>> plural(1, "game"), plural(3, "win")
('1 game', '3 wins')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SEAT = re.compile(r"\{s(\d+)\}")
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


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless the count is one."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
