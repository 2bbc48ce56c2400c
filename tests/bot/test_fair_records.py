"""Fair records: a seat counts for its person only if they played it to the end; a game left
early is a loss in last place. Ratings are cached and brought up to date game by game."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import create_bot
from bot.boards.ratings import Ratings, SeasonTally
from bot.storage import FinishedSeat, Storage
from tests.bot.conftest import fast_settings
from tests.bot.records import GUILD, finished

ANN, BOB, CAT = 1, 2, 3


@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    opened = await Storage.open(tmp_path / "cardroom.db")
    yield opened
    await opened.close()


async def test_leaving_and_letting_the_ai_win_never_ranks_a_player_first(
    storage: Storage,
) -> None:
    """The issue's case: ann leaves at move 0 five times and the AI in her seat wins."""
    for n in range(5):
        await storage.results.finish(finished(f"g{n}", {ANN: 1, BOB: 2}, minute=n, left={ANN}))
    board = await Ratings(storage.results).scoreboard(GUILD, "fishing")
    # nobody won (the AI did), and bob, who stayed, is ranked above ann
    assert [(row.user_id, row.games, row.wins) for row in board] == [(BOB, 5, 0), (ANN, 5, 0)]
    assert board[0].rating > board[1].rating


async def test_a_leaver_is_placed_after_everyone_who_stayed(storage: Storage) -> None:
    # the AI in ann's seat came second, ahead of cat; ann is still last
    await storage.results.finish(finished("g1", {BOB: 1, ANN: 2, CAT: 3}, left={ANN}))
    (game,) = await storage.results.season_places(GUILD, "fishing", 1)
    assert [(seat.user_id, seat.place) for seat in game.seats] == [(BOB, 1), (ANN, 4), (CAT, 3)]


async def test_stats_count_a_game_left_early_as_a_loss_without_its_score(
    storage: Storage,
) -> None:
    await storage.results.finish(
        finished("played", {ANN: 2, BOB: 1}, scores={ANN: 8, BOB: 21}, minute=1)
    )
    await storage.results.finish(
        finished("left", {ANN: 1, BOB: 2}, scores={ANN: 25, BOB: 3}, minute=2, left={ANN})
    )
    (ann,) = await Ratings(storage.results).stats(GUILD, ANN)
    assert (ann.games, ann.wins, ann.best_score, ann.average_score) == (2, 0, 8, 8)
    assert ann.season_games == 2
    await storage.results.finish(finished("cat left", {CAT: 1, BOB: 2}, minute=3, left={CAT}))
    (cat,) = await Ratings(storage.results).stats(GUILD, CAT)
    assert (cat.games, cat.wins, cat.best_score, cat.average_score) == (1, 0, None, None)


async def test_history_keeps_who_left(storage: Storage) -> None:
    await storage.results.finish(finished("g1", {ANN: 1, BOB: 2}, left={ANN}))
    (row,) = await storage.results.history(GUILD)
    assert [(seat.user_id, seat.is_ai, seat.left_early) for seat in row.seats] == [
        (ANN, True, True),
        (BOB, False, False),
    ]


def test_a_seat_left_early_names_its_person() -> None:
    with pytest.raises(ValueError, match="left early"):
        FinishedSeat(seat=0, user_id=None, name="AI", is_ai=True, score=0, place=1, left_early=True)


async def test_seats_handed_to_the_ai_before_version_5_become_leavers(tmp_path: Path) -> None:
    """Earlier bots wrote a handed seat as an AI seat with its person's user id."""
    path = tmp_path / "cardroom.db"
    old = await Storage.open(path, up_to=4)
    await old.close()
    with sqlite3.connect(path) as connection:
        for n, ended in enumerate(["2025-12-01T10:30:00+00:00", "2025-12-01T10:10:00+00:00"]):
            connection.execute(
                "INSERT INTO finished_games (table_id, guild_id, channel_id, game_id, options,"
                " seed, started_at, ended_at, has_ai, summary) VALUES"
                " (?, ?, 10, 'fishing', '{}', 3, '2025-12-01T10:00:00+00:00', ?, 1, '[]')",
                (f"old{n}", GUILD, ended),
            )
            connection.executemany(
                "INSERT INTO finished_seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(f"old{n}", 0, ANN, "ann", 1, 21, 1), (f"old{n}", 1, BOB, "bob", 0, 12, 2)],
            )
    storage = await Storage.open(path)
    try:
        board = await Ratings(storage.results).scoreboard(GUILD, "fishing")
        assert [(row.user_id, row.games, row.wins) for row in board] == [(BOB, 2, 0), (ANN, 2, 0)]
        assert board[0].rating > board[1].rating
        # older games are numbered by the time they ended
        numbered = await storage.results.season_places(GUILD, "fishing", 1)
        assert [game.recorded for game in numbered] == [1, 2]
        history = await storage.results.history(GUILD)
        assert [row.table_id for row in history] == ["old0", "old1"]
        await storage.results.finish(finished("new", {ANN: 1, BOB: 2}))
        assert [game.recorded for game in await storage.results.season_places(GUILD, "fishing", 1)][
            -1
        ] == 3
    finally:
        await storage.close()


# -- the ratings cache -----------------------------------------------------------------------
async def test_cached_ratings_follow_new_games_reading_only_those(storage: Storage) -> None:
    ratings = Ratings(storage.results)
    for n in range(6):
        await storage.results.finish(finished(f"g{n}", {ANN: 1 + n % 2, BOB: 2 - n % 2}, minute=n))
    await ratings.scoreboard(GUILD, "fishing")

    asked: list[int] = []
    season_places = storage.results.season_places

    async def spied(guild_id: int, game_id: str, season: int, after: int = 0) -> Any:
        asked.append(after)
        return await season_places(guild_id, game_id, season, after)

    storage.results.season_places = spied  # type: ignore[method-assign]
    await storage.results.finish(finished("g6", {CAT: 1, ANN: 2}, minute=6))
    await ratings.refresh(GUILD, "fishing")  # as the bot does when a game ends
    cached = await ratings.scoreboard(GUILD, "fishing")
    assert asked == [6, 7]  # only the game recorded after the six already rated, then nothing
    fresh = await Ratings(storage.results).scoreboard(GUILD, "fishing")
    assert cached == fresh
    assert {row.user_id: row.games for row in cached} == {ANN: 7, BOB: 6, CAT: 1}
    (ann,) = await ratings.stats(GUILD, ANN)
    assert (ann.games, ann.season_games) == (7, 7)


async def test_ratings_are_computed_off_the_event_loop(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    add = SeasonTally.add

    def recorded(self: SeasonTally, seats: Any) -> None:
        threads.append(threading.current_thread())
        add(self, seats)

    monkeypatch.setattr(SeasonTally, "add", recorded)
    await storage.results.finish(finished("g1", {ANN: 1, BOB: 2}))
    await Ratings(storage.results).scoreboard(GUILD, "fishing")
    assert threads and threading.main_thread() not in threads


async def test_simultaneous_refreshes_count_each_game_once(storage: Storage) -> None:
    ratings = Ratings(storage.results)
    await storage.results.finish(finished("g1", {ANN: 1, BOB: 2}))
    boards = await asyncio.gather(*(ratings.scoreboard(GUILD, "fishing") for _ in range(5)))
    await storage.results.finish(finished("g2", {ANN: 1, BOB: 2}, minute=1))
    await asyncio.gather(*(ratings.refresh(GUILD, "fishing") for _ in range(5)))
    assert all(board == boards[0] for board in boards)
    assert [row.games for row in await ratings.scoreboard(GUILD, "fishing")] == [2, 2]


async def test_a_new_season_starts_from_new_ratings(storage: Storage) -> None:
    ratings = Ratings(storage.results)
    await storage.results.finish(finished("g1", {ANN: 1, BOB: 2}))
    assert len(await ratings.scoreboard(GUILD, "fishing")) == 2
    await storage.results.reset_season(GUILD, "fishing")
    assert await ratings.scoreboard(GUILD, "fishing") == []
    await storage.results.finish(finished("g2", {BOB: 1, CAT: 2}, minute=1))
    assert [row.user_id for row in await ratings.scoreboard(GUILD, "fishing")] == [BOB, CAT]
    assert len(await ratings.scoreboard(GUILD, "fishing", season=1)) == 2


async def test_a_start_rates_every_current_season_in_the_background(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path)
    storage = await Storage.open(settings.database_url)
    await storage.results.finish(finished("g1", {ANN: 1, BOB: 2}))
    await storage.results.finish(finished("g2", {ANN: 1, CAT: 2}, game_id="stuck", minute=1))
    await storage.results.finish(finished("g3", {BOB: 1, CAT: 2}, guild_id=GUILD + 1, minute=2))
    await storage.close()
    bot = create_bot(settings)
    expected = {(GUILD, "fishing", 1): 1, (GUILD, "stuck", 1): 2, (GUILD + 1, "fishing", 1): 3}
    async with simcord.run(bot):  # returns once the start's background work has settled
        assert bot.wiring.ratings.cached_seasons() == expected
        await bot.close()
