"""A bot process of its own for ``test_dm_clicks.py``: it runs shard 1 of 2 on the given
PostgreSQL database under its own simulated Discord, deals ann a game there, and reports
(one JSON line each on stdout) what the other process needs to click in her hand DM, then
what became of the game once that click was handed to it. It stops when told to on stdin.

Run as ``python -m tests.bot.shard_owner URL FOLDER``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import simcord

from bot.app import create_bot
from bot.tables.session import TableSession
from bot.tables.step_target import StepTarget
from engine.choices import Step, resolve
from tests.bot.conftest import fast_settings
from tests.bot.helpers import Player, add_player, open_table, release

WAIT_SECONDS = 60.0  # real time for the click to arrive (generous: a loaded machine)


def same_world(env: simcord.Env) -> tuple[simcord.GuildHandle, simcord.ChannelHandle, Player]:
    """A server on shard 1, its channel and ann, made in the same order in both processes:
    the simulated Discord of each numbers them alike, so ann has the same id in both."""
    guild = env.create_guild(shard_id=1)
    channel = guild.create_text_channel("games")
    return guild, channel, add_player(env, guild, "ann")


def complete_move(table: TableSession, seat: int) -> str:
    """The custom_id of a step button that completes one of the seat's moves (its first
    option at every step)."""
    legal = table.state.legal_actions(seat)
    path: tuple[int, ...] = ()
    while isinstance(target := resolve(legal, path, table.game.confirmation), Step):
        path = (*path, target.choices[0].index)
    return f"cr:step:{StepTarget(table.table_id, table.revision, path).id_part()}"


def report(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


async def main(url: str, folder: Path) -> None:
    bot = create_bot(fast_settings(folder, database_url=url, shard_count=2, shard_ids="1"))
    try:
        async with simcord.run(bot) as env:
            _, channel, ann = same_world(env)
            await bot.tree.sync()
            table = await open_table(bot, channel, [ann], "fishing", 1)
            if 0 not in table.state.waiting_for():
                await env.advance_time(2)  # the AI moves first
            dealt = table.revision
            report(ann=ann.id, table=table.table_id, revision=dealt, click=complete_move(table, 0))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + WAIT_SECONDS
            while table.revision == dealt and loop.time() < deadline:
                await asyncio.sleep(0.05)
            moved = [e.event.text for e in table.log if e.revision == dealt + 1]
            await asyncio.sleep(0.5)  # its answer through the token
            answered = [f"{e.method} {e.path}" for e in env.http_requests if "/webhooks/" in e.path]
            report(revision=table.revision, moved=moved, answered=answered)
            await loop.run_in_executor(None, sys.stdin.readline)
    finally:
        await release(bot)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2])))
