"""The card pictures: the renderer draws exactly a layout's cards, with matching alt text,
within the size limits, and the cache draws an unchanged picture only once."""

from __future__ import annotations

import io
import math
import random
from typing import cast

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.pictures import ALT_TEXT_LIMIT, DeckStyle, PictureCache, render
from bot.pictures.draw import (
    CAPTION_SIZE,
    KEPT_WORDS,
    LABEL_HEIGHT,
    LABEL_SIZE,
    MAX_WIDTH,
    MIN_STEP,
    PADDING,
    STACK_SHIFT,
    TALL,
    WIDTH,
    _measure,
    _words_mask,
    draw_canvas,
    stack_caption,
    write,
)
from bot.pictures.faces import CARD_HEIGHT, words_font
from engine.cards import FULL_DECK, Card
from engine.layout import Group, Layout, Row, Shown, face_up, rows, stack
from engine.registry import games

NAMES = ["Ann", "🤖 Ada", "Bartholomew the Magnificent", "Dee", "Eve", "Fay"]
SIZE_LIMIT = 80_000  # bytes: light enough to upload at every change


def positions(game_id: str, players: int, seed: int, every: int) -> list[tuple[Layout, int]]:
    """Layouts of every seat's and the public view at every ``every``-th step of random play."""
    game = games()[game_id]
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    found = []
    step = 0
    while True:
        if step % every == 0 or state.is_over:
            views = [state.view(seat) for seat in range(players)] + [state.public_view()]
            found += [(game.layout(view), players) for view in views]
        if state.is_over:
            return found
        seat = state.waiting_for()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        step += 1


@pytest.mark.slow
@pytest.mark.parametrize("game_id", list(games()))
def test_every_picture_draws_exactly_its_layouts_cards_within_the_limits(game_id: str) -> None:
    counts = games()[game_id].player_counts
    for players in (counts[0], counts[-1]):
        for layout, seats in positions(game_id, players, seed=players, every=15):
            picture = render(layout, NAMES[:seats])
            assert list(picture.cards) == layout.face_up()
            assert picture.alt_text == layout.alt_text(NAMES[:seats])
            assert len(picture.alt_text) <= ALT_TEXT_LIMIT
            assert len(picture.data) < SIZE_LIMIT
            image = Image.open(io.BytesIO(picture.data))
            assert image.format == "PNG" and image.width <= MAX_WIDTH


def test_each_card_draws_differently_and_face_down_cards_show_no_face() -> None:
    def pixels(layout: Layout) -> bytes:
        return Image.open(io.BytesIO(render(layout, []).data)).tobytes()

    drawn = {pixels(rows([face_up("Card", [card.text])])) for card in map(Card.parse, DECK_SAMPLE)}
    assert len(drawn) == len(DECK_SAMPLE)
    down = rows([Group("Card", (Shown(None),))])
    assert pixels(down) not in drawn and render(down, []).cards == ()


DECK_SAMPLE = ["AS", "AC", "AH", "AD", "10D", "10H", "3C", "3S", "JS", "QS", "KS", "KH"]


def test_the_four_colour_deck_changes_clubs_and_diamonds_only() -> None:
    def picture(text: str, style: DeckStyle) -> bytes:
        return render(rows([face_up("Card", [text])]), [], style).data

    for text in ("2C", "9D"):
        assert picture(text, DeckStyle.STANDARD) != picture(text, DeckStyle.FOUR_COLOUR)
    for text in ("2S", "9H"):
        assert picture(text, DeckStyle.STANDARD) == picture(text, DeckStyle.FOUR_COLOUR)


def test_alt_text_names_every_card_and_stack_with_seat_names() -> None:
    layout = Layout(
        (
            Row((face_up("Table", ["3H", "QS"]), stack("{s1}'s pile", 12, "9C"))),
            Row((Group("{s0}", (Shown(None, "pos A"), Shown(Card.parse("KD"), "pos B"))),)),
            Row((stack("Stock", 1), stack("Discard", 0))),
        )
    )
    assert render(layout, ["🤖 Ada", "Bob"]).alt_text == (
        "Table: 3 of hearts, queen of spades. Bob's pile: 12 cards, top 9 of clubs. "
        "🤖 Ada: pos A face down, pos B king of diamonds. Stock: 1 card face down. "
        "Discard: 0 cards."
    )


def test_a_too_long_alt_text_falls_back_to_the_short_card_form() -> None:
    hands = [face_up(f"{{s{seat}}}", ["10D", "10H", "10S", "10C"]) for seat in range(6)]
    layout = rows(hands * 4)
    names = ["A very long player name here"] * 6
    assert len(layout.alt_text(names)) > ALT_TEXT_LIMIT
    alt_text = render(layout, names).alt_text
    assert len(alt_text) <= ALT_TEXT_LIMIT and "10♦, 10♥, 10♠, 10♣" in alt_text


def test_a_big_hand_overlaps_then_wraps_and_stays_within_the_width() -> None:
    every_card = [card.text for card in FULL_DECK]
    for count in (8, 20, 52):
        picture = render(rows([face_up("Your hand", every_card[:count])]), [])
        image = Image.open(io.BytesIO(picture.data))
        assert image.width <= MAX_WIDTH and len(picture.cards) == count
    assert image.height > 2 * 90  # 52 cards take more than one line


def test_a_wrapped_hand_splits_into_even_lines_that_show_every_corner_index() -> None:
    every_card = [card.text for card in FULL_DECK]
    for count in range(2, 53):
        placed = _measure(face_up("Your hand", every_card[:count]), "Your hand")
        lines = math.ceil(count / placed.per_line)
        assert placed.step >= MIN_STEP and placed.width <= WIDTH - 2 * PADDING
        assert count - (lines - 1) * placed.per_line >= placed.per_line - lines  # even lines
    assert _measure(face_up("Your hand", every_card[:14]), "").per_line == 7  # not 12 and 2


def test_a_picture_is_narrow_for_phones_unless_that_makes_it_too_tall() -> None:
    def size(layout: Layout) -> tuple[int, int]:
        image = Image.open(io.BytesIO(render(layout, NAMES).data))
        return image.width, image.height

    seats = [Group(f"{{s{seat}}}", (Shown(None, "card A"),) * 4) for seat in range(6)]
    assert size(rows(seats[:2]))[0] <= WIDTH  # one seat a line: still short
    wide, tall = size(rows(seats))
    assert WIDTH < wide <= MAX_WIDTH and tall <= TALL  # two seats a line: 3 lines, not 6


def test_the_cache_draws_an_unchanged_picture_once_and_stays_bounded() -> None:
    layouts = [rows([face_up("Table", [text])]) for text in ("2C", "3C", "4C", "5C")]
    sizes = [len(render(layout, ["Ann"]).data) for layout in layouts]
    cache = PictureCache(max_bytes=sum(sizes[1:]) + 200)  # room for three of these, not four
    first = cache.picture(layouts[0], ["Ann"])
    assert cache.picture(layouts[0], ["Ann"]) is first and cache.drawn == 1
    assert cache.picture(layouts[0], ["Bob"]) is not first and cache.drawn == 2
    for layout in layouts[1:]:
        cache.picture(layout, ["Ann"])
    assert len(cache) == 3 and cache.drawn == 5 and cache.bytes <= cache.max_bytes
    assert cache.bytes == sum(sizes[1:])
    again = cache.picture(layouts[0], ["Ann"])  # dropped as the least recently used: redrawn
    assert cache.drawn == 6 and again.filename == first.filename


def test_a_file_name_comes_from_the_content() -> None:
    one, other = (render(rows([face_up("Table", [text])]), []) for text in ("2C", "3C"))
    assert one.filename != other.filename and one.filename.endswith(".png")


def test_a_hand_alone_draws_only_the_seats_own_cards_and_nothing_draws_a_blank() -> None:
    layout = rows(
        [face_up("Table", ["2C"]), stack("Stock", 30)],
        [face_up("Your hand", ["3D", "KS"], mine=True)],
    )
    assert render(layout.own(), ["Ann"]).cards == tuple(map(Card.parse, ["3D", "KS"]))
    blank = render(Layout(()), ["Ann"])
    assert blank.cards == () and blank.alt_text == ""
    assert Image.open(io.BytesIO(blank.data)).width <= MAX_WIDTH


def largest_difference(one: Image.Image, other: Image.Image) -> int:
    """The largest difference of one colour channel at one pixel."""
    extrema = cast("tuple[tuple[int, int], ...]", ImageChops.difference(one, other).getextrema())
    return max(high for _, high in extrema)


def test_a_stacks_number_is_written_under_it_as_a_card_count() -> None:
    """The number on a pile was read as a score: it is a caption, "36 cards", under the
    stack, never on the cards (two sizes draw the same cards, different captions)."""
    big, small = (render(rows([stack("Stock", size)]), []) for size in (36, 7))
    big_image, small_image = (Image.open(io.BytesIO(p.data)).convert("RGB") for p in (big, small))
    assert big_image.size == small_image.size
    cards_bottom = PADDING + LABEL_HEIGHT + CARD_HEIGHT + 2 * STACK_SHIFT
    width, height = big_image.size
    cards, caption = (0, 0, width, cards_bottom), (0, cards_bottom, width, height)
    # every picture is drawn in the same palette: the same cards, the same pixels
    assert largest_difference(big_image.crop(cards), small_image.crop(cards)) == 0
    assert largest_difference(big_image.crop(caption), small_image.crop(caption)) > 100
    assert stack_caption(36) == "36 cards" and stack_caption(1) == "1 card"
    empty = render(rows([stack("Ann's pile", 0)]), [])
    assert Image.open(io.BytesIO(empty.data)).height == big_image.height  # "empty" under it


@pytest.mark.parametrize("anchor", ["la", "mt", "lt"])
@pytest.mark.parametrize("text", ["Ann's hand", "Stock · 36 cards", "Pilha de Bé… (ñ)", "", "Tg,"])
def test_words_written_from_a_kept_mask_are_the_pixels_image_draw_gives(
    text: str, anchor: str
) -> None:
    """Labels and captions are written from masks kept between pictures: the same pixels as
    drawing them with ImageDraw, at either size, on the felt or over a card."""
    for size in (LABEL_SIZE, CAPTION_SIZE):
        for background in ((26, 88, 58), (250, 250, 246)):
            drawn, first, kept = (Image.new("RGB", (300, 60), background) for _ in range(3))
            ink = (214, 234, 218)
            font = words_font(size)
            ImageDraw.Draw(drawn).text((120, 20), text, font=font, fill=ink, anchor=anchor)
            write(first, (120, 20), text, size, ink, anchor)
            write(kept, (120, 20), text, size, ink, anchor)  # from the mask the first kept
            assert first.tobytes() == kept.tobytes() == drawn.tobytes()


def test_the_kept_words_are_bounded() -> None:
    _words_mask.cache_clear()
    for number in range(KEPT_WORDS + 10):
        write(Image.new("RGB", (80, 30)), (0, 0), str(number), CAPTION_SIZE, (255, 255, 255))
    assert _words_mask.cache_info().currsize == KEPT_WORDS


@pytest.mark.parametrize("style", list(DeckStyle))
def test_a_picture_keeps_close_to_its_full_colour_drawing_in_either_deck_style(
    style: DeckStyle,
) -> None:
    """Pictures are mapped to one palette picked once: every ink of both deck styles, the
    backs, the felt and the words on it stay within a few shades of the drawing."""
    layout = rows(
        [face_up("{s0} · Ann's hand", [card.text for card in FULL_DECK[::3]]), stack("Stock", 9)],
        [stack("Pile", 4, "QD"), stack("Discards", 0), face_up("Table", ["10C", "JS", "2H"])],
        [Group("{s1}", (Shown(None, "card A"), Shown(Card.parse("KC"), "card B")))],
    )
    canvas, _ = draw_canvas(layout, NAMES[:2], style)
    picture = Image.open(io.BytesIO(render(layout, NAMES[:2], style).data))
    assert picture.mode == "P"
    assert largest_difference(canvas, picture.convert("RGB")) <= 32
