"""The words on a picture (a pile's label, a stack's caption) are drawn in every language
Cardroom speaks: its font has a shape for every letter the catalogs use. A font draws each
letter it lacks as one and the same empty box, so a letter drawn like a private-use character
is a letter the font lacks."""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po
from PIL import Image, ImageDraw

from bot.pictures.draw import CAPTION_SIZE
from bot.pictures.faces import words_font

LOCALES = Path(__file__).resolve().parents[2] / "data" / "locales"


def catalog_letters() -> set[str]:
    """Every letter of every translation the catalogs ship."""
    letters: set[str] = set()
    for path in LOCALES.glob("*/LC_MESSAGES/cardroom.po"):
        with path.open("rb") as file:
            for message in read_po(file):
                string = message.string
                strings = list(string) if isinstance(string, (tuple, list)) else [string or ""]
                letters.update(c for s in strings for c in s if unicodedata.category(c)[0] == "L")
    return letters


@cache
def drawn(character: str) -> bytes:
    """``character`` as the picture's words font draws it."""
    picture = Image.new("L", (4 * CAPTION_SIZE, 2 * CAPTION_SIZE))
    ImageDraw.Draw(picture).text((4, 4), character, font=words_font(CAPTION_SIZE), fill=255)
    return picture.tobytes()


def test_the_catalogs_use_letters_beyond_english() -> None:
    assert {"ó", "ç", "é", "ü", "ñ", "ã"} <= catalog_letters()


def test_the_pictures_font_draws_every_letter_of_every_catalog() -> None:
    missing = drawn("\ue000")  # a private-use character: no font has a shape for it
    lacking = sorted(letter for letter in catalog_letters() if drawn(letter) == missing)
    assert not lacking, f"the font draws these as empty boxes: {''.join(lacking)}"
