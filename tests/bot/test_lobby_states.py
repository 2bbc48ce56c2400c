"""The lobby is a state machine (open → starting → started, or cancelled): however clicks
interleave with Start, one game is dealt, with the seats Start saw, and no lobby row is
left; a click that lands while it is dealt is answered privately and changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any
from unittest import mock

import pytest
import simcord

from bot.app import CardroomBot
from bot.errors import UserError
from bot.tables.lobby import DEALING
from bot.tables.session import TableSession
from tests.bot.helpers import Player, add_player, answer, text_of


async def stored_lobbies(bot: CardroomBot) -> list[str]:
    """The ids of the lobbies stored as open."""
    lobbies, _ = await bot.storage.lobbies.load()
    return [lobby.lobby_id for lobby in lobbies]


class Gate:
    """Holds a storage call until the test opens it, so other clicks land meanwhile."""

    def __init__(self, call: Callable[..., Awaitable[None]]) -> None:
        self.held = call
        self.reached = asyncio.Event()
        self.opened = asyncio.Event()

    async def call(self, *args: Any) -> None:
        """The held call: it goes through once the gate is opened."""
        self.reached.set()
        await self.opened.wait()
        await self.held(*args)


async def ready_lobby(
    env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle, *names: str
) -> tuple[list[Player], simcord.ResponseMessage]:
    """A twentytwo lobby hosted by the first of ``names``, the second seated."""
    players = [add_player(env, guild, name) for name in names]
    lobby = answer(await players[0].member.slash(channel, "game start twentytwo"))
    await players[1].member.click(lobby, label="Join")
    return players, lobby


async def test_two_starts_at_once_deal_one_game(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    (ann, _), _ = await ready_lobby(env, guild, channel, "ann", "bob")
    lobby_id = bot.tables.by_channel[channel.id]
    first, second = await asyncio.gather(
        bot.tables.start(lobby_id, ann.id),
        bot.tables.start(lobby_id, ann.id),
        return_exceptions=True,
    )
    assert isinstance(first, TableSession)
    assert isinstance(second, UserError) and second.message == DEALING
    assert list(bot.tables.tables) == [first.table_id]
    assert len(await bot.storage.running.load()) == 1
    assert await stored_lobbies(bot) == []


async def test_clicks_landing_while_a_lobby_is_dealt_are_answered_privately_and_change_nothing(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    (ann, bob, cara), message = await ready_lobby(env, guild, channel, "ann", "bob", "cara")
    lobby_id = bot.tables.by_channel[channel.id]
    gate = Gate(bot.storage.running.save)
    with mock.patch.object(bot.storage.running, "save", side_effect=gate.call):
        starting = asyncio.create_task(bot.tables.start(lobby_id, ann.id))
        await gate.reached.wait()
        clicks = [(cara, "Join"), (bob, "Leave"), (bob, "Add AI"), (ann, "Cancel"), (ann, "Start")]
        for who, label in clicks:
            result = await who.member.click(message, label=label)
            assert result.ephemeral and DEALING in text_of(result.response), label
        gate.opened.set()
        table = await starting
    assert [seat.name for seat in table.seats] == ["ann", "bob"]
    assert table.state.players == len(table.seats) == 2
    assert bot.tables.table_in(channel.id, 0) is table
    assert await stored_lobbies(bot) == []


@pytest.mark.parametrize("join_saved", [True, False])
async def test_a_start_waits_for_a_join_in_flight_and_deals_the_seats_it_left(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    join_saved: bool,
) -> None:
    """cara's Join is being saved when Start is clicked: the start waits for it, then deals
    the seats the Join left (three when saved, two when its save failed and was undone);
    the game is dealt for exactly its seats and no lobby row is written after it."""
    (ann, _, cara), _ = await ready_lobby(env, guild, channel, "ann", "bob", "cara")
    lobby = bot.tables.lobbies.in_channel(channel.id)
    assert lobby is not None
    gate = Gate(bot.storage.lobbies.save if join_saved else fail)
    with mock.patch.object(bot.storage.lobbies, "save", side_effect=gate.call):
        joining = asyncio.create_task(
            bot.tables.lobbies.change(lobby, lambda: lobby.join(cara.id, "cara"))
        )
        await gate.reached.wait()
        starting = asyncio.create_task(bot.tables.start(lobby.lobby_id, ann.id))
        for _ in range(20):  # let the start go as far as it can
            await asyncio.sleep(0)
        gate.opened.set()
        await asyncio.gather(joining, return_exceptions=True)
        table = await starting
    assert len(table.seats) == table.state.players == (3 if join_saved else 2)
    assert await stored_lobbies(bot) == []


async def fail(*_args: object) -> None:
    """A save that fails."""
    raise OSError("disk full")


async def test_a_start_whose_save_fails_opens_the_lobby_again(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    (ann, bob), message = await ready_lobby(env, guild, channel, "ann", "bob")
    with mock.patch.object(bot.storage.running, "save", side_effect=OSError("disk")):
        failed = await ann.member.click(message, label="Start")
    assert "nothing changed" in text_of(failed.followups[-1])
    assert not bot.tables.tables
    await bob.member.click(message, label="Leave")  # it is open: clicks change it again
    lobby = bot.tables.lobbies.in_channel(channel.id)
    assert lobby is not None and len(lobby.seats) == 1


async def test_a_lobby_opened_while_the_cancelled_ones_row_is_forgotten_is_saved(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """Cancel forgets the lobby's row in the background: a new lobby in the channel, opened
    before that delete ran, is saved all the same (it hit the channel's UNIQUE row before)."""
    ann = add_player(env, guild, "ann")
    answer(await ann.member.slash(channel, "game start twentytwo"))
    lobbies = bot.tables.lobbies
    cancelled = lobbies.in_channel(channel.id)
    assert cancelled is not None
    gate = Gate(bot.storage.lobbies.delete)
    with mock.patch.object(bot.storage.lobbies, "delete", side_effect=gate.call):
        lobbies.cancel(cancelled, ann.id)
        await gate.reached.wait()  # the old row is still stored
        reopened = await lobbies.open(guild.id, channel.id, ann.id, "ann", "fishing", {})
        gate.opened.set()
        for _ in range(20):  # the old row's delete goes through
            await asyncio.sleep(0)
    assert await stored_lobbies(bot) == [reopened.lobby_id]
