"""Open lobbies survive a restart: a new bot on the same database brings each one back with its
seats, options and AI levels, in its old message, whose buttons work; a lobby whose channel
went while the bot was down is dropped; a started lobby is gone from storage with the game's
first save, in the same transaction (``test_storage.py``). A lobby or a table keeps its
language as a live one does; one saved in a language Cardroom no longer ships comes back
speaking the server's chosen language, else its host's, else English."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol
from unittest import mock

import pytest
import simcord

from bot.app import CardroomBot
from bot.storage import LoadedGame
from bot.tables.lobby import Lobby
from bot.tables.session import TableSession
from tests.bot.conftest import admin
from tests.bot.helpers import Player, SeededDraws, add_player, kill_and_restart, release, text_of


class Restart(Protocol):
    """Kills the running bot and starts a new one on its database (``kill_and_restart``)."""

    def __call__(self, meanwhile: Callable[[], None] = ...) -> Awaitable[CardroomBot]: ...


@pytest.fixture
async def restart(env: simcord.Env, bot: CardroomBot) -> AsyncIterator[Restart]:
    """Restarts of the test's bot, each new bot released at the end."""
    bots = [bot]

    async def again(meanwhile: Callable[[], None] = lambda: None) -> CardroomBot:
        bots.append(await kill_and_restart(env, bots[-1], meanwhile))
        return bots[-1]

    yield again
    await release(*bots[1:])


@pytest.fixture
def ann(env: simcord.Env, guild: simcord.GuildHandle) -> Player:
    """The host of the tests' lobbies."""
    return add_player(env, guild, "ann")


async def open_lobby(
    bot: CardroomBot, players: list[Player], channel: simcord.ChannelHandle
) -> tuple[simcord.ResponseMessage, simcord.ResponseMessage]:
    """A fishing lobby hosted by the first player (target 31), the others joined, one AI
    set to hard: the lobby message and the private level offer."""
    bot.tables.draws = SeededDraws("lobby restart")
    started = await players[0].member.slash(channel, "game start fishing", target=31)
    assert started.response is not None
    lobby = started.response
    for player in players[1:]:
        await player.member.click(lobby, label="Join")
    added = await players[0].member.click(lobby, label="Add AI")
    await players[0].member.click(added.followups[0], label="Hard")
    return lobby, added.followups[0]


def the_lobby(bot: CardroomBot, channel: simcord.ChannelHandle) -> Lobby:
    return bot.tables.lobbies.get(bot.tables.by_channel[channel.id])


def the_table(bot: CardroomBot, channel: simcord.ChannelHandle) -> TableSession:
    return bot.tables.tables[bot.tables.by_channel[channel.id]]


async def save_tables_in(bot: CardroomBot, language: str) -> None:
    """Every running game saved as speaking ``language``."""
    async with bot.storage._database.transaction() as sql:
        await sql.execute(
            "UPDATE running_games SET table_log"
            ' = replace(table_log, \'"language":"en"\', :language)',
            {"language": f'"language":"{language}"'},
        )


def seats_of(lobby: Lobby) -> list[tuple[int | None, str, bool, str]]:
    return [(s.user_id, s.name, s.is_ai, s.level) for s in lobby.seats]


async def test_an_open_lobby_comes_back_after_a_restart_with_working_buttons(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    restart: Restart,
    ann: Player,
) -> None:
    bob = add_player(env, guild, "bob")
    message, offer = await open_lobby(bot, [ann, bob], channel)
    before = the_lobby(bot, channel)
    assert seats_of(before)[2][2:] == (True, "hard")

    new = await restart()
    assert not new.restore_problems
    restored = the_lobby(new, channel)
    assert restored is not before and restored.lobby_id == before.lobby_id
    assert seats_of(restored) == seats_of(before)
    assert restored.options == before.options and restored.options["target"] == 31
    assert (restored.host_id, restored.message_id) == (ann.id, before.message_id)
    shown = next(m for m in channel.history() if m.id == before.message_id)
    assert "Ada (hard)" in text_of(shown) and "lobby closed" not in text_of(shown)

    # the buttons of the messages sent before the restart work with the new bot
    cara = add_player(env, guild, "cara")
    joined = await cara.member.click(message, label="Join")
    assert joined.response is not None and "cara" in text_of(joined.response)
    easy = await ann.member.click(offer, label="Easy")
    assert easy.response is not None and "**easy**" in text_of(easy.response)
    assert [s.level for s in restored.seats if s.is_ai] == ["easy"]
    (saved,), _ = await new.storage.lobbies.load()
    assert [s.user_id for s in saved.seats] == [ann.id, bob.id, None, cara.id]
    assert [s.level for s in saved.seats if s.is_ai] == ["easy"]

    await ann.member.click(message, label="Start")
    table = the_table(new, channel)
    assert [s.name for s in table.seats] == ["ann", "bob", "Ada", "cara"]
    assert table.seats[2].level == "easy" and table.options["target"] == 31
    assert await new.storage.lobbies.load() == ([], []), "started: no lobby stored"
    running = await new.storage.running.load()
    assert [g.saved.table_id for g in running if isinstance(g, LoadedGame)] == [table.table_id]


async def test_a_closed_lobby_does_not_come_back(
    bot: CardroomBot, channel: simcord.ChannelHandle, restart: Restart, ann: Player
) -> None:
    message, _ = await open_lobby(bot, [ann], channel)
    await ann.member.click(message, label="Cancel")
    new = await restart()
    assert channel.id not in new.tables.by_channel
    assert await new.storage.lobbies.load() == ([], [])


async def test_a_lobby_whose_channel_went_while_the_bot_was_down_is_dropped(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    restart: Restart,
    ann: Player,
) -> None:
    kept = guild.create_text_channel("kept")
    bob = add_player(env, guild, "bob")
    await open_lobby(bot, [ann], channel)
    await open_lobby(bot, [bob], kept)

    def deleted() -> None:  # while no bot runs: the killed one hears nothing of it
        backend = env.backend
        del backend.channels[channel.id]
        backend.messages.pop(channel.id, None)
        backend.get_guild(guild.id).channel_ids.remove(channel.id)

    new = await restart(deleted)
    await env.advance_time(1)
    assert channel.id not in new.tables.by_channel
    assert the_lobby(new, kept).host_id == bob.id
    saved, _ = await new.storage.lobbies.load()
    assert [lobby.channel_id for lobby in saved] == [kept.id]


async def test_a_lobby_change_that_cannot_be_saved_is_not_made(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    ann: Player,
) -> None:
    bob = add_player(env, guild, "bob")
    message, _ = await open_lobby(bot, [ann], channel)
    before = seats_of(the_lobby(bot, channel))
    locked = sqlite3.OperationalError("database is locked")
    with mock.patch.object(bot.storage.lobbies, "save", side_effect=locked):
        joined = await bob.member.click(message, label="Join")
        added = await ann.member.click(message, label="Add AI")
    for refused in (joined, added):
        assert refused.ephemeral and "could not be saved" in text_of(refused.response)
    assert seats_of(the_lobby(bot, channel)) == before
    (saved,), _ = await bot.storage.lobbies.load()
    assert [(s.user_id, s.name, s.is_ai, s.level) for s in saved.seats] == before
    other = guild.create_text_channel("other")
    with mock.patch.object(bot.storage.lobbies, "save", side_effect=locked):
        refused = await bob.member.slash(other, "game start fishing")
    assert "could not be saved" in text_of(refused.response)
    assert other.id not in bot.tables.by_channel, "no lobby opened"


async def test_a_lobby_saved_in_a_language_no_longer_shipped_comes_back_in_english(
    bot: CardroomBot, channel: simcord.ChannelHandle, restart: Restart, ann: Player
) -> None:
    message, _ = await open_lobby(bot, [ann], channel)
    # saved while Cardroom spoke 'xx', which it no longer ships (nor does its host read)
    async with bot.storage._database.transaction() as sql:
        await sql.execute("UPDATE open_lobbies SET language = 'xx'")

    new = await restart()
    assert not new.restore_problems
    assert the_lobby(new, channel).language == "en", "said, not left to the catalogs"
    shown = next(m for m in channel.history() if m.id == message.id)
    assert "Ada (hard)" in text_of(shown) and "How to play" in text_of(shown)

    await ann.member.click(message, label="Start")
    assert the_table(new, channel).language == "en"
    (running,) = await new.storage.running.load()
    assert isinstance(running, LoadedGame) and running.saved.table_log is not None
    assert running.saved.table_log.language == "en", "its table stores a language it speaks"


async def test_a_table_saved_in_a_language_no_longer_shipped_comes_back_in_english(
    bot: CardroomBot, channel: simcord.ChannelHandle, restart: Restart, ann: Player
) -> None:
    message, _ = await open_lobby(bot, [ann], channel)
    await ann.member.click(message, label="Start")
    await save_tables_in(bot, "xx")
    (saved,) = await bot.storage.running.load()
    assert isinstance(saved, LoadedGame) and saved.saved.table_log is not None
    assert saved.saved.table_log.language == "xx"

    new = await restart()
    assert the_table(new, channel).language == "en", "said, not left to the catalogs"


async def test_a_restored_lobby_speaks_as_a_live_one_after_an_admin_chose_a_language(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    restart: Restart,
    ann: Player,
) -> None:
    """A live lobby keeps the language it opened in when an admin chooses another, and so
    does one restored with it; one restored without a language it can speak (saved before
    its language was kept, or in one no longer shipped) speaks what a lobby opened now
    would: the admin's choice. A table saved in one no longer shipped, the same."""
    bob, cara = add_player(env, guild, "bob"), add_player(env, guild, "cara")
    kept, unsaid = guild.create_text_channel("kept"), guild.create_text_channel("unsaid")
    playing = guild.create_text_channel("playing")
    message, _ = await open_lobby(bot, [ann], kept)
    await open_lobby(bot, [bob], unsaid)
    started, _ = await open_lobby(bot, [cara], playing)
    await cara.member.click(started, label="Start")
    await admin(env, guild, "boss").slash(channel, "cardroom language", language="de")

    live = await ann.member.click(message, label="Add AI")  # a live lobby, drawn anew
    assert live.response is not None and "How to play" in text_of(live.response)
    assert the_lobby(bot, kept).language == "en"
    async with bot.storage._database.transaction() as sql:
        await sql.execute(
            "UPDATE open_lobbies SET language = NULL WHERE channel_id = :channel",
            {"channel": unsaid.id},
        )
    await save_tables_in(bot, "xx")

    new = await restart()
    assert not new.restore_problems
    assert the_lobby(new, kept).language == "en", "as the live one: its own language"
    assert the_lobby(new, unsaid).language == "de", "as a lobby opened now"
    assert the_table(new, playing).language == "de"
    for where, words in ((kept, "How to play"), (unsaid, "So wird gespielt")):
        lobby = the_lobby(new, where)
        shown = next(m for m in where.history() if m.id == lobby.message_id)
        assert words in text_of(shown)


async def test_a_restored_lobby_and_table_without_their_language_speak_their_hosts(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    restart: Restart,
    ann: Player,
) -> None:
    """Where no admin chose a language, a lobby and a table restored without a language they
    can speak both speak their host's (as they joined), as a lobby opened now would: the
    table spoke English, skipping its host's."""
    bob = add_player(env, guild, "bob")
    unsaid, playing = guild.create_text_channel("unsaid"), guild.create_text_channel("playing")
    for host in (ann, bob):
        await host.member.slash(unsaid, "language", language="fr")
    await ann.member.slash(unsaid, "game start fishing")
    started = (await bob.member.slash(playing, "game start fishing")).response
    assert started is not None
    await bob.member.click(started, label="Add AI")  # the lobby speaks English, bob French
    await bob.member.click(started, label="Start")
    assert the_lobby(bot, unsaid).language == the_table(bot, playing).language == "en"
    async with bot.storage._database.transaction() as sql:
        await sql.execute("UPDATE open_lobbies SET language = NULL")
    await save_tables_in(bot, "xx")

    new = await restart()
    assert not new.restore_problems
    assert the_lobby(new, unsaid).language == "fr"
    assert the_table(new, playing).language == "fr"
