"""Text helpers: seat names, card symbols readable in dark mode, Discord's length limits.
(How an action or a step reads is the engine's: ``engine.choices``.)

Red suits get the emoji presentation (``♥️ ♦️``, drawn red by Discord on every theme); black
suits get the text presentation (``♠︎ ♣︎``), drawn in the theme's text colour: without it,
Discord draws them as dark emoji, near-invisible on the dark theme. So both stay readable and
the two colours never look alike.

>>> suit_symbols("10♦ Q♠") == "10♦\ufe0f Q♠\ufe0e"
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.core import Event, score_lines
from engine.words import ngettext

_SEAT = re.compile(r"\{s(\d+)\}")
_STARTS_ITS_OWN_LINE = re.compile(r"([-*+>#|]|\d+[.)])(\s|$)")
_EMOJI, _TEXT = "\ufe0f", "\ufe0e"  # Unicode's presentation selectors


def suit_symbols(text: str) -> str:
    """Hearts and diamonds in the (red) emoji presentation, spades and clubs in the text one;
    idempotent."""
    for suit in "♥♦♠♣":
        text = text.replace(suit + _EMOJI, suit).replace(suit + _TEXT, suit)
    for suit, selector in (("♥", _EMOJI), ("♦", _EMOJI), ("♠", _TEXT), ("♣", _TEXT)):
        text = text.replace(suit, suit + selector)
    return text


def fill_names(text: str, names: Sequence[str]) -> str:
    """Replace ``{s2}`` placeholders (engine event and describe text) by seat names."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return _SEAT.sub(name, text)


def show(text: str, names: Sequence[str]) -> str:
    """Engine text as people read it: names filled in, suits readable on every theme."""
    return suit_symbols(fill_names(text, names))


def event_text(event: Event, seats: int) -> str:
    """An event's line in the active language, its arguments filled in and its ``seats``
    seats still ``{s0}`` … (to be laid out before names, which may hold any character, go in).

    >>> event_text(Event("{s0} plays {card}", "play", args=(("card", "6♦"),)), 2)
    '{s0} plays 6♦'
    """
    return event.render([f"{{s{seat}}}" for seat in range(seats)])


def said(event: Event, names: Sequence[str]) -> str:
    """An event as people read it, in the active language: names filled in, suits readable."""
    return show(event_text(event, len(names)), names)


def score_parts(event: Event, names: Sequence[str]) -> list[str]:
    """A hand's scores (a ``hand_end`` event) as people read them: the title, each seat's
    part, then the rest (``engine.core.score_lines``)."""
    return [show(line, names) for line in score_lines(event_text(event, len(names)))]


def event_lines(event: Event, names: Sequence[str]) -> list[str]:
    """An event as lines of a table log: a hand's scores under their title, a player a line.

    >>> event_lines(Event("Round 1 scores: {s0} 0 (went out); {s1} 7 · totals: …", "hand_end"),
    ...             ["Ann", "Bob"])
    ['• Round 1 scores:', '  ◦ Ann 0 (went out)', '  ◦ Bob 7', '  ◦ Totals: …']
    """
    if event.kind != "hand_end":
        return [f"• {said(event, names)}"]
    title, *rest = score_parts(event, names)
    return [f"• {title}:", *(f"  ◦ {line}" for line in rest)]


def flowing(markdown: str) -> str:
    """Markdown with its hard line breaks taken out, so that a paragraph or a list item flows
    to whatever width it is shown at (a phone breaks hard-wrapped lines mid-sentence).
    Headings, list items, quotes, tables and code blocks keep their own lines.

    >>> flowing("# Title\\n\\nOne\\ntwo.\\n- a\\n  b\\n- c")
    '# Title\\n\\nOne two.\\n- a b\\n- c'
    """
    lines: list[str] = []
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            lines.append(line)
            continue
        stripped = line.strip()
        joins = (
            not in_code
            and stripped
            and lines
            and lines[-1].strip()
            and not lines[-1].startswith(("#", "```", "|"))
            and not _STARTS_ITS_OWN_LINE.match(stripped)
        )
        if joins:
            lines[-1] += " " + stripped
        else:
            lines.append(line)
    return "\n".join(lines)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def duration(seconds: int) -> str:
    """A length of time in people's words, in its largest whole unit.

    >>> duration(30), duration(120), duration(86_400), duration(90)
    ('30 seconds', '2 minutes', '24 hours', '90 seconds')
    """
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("{count} hour", "{count} hours", hours).format(count=hours)
    if seconds >= 60 and seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)
    return ngettext("{count} second", "{count} seconds", seconds).format(count=seconds)


def earlier_not_shown(count: int) -> str:
    """The line standing for the ``count`` earlier hands a list of hands leaves out (its
    latest fit), in the active language.

    >>> earlier_not_shown(1)
    '… (1 earlier not shown)'
    """
    # the same English either way; a language may say one and several apart
    return ngettext("… ({count} earlier not shown)", "… ({count} earlier not shown)", count).format(
        count=count
    )
