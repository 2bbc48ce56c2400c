"""Restoring at start, beyond the position itself: the table log and hand summaries come back,
and a saved game that cannot be read back is reported in the log and its channel (once,
without quoting the saved data), set aside, while the bot and other games go on."""

from __future__ import annotations

import gc
import json
import logging
import random
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import CardroomBot, create_bot
from bot.storage import LoadedGame, SeatRecord
from bot.tables import restore
from bot.tables.records import Seat, SessionContext
from bot.tables.session import TableSession
from bot.text import fill_names
from engine.core import Event, Game, State
from engine.registry import games
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    Player,
    add_player,
    kill_and_restart,
    move_by_hand,
    open_table,
    release,
    table_message,
    text_of,
)
from tests.bot.test_storage import play, saved


async def test_a_restored_table_has_its_log_and_hand_summaries_back(tmp_path: Path) -> None:
    """A game saved by an earlier run two hands in: its table must still show the last moves
    and say it was restored, and its results must list every hand."""
    settings = fast_settings(tmp_path)
    first = create_bot(settings)
    async with simcord.run(first) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ann = add_player(env, guild, "ann")
        game = games()["fishing"]
        state = game.new_state(2, 11)
        actions: list[tuple[int, str]] = []
        events: list[Event] = []
        # play on to a point two hands in where the person (seat 0) is to move
        while sum(e.kind == "hand_end" for e in events) < 2 or state.to_act() != (0,):
            assert not state.is_over
            play(game, state, actions, stop_at=len(actions) + 1)
            replay = game.new_state(2, 11)
            events = [event for seat, text in actions for event in replay.apply_text(seat, text)]
        seats = [
            SeatRecord(user_id=ann.id, name="ann", is_ai=False),
            SeatRecord(user_id=None, name="AI 1", is_ai=True),
        ]
        await first.storage.running.save(
            saved(
                state,
                "t1",
                revision=len(actions),
                actions=actions,
                seats=seats,
                guild_id=guild.id,
                channel_id=channel.id,
                table_message_id=None,
            )
        )
        await first.close()

        bot = create_bot(settings)
        await env.restart_bot(bot)
        assert isinstance(bot, CardroomBot)
        table = bot.tables.tables["t1"]
        names = ["ann", "AI 1"]
        summaries = [fill_names(e.text, names) for e in events if e.kind == "hand_end"]
        restored = [fill_names(e.text, names) for e in table.summaries]
        assert restored == summaries and len(summaries) >= 2
        assert table.deals == sum(event.kind == "deal" for event in events)
        logged = [entry.event.text for entry in table.log]
        assert logged[-2:] == [events[-1].text, "The game resumes after a restart."]
        assert "resumes after a restart" in text_of(table_message(channel, table))
        await bot.close()


async def test_a_saved_state_is_read_once_at_restore_while_the_collector_rests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storage parses a running game's state and hands it over; the tables do not parse it
    again. Python's garbage collector pauses while games are read back (with thousands, it
    would scan their objects over and over: half of a start's time) and runs again after."""
    settings = fast_settings(tmp_path)
    first = create_bot(settings)
    async with simcord.run(first) as env:
        await first.tree.sync()
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        await open_table(first, channel, [add_player(env, guild, "ann")], "fishing", 1)
        await first.tables.close()
        await first.storage.close()

        game_class = type(games()["fishing"])
        reads: list[str] = []
        read = game_class.state_from_json

        def counted(self: Game, data: dict[str, Any]) -> State:
            reads.append(self.id)
            return read(self, data)

        collecting: list[bool] = []
        read_back = restore.session_from_saved

        def noted(loaded: LoadedGame, context: SessionContext, server: str | None) -> TableSession:
            collecting.append(gc.isenabled())
            return read_back(loaded, context, server)

        monkeypatch.setattr(game_class, "state_from_json", counted)
        monkeypatch.setattr(restore, "session_from_saved", noted)
        bot = create_bot(settings)
        await env.restart_bot(bot)
        assert isinstance(bot, CardroomBot)
        assert len(bot.tables.tables) == 1
        assert reads == ["fishing"]
        assert collecting == [False] and gc.isenabled()
        await bot.close()


async def test_a_corrupt_game_is_reported_in_its_channel_and_the_others_go_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = fast_settings(tmp_path)
    old = create_bot(settings)
    async with simcord.run(old) as env:
        await old.tree.sync()
        guild = env.create_guild()
        broken_channel = guild.create_text_channel("broken")
        good_channel = guild.create_text_channel("good")
        ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
        broken = await open_table(old, broken_channel, [ann], "fishing", 1)
        good = await open_table(old, good_channel, [bob], "fishing", 1)
        await old.tables.close()
        await old.storage.close()
        with sqlite3.connect(settings.database_url) as connection:
            connection.execute(
                'UPDATE running_games SET state = \'{"secret": "QS"\' WHERE table_id = ?',
                (broken.table_id,),
            )

        caplog.set_level(logging.WARNING, logger="bot.app")
        new = create_bot(settings)
        await env.restart_bot(new)
        assert isinstance(new, CardroomBot)
        assert [problem.split(":")[0] for problem in new.restore_problems] == [
            f"table {broken.table_id}"
        ]
        assert broken.table_id in caplog.text
        notices = [m for m in broken_channel.history() if "could not be restored" in text_of(m)]
        assert len(notices) == 1
        assert broken.table_id in text_of(notices[0]) and "QS" not in text_of(notices[0])
        assert broken.table_id not in new.tables.tables
        # the other game goes on, and the broken table's channel is free for a new game
        restored = new.tables.tables[good.table_id]
        assert await move_by_hand(bob, good_channel, restored, random.Random(3))
        assert await open_table(new, broken_channel, [ann], "cambio", 1)
        await new.tables.close()
        await new.storage.close()

        again = create_bot(settings)  # set aside: not reported a second time
        await env.restart_bot(again)
        assert isinstance(again, CardroomBot)
        assert again.restore_problems == []
        assert [
            m.id for m in broken_channel.history() if "could not be restored" in text_of(m)
        ] == [notices[0].id]
        await again.tables.close()
        await again.storage.close()


async def test_an_old_table_message_is_posted_anew_and_a_restart_edits_the_new_one(
    tmp_path: Path,
) -> None:
    settings = fast_settings(tmp_path, turn_seconds=3600, table_repost_seconds=3300)
    old = create_bot(settings)
    async with simcord.run(old) as env:
        await old.tree.sync()
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
        table = await open_table(old, channel, [ann, bob], "fishing", 0)
        first_id = table.table_message_id
        rng = random.Random(4)
        await env.advance_time(3000)  # not yet old: a move edits it in place
        assert await move_by_hand([ann, bob][table.state.waiting_for()[0]], channel, table, rng)
        assert table.table_message_id == first_id
        await env.advance_time(400)  # 56 minutes old: the next change posts it anew
        assert await move_by_hand([ann, bob][table.state.waiting_for()[0]], channel, table, rng)
        reposted = table.table_message_id
        assert reposted is not None and reposted != first_id
        assert first_id not in [message.id for message in channel.history()]
        # at the bottom, where people look (only the short turn ping may follow it)
        below = [m for m in channel.history() if "it is your turn" not in m.content]
        assert below[-1].id == reposted

        new = await kill_and_restart(env, old)
        restored = new.tables.tables[table.table_id]
        assert restored.table_message_id == reposted
        assert "resumes after a restart" in text_of(table_message(channel, restored))
        mover = [ann, bob][restored.state.waiting_for()[0]]
        assert await move_by_hand(mover, channel, restored, rng)
        await release(old, new)


def test_a_seat_comes_back_from_its_stored_form_with_everything_stored() -> None:
    seat = Seat(7, "ann", True, 99, True, timeouts_in_a_row=2, level="hard")
    assert Seat.from_record(seat.record()) == seat  # dm_deal is not stored: -1 either way


@dataclass
class Restarted:
    """A table restarted by ``restarted_with_its_log``: the new bot, where it plays, its
    person, and the public lines its log showed before the restart."""

    bot: CardroomBot
    channel: simcord.ChannelHandle
    ann: Player
    table_id: str
    shown_before: list[str]


@asynccontextmanager
async def restarted_with_its_log(
    tmp_path: Path, damaged: Callable[[str], str]
) -> AsyncIterator[Restarted]:
    """A fishing table of ann and an AI seat, one move in, restarted after its saved
    ``table_log`` column was replaced by ``damaged(column)``."""
    settings = fast_settings(tmp_path)
    old = create_bot(settings)
    async with simcord.run(old) as env:
        await old.tree.sync()
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ann = add_player(env, guild, "ann")
        table = await open_table(old, channel, [ann], "fishing", 1)
        assert await move_by_hand(ann, channel, table, random.Random(2))
        shown = [entry.event.text for entry in table.log if entry.event.visible_to is None]
        await old.tables.close()
        await old.storage.close()
        with sqlite3.connect(settings.database_url) as connection:
            where = (table.table_id,)
            (stored,) = connection.execute(
                "SELECT table_log FROM running_games WHERE table_id = ?", where
            ).fetchone()
            connection.execute(
                "UPDATE running_games SET table_log = ? WHERE table_id = ?",
                (damaged(stored), *where),
            )
        new = create_bot(settings)
        await env.restart_bot(new)
        assert isinstance(new, CardroomBot)
        try:
            assert not new.restore_problems
            yield Restarted(new, channel, ann, table.table_id, shown)
        finally:
            await new.tables.close()
            await new.storage.close()


def warned(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The warnings logged about something that could not be read back."""
    return [record.getMessage() for record in caplog.records if "read back" in record.msg]


def two_lines_damaged(column: str) -> str:
    """A saved table log whose last public line's arguments are cut short and whose line
    before cannot be filled in."""
    kept = json.loads(column)
    public = [event for event in kept["events"] if event["visible_to"] is None]
    public[-1]["args"] = [["player", {"6♦": "QS"}]]  # cut short
    public[-2]["text"] = "{player played {card"  # its text cannot be filled in
    return json.dumps(kept)


async def test_a_damaged_log_line_reads_as_unreadable_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A line of a saved table log damaged in storage: the table comes back with that line
    marked, the game goes on, and the host is told once, without the line's words."""
    caplog.set_level(logging.WARNING)
    async with restarted_with_its_log(tmp_path, two_lines_damaged) as restart:
        restored = restart.bot.tables.tables[restart.table_id]
        shown = text_of(table_message(restart.channel, restored))
        assert shown.count("• ⚠ This line could not be read back.") == 2
        assert await move_by_hand(restart.ann, restart.channel, restored, random.Random(3))
        assert warned(caplog) == [
            f"table {restart.table_id}: a stored line of its log could not be read back"
            " (its text cannot be filled in); shown as unreadable"
        ]
        assert "6♦" not in caplog.text and "QS" not in caplog.text


@pytest.mark.parametrize(
    ("column", "damage"),
    [('{"events": [{"text": "QS 6♦"', "not JSON"), ('{"events": "QS 6♦"}', "not a table log")],
)
async def test_a_damaged_log_is_rebuilt_from_the_moves_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, column: str, damage: str
) -> None:
    """A saved table log damaged as a whole in storage (not a table log at all): the game is
    not set aside, its log comes back from its moves played again, it goes on, and the host
    is told once, without the column's words."""
    caplog.set_level(logging.WARNING)
    async with restarted_with_its_log(tmp_path, lambda _stored: column) as restart:
        restored = restart.bot.tables.tables[restart.table_id]
        rebuilt = [entry.event.text for entry in restored.log if entry.event.visible_to is None]
        assert rebuilt[:-1] == restart.shown_before
        assert rebuilt[-1] == "The game resumes after a restart."
        assert await move_by_hand(restart.ann, restart.channel, restored, random.Random(3))
        assert warned(caplog) == [
            f"table {restart.table_id}: its saved log could not be read back ({damage});"
            " rebuilt from its moves"
        ]
        assert "6♦" not in caplog.text and "QS" not in caplog.text
