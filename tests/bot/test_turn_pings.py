"""Turn pings: the person whose turn begins is mentioned once, alone, as they chose (now,
later, by DM, never) or as the server's admin set for people who never chose."""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord
from simcord.backend.errors import SetupError

from bot.app import CardroomBot
from bot.tables.session import TableSession
from tests.bot.conftest import admin
from tests.bot.helpers import (
    Player,
    add_player,
    kill_and_restart,
    move_by_hand,
    open_hand,
    open_table,
    release,
)

YOUR_TURN = "it is your turn"


def pings(env: simcord.Env, channel: simcord.ChannelHandle) -> list[dict[str, Any]]:
    """Every turn ping the bot sent to the channel (deleted ones too), as sent."""
    sent = []
    for request in env.http_requests:
        body = request.json if isinstance(request.json, dict) else {}
        posted = request.method == "POST" and request.path == f"/channels/{channel.id}/messages"
        if posted and YOUR_TURN in str(body.get("content")):
            sent.append(body)
    return sent


def pinged(env: simcord.Env, channel: simcord.ChannelHandle) -> list[int]:
    """Whom each ping was allowed to mention, checking it allows no one else."""
    people = []
    for body in pings(env, channel):
        allowed = body["allowed_mentions"]
        assert allowed["parse"] == [] and not allowed.get("replied_user")
        assert "roles" not in allowed or allowed["roles"] == []
        assert len(allowed["users"]) == 1
        user_id = int(allowed["users"][0])
        assert body["content"].count("<@") == 1 and f"<@{user_id}>" in body["content"]
        people.append(user_id)
    return people


def waiting_person(table: TableSession, players: list[Player]) -> Player | None:
    seats = table.state.waiting_for()
    user_id = table.seats[seats[0]].user_id if seats and table.seats[seats[0]].is_human else None
    return next((player for player in players if player.id == user_id), None)


async def until_a_person_waits(
    env: simcord.Env, table: TableSession, players: list[Player]
) -> Player:
    for _ in range(10):
        person = waiting_person(table, players)
        if person is not None:
            return person
        await env.advance_time(1)  # the AI moves
    raise AssertionError("no person's turn came")


async def test_a_turn_pings_only_its_person_once_and_never_an_ai_seat(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    players = [ann, bob]
    table = await open_table(bot, channel, players, "fishing", 1)
    rng = random.Random(5)
    for turns in range(1, 5):
        before = len(pinged(env, channel))
        ai_turn = waiting_person(table, players) is None
        person = await until_a_person_waits(env, table, players)
        if ai_turn:
            assert len(pinged(env, channel)) == before + 1, "a ping once the AI moved"
        assert pinged(env, channel)[-1] == person.id
        # the table and hand DMs are redrawn, the Hand opened twice, time passes: no second ping
        bot.tables.display.changed(table)
        bot.tables.display.changed(table)
        await open_hand(person, channel, table)
        await open_hand(person, channel, table)
        await env.advance_time(5)
        assert len(pinged(env, channel)) == turns
        mentioned = [m for m in channel.history() if YOUR_TURN in m.content]
        assert [[user.id for user in m.mentions] for m in mentioned] == [[person.id]]
        assert await move_by_hand(person, channel, table, rng)
        still = [m for m in channel.history() if f"<@{person.id}>, {YOUR_TURN}" in m.content]
        assert not still or waiting_person(table, players) is person, "a past turn's ping goes"
    assert set(pinged(env, channel)) <= {ann.id, bob.id}


async def test_a_later_ping_waits_and_none_comes_when_the_person_moved_first(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    players = [ann, bob]
    for player in players:
        chosen = await player.member.slash(channel, "game pings", when="30s")
        assert chosen.ephemeral and chosen.response is not None
        assert "after 30 seconds" in chosen.response.content
    table = await open_table(bot, channel, players, "fishing", 0)
    first = waiting_person(table, players)
    assert first is not None
    await env.advance_time(29)
    assert pinged(env, channel) == [], "not before the delay"
    await env.advance_time(2)
    assert pinged(env, channel) == [first.id]
    assert await move_by_hand(first, channel, table, random.Random(2))
    second = waiting_person(table, players)
    assert second is not None and second is not first
    await env.advance_time(10)
    assert await move_by_hand(second, channel, table, random.Random(3))
    await env.advance_time(25)  # past the second person's delay: their turn is over
    assert pinged(env, channel) == [first.id]


async def test_a_dm_instead_of_a_mention_and_never(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    players = [ann, bob]
    await ann.member.slash(channel, "game pings", when="dm")
    await bob.member.slash(channel, "game pings", when="never")
    table = await open_table(bot, channel, players, "fishing", 0)
    rng = random.Random(4)
    anns_turns = 0
    for _ in range(4):
        person = waiting_person(table, players)
        assert person is not None
        anns_turns += person is ann
        assert await move_by_hand(person, channel, table, rng)
    anns_turns += waiting_person(table, players) is ann
    assert pinged(env, channel) == []
    dms = ann.user.dm_channel.history()
    told = [m for m in dms if "It is your turn in **Fishing**" in m.content]
    assert len(told) == anns_turns >= 2, "one new DM per turn of ann's"
    assert f"/{channel.id}/{table.table_message_id}" in told[-1].content
    assert not [m for m in bob.user.dm_channel.history() if "your turn" in m.content]


async def test_the_server_default_applies_to_people_who_never_chose_and_survives_restart(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    with pytest.raises(SetupError, match="default-member-permissions"):
        await ann.member.slash(channel, "cardroom settings", turn_pings="never")
    boss = admin(env, guild, "boss")
    changed = await boss.slash(channel, "cardroom settings", turn_pings="never")
    assert changed.response is not None and "no ping" in changed.response.content
    await bob.member.slash(channel, "game pings", when="now")
    restarted = await kill_and_restart(env, bot)
    try:
        players = [ann, bob]
        table = await open_table(restarted, channel, players, "fishing", 0)
        rng = random.Random(6)
        for _ in range(4):
            person = waiting_person(table, players)
            assert person is not None
            assert await move_by_hand(person, channel, table, rng)
        assert set(pinged(env, channel)) == {bob.id}, "only bob, who chose to be pinged"
    finally:
        await release(restarted)
