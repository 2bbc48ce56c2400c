"""A restart shows its restored tables through a paced queue: ``redraws_per_second`` tables a
second (5 by default; each a table edit and a hand DM edit per person), so that thousands of
games coming back do not flood Discord with requests (429s count toward its invalid-request
ban); the games are playable at once, before their turn in the queue comes."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import create_bot
from bot.tables.session import TableSession
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    add_player,
    kill_and_restart,
    move_by_hand,
    open_table,
    release,
    table_message,
    text_of,
)

RESTORED = "The game resumes after a restart."
TABLES = 40


class TimedRequests(list[Any]):
    """The simulated backend's log of REST requests, noting when each was made."""

    def __init__(self, env: simcord.Env, logged: list[Any]) -> None:
        super().__init__(logged)
        self.env = env
        self.times: list[datetime] = [env.now()] * len(logged)

    def append(self, request: Any) -> None:
        super().append(request)
        self.times.append(self.env.now())


def restored_on_screen(channel: simcord.ChannelHandle, table: TableSession) -> bool:
    return RESTORED in text_of(table_message(channel, table))


@pytest.mark.slow
async def test_a_restart_with_40_games_paces_its_requests(tmp_path: Path) -> None:
    # a table every 10 s: simcord backs a simulated timer shorter than its settle timeout (5 s)
    # with a real one, so that a faster pace would be partly real time; at this pace the
    # test counts every request by simulated time
    # (and no turn runs out meanwhile)
    settings = fast_settings(tmp_path, redraws_per_second=0.1, turn_seconds=3600)
    old = new = create_bot(settings)
    try:
        async with simcord.run(old) as env:
            await old.tree.sync()
            guild = env.create_guild(name="Cardroom test")
            channels = [guild.create_text_channel(f"games-{n}") for n in range(TABLES)]
            players = [add_player(env, guild, f"p{n}") for n in range(TABLES)]
            for channel, player in zip(channels, players, strict=True):
                await open_table(old, channel, [player], "fishing", 1)
            requests = TimedRequests(env, env.backend.http_requests)
            env.backend.http_requests = requests
            before, restarted_at = len(requests), env.now()

            new = await kill_and_restart(env, old)
            by_channel = {channel.id: channel for channel in channels}
            tables = [(by_channel[t.channel_id], t) for t in new.tables.tables.values()]
            waiting = [(c, t) for c, t in tables if not restored_on_screen(c, t)]
            assert waiting, "some tables wait for their turn to be shown"
            # playable at once: a move is taken before the table's turn to be shown comes
            channel, table = waiting[-1]
            player = next(p for p in players if table.seat_of(p.id) is not None)
            revision, moving = table.revision, len(requests)
            assert await move_by_hand(player, channel, table, random.Random(1))
            assert table.revision > revision
            del requests.times[moving:]  # what the move asked for is not the restart's
            del requests[moving:]
            for _ in range(TABLES):
                await env.advance_time(1 / settings.redraws_per_second)
            assert all(restored_on_screen(c, t) for c, t in tables)
            seconds = Counter(
                int((at - restarted_at).total_seconds())
                for at, request in zip(requests.times[before:], requests[before:], strict=True)
                if request.path.startswith(("/channels/", "/users/@me/channels"))
            )
            # one table at a time: a table edit, a DM channel, a DM edit and a turn ping (all at
            # once, every table's in the first second)
            assert max(seconds.values()) <= 4, sorted(seconds.items())
    finally:
        await release(new, old)
