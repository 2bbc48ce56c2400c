"""``/game rules`` speaks to people: no action text, no seat codes, no option names as typed,
and every option by its label."""

from __future__ import annotations

import re

import pytest

from bot.help.rules import rules_text
from engine.registry import games

CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS](?:=1|=14)?\b")  # 7C, 10D, AH=14
SEAT_CODE = re.compile(r"\bs\d(?:\.[A-Z])?\b")  # s2, s2.C
BUILD_CODE = re.compile(r"\bb\d{1,2}\b")  # swazi's b9


@pytest.mark.parametrize("game_id", sorted(games()))
def test_rules_use_peoples_words(game_id: str) -> None:
    text = rules_text(game_id)
    assert "`" not in text, "no machine notation in code spans"
    for pattern in (CARD_CODE, SEAT_CODE, BUILD_CODE):
        assert not pattern.findall(text), f"{game_id}: {pattern.findall(text)}"
    for option in games()[game_id].options:
        assert option.name == option.name.lower().replace("_", "") or option.name not in text
        assert f"**{option.label}** — " in text, f"{game_id}: option {option.label} not listed"
        assert f"(default {option.amount(option.default)})" in text


def test_option_defaults_read_with_their_unit() -> None:
    assert "**Snap window** — time to snap before the next player may draw (default 5 seconds)" in (
        rules_text("cambio")
    )
