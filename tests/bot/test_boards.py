"""/scoreboard (pages, seasons), /game history and /scoreboard-reset, driven like people do."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest
import simcord

from bot.app import CardroomBot
from bot.boards.pages import HISTORY_PAGE, SCOREBOARD_PAGE
from bot.boards.ratings import Ratings
from tests.bot.conftest import admin, member
from tests.bot.helpers import Playthrough, add_player, components, open_table, text_of
from tests.bot.records import finished

RANK = re.compile(r"^(\d+)\. \*\*(.+?)\*\*", re.MULTILINE)


def ranks(message: simcord.ResponseMessage | discord.Message) -> list[int]:
    """The ranks listed on a scoreboard page."""
    return [int(rank) for rank, _ in RANK.findall(text_of(message))]


def buttons(message: simcord.ResponseMessage) -> dict[str, bool]:
    """Label → enabled, for every button of a message."""
    return {
        str(item["label"]): not item.get("disabled")
        for item in components(message)
        if item["type"] == 2
    }


async def finish_ladder(bot: CardroomBot, guild_id: int, players: int, game: str) -> None:
    """``players`` people in a chain of two-player games: user n beats user n+1."""
    for n in range(1, players):
        await bot.storage.results.finish(
            finished(f"{game}{n}", {n: 1, n + 1: 2}, game_id=game, guild_id=guild_id, minute=n)
        )


async def test_scoreboard_pages_turn_for_the_asker_and_open_privately_for_others(
    bot: CardroomBot, env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    players = 2 * SCOREBOARD_PAGE + 3
    await finish_ladder(bot, guild.id, players, "fishing")
    ann, bob = member(env, guild, "ann"), member(env, guild, "bob")

    shown = await ann.slash(channel, "scoreboard", game="fishing")
    assert not shown.ephemeral and shown.response is not None
    page = shown.response
    assert ranks(page) == list(range(1, SCOREBOARD_PAGE + 1))
    assert "Page 1/3" in text_of(page) and "Fishing" in text_of(page)
    assert "1 game, 1 win (100%)" in text_of(page)
    assert buttons(page) == {"◀ Previous": False, "Next ▶": True}

    turned = await ann.click(page, label="Next ▶")
    assert turned.response is not None and not turned.ephemeral
    assert turned.response.id == page.id  # the same message, edited in place
    assert ranks(turned.response) == list(range(SCOREBOARD_PAGE + 1, 2 * SCOREBOARD_PAGE + 1))

    last = await ann.click(turned.response, label="Next ▶")
    assert last.response is not None
    assert ranks(last.response) == list(range(2 * SCOREBOARD_PAGE + 1, players + 1))
    assert buttons(last.response) == {"◀ Previous": True, "Next ▶": False}

    # someone else's click does not flip the public board: they get the page privately
    private = await bob.click(last.response, label="◀ Previous")
    assert private.ephemeral and private.response is not None
    assert ranks(private.response) == list(range(SCOREBOARD_PAGE + 1, 2 * SCOREBOARD_PAGE + 1))
    assert ranks(channel_message(channel, page.id)) == ranks(last.response)


def channel_message(channel: simcord.ChannelHandle, message_id: int) -> discord.Message:
    """A message of the channel as it is now."""
    return next(m for m in channel.history() if m.id == message_id)


async def test_a_board_that_fits_one_page_has_no_buttons(
    bot: CardroomBot, env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = member(env, guild, "ann")
    empty = await ann.slash(channel, "scoreboard")
    assert empty.response is not None
    assert "No finished games" in text_of(empty.response)
    assert components(empty.response) == []

    await finish_ladder(bot, guild.id, 4, "fishing")
    await finish_ladder(bot, guild.id, 3, "cambio")
    board = await ann.slash(channel, "scoreboard")
    assert board.response is not None
    text = text_of(board.response)  # one game's board by default: the one played most here
    assert "Scoreboard — Fishing" in text and ranks(board.response) == [1, 2, 3, 4]
    assert "◀ Previous" not in text and "Next ▶" not in text  # one page, no page buttons
    # the menu offers every game's board and all of them together, ranked by wins
    overall = await ann.select(board.response, ["overall"])
    assert overall.response is not None and overall.response.id == board.response.id
    text = text_of(overall.response)
    assert "all games together" in text and "ranked by wins" in text
    assert "1. **user 1** — 2 games, 2 wins (100%)" in text
    assert ranks(overall.response) == [1, 2, 3, 4]


async def test_reset_asks_first_starts_a_season_and_old_seasons_stay_readable(
    bot: CardroomBot, env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    await finish_ladder(bot, guild.id, 4, "fishing")
    await finish_ladder(bot, guild.id, 3, "cambio")
    boss, ann = admin(env, guild, "boss"), member(env, guild, "ann")
    assert "scoreboard-reset" not in ann.available_commands(channel)

    asked = await boss.slash(channel, "scoreboard-reset", game="fishing")
    assert asked.ephemeral and asked.response is not None
    assert "Nothing is deleted" in text_of(asked.response)
    kept = await boss.click(asked.response, label="Keep")
    assert kept.response is not None and "Nothing was reset" in text_of(kept.response)
    assert await bot.storage.results.current_season(guild.id, "fishing") == 1

    asked = await boss.slash(channel, "scoreboard-reset", game="fishing")
    assert asked.response is not None
    done = await boss.click(asked.response, label="Reset")
    assert done.response is not None and "season 2" in text_of(done.response)
    assert components(done.response) == []
    assert await bot.storage.results.current_season(guild.id, "fishing") == 2
    assert await bot.storage.results.current_season(guild.id, "cambio") == 1

    now = await ann.slash(channel, "scoreboard", game="fishing")
    assert now.response is not None and ranks(now.response) == []
    old = await ann.slash(channel, "scoreboard", game="fishing", season=1)
    assert old.response is not None
    assert ranks(old.response) == [1, 2, 3, 4] and "season 1" in text_of(old.response)
    cambio = await ann.slash(channel, "scoreboard", game="cambio")
    assert cambio.response is not None and ranks(cambio.response) == [1, 2, 3]
    ahead = await ann.slash(channel, "scoreboard", game="fishing", season=3)
    assert ahead.ephemeral and ahead.response is not None
    assert "season 3 has not begun" in text_of(ahead.response)
    history = await ann.slash(channel, "game history", game="fishing")
    assert history.response is not None and text_of(history.response).count("Fishing**") == 3


async def test_a_season_not_rated_yet_is_deferred_then_shown_and_later_answered_at_once(
    bot: CardroomBot,
    env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rating a season takes seconds at thousands of games, longer than Discord waits for an
    answer: a board that must rate one (an old season, or any after a restart) is deferred."""
    players = SCOREBOARD_PAGE + 3
    await finish_ladder(bot, guild.id, players, "fishing")
    await bot.storage.results.reset_season(guild.id, "fishing")
    ann, bob = member(env, guild, "ann"), member(env, guild, "bob")
    first_page = list(range(1, SCOREBOARD_PAGE + 1))
    deferrals: list[str] = []
    defer = discord.InteractionResponse.defer

    async def noted(response: discord.InteractionResponse[Any], **options: Any) -> Any:
        deferrals.append(response._parent.type.name)
        return await defer(response, **options)

    monkeypatch.setattr(discord.InteractionResponse, "defer", noted)

    old = await ann.slash(channel, "scoreboard", game="fishing", season=1)
    assert deferrals == ["application_command"]
    assert not old.ephemeral and old.response is not None
    assert ranks(old.response) == first_page and "season 1" in text_of(old.response)
    again = await ann.slash(channel, "scoreboard", game="fishing", season=1)
    assert deferrals == ["application_command"]  # rated now: answered at once
    assert again.response is not None and ranks(again.response) == first_page

    # as after a restart: nothing rated, so the page buttons defer too
    bot.wiring.ratings = Ratings(bot.storage.results)
    turned = await ann.click(old.response, label="Next ▶")
    assert deferrals[1:] == ["component"] and turned.response is not None
    assert turned.response.id == old.response.id
    assert ranks(turned.response) == list(range(SCOREBOARD_PAGE + 1, players + 1))
    bot.wiring.ratings = Ratings(bot.storage.results)
    private = await bob.click(turned.response, label="◀ Previous")
    assert deferrals[2:] == ["component"]
    (shown,) = private.followups
    assert shown.ephemeral and ranks(shown) == first_page
    assert ranks(channel_message(channel, old.response.id)) == ranks(turned.response)


async def test_a_reset_of_every_game_moves_each_to_its_next_season(
    bot: CardroomBot, env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    await finish_ladder(bot, guild.id, 3, "cambio")
    await bot.storage.results.reset_season(guild.id, "cambio")
    boss = admin(env, guild, "boss")
    asked = await boss.slash(channel, "scoreboard-reset")
    assert asked.response is not None and "every game" in text_of(asked.response)
    done = await boss.click(asked.response, label="Reset")
    assert done.response is not None and "every game" in text_of(done.response)
    assert await bot.storage.results.current_season(guild.id, "cambio") == 3
    assert await bot.storage.results.current_season(guild.id, "fishing") == 2
    old = await boss.slash(channel, "scoreboard", game="cambio", season=1)
    assert old.response is not None and ranks(old.response) == [1, 2, 3]


@pytest.mark.parametrize("with_filter", [False, True])
async def test_history_lists_the_newest_games_with_results_a_page_at_a_time(
    bot: CardroomBot,
    env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    with_filter: bool,
) -> None:
    total = HISTORY_PAGE + 2
    for n in range(total):
        places: dict[int | None, int] = {1: 1, None: 2} if n == total - 1 else {1: 2, 2: 1}
        await bot.storage.results.finish(
            finished(f"h{n}", places, guild_id=guild.id, minute=n, scores={1: n, 2: 50, None: 7})
        )
    await bot.storage.results.finish(
        finished("c0", {1: 1, 2: 2}, game_id="cambio", guild_id=guild.id, minute=-1)
    )
    await bot.storage.results.finish(finished("elsewhere", {1: 1, 2: 2}, minute=200))
    ann = member(env, guild, "ann")

    options = {"game": "fishing"} if with_filter else {}
    shown = await ann.slash(channel, "game history", **options)
    assert not shown.ephemeral and shown.response is not None
    first = text_of(shown.response)
    tables = re.findall(r"table (\w+)", first)
    assert tables == [f"h{n}" for n in reversed(range(2, total))]
    assert "🥇1. user 1 9" in first and "2. 🤖 AI 7" in first  # the newest game, h9
    assert buttons(shown.response) == {"◀ Previous": False, "Next ▶": True, "▶ Replay": True}

    older = await ann.click(shown.response, label="Next ▶")
    assert older.response is not None
    rest = ["h1", "h0"] if with_filter else ["h1", "h0", "c0"]
    assert re.findall(r"table (\w+)", text_of(older.response)) == rest
    assert "🥇1. user 2 50" in text_of(older.response)
    assert buttons(older.response) == {"◀ Previous": True, "Next ▶": False, "▶ Replay": True}


@pytest.mark.slow
async def test_a_game_left_early_is_a_loss_for_the_leaver_whoever_won_the_seat(
    bot: CardroomBot, env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "stuck", 0)
    await bob.member.slash(channel, "game leave")  # the AI finishes bob's seat
    tallies_before = len(bot.wiring.ratings.cached_seasons())
    await Playthrough(env, channel, [ann], table, random.Random(3)).to_the_end()
    # the ratings were brought up to date when the game ended, before anyone asked
    assert bot.wiring.ratings.cached_seasons() == {(guild.id, "stuck", 1): 1}
    assert tallies_before == 0
    (game,) = await bot.storage.results.history(guild.id)
    seats = [(seat.user_id, seat.left_early) for seat in game.seats]
    assert seats == [(ann.id, False), (bob.id, True)]

    stats = await ann.member.slash(channel, "stats", member=bob.user)
    assert stats.ephemeral and stats.response is not None
    assert "`games   ` 1 · 0 wins (0%)\n`scores  ` no game played to the end" in text_of(
        stats.response
    )
    board = await ann.member.slash(channel, "scoreboard", game="stuck")
    assert board.response is not None
    assert RANK.findall(text_of(board.response)) == [("1", "ann"), ("2", "bob")]


async def test_stats_best_score_is_the_lowest_where_the_lowest_wins_and_says_so(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    # twentytwo's scores are penalty points: the engine says the lowest wins. These results
    # alone would not say it (in t1 the loser has fewer points, as a player who left early
    # may), and "best" was the highest: 30.
    results: list[tuple[str, dict[int | None, int], dict[int | None, int]]] = [
        ("t1", {ann.id: 1, bob.id: 2}, {ann.id: 12, bob.id: 5}),
        ("t2", {ann.id: 2, bob.id: 1}, {ann.id: 30, bob.id: 10}),
    ]
    for minute, (table_id, places, scores) in enumerate(results):
        await bot.storage.results.finish(
            finished(
                table_id,
                places,
                game_id="twentytwo",
                guild_id=guild.id,
                scores=scores,
                minute=minute,
            )
        )
    await bot.storage.results.finish(
        finished("f1", {ann.id: 1, bob.id: 2}, guild_id=guild.id, scores={ann.id: 21, bob.id: 9})
    )
    stats = await ann.member.slash(channel, "stats")
    assert stats.response is not None
    text = text_of(stats.response)
    assert "**Twenty-Two**\n" in text
    assert "`scores  ` best 12 (low scores win) · average 21.0" in text
    assert "`scores  ` best 21 · average 21.0" in text  # fishing: the highest wins
