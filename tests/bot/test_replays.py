"""Replays in Discord: a finished game stepped through from its result message, every card
face up, in agreement with the engine's replay of the stored record; never a running game."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import simcord

from bot.app import CardroomBot
from bot.storage import Storage
from bot.text import show
from engine.registry import games
from engine.replay import Replay, open_layout, played_record
from engine.review import decisions, review
from tests.bot.helpers import (
    add_player,
    answer,
    layout_of,
    open_table,
    results_message,
    text_of,
)
from tests.bot.records import GUILD, finished
from tests.bot.test_whole_games import play_to_the_end


def picture_alt(message: object) -> str:
    """The alt text of the message's one picture."""
    (alt,) = [
        str(media.get("description"))
        for item in layout_of(message)
        for media in item.get("items", [])
    ]
    return alt


@pytest.mark.parametrize("game_id", sorted(games()))
async def test_a_finished_game_replays_step_by_step_and_is_reviewed(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, game_id: str
) -> None:
    game = games()[game_id]
    channel = guild.create_text_channel(f"replay-{game_id}")
    seats = min(game.player_counts)
    players = [add_player(env, guild, f"player{i}") for i in range(min(2, seats))]
    await play_to_the_end(env, bot, channel, players, game_id, ai_seats=seats - len(players))
    results = results_message(channel)
    assert results is not None
    table_id = next(iter(bot.tables.rematches))
    found = await bot.storage.results.replayed(table_id)
    assert found is not None
    replay = Replay.of(found.record)
    names = [seat.name for seat in found.seats]

    opened = await players[1].member.click(results, label="▶ Replay")
    assert opened.ephemeral
    shown = answer(opened)
    for index, step in enumerate(replay.steps):
        text = text_of(shown)
        assert f"Step {index} of {len(replay.steps) - 1}" in text
        assert picture_alt(shown).startswith(open_layout(step.state).alt_text(names)[:200])
        for line in step.words(names):
            assert show(line, names) in text
        if step.seat is not None:
            assert f"▶ **{names[step.seat]}** to play" in text
        if index < len(replay.steps) - 1:
            shown = answer(await players[1].member.click(shown, label="Next ▶"))
    assert "scores: " + " · ".join(
        f"{name} {score}" for name, score in zip(names, replay.final.scores(), strict=True)
    ) in text_of(shown)
    # the engine's review of one seat runs over the same record
    assert len(review(replay, 0, worlds=1)) == len(decisions(replay, 0))


async def test_a_running_game_is_never_replayed(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle
) -> None:
    channel = guild.create_text_channel("running")
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "stuck", 0)
    asked = await ann.member.slash(channel, "game replay", table=table.table_id)
    assert asked.ephemeral and asked.response is not None
    assert "can be replayed once it is over" in text_of(asked.response)
    unknown = await ann.member.slash(channel, "game replay", table="nosuch")
    assert unknown.response is not None and "no finished game" in text_of(unknown.response)


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    """A new database of each dialect in turn (SQLite, then PostgreSQL)."""
    opened = await Storage.open(database_url)
    yield opened
    await opened.close()


async def test_storage_gives_a_finished_games_seats_and_record(storage: Storage) -> None:
    record = played_record("twentytwo", 3, 4)
    game = finished("t1", {1: 2, None: 1, 2: 3}, game_id="twentytwo", guild_id=GUILD)
    await storage.results.finish(game.model_copy(update={"record": record}))
    found = await storage.results.replayed("t1")
    assert found is not None and found.guild_id == GUILD and found.record == record
    assert [(seat.seat, seat.user_id, seat.is_ai) for seat in found.seats] == [
        (0, 1, False),
        (1, None, True),
        (2, 2, False),
    ]
    assert Replay.of(found.record).final.is_over
    assert await storage.results.replayed("t2") is None
