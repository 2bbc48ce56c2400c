"""/game history shows each finished game's latest hands: stored as message ids with their
arguments and read in the language of the board that shows them; a game stored before (its
hands as English text) reads as it was written; a page of the longest games fits Discord."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
import simcord

from bot.app import CardroomBot
from bot.boards.figures import HANDS_BUDGET, history_entry
from bot.boards.pages import HISTORY_PAGE
from bot.i18n import catalog
from bot.storage import FinishedSeat, HistoryRow, SavedEvent, Storage
from bot.tables.records import UnreadableLines
from bot.text import earlier_not_shown
from engine.registry import games
from engine.words import speaking
from tests.bot.conftest import member
from tests.bot.helpers import (
    Playthrough,
    add_player,
    kill_and_restart,
    open_table,
    release,
    short_options,
    text_of,
)
from tests.bot.records import GUILD, finished


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    """A new database of each dialect in turn (SQLite, then PostgreSQL)."""
    opened = await Storage.open(database_url)
    yield opened
    await opened.close()


async def history_text(player: simcord.MemberActor, channel: simcord.ChannelHandle) -> str:
    """The first page of ``/game history`` as ``player`` sees it."""
    shown = await player.slash(channel, "game history")
    assert shown.response is not None
    return text_of(shown.response)


async def test_a_games_hands_read_in_the_language_of_the_board_that_shows_them(
    bot: CardroomBot, env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    fishing = games()["fishing"]
    table = await open_table(bot, channel, [ann], "fishing", 1, short_options(fishing))
    await Playthrough(env, channel, [ann], table, random.Random(5)).to_the_end()
    (game,) = await bot.storage.results.history(guild.id)
    assert game.summary is not None
    # stored as the table log stores them: message ids with their arguments, no English
    ids = [hand.text for hand in game.summary if isinstance(hand, SavedEvent)]
    assert ids and ids == ["{title} scores: {scores} · totals: {totals}"] * len(game.summary)

    english = await history_text(ann.member, channel)
    await bot.wiring.languages.choose_for_server(guild.id, "de")
    german = await history_text(ann.member, channel)

    last = len(game.summary)
    assert f"\n-# Hand {last} scores: ann " in english
    assert f"\n-# Wertung Runde {last}: ann " in german
    assert "scores:" not in german


async def test_hands_stored_as_english_text_read_as_written(storage: Storage) -> None:
    """Games finished before hands were stored as message ids: the column holds English
    lines, names filled in; they are read back and shown as they are, in any language."""
    await storage.results.finish(finished("old", {1: 1, 2: 2}))
    written = ["Hand 1 scores: {ann} 3; bob 0 · totals: {ann} 3, bob 0"]  # braces in a name
    async with storage._database.transaction() as sql:
        await sql.execute(
            "UPDATE finished_games SET summary = :summary WHERE table_id = 'old'",
            {"summary": json.dumps(written)},
        )
    await storage.results.finish(finished("new", {1: 1, 2: 2}, minute=1))
    new, old = await storage.results.history(finished("x", {}).guild_id)
    assert old.summary == written
    assert new.summary == [SavedEvent(revision=0, text="hand 1 of new", kind="hand_end")]
    with speaking(catalog("de")):
        assert f"\n-# {written[0]}\n-# Tisch old" in history_entry(old, UnreadableLines())


def long_game(number: int) -> HistoryRow:
    """A finished game of four seats with the longest names and a dozen long hands."""
    names = [f"{seat}" * 32 for seat in "ABCD"]
    hand = "; ".join(
        f"{{s{seat}}} 10 (most cards 2, most clubs 1, 2♣ 1, 10♦ 1)" for seat in range(4)
    )
    return HistoryRow(
        table_id=f"long{number}",
        game_id="fishing",
        season=1,
        ended_at=datetime(2026, 1, 1, tzinfo=UTC),
        seats=[
            FinishedSeat(
                seat=seat, user_id=seat + 1, name=name, is_ai=False, score=100, place=seat + 1
            )
            for seat, name in enumerate(names)
        ],
        has_ai=False,
        summary=[
            SavedEvent(
                revision=0,
                text=f"Hand {{n}} scores: {hand}",
                kind="hand_end",
                args=[["n", str(n)]],
            )
            for n in range(1, 13)
        ],
    )


def test_a_long_game_shows_its_latest_hands_within_its_budget() -> None:
    with speaking(catalog("en")):
        entry = history_entry(long_game(1), UnreadableLines())
    _title, _results, *lines, table = entry.split("\n")
    assert table == "-# table long1"
    hands = "\n".join(lines)
    assert len(hands) <= HANDS_BUDGET
    # no whole hand fits: the start of the last, and how many are not shown
    assert hands.startswith("-# … (11 earlier not shown)\n-# Hand 12 scores: " + "A" * 32)
    assert hands.endswith("…")


async def test_a_page_of_the_longest_games_fits_one_message(
    bot: CardroomBot, env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    for number in range(HISTORY_PAGE + 1):
        row = long_game(number)
        game = finished(row.table_id, {1: 1, 2: 2, 3: 3, 4: 4}, guild_id=guild.id, minute=number)
        seats = [
            seat.model_copy(update={"name": each.name})
            for seat, each in zip(game.seats, row.seats, strict=True)
        ]
        await bot.storage.results.finish(
            game.model_copy(update={"seats": seats, "summary": row.summary})
        )
    # simcord refuses a message whose texts pass Discord's 4,000 characters
    page = await history_text(member(env, guild, "ann"), channel)
    assert page.count("-# … (11 earlier not shown)") == HISTORY_PAGE


def test_the_hands_left_out_are_counted_in_the_readers_language() -> None:
    # one plural entry: French and Spanish say one hand left out apart from several
    with speaking(catalog("fr")):
        assert earlier_not_shown(1) == "… (1 plus ancienne non affichée)"
        assert earlier_not_shown(3) == "… (3 plus anciennes non affichées)"
    with speaking(catalog("es")):
        assert earlier_not_shown(1) == "… (1 anterior no mostrada)"
    assert earlier_not_shown(1) == "… (1 earlier not shown)"


# A finished game's hands as its summary column may be found damaged, each way
DAMAGED_HANDS = {
    "notjson": "[{",
    "notalist": '{"hands": 1}',
    # an argument cut short: its card must not reach the log (nobody may have seen it)
    "badargs": json.dumps(
        [{"revision": 0, "text": "Hand {n}", "kind": "hand_end", "args": [["n", {"6♦": 1}]]}]
    ),
    "badtext": json.dumps([{"revision": 0, "text": "Hand {n scores", "kind": "hand_end"}]),
    # placeholders no message has: one that reads into its value, and one with no name
    "badfield": json.dumps(
        [{"revision": 0, "text": "Hand {n.x} {}", "kind": "hand_end", "args": [["n", "1"]]}]
    ),
}


async def damage_hands(storage: Storage, database: str, guild_id: int) -> None:
    """Finished games ``good`` and one of each of ``DAMAGED_HANDS``, their hands then
    written into the SQLite database ``database`` as damaged rows are found."""
    for minute, table_id in enumerate(["good", *DAMAGED_HANDS]):
        await storage.results.finish(
            finished(table_id, {1: 1, 2: 2}, guild_id=guild_id, minute=minute)
        )
    with sqlite3.connect(database) as connection:
        connection.executemany(
            "UPDATE finished_games SET summary = ? WHERE table_id = ?",
            [(column, table_id) for table_id, column in DAMAGED_HANDS.items()],
        )


async def test_a_damaged_hands_column_reads_back_as_none_beside_the_others(
    storage: Storage,
) -> None:
    for minute, table_id in enumerate(["good", *DAMAGED_HANDS]):
        await storage.results.finish(finished(table_id, {1: 1, 2: 2}, minute=minute))
    async with storage._database.transaction() as sql:
        for table_id, column in DAMAGED_HANDS.items():
            await sql.execute(
                "UPDATE finished_games SET summary = :summary WHERE table_id = :table_id",
                {"summary": column, "table_id": table_id},
            )
    rows = {row.table_id: row for row in await storage.results.history(GUILD)}
    assert rows.keys() == {"good", *DAMAGED_HANDS}
    assert rows["notjson"].summary is None and rows["notalist"].summary is None
    assert rows["good"].summary == [SavedEvent(revision=0, text="hand 1 of good", kind="hand_end")]
    # lines that read as hands: whether each can be shown is the history's to say
    assert rows["badargs"].summary and rows["badtext"].summary


async def test_a_page_shows_games_with_damaged_hands_marked_and_each_bot_logs_each_once(
    bot: CardroomBot,
    env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Each damaged game is marked in its place and logged once per bot: which damage was
    logged is each bot's own (its table service's), not the process's, so a bot started
    after another in the same process (a restart, another shard) logs it once too."""
    await damage_hands(bot.storage, bot.settings.database_url, guild.id)
    caplog.set_level(logging.WARNING)
    ann = member(env, guild, "ann")
    page = await history_text(ann, channel)
    assert await history_text(ann, channel) == page  # read again: logged once
    entries = {
        entry.split("-# table ")[1].split("\n")[0]: entry for entry in page.split("**Fishing**")[1:]
    }
    assert entries.keys() == {"good", *DAMAGED_HANDS}  # every game, the rest of the page intact
    assert "\n-# hand 1 of good\n" in entries["good"]
    for damaged in ("notjson", "notalist"):
        marked = f"\n-# ⚠ This game's hands could not be read back.\n-# table {damaged}"
        assert marked in entries[damaged]
    for damaged in ("badargs", "badtext", "badfield"):
        marked = f"\n-# ⚠ This line could not be read back.\n-# table {damaged}"
        assert marked in entries[damaged]
    logged = damage_warnings(caplog)
    assert logged == sorted(
        f"table {table_id}: a stored line of its hands could not be read back ({why});"
        " shown as unreadable"
        for table_id, why in [
            ("notjson", "not stored as a list of hands"),
            ("notalist", "not stored as a list of hands"),
            ("badargs", "its arguments are malformed"),
            ("badtext", "its text cannot be filled in"),
            ("badfield", "its text cannot be filled in"),
        ]
    )
    assert "6♦" not in caplog.text

    caplog.clear()
    new = await kill_and_restart(env, bot)
    try:
        assert await history_text(ann, channel) == page
        assert await history_text(ann, channel) == page
        assert damage_warnings(caplog) == logged
    finally:
        await release(new)


def damage_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The warnings logged about stored lines that could not be read back, sorted."""
    return sorted(record.getMessage() for record in caplog.records if "read back" in record.msg)
