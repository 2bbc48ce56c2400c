"""Names for AI seats that read as names ("Ada", "Alan"), never a word and a number that run
into the scores beside them ("Piles: ann 0, AI 1 3")."""

from __future__ import annotations

from collections.abc import Iterable

AI_NAMES = ("Ada", "Alan", "Grace", "Kurt", "Emmy", "Hedy", "Edsger", "Ida", "Niels", "Rosa")


def ai_seat_name(taken: Iterable[str]) -> str:
    """The first AI name no seat at the table uses yet (any case).

    A table has at most six seats, so five names at most are taken and one of the ten is free.

    >>> ai_seat_name(["ann", "Ada"])
    'Alan'
    """
    used = {name.casefold() for name in taken}
    return next(name for name in AI_NAMES if name.casefold() not in used)
