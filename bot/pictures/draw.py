"""Drawing a layout: groups placed in lines on a felt background, encoded as a PNG."""

from __future__ import annotations

import hashlib
import io
import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from gettext import NullTranslations

from PIL import Image, ImageDraw

from bot.pictures.faces import (
    CARD_HEIGHT,
    CARD_WIDTH,
    DeckStyle,
    card_back,
    card_face,
    empty_place,
    words_font,
)
from engine.cards import FULL_DECK, Card
from engine.layout import Group, Layout, Shown, face_up, fill_seats, rows, stack
from engine.words import _, active_catalog, ngettext, speaking

# Shown 1:1 on a desktop; a phone 400 px wide gives a message's picture about 275 px, so the
# narrower the picture, the larger its cards there (600 px made a card 30 px wide on a phone).
WIDTH = 440
# A picture that would be taller than this at WIDTH (many seats of cambio, stuck, twentytwo:
# mostly backs) is laid out at MAX_WIDTH when that makes it shorter, so that it never pushes
# the turn and its controls far below: small backs read as well as large ones.
TALL = 560
MAX_WIDTH = 600
PADDING = 10
GROUP_GAP = 18
CARD_GAP = 5
MIN_STEP = 31  # the narrowest overlap that still shows a card's whole corner index
STACK_SHIFT = 3  # how far each card under a stack's top peeks out
LABEL_SIZE, LABEL_HEIGHT = 21, 28
CAPTION_SIZE, CAPTION_HEIGHT = 18, 23
NAME_LENGTH = 16  # longer seat names are cut (with …) to keep labels on one line
ALT_TEXT_LIMIT = 1024  # Discord's limit for an attachment's description
PALETTE_COLOURS = 128  # the fixed palette every picture is mapped to
# Labels and captions kept ready to write (and their widths): a mask is about 4 KB, so the
# masks hold a few MB at most.
KEPT_WORDS = 1024

FELT = (26, 88, 58)
LABEL_INK = (240, 244, 236)
CAPTION_INK = (214, 234, 218)
EMPTY_INK = (150, 190, 165)


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn layout: the PNG, its alt text, a file name made from its content, and the
    face-up cards that were drawn (in drawing order)."""

    data: bytes
    alt_text: str
    filename: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class _Placed:
    """A group with its measured size and how its cards are spread."""

    group: Group
    label: str
    step: int  # from one card's left edge to the next
    per_line: int
    width: int
    height: int


def seat_label(name: str) -> str:
    """A seat name as the picture's font can draw it: characters it has no shape for (emoji,
    most non-Latin scripts) left out, at most NAME_LENGTH characters.

    >>> seat_label("🤖 Ada"), seat_label("Bartholomew the Magnificent")
    ('Ada', 'Bartholomew the…')
    """
    kept = "".join(char for char in name if " " <= char < "\u0250").strip()
    return kept if len(kept) <= NAME_LENGTH else kept[: NAME_LENGTH - 1].rstrip() + "…"


def stack_caption(size: int) -> str:
    """What a stack's number means, written under it: a bare number on a pile was read as a
    score or a rank.

    >>> stack_caption(0), stack_caption(1), stack_caption(36)
    ('empty', '1 card', '36 cards')
    """
    if not size:
        return _("empty")
    return ngettext("{count} card", "{count} cards", size).format(count=size)


@lru_cache(maxsize=KEPT_WORDS)
def words_width(text: str, size: int) -> int:
    """How many pixels wide ``text`` is in the words font at ``size``, rounded up."""
    return math.ceil(words_font(size).getlength(text))


@lru_cache(maxsize=KEPT_WORDS)
def _words_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """``text`` in the words font at ``size`` as a coverage mask, with where the mask's
    top-left corner lies from the anchor point. The same labels and captions recur from one
    picture to the next, and shaping and rasterising them was a fifth of a picture's time."""
    font = words_font(size)
    # typed as floats, whole pixels for a FreeType font
    left, top, right, bottom = (int(edge) for edge in font.getbbox(text, anchor=anchor))
    mask = Image.new("L", (right - left, bottom - top))
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    return mask, (left, top)


def write(
    canvas: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    ink: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    """Write ``text`` on ``canvas`` in the words font, as ``ImageDraw.text`` would at
    whole-pixel ``xy`` (the same pixels), from a mask kept for the next picture."""
    mask, (left, top) = _words_mask(text, size, anchor)
    canvas.paste(ink, (xy[0] + left, xy[1] + top), mask)


def _measure(group: Group, label: str, width: int = WIDTH) -> _Placed:
    slots = max(len(group.cards), 1)
    available = width - 2 * PADDING
    step = CARD_WIDTH + CARD_GAP
    if slots > 1 and slots * step - CARD_GAP > available:
        step = max(MIN_STEP, (available - CARD_WIDTH) // (slots - 1))
    per_line = min(slots, 1 + (available - CARD_WIDTH) // step)
    lines = math.ceil(slots / per_line)
    if lines > 1:  # even lines (7 and 7, not 12 and 2), each overlapping no more than it must
        per_line = math.ceil(slots / lines)
        step = min(CARD_WIDTH + CARD_GAP, (available - CARD_WIDTH) // max(per_line - 1, 1))
    shift = 2 * STACK_SHIFT if group.size is not None else 0
    cards_width = CARD_WIDTH + (per_line - 1) * step + shift
    label_width = words_width(label, LABEL_SIZE)
    if group.size is not None:
        label_width = max(label_width, words_width(stack_caption(group.size), CAPTION_SIZE))
    card_height = CARD_HEIGHT + shift + (CAPTION_HEIGHT if _has_captions(group) else 0)
    height = LABEL_HEIGHT + lines * card_height + (lines - 1) * CARD_GAP
    return _Placed(group, label, step, per_line, max(cards_width, label_width), height)


def _has_captions(group: Group) -> bool:
    return group.size is not None or any(shown.caption for shown in group.cards)


def _width(line: Sequence[_Placed]) -> int:
    """The width a line of groups takes, with the padding on both sides."""
    return 2 * PADDING + sum(placed.width for placed in line) + GROUP_GAP * (len(line) - 1)


def _lines(layout: Layout, names: Sequence[str], width: int) -> list[list[_Placed]]:
    """Groups placed in lines at most ``width`` wide: a row joins the line before when all of
    it fits there (a shorter picture), else it starts a line, and wraps when it is too wide."""
    labels = [seat_label(name) for name in names]
    lines: list[list[_Placed]] = []
    for row in layout.rows:
        placed_row = [
            _measure(group, fill_seats(group.label, labels), width) for group in row.groups
        ]
        if lines and _width(lines[-1]) + GROUP_GAP + _width(placed_row) - 2 * PADDING <= width:
            lines[-1] += placed_row
            continue
        line: list[_Placed] = []
        for placed in placed_row:
            if line and _width([*line, placed]) > width:
                lines.append(line)
                line = []
            line.append(placed)
        lines.append(line)
    return lines


def _draw_group(
    canvas: Image.Image, placed: _Placed, x: int, y: int, style: DeckStyle
) -> list[Card]:
    """Draw one group with its top-left corner at (x, y); returns the face-up cards drawn."""
    write(canvas, (x, y + 2), placed.label, LABEL_SIZE, LABEL_INK)
    group = placed.group
    top = y + LABEL_HEIGHT
    captions = _has_captions(group)
    drawn: list[Card] = []
    if group.size is not None:
        _draw_stack(canvas, group, x, top, style)
        drawn.extend(shown.card for shown in group.cards if shown.card is not None)
        return drawn
    if not group.cards:  # an empty hand or table: its place, so the label is not left alone
        canvas.paste(empty_place(), (x, top), empty_place())
    line_height = CARD_HEIGHT + (CAPTION_HEIGHT if captions else 0) + CARD_GAP
    for index, shown in enumerate(group.cards):
        left = x + (index % placed.per_line) * placed.step
        card_top = top + (index // placed.per_line) * line_height
        image = card_back() if shown.card is None else card_face(shown.card, style)
        canvas.paste(image, (left, card_top), image)
        if shown.card is not None:
            drawn.append(shown.card)
        if shown.caption:
            caption_at = (left + CARD_WIDTH // 2, card_top + CARD_HEIGHT + 3)
            write(canvas, caption_at, shown.caption, CAPTION_SIZE, CAPTION_INK, anchor="mt")
    return drawn


def _draw_stack(canvas: Image.Image, group: Group, x: int, top: int, style: DeckStyle) -> None:
    """A stack: the cards under its top peeking out, the top, and how many cards it holds
    written under it."""
    size = group.size or 0
    if size:
        for under in range(min(size - 1, 2), 0, -1):
            shift = under * STACK_SHIFT
            canvas.paste(card_back(), (x + shift, top + shift), card_back())
        face = group.cards[0].card
        image = card_back() if face is None else card_face(face, style)
        canvas.paste(image, (x, top), image)
    else:
        canvas.paste(empty_place(), (x, top), empty_place())
    write(
        canvas,
        (x, top + CARD_HEIGHT + 2 * STACK_SHIFT + 3),
        stack_caption(size),
        CAPTION_SIZE,
        CAPTION_INK if size else EMPTY_INK,
        anchor="lt",  # under the label, as wide as it may be
    )


def _heights(lines: list[list[_Placed]]) -> tuple[list[int], int]:
    """The height of each line, and of the picture."""
    heights = [max((placed.height for placed in line), default=0) for line in lines]
    return heights, 2 * PADDING + sum(heights) + GROUP_GAP // 2 * max(len(lines) - 1, 0)


def draw_canvas(
    layout: Layout, names: Sequence[str], style: DeckStyle = DeckStyle.STANDARD
) -> tuple[Image.Image, list[Card]]:
    """``layout`` drawn in full colour, WIDTH wide at most unless that makes it taller than
    TALL (then never wider than MAX_WIDTH), and the face-up cards drawn."""
    lines = _lines(layout, names, WIDTH)
    heights, height = _heights(lines)
    if height > TALL:
        wide = _lines(layout, names, MAX_WIDTH)
        wide_heights, wide_height = _heights(wide)
        if wide_height < height:
            lines, heights, height = wide, wide_heights, wide_height
    width = max((_width(line) for line in lines), default=0)
    canvas = Image.new("RGB", (max(width, 2 * PADDING + CARD_WIDTH), height), FELT)
    drawn: list[Card] = []
    y = PADDING
    for line, line_height in zip(lines, heights, strict=True):
        x = PADDING
        for placed in line:
            drawn += _draw_group(canvas, placed, x, y, style)
            x += placed.width + GROUP_GAP
        y += line_height + GROUP_GAP // 2
    return canvas, drawn


@cache
def palette() -> Image.Image:
    """The PALETTE_COLOURS colours every picture is drawn in, picked once (Pillow's fast
    octree) from what pictures are made of: every face in both deck styles, overlapping,
    backs, stacks, an empty place, labels and captions on the felt.

    A palette picked per picture took over half of a picture's time; mapping to this one
    takes a fifth of that, and keeps closer to the full-colour drawing (over the bench's
    pictures, a smaller mean and largest difference than 64 colours picked per picture)."""
    deck = face_up("Deck · {s0}", [card.text for card in FULL_DECK])
    others = [stack("Stock", 30, "KH"), stack("Pile", 0), Group("{s1}", (Shown(None, "A"),) * 3)]
    with speaking(NullTranslations()):  # the same palette whatever language is spoken now
        canvases = [draw_canvas(rows([deck], others), ["Ann", "Bea"], s)[0] for s in DeckStyle]
    swatch = Image.new("RGB", (max(c.width for c in canvases), sum(c.height for c in canvases)))
    top = 0
    for canvas in canvases:
        swatch.paste(canvas, (0, top))
        top += canvas.height
    return swatch.quantize(PALETTE_COLOURS, Image.Quantize.FASTOCTREE)


def render(layout: Layout, names: Sequence[str], style: DeckStyle = DeckStyle.STANDARD) -> Picture:
    """Draw ``layout`` with seats named ``names``: one PNG (see ``draw_canvas``) in the
    colours of ``palette()``."""
    canvas, drawn = draw_canvas(layout, names, style)
    buffer = io.BytesIO()
    # A palette keeps every ink and the smooth edges at a fraction of the bytes; dithering
    # would only speckle the flat felt and cards. zlib's level 3 is its fastest kind of
    # search at its best: it encodes in under half the time of the default 6, for about a
    # sixth more bytes (still tens of KB at most).
    mapped = canvas.quantize(palette=palette(), dither=Image.Dither.NONE)
    mapped.save(buffer, "PNG", compress_level=3)
    data = buffer.getvalue()
    digest = hashlib.blake2b(data, digest_size=8).hexdigest()
    alt_text = layout.alt_text(names)
    if len(alt_text) > ALT_TEXT_LIMIT:
        alt_text = layout.alt_text(names, words=False)[:ALT_TEXT_LIMIT]
    return Picture(data, alt_text, f"cards-{digest}.png", tuple(drawn))


class PictureCache:
    """Pictures by content (layout, names, style, and the language of the words drawn on them
    and of their alt text): an unchanged picture is neither drawn nor uploaded again. Holds
    pictures of at most ``max_bytes`` of PNG in all, dropping the least recently used (the
    layouts kept as keys are small beside their pictures)."""

    def __init__(self, max_bytes: int = 8_000_000) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0  # PNG bytes held now
        self.drawn = 0  # how many pictures were actually drawn (the rest came from the cache)
        self._pictures: OrderedDict[
            tuple[Layout, tuple[str, ...], DeckStyle, NullTranslations], Picture
        ] = OrderedDict()

    def picture(
        self, layout: Layout, names: Sequence[str], style: DeckStyle = DeckStyle.STANDARD
    ) -> Picture:
        """The picture of ``layout`` in the active language, drawn only if it is not already
        held."""
        key = (layout, tuple(names), style, active_catalog())
        picture = self._pictures.get(key)
        if picture is not None:
            self._pictures.move_to_end(key)
            return picture
        picture = render(layout, names, style)
        self.drawn += 1
        self._pictures[key] = picture
        self.bytes += len(picture.data)
        while self.bytes > self.max_bytes and len(self._pictures) > 1:
            _, dropped = self._pictures.popitem(last=False)
            self.bytes -= len(dropped.data)
        return picture

    def __len__(self) -> int:
        return len(self._pictures)
