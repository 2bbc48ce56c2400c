"""A hand's or round's end stays on the table before the next deal: its scores, a picture of
the cards it turned up (cambio's hands), and Next round, which any seated person may press;
without a click the table moves on by itself after ``ROUND_BREAK_SECONDS``. Nobody's clock
runs and no AI moves meanwhile, and a restart in the break keeps it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.app import CardroomBot, create_bot
from bot.settings import Settings
from bot.tables.session import TableSession
from engine.games.twentytwo import TwentyTwoState
from engine.registry import get_game
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    Player,
    add_player,
    cards_in,
    components,
    hand_dm,
    kill_and_restart,
    layout_of,
    open_table,
    play,
    release,
    table_message,
    text_of,
)

BREAK = 20
NEXT_ROUND = "Next round"
CAMBIO = {"rounds": 2, "snap_seconds": 0}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return fast_settings(tmp_path, round_break_seconds=BREAK)


def labels(message: Any) -> list[str]:
    return [str(item.get("label")) for item in components(message)]


def alt_texts(message: Any) -> list[str]:
    return [
        str(media.get("description"))
        for item in layout_of(message)
        for media in item.get("items", [])
    ]


def scores_text(table: TableSession) -> str:
    """The last round's scores as the engine wrote them (they list every card turned up)."""
    return [e.event.text for e in table.log if e.event.kind == "hand_end"][-1]


async def play_round(table: TableSession, players: dict[int, Player]) -> None:
    """Plain cambio moves by the people until the round ends: looks, draws and discards, and
    Cambio as soon as it may be called."""
    deals = table.deals
    while table.deals == deals:
        seat = next(s for s in table.state.to_act() if s in players)
        texts = [action.text for action in table.state.legal_actions(seat)]
        wanted = [text for text in ("cambio", "draw", "discard", "skip") if text in texts]
        await play(players[seat], table, (wanted or texts)[0])


async def cambio_table(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    *,
    ai: int = 0,
) -> tuple[TableSession, dict[int, Player]]:
    people = [add_player(env, guild, "ann"), add_player(env, guild, "bob")][: 2 - ai]
    table = await open_table(bot, channel, people, "cambio", ai, CAMBIO)
    seated = {table.seat_of(p.id): p for p in people}
    return table, {seat: p for seat, p in seated.items() if seat is not None}


def round_posts(channel: simcord.ChannelHandle, table: TableSession) -> list[discord.Message]:
    """Round 1's end posted apart from the table message (whose last moves may name it)."""
    return [
        m
        for m in channel.history()
        if "### Round 1 scores" in text_of(m) and m.id != table.table_message_id
    ]


def assert_moved_on(channel: simcord.ChannelHandle, table: TableSession) -> None:
    """The table shows the next deal, and the round's end is kept in the channel below."""
    assert table.round_end is None
    shown = table_message(channel, table)
    assert NEXT_ROUND not in labels(shown) and "Hand" in labels(shown)
    assert "Round 2" in text_of(shown)
    (kept,) = round_posts(channel, table)
    assert NEXT_ROUND not in labels(kept)


async def test_a_round_end_shows_the_revealed_hands_until_next_round_is_pressed(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, players = await cambio_table(env, bot, guild, channel)
    await play_round(table, players)
    revision, deadlines = table.revision, dict(table.deadlines)
    assert table.round_end is not None and table.round_end.revision == revision
    shown = table_message(channel, table)
    text = text_of(shown)
    assert "Round 1 scores" in text and NEXT_ROUND in labels(shown) and "Hand" not in labels(shown)
    # one picture, of exactly the cards the round turned up: every hand, nothing else
    (alt,) = alt_texts(shown)
    assert cards_in(alt) == cards_in(scores_text(table)) and len(cards_in(alt)) >= 8
    assert "Stock" not in alt and "Discard" not in alt
    assert round_posts(channel, table) == []  # the round end is on the table, not posted apart
    # nobody's turn began: each clock starts at the break's end, nobody is pinged, and the
    # supervisor sees a table waiting with a deadline (its driver ends the break)
    turn = timedelta(seconds=bot.settings.turn_seconds)
    assert deadlines and set(deadlines.values()) == {table.round_end.until + turn}
    assert bot.tables.supervisor.problem(table) is None
    assert not [m for m in channel.history() if "your turn" in m.content]

    # the hand DMs show the new deal, and say what the table shows
    for player in players.values():
        assert "until someone presses **Next round**" in text_of(hand_dm(player, table))

    stranger = add_player(env, guild, "cara")
    refused = await stranger.member.click(shown, label=NEXT_ROUND)
    assert "not seated" in text_of(refused.followups[0])
    assert table.round_end is not None

    await players[1].member.click(shown, label=NEXT_ROUND)
    assert table.revision == revision  # no move was made: nobody's view went stale
    assert_moved_on(channel, table)
    assert [m for m in channel.history() if "your turn" in m.content]  # the turns begin now
    (kept,) = round_posts(channel, table)
    assert [cards_in(a) for a in alt_texts(kept)] == [cards_in(alt)]
    # each turn's clock runs from the click, not from the break's planned end
    now = bot.tables.clock()
    assert all((when - now).total_seconds() <= 120 for when in table.deadlines.values())
    # a click that reaches the bot late (the button is gone from the table) does nothing
    await bot.tables.next_round(table.table_id, players[0].id, revision)
    assert table.revision == revision and len(round_posts(channel, table)) == 1


async def test_the_break_ends_by_itself_and_the_ai_waits_for_it(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, players = await cambio_table(env, bot, guild, channel, ai=1)
    await play_round(table, players)
    revision = table.revision
    assert table.round_end is not None
    await env.advance_time(BREAK - 2)
    assert table.revision == revision, "the AI moved during the break"
    assert NEXT_ROUND in labels(table_message(channel, table))
    await env.advance_time(3)
    assert_moved_on(channel, table)
    assert table.revision > revision, "the AI looked at its cards once the deal was shown"


async def test_a_move_during_the_break_ends_it(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, players = await cambio_table(env, bot, guild, channel)
    await play_round(table, players)
    assert table.round_end is not None
    await play(players[0], table, "look A B")
    assert_moved_on(channel, table)


async def test_a_restart_in_the_break_keeps_it_and_next_round_still_works(
    tmp_path: Path,
) -> None:
    settings = fast_settings(tmp_path, round_break_seconds=BREAK)
    old = new = create_bot(settings)
    try:
        async with simcord.run(old) as env:
            await old.tree.sync()
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            table, players = await cambio_table(env, old, guild, channel)
            await play_round(table, players)
            held = table.round_end
            assert held is not None
            shown = table_message(channel, table)

            new = await kill_and_restart(env, old)
            restored = new.tables.tables[table.table_id]
            assert restored.round_end is not None
            assert restored.round_end.scores == held.scores
            assert restored.round_end.reveal == held.reveal
            # the break starts again from the restart, as a turn does
            await env.advance_time(BREAK - 2)
            assert restored.round_end is not None
            again = table_message(channel, restored)
            assert NEXT_ROUND in labels(again)
            assert alt_texts(again) == alt_texts(shown)
            await players[0].member.click(shown, label=NEXT_ROUND)  # the message from before
            assert_moved_on(channel, restored)
    finally:
        await release(new, old)


async def test_a_restart_in_the_break_ends_it_by_itself_too(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path, round_break_seconds=BREAK)
    old = new = create_bot(settings)
    try:
        async with simcord.run(old) as env:
            await old.tree.sync()
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            table, players = await cambio_table(env, old, guild, channel)
            await play_round(table, players)
            new = await kill_and_restart(env, old)
            restored = new.tables.tables[table.table_id]
            await env.advance_time(BREAK + 1)
            assert_moved_on(channel, restored)
    finally:
        await release(new, old)


@pytest.mark.parametrize("game_id", ["twentytwo", "stuck", "fishing", "swazi"])
async def test_every_game_of_several_deals_holds_its_round_end(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    game_id: str,
) -> None:
    """Games that turn no hidden card up at a deal's end hold it too, without a picture."""
    ann = add_player(env, guild, "ann")
    game = get_game(game_id)
    table = await open_table(bot, channel, [ann], game_id, 1, {})
    deals = table.deals
    while table.round_end is None:
        assert not table.ended and table.deals == deals
        seat = table.state.waiting_for()[0]
        action = table.state.legal_actions(seat)[0]
        if table.seats[seat].is_human:
            await play(ann, table, action.text)
        else:
            await env.advance_time(1)
    shown = table_message(channel, table)
    assert NEXT_ROUND in labels(shown) and alt_texts(shown) == []
    assert "scores" in text_of(shown)
    await ann.member.click(shown, label=NEXT_ROUND)
    assert table.round_end is None and game.name in text_of(table_message(channel, table))


async def test_a_next_round_that_cannot_be_saved_keeps_the_break_and_the_driver_retries(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, players = await cambio_table(env, bot, guild, channel)
    await play_round(table, players)
    shown = table_message(channel, table)
    working = bot.storage.running.save

    async def failing(*_: object, **__: object) -> None:
        raise OSError("the disk is full")

    monkeypatch.setattr(bot.storage.running, "save", failing)
    refused = await players[0].member.click(shown, label=NEXT_ROUND)
    assert "could not be saved" in text_of(refused.followups[0])
    assert table.round_end is not None and NEXT_ROUND in labels(table_message(channel, table))
    await env.advance_time(BREAK + 1)  # the break's end cannot be saved either: kept
    assert table.round_end is not None and round_posts(channel, table) == []
    monkeypatch.setattr(bot.storage.running, "save", working)
    await env.advance_time(30)  # the driver tries again, and the table moves on
    assert_moved_on(channel, table)


async def test_with_only_ai_seats_left_in_the_game_the_next_deal_follows_at_once(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """ann is out of twentytwo (22 points) once her first hand ends: the AI seats play on,
    and no break holds a round's end that nobody still playing would read."""
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "twentytwo", 2, {})
    seat = table.seat_of(ann.id)
    assert seat is not None and isinstance(table.state, TwentyTwoState)
    table.state.totals[seat] = 22
    for _ in range(200):
        if table.ended or table.round_end is not None:
            break
        if seat in table.state.waiting_for():
            await play(ann, table, table.state.legal_actions(seat)[0].text)
        else:
            await env.advance_time(1)
    assert table.round_end is None and table.ended and not table.state.is_in(seat)
    posted = [m for m in channel.history() if "### Hand 1" in text_of(m)]
    assert posted and table.deals > 1  # hands ended, each posted at once


async def test_a_table_in_a_thread_holds_its_round_end_there(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path, round_break_seconds=BREAK, table_threads=True)
    bot = create_bot(settings)
    try:
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            table, players = await cambio_table(env, bot, guild, channel)
            thread = next(each for each in channel.threads if each.id == table.channel_id)
            await play_round(table, players)
            shown = table_message(thread, table)
            assert NEXT_ROUND in labels(shown) and len(alt_texts(shown)) == 1
            await players[0].member.click(shown, label=NEXT_ROUND)
            assert_moved_on(thread, table)
            assert not [m for m in channel.history() if "### Round 1 scores" in text_of(m)]
    finally:
        await release(bot)
