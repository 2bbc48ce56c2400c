"""The deck colours a person chooses for their own pictures: the Hand's button switches them,
their Hand and hand DM use them, the public table picture does not, and the choice is kept
through a restart."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import simcord

from bot.app import CardroomBot, create_bot
from bot.pictures import DeckStyle, render
from bot.preferences import DeckStyles
from bot.tables.hand_view import DeckButton
from bot.tables.session import TableSession
from bot.wiring import wired
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    add_player,
    assert_within_discord_limits,
    hand_dm,
    kill_and_restart,
    layout_of,
    move_by_hand,
    open_hand,
    open_table,
    release,
    table_message,
)

FOUR, RED_BLACK = "🎨 Four-colour deck", "🎨 Red/black deck"


def picture_files(message: Any) -> list[str]:
    """The file name of every picture a message shows (made from the picture's content)."""
    return [
        str(media["media"]["url"]).rsplit("/", 1)[-1]  # attachment://NAME, or a CDN address
        for item in layout_of(message)
        for media in item.get("items", [])
    ]


def labels(message: Any) -> list[str]:
    return [str(item.get("label")) for item in layout_of(message) if item.get("type") == 2]


def seat_picture(table: TableSession, seat: int, style: DeckStyle) -> str:
    """The file name of the seat's picture (all it sees: its Hand view's and its hand DM's)
    drawn in ``style``."""
    return render(table.game.layout(table.state.view(seat)), table.names, style).filename


async def test_the_deck_button_switches_only_the_clickers_pictures_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    old = new = create_bot(fast_settings(tmp_path))
    try:
        async with simcord.run(old) as env:
            await old.tree.sync()
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
            table = await open_table(old, channel, [ann, bob], "fishing", 0)
            public = render(table.game.layout(table.state.public_view()), table.names)

            hand = await open_hand(ann, channel, table)
            assert picture_files(hand) == [seat_picture(table, 0, DeckStyle.STANDARD)]
            assert FOUR in labels(hand)
            switched = await ann.member.click(hand, label=FOUR)
            assert switched.response is not None
            assert picture_files(switched.response) == [
                seat_picture(table, 0, DeckStyle.FOUR_COLOUR)
            ]
            assert RED_BLACK in labels(switched.response)  # it now offers the way back
            # her hand DM is redrawn in it at once, though the game has not moved
            assert picture_files(hand_dm(ann, table)) == [
                seat_picture(table, 0, DeckStyle.FOUR_COLOUR)
            ]
            assert_within_discord_limits(switched.response)
            # bob's Hand and the public table stay red and black
            bobs = await open_hand(bob, channel, table)
            assert picture_files(bobs) == [seat_picture(table, 1, DeckStyle.STANDARD)]
            assert picture_files(table_message(channel, table)) == [public.filename]

            new = await kill_and_restart(env, old)
            restored = new.tables.tables[table.table_id]
            again = await open_hand(ann, channel, restored)
            assert picture_files(again) == [seat_picture(restored, 0, DeckStyle.FOUR_COLOUR)]
            # after a move, ann's hand DM (all she sees) is drawn in her deck too; bob's is not
            mover = [ann, bob][restored.state.waiting_for()[0]]
            assert await move_by_hand(mover, channel, restored, random.Random(1))
            assert picture_files(hand_dm(ann, restored)) == [
                seat_picture(restored, 0, DeckStyle.FOUR_COLOUR)
            ]
            assert picture_files(hand_dm(bob, restored)) == [
                seat_picture(restored, 1, DeckStyle.STANDARD)
            ]
    finally:
        await release(new, old)


async def test_a_style_another_process_stored_shows_and_a_button_does_what_it_named(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    dm = hand_dm(ann, table)
    assert FOUR in labels(dm)

    # another process (another shard's, on the same database) stores her choice: this one's
    # memory still says red/black, but her next Hand reads her row again
    await bot.storage.preferences.set_deck_style(ann.member.id, "four_colour")
    hand = await open_hand(ann, channel, table)
    assert picture_files(hand) == [seat_picture(table, 0, DeckStyle.FOUR_COLOUR)]
    assert RED_BLACK in labels(hand)

    # her hand DM, drawn before, still offers the four-colour deck: a click there gives what
    # it named, not a switch away from the style now known
    clicked = await ann.user.click(dm, label=FOUR)
    assert picture_files(clicked.response or hand_dm(ann, table)) == [
        seat_picture(table, 0, DeckStyle.FOUR_COLOUR)
    ]
    assert await bot.storage.preferences.deck_style(ann.member.id) == "four_colour"


class _Styles:
    """A ``DeckStyles`` stand-in that knows one person's style."""

    def __init__(self, style: DeckStyle) -> None:
        self.style = style

    def of(self, user_id: int | None) -> DeckStyle:
        return self.style


async def test_a_deck_button_gives_the_style_it_names_an_older_one_switches() -> None:
    def button_class(style: DeckStyle) -> type[DeckButton]:
        return wired(DeckButton, SimpleNamespace(deck_styles=_Styles(style)))  # type: ignore[arg-type]

    ann = SimpleNamespace(id=7)
    interaction: Any = SimpleNamespace(user=ann)
    template = DeckButton.__discord_ui_compiled_template__
    for custom_id, known, switches_to in [
        ("cr:deck:t1", DeckStyle.STANDARD, DeckStyle.FOUR_COLOUR),  # drawn before: a switch
        ("cr:deck:t1", DeckStyle.FOUR_COLOUR, DeckStyle.STANDARD),
        ("cr:deck:t1:four_colour", DeckStyle.FOUR_COLOUR, DeckStyle.FOUR_COLOUR),  # as named
        ("cr:deck:t1:standard", DeckStyle.FOUR_COLOUR, DeckStyle.STANDARD),
    ]:
        match = template.fullmatch(custom_id)
        assert match is not None
        item = await button_class(known).from_custom_id(interaction, None, match)  # type: ignore[arg-type]
        assert (item.table_id, item.to) == ("t1", switches_to)
        assert item.item.custom_id == f"cr:deck:t1:{switches_to.value}"
    assert template.fullmatch("cr:deck:t1:rainbow") is None


async def test_a_failed_read_of_a_style_keeps_the_one_known() -> None:
    class Refusing:
        async def deck_style(self, user_id: int) -> str | None:
            raise OSError("the database is gone")

    styles = DeckStyles(Refusing(), {7: DeckStyle.FOUR_COLOUR})  # type: ignore[arg-type]
    assert await styles.refresh(7) is DeckStyle.FOUR_COLOUR
    assert await styles.refresh(8) is DeckStyle.STANDARD


async def test_a_dm_switched_in_place_then_redrawn_from_a_hand_view_keeps_its_picture(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """The DM's own button redraws it in place (an interaction's edit): the bot's next edit of
    that DM, to the picture it last sent there itself, must upload it again. It sent a
    reference to a picture the message no longer held: Discord refused the edit (400), the
    DM kept the wrong colours and an error was logged."""
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    await ann.user.click(hand_dm(ann, table), label=FOUR)  # the DM, in place
    hand = await open_hand(ann, channel, table)
    await ann.member.click(hand, label=RED_BLACK)  # the Hand view, then the DM by the bot
    dm = hand_dm(ann, table)
    assert picture_files(dm) == [seat_picture(table, 0, DeckStyle.STANDARD)]
    assert [file.filename for file in dm.attachments] == picture_files(dm)
