"""The table, Hand view and hand DM as Components V2 messages: each picture is drawn from the
matching view (the alt text proves which cards it shows), and a picture is uploaded again only
when it changed."""

from __future__ import annotations

import simcord

from bot.app import CardroomBot
from bot.pictures import render
from bot.tables.hand_view import hand_message
from tests.bot.helpers import (
    add_player,
    assert_within_discord_limits,
    hand_dm,
    layout_of,
    open_hand,
    open_table,
    table_message,
)


def pictures(message: object) -> list[str]:
    """The alt text of every picture of a message."""
    return [
        str(media["description"]) for item in layout_of(message) for media in item.get("items", [])
    ]


async def test_each_picture_shows_exactly_its_views_cards(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "swazi", 0)
    game, state, names = table.game, table.state, table.names
    public = game.layout(state.public_view())
    shown = table_message(channel, table)
    assert pictures(shown) == [public.alt_text(names)]
    assert [a.filename for a in shown.attachments] == [render(public, names).filename]
    for player in (ann, bob):
        seat = table.seat_of(player.id)
        assert seat is not None
        mine = game.layout(state.view(seat))
        assert pictures(hand_dm(player, table)) == [mine.alt_text(names)]  # all it sees
        hand = await open_hand(player, channel, table)
        # the table beside its cards, as in the DM: on a phone the table is out of sight
        assert pictures(hand) == [mine.alt_text(names)]
        for message in (shown, hand_dm(player, table), hand):
            assert_within_discord_limits(message)


async def test_an_unchanged_picture_is_not_uploaded_again(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    message = hand_message(table, 0, env.now())
    names = message.filenames()
    assert len(names) == 1
    assert "attachments" not in message.kwargs(attached=names)  # the same picture: kept
    assert message.kwargs(attached=["cards-old.png"])["attachments"][0].filename == names[0]
    assert "attachments" in message.kwargs(attached=None)  # not known: uploaded
