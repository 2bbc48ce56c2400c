"""Card faces and backs, drawn once per card and deck style and kept (52 × 2 small images).

Suits are vector shapes (a parametric heart, a diamond, three-lobed club, a spade with a
stem), drawn four times larger and scaled down, so they are smooth at any size and look the
same whatever fonts the machine has. Ranks use Pillow's bundled font, thickened with a stroke.
"""

from __future__ import annotations

import math
from enum import Enum
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.cards import CLUBS, DIAMONDS, HEARTS, RANK_TEXT, SPADES, Card

CARD_WIDTH, CARD_HEIGHT = 64, 90
INDEX_SIZE = 32  # the rank in a card's corner, in pixels
SUPERSAMPLE = 4  # shapes are drawn this many times larger, then scaled down smoothly

RGB = tuple[int, int, int]
PAPER: RGB = (250, 250, 246)
EDGE: RGB = (170, 170, 160)
BACK: RGB = (38, 70, 150)
BACK_LIGHT: RGB = (108, 140, 215)


class DeckStyle(Enum):
    """How suits are coloured: the usual red and black, or one colour per suit."""

    STANDARD = "standard"
    FOUR_COLOUR = "four_colour"

    def colour(self, suit: int) -> RGB:
        """The ink of ``suit`` in this style."""
        red, black = (200, 30, 45), (25, 25, 30)
        if self is DeckStyle.FOUR_COLOUR:
            return {CLUBS: (20, 130, 55), DIAMONDS: (25, 90, 200), HEARTS: red, SPADES: black}[suit]
        return red if suit in (DIAMONDS, HEARTS) else black


WORDS_FONT = Path(__file__).with_name("fonts") / "SourceSansPro-Regular.ttf"
"""Source Sans Pro (SIL Open Font License, ``fonts/OFL.txt``), shipped with the bot: Pillow's
bundled font has no accented letters, and a label's words are in each table's language."""


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels (the same on every machine): the ranks."""
    return ImageFont.load_default(size)


@cache
def words_font(size: int) -> ImageFont.FreeTypeFont:
    """The font of a picture's words (labels, captions) at ``size`` pixels, with the letters
    of every language Cardroom speaks."""
    return ImageFont.truetype(WORDS_FONT, size)


def _heart_points(cx: float, cy: float, size: float, flip: bool) -> list[tuple[float, float]]:
    """The classic parametric heart, ``size`` wide, centred on (cx, cy); upside down if
    ``flip`` (the body of a spade)."""
    sign = -1 if flip else 1
    points = []
    for step in range(72):
        t = 2 * math.pi * step / 72
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + x * size / 34, cy - sign * (y + 2.5) * size / 34))
    return points


def draw_suit(
    draw: ImageDraw.ImageDraw, suit: int, cx: float, cy: float, size: float, ink: RGB
) -> None:
    """A suit shape about ``size`` pixels wide and tall, centred on (cx, cy)."""
    if suit == HEARTS:
        draw.polygon(_heart_points(cx, cy, size, flip=False), fill=ink)
    elif suit == DIAMONDS:
        half_w, half_h = size * 0.38, size * 0.5
        draw.polygon(
            [(cx, cy - half_h), (cx + half_w, cy), (cx, cy + half_h), (cx - half_w, cy)], fill=ink
        )
    elif suit == SPADES:
        draw.polygon(_heart_points(cx, cy - size * 0.08, size * 0.95, flip=True), fill=ink)
        _stem(draw, cx, cy, size, ink)
    else:
        lobe = size * 0.24
        for dx, dy in ((0, -0.2), (-0.24, 0.1), (0.24, 0.1)):
            x, y = cx + dx * size, cy + dy * size
            draw.ellipse([x - lobe, y - lobe, x + lobe, y + lobe], fill=ink)
        draw.polygon(
            [
                (cx, cy - size * 0.1),
                (cx - size * 0.12, cy + size * 0.12),
                (cx + size * 0.12, cy + size * 0.12),
            ],
            fill=ink,
        )
        _stem(draw, cx, cy, size, ink)


def _stem(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, ink: RGB) -> None:
    """The flared foot of a spade or club."""
    draw.polygon(
        [
            (cx, cy + size * 0.05),
            (cx - size * 0.2, cy + size * 0.5),
            (cx + size * 0.2, cy + size * 0.5),
        ],
        fill=ink,
    )


def _blank(fill: RGB, edge: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A supersampled rounded card with a thin edge, transparent outside its corners."""
    scale = SUPERSAMPLE
    image = Image.new("RGBA", (CARD_WIDTH * scale, CARD_HEIGHT * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        [0, 0, CARD_WIDTH * scale - 1, CARD_HEIGHT * scale - 1],
        radius=7 * scale,
        fill=fill,
        outline=edge,
        width=scale,
    )
    return image, draw


def _finish(image: Image.Image) -> Image.Image:
    return image.resize((CARD_WIDTH, CARD_HEIGHT), Image.Resampling.LANCZOS)


@cache
def card_face(card: Card, style: DeckStyle) -> Image.Image:
    """The face of ``card``: rank and small suit in the top-left corner (visible when cards
    overlap), a large suit below."""
    scale = SUPERSAMPLE
    image, draw = _blank(PAPER, EDGE)
    ink = style.colour(card.suit)
    rank = RANK_TEXT[card.rank]
    # The index fills the strip an overlapping card leaves visible (draw.MIN_STEP): large
    # enough to read on a phone, where the picture is shown at about two thirds of its size.
    # "10" is set as two close digits, each as tall as a single rank.
    centres = (16,) if len(rank) == 1 else (7, 21)
    for centre, character in zip(centres, rank, strict=True):
        draw.text(
            (centre * scale, 3 * scale),
            character,
            font=font(INDEX_SIZE * scale),
            fill=ink,
            anchor="mt",
            stroke_width=scale,
            stroke_fill=ink,
        )
    draw_suit(draw, card.suit, 16 * scale, 48 * scale, 21 * scale, ink)
    draw_suit(draw, card.suit, 45 * scale, 70 * scale, 30 * scale, ink)
    return _finish(image)


@cache
def card_back() -> Image.Image:
    """The back every face-down card shows: a plain blue card with a light inner frame (plain,
    so that a stack's count written on it stays readable)."""
    scale = SUPERSAMPLE
    image, draw = _blank(BACK, (230, 230, 240))
    inset = 6 * scale
    draw.rounded_rectangle(
        [inset, inset, CARD_WIDTH * scale - inset, CARD_HEIGHT * scale - inset],
        radius=4 * scale,
        outline=BACK_LIGHT,
        width=2 * scale,
    )
    return _finish(image)


@cache
def empty_place() -> Image.Image:
    """Where a stack would be when it holds no card: a faint outline."""
    scale = SUPERSAMPLE
    image = Image.new("RGBA", (CARD_WIDTH * scale, CARD_HEIGHT * scale), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        [scale, scale, CARD_WIDTH * scale - scale, CARD_HEIGHT * scale - scale],
        radius=7 * scale,
        outline=(120, 170, 140),
        width=2 * scale,
    )
    return _finish(image)
