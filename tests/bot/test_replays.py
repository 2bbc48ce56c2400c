"""Replays in Discord: a finished game stepped through from its result message, every card
face up, in agreement with the engine's replay of the stored record; never a running game."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import discord
import pytest
import simcord

from bot.app import CardroomBot
from bot.errors import UserError
from bot.replays.book import ReplayedGame, load_replay
from bot.replays.reviewing import Reviewer
from bot.storage import Storage
from bot.storage.connection import dump
from bot.tables.thinking import AiPlayers
from bot.text import show
from engine.registry import games
from engine.replay import Replay, open_layout, played_record
from engine.review import costliest, decisions, review, review_lines
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    add_player,
    answer,
    kill_and_restart,
    layout_of,
    open_table,
    release,
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
@pytest.mark.slow
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
            assert f"▶ **{names[step.seat]}**'s turn" in text
        if index < len(replay.steps) - 1:
            shown = answer(await players[1].member.click(shown, label="Next ▶"))
    assert f"`/game replay {table_id}` opens it again" in text_of(shown)
    assert "scores: " + " · ".join(
        f"{name} {score}" for name, score in zip(names, replay.final.scores(), strict=True)
    ) in text_of(shown)

    # Review my moves: the clicker's seat, its summary and costliest moves as the engine says
    bot.reviews.worlds = 2
    seat = next(seat.seat for seat in found.seats if seat.user_id == players[1].id)
    judged = review(replay, seat, worlds=2)
    reviewed = await players[1].member.click(shown, label="Review my moves")
    assert reviewed.ephemeral
    text = text_of(answer(reviewed))
    summary = next(review_lines(replay, seat, judged, names))
    assert summary in text and len(judged) == len(decisions(replay, seat))
    for costly in costliest(judged):
        assert show(costly.line(replay, names), names) in text
    assert await bot.storage.reviews.review(table_id, seat, 0, 2) == judged


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


async def finished_with_record(
    storage: Storage, table_id: str, game_id: str, seed: int
) -> ReplayedGame:
    """A finished two-player game of users 1 and 2 with a real record, read back."""
    record = played_record(game_id, 2, seed)
    game = finished(table_id, {1: 1, 2: 2}, game_id=game_id, guild_id=GUILD)
    await storage.results.finish(game.model_copy(update={"record": record}))
    return await load_replay(storage.results, table_id, GUILD, 1)


async def test_outside_its_server_only_a_player_opens_a_replay(storage: Storage) -> None:
    """A replay shows every card: in a DM (no server to check) only the game's players may
    open it, and in a server only that server's games open."""
    await finished_with_record(storage, "t7", "fishing", 3)
    assert (await load_replay(storage.results, "t7", None, 2)).table_id == "t7"
    with pytest.raises(UserError, match="only the people who played"):
        await load_replay(storage.results, "t7", None, 99)
    with pytest.raises(UserError, match="another server"):
        await load_replay(storage.results, "t7", GUILD + 1, 1)


@pytest.mark.parametrize("damaged", ["{not json", "[1, 2]"])
async def test_a_record_damaged_in_storage_gets_a_plain_answer(
    storage: Storage, damaged: str
) -> None:
    """A replay record that is not a JSON object (damaged in storage) reads back as none, and
    asking for its replay says so, where it failed with an apology."""
    await finished_with_record(storage, "t8", "fishing", 3)
    async with storage._database.transaction() as sql:
        await sql.execute(
            "UPDATE replay_records SET record = :record WHERE table_id = 't8'",
            {"record": damaged},
        )
    found = await storage.results.replayed("t8")
    assert found is not None and found.record is None
    assert await storage.results.replay_record("t8") is None
    with pytest.raises(UserError, match="its record could not be read back"):
        await load_replay(storage.results, "t8", GUILD, 1)


async def test_reviews_are_limited_per_person_and_a_kept_one_does_not_count(
    storage: Storage, tmp_path: Path
) -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    settings = fast_settings(tmp_path, reviews_per_hour=1)
    reviewer = Reviewer(settings, storage, lambda: now[0], AiPlayers(settings).quiet)
    reviewer.worlds = 1
    first = await finished_with_record(storage, "r1", "stuck", 1)
    second = await finished_with_record(storage, "r2", "stuck", 2)
    told: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        told.append((done, total))

    judged = await reviewer.make(first, 0, 1, progress)
    assert told and told[-1] == (len(judged), len(judged))
    assert await reviewer.kept(first, 0) == judged  # read back: not counted
    assert await reviewer.make(second, 1, 2, progress)  # another person has their own
    with pytest.raises(UserError, match="1 review in the last hour"):
        await reviewer.make(second, 0, 1, progress)
    now[0] += timedelta(hours=1)
    assert await reviewer.make(second, 0, 1, progress)


@pytest.mark.parametrize("damaged", ["{not json", "[1, 2]", '[{"step": "one"}]'])
async def test_a_review_damaged_in_storage_is_made_anew_and_kept_again(
    storage: Storage, tmp_path: Path, caplog: pytest.LogCaptureFixture, damaged: str
) -> None:
    """A kept review that is not a list of judgements (damaged in storage) reads back as
    none: asking again makes it anew and stores it over the damaged one, where it failed
    with an apology; the damage is logged, without the row's text."""
    settings = fast_settings(tmp_path, reviews_per_hour=2)
    reviewer = Reviewer(settings, storage, lambda: datetime(2026, 1, 1, tzinfo=UTC), no_wait)
    reviewer.worlds = 1
    game = await finished_with_record(storage, "r3", "stuck", 1)
    judged = await reviewer.make(game, 0, 1, no_progress)
    await store_review(storage, "r3", damaged)
    assert await reviewer.kept(game, 0) is None
    assert await reviewer.make(game, 0, 1, no_progress) == judged
    assert await storage.reviews.review("r3", 0, 0, 1) == judged
    warnings = {record.getMessage() for record in caplog.records if record.name.endswith("reviews")}
    (warning,) = warnings  # each read of it says the same
    assert warning.startswith("table r3: seat 0's stored move review could not be read back")
    assert damaged not in warning


GARBLINGS = {
    "a step past the record": lambda found: replace(found, step=10_000),
    "the deal's step": lambda found: replace(found, step=0),
    "a move made that does not parse": lambda found: replace(found, chosen="no such move"),
    "a best move that does not parse": lambda found: replace(found, best="no such move"),
}


@pytest.mark.parametrize("garbling", sorted(GARBLINGS))
async def test_a_kept_review_that_does_not_fit_its_record_is_made_anew(
    storage: Storage, tmp_path: Path, caplog: pytest.LogCaptureFixture, garbling: str
) -> None:
    """A kept review that storage reads back well formed but that cannot be shown with its
    game's record (a step it lacks or not the seat's, a move text that does not parse) is
    read as none kept, like a damaged one: made anew and stored over it, where showing it
    failed with an apology; logged, naming steps but no move."""
    settings = fast_settings(tmp_path, reviews_per_hour=2)
    reviewer = Reviewer(settings, storage, lambda: datetime(2026, 1, 1, tzinfo=UTC), no_wait)
    reviewer.worlds = 1
    game = await finished_with_record(storage, "r4", "stuck", 1)
    judged = await reviewer.make(game, 0, 1, no_progress)
    garbled = [GARBLINGS[garbling](judged[0]), *judged[1:]]
    await store_review(storage, "r4", dump(garbled))
    assert await storage.reviews.review("r4", 0, 0, 1) == garbled  # storage's check passes it
    assert await reviewer.kept(game, 0) is None
    assert await reviewer.make(game, 0, 1, no_progress) == judged
    assert await reviewer.kept(game, 0) == judged
    (warning,) = [r.getMessage() for r in caplog.records if r.name.endswith("reviewing")]
    assert warning.startswith("table r4: seat 0's kept move review does not fit its game's")
    assert judged[0].chosen not in warning and "no such move" not in warning


async def store_review(storage: Storage, table_id: str, review: str) -> None:
    """Write ``review`` over the kept review of ``table_id``, as damage in storage would."""
    async with storage._database.transaction() as sql:
        await sql.execute(
            "UPDATE move_reviews SET review = :review WHERE table_id = :table_id",
            {"review": review, "table_id": table_id},
        )


async def no_wait() -> None:
    """Live tables never wait here."""


async def no_progress(done: int, total: int) -> None:
    """A review's progress, shown nowhere."""


@pytest.mark.slow
async def test_a_review_goes_on_when_its_progress_cannot_be_shown(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, monkeypatch: Any
) -> None:
    channel = guild.create_text_channel("review")
    ann = add_player(env, guild, "ann")
    await play_to_the_end(env, bot, channel, [ann], "stuck", ai_seats=1)
    table_id = next(iter(bot.tables.rematches))
    bot.reviews.worlds = 1
    edit = discord.Interaction.edit_original_response
    refused: list[str] = []

    async def refuse_progress(self: discord.Interaction, **kwargs: Any) -> Any:
        view = kwargs.get("view")
        if view is not None and "Reviewing move" in str(view.to_components()):
            refused.append("progress")
            raise discord.HTTPException(mock.Mock(status=500, reason="refused"), "refused")
        return await edit(self, **kwargs)

    monkeypatch.setattr(discord.Interaction, "edit_original_response", refuse_progress)
    opened = answer(await ann.member.slash(channel, "game replay", table=table_id))
    reviewed = answer(await ann.member.click(opened, label="Review my moves"))
    assert refused and "## Your moves — Stuck" in text_of(reviewed)
    outsider = add_player(env, guild, "cy")
    theirs = answer(await outsider.member.slash(channel, "game replay", table=table_id))
    denied = await outsider.member.click(theirs, label="Review my moves")
    assert "Only the people who played this game" in text_of(answer(denied))


@pytest.mark.slow
@pytest.mark.parametrize("kept", ["damaged", "garbled"])
async def test_review_my_moves_makes_a_bad_kept_review_anew_and_logs_it_once(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    caplog: pytest.LogCaptureFixture,
    kept: str,
) -> None:
    """Review my moves over a kept review damaged in storage, or garbled (its costliest
    move's best move no longer parses, which failed with an apology), shows the review made
    anew; the one click logs the bad row once, where the damaged one was logged twice."""
    channel = guild.create_text_channel("review-again")
    ann = add_player(env, guild, "ann")
    await play_to_the_end(env, bot, channel, [ann], "stuck", ai_seats=1)
    table_id = next(iter(bot.tables.rematches))
    bot.reviews.worlds = 1
    opened = answer(await ann.member.slash(channel, "game replay", table=table_id))
    first = text_of(answer(await ann.member.click(opened, label="Review my moves")))
    found = await bot.storage.results.replayed(table_id)
    assert found is not None
    seat = next(seat.seat for seat in found.seats if seat.user_id == ann.id)
    judged = await bot.storage.reviews.review(table_id, seat, 0, 1)
    assert judged
    costly = replace(judged[0], best="no such move", value_lost=1.0)
    await store_review(
        bot.storage, table_id, "{not json" if kept == "damaged" else dump([costly, *judged[1:]])
    )
    caplog.clear()
    again = answer(await ann.member.click(opened, label="Review my moves"))
    assert text_of(again) == first
    warned = [r for r in caplog.records if r.levelno == logging.WARNING and "review" in r.message]
    assert len(warned) == 1, [r.message for r in warned]
    assert await bot.storage.reviews.review(table_id, seat, 0, 1) == judged


@pytest.mark.slow
async def test_a_replay_steps_on_after_a_restart_and_is_shown_to_the_channel(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle
) -> None:
    channel = guild.create_text_channel("restart")
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    await play_to_the_end(env, bot, channel, [ann, bob], "stuck", ai_seats=0)
    table_id = next(iter(bot.tables.rematches))
    opened = answer(await ann.member.slash(channel, "game replay", table=table_id))
    restarted = await kill_and_restart(env, bot)
    try:
        stepped = answer(await ann.member.click(opened, label="Next ▶"))
        assert "Step 1 of" in text_of(stepped)
        posted = await ann.member.click(stepped, label="Show to the channel")
        assert not posted.ephemeral and posted.response is not None
        assert "Step 1 of" in text_of(posted.response)
        # in the channel, the one who showed it steps it; anyone else gets a private copy
        theirs = await bob.member.click(posted.response, label="Next ▶")
        assert theirs.ephemeral and "Step 2 of" in text_of(answer(theirs))
        assert "Step 1 of" in text_of(channel.history()[-1])
        mine = await ann.member.click(posted.response, label="Last ⏭")
        assert not mine.ephemeral
        assert re.search(r"Step (\d+) of \1 ", text_of(channel.history()[-1]))
    finally:
        await release(restarted)
