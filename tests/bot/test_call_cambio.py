"""Calling Cambio, which ends the round for everyone, is asked once more before it is made:
a step of its own from the engine's choice path (``Game.confirmation``), no code of the bot's."""

from __future__ import annotations

import pytest
import simcord

from bot.app import CardroomBot
from engine.games.cambio import CALL_CAMBIO_CONFIRM, CAMBIO
from engine.registry import get_game
from tests.bot.helpers import (
    NOT_YET,
    add_player,
    answer,
    move_buttons,
    open_hand,
    open_table,
    pick,
    play,
    short_options,
    text_of,
)

CALL = "Call Cambio"


@pytest.mark.slow
async def test_calling_cambio_asks_first_and_not_yet_goes_back(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    game = get_game("cambio")
    table = await open_table(bot, channel, [ann, bob], "cambio", 0, short_options(game))
    players = {table.seat_of(player.id): player for player in (ann, bob)}
    for _ in range(40):  # plain moves until the player on turn may call Cambio
        seat = table.state.waiting_for()[0]
        legal = table.state.legal_actions(seat)
        if CAMBIO in legal:
            break
        await play(players[seat], table, next(a for a in legal if a != CAMBIO).text)
    else:
        raise AssertionError("Cambio was never offered")
    player, revision = players[seat], table.revision
    asked = await pick(player.member, await open_hand(player, channel, table), CALL)
    assert CALL_CAMBIO_CONFIRM in text_of(asked) and table.revision == revision
    assert [item["label"] for item in move_buttons(asked)] == [CALL]
    first = answer(await player.member.click(asked, label=NOT_YET))
    assert table.revision == revision and CALL_CAMBIO_CONFIRM not in text_of(first)
    assert CALL in [item["label"] for item in move_buttons(first)]
    called = await pick(player.member, first, CALL, CALL)
    assert table.actions[revision:][:1] == [(seat, "cambio")]
    assert "calls Cambio" in text_of(called)
