"""Hand DM buttons work for every shard's games: Discord sends every DM click to the process
of shard 0, which acknowledges it and hands it to the process running the game (through the
database), which plays it and answers through the interaction's token.

The two processes are real: the owner of the game's shard is ``tests/bot/shard_owner.py``,
started as a child process on the same PostgreSQL database. Each process has its own
simulated Discord (simcord runs in one process), so the click is made in this process's on a
DM carrying the hand's button, and the owner's answer through the token is seen in the
requests it sent (its own simulated Discord does not know that token)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any
from unittest import mock

import discord
import pytest
import simcord
from discord import InteractionResponse

from bot.app import CardroomBot, create_bot
from bot.storage import ForwardedClick, Shards, Storage
from bot.tables.dm_clicks import OWNER_GONE, ClickInbox
from bot.tables.service import OVER_OR_ELSEWHERE
from tests.bot.conftest import fast_settings
from tests.bot.helpers import release, text_of
from tests.bot.shard_owner import same_world

ROOT = Path(__file__).resolve().parents[2]


async def line_from(process: asyncio.subprocess.Process, log: Path) -> dict[str, Any]:
    """The next JSON line the process reports (its log, where it writes the rest, is shown
    if it ended without one)."""
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 120)
    assert line, f"the owner process ended early:\n{log.read_text()[-3000:]}"
    found: dict[str, Any] = json.loads(line)
    return found


async def dm_with_button(bot: CardroomBot, user_id: int, custom_id: str) -> discord.Message:
    """A DM from the bot carrying one button (as ann's hand DM carries its steps)."""
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Play", custom_id=custom_id))
    channel = await bot.create_dm(discord.Object(user_id))
    return await channel.send("ann's hand", view=view)


@pytest.mark.slow
async def test_a_dm_click_on_another_processs_game_is_played_by_that_process(
    tmp_path: Path, postgres_url: str
) -> None:
    (tmp_path / "owner").mkdir()
    log = tmp_path / "owner" / "owner.log"  # its answer through a token unknown to its own
    # simulated Discord is logged there as an error, as a refused answer is
    with log.open("w") as errors:  # the child keeps its own copy
        owner = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.bot.shard_owner",
            postgres_url,
            str(tmp_path / "owner"),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=errors,
        )
    bot = create_bot(
        fast_settings(tmp_path, database_url=postgres_url, shard_count=2, shard_ids="0")
    )
    try:
        dealt = await line_from(owner, log)
        forwarded: list[ForwardedClick] = []
        async with simcord.run(bot) as env:
            _, _, ann = same_world(env)
            assert ann.id == dealt["ann"], "ann is the same person in both processes"
            clicks, order = bot.storage.clicks, []
            forward, look_up, defer = clicks.forward, clicks.game_guild, InteractionResponse.defer

            async def noted(click: ForwardedClick) -> None:
                forwarded.append(click)
                await forward(click)

            async def looked_up(table_id: str) -> int | None:
                order.append("looked up")
                return await look_up(table_id)

            async def deferred(response: InteractionResponse[Any], **kwargs: Any) -> Any:
                order.append("acknowledged")
                return await defer(response, **kwargs)

            hand = await dm_with_button(bot, ann.id, dealt["click"])
            with (
                mock.patch.object(clicks, "forward", noted),
                mock.patch.object(clicks, "game_guild", looked_up),
                mock.patch.object(InteractionResponse, "defer", deferred),
            ):
                clicked = await ann.user.click(hand, custom_id=dealt["click"])
            assert order == ["acknowledged", "looked up"], "acknowledged before anything else"
            assert clicked.deferred and not clicked.followups, "no answer from here"
            (click,) = forwarded
            assert (click.table_id, click.shard_id) == (dealt["table"], 1)

            played = await line_from(owner, log)
            assert played["revision"] > dealt["revision"], "the owner played the move"
            assert played["moved"] and played["moved"][0].startswith("{s0} "), "ann's move (seat 0)"
            token = json.loads(click.interaction)["token"]
            assert any(
                f"/{token}/messages/@original" in request for request in played["answered"]
            ), "the owner answered through the click's token"

            # a click on a game stored nowhere: answered here, privately
            clicks.forward = noted  # type: ignore[method-assign]
            gone = "cr:refresh:00000000deadbeef"
            over = await ann.user.click(await dm_with_button(bot, ann.id, gone), custom_id=gone)
            assert [text_of(m) for m in over.followups] == [OVER_OR_ELSEWHERE]

            # the owner stops: its shard is run by no process, and the click is told so
            assert owner.stdin is not None
            owner.stdin.write(b"stop\n")
            await owner.stdin.drain()
            assert await asyncio.wait_for(owner.wait(), 60) == 0
            again = await ann.user.click(hand, custom_id=dealt["click"])
            assert [text_of(m) for m in again.followups] == [OWNER_GONE]
            assert len(forwarded) == 1, "nothing handed to a process that is gone"
    finally:
        if owner.returncode is None:
            owner.kill()
            await owner.wait()
        await release(bot)


async def test_forwarded_clicks_are_taken_once_and_dropped_once_their_token_expires(
    database_url: str,
) -> None:
    storage = await Storage.open(database_url)
    try:
        clicks = storage.clicks
        for interaction_id, shard, expires in [(1, 1, 100), (2, 1, 200), (3, 0, 200), (4, 3, 200)]:
            await clicks.forward(ForwardedClick(interaction_id, shard, "t", "{}", expires))
        taken = await clicks.take(Shards(4, (1, 3)), now=150)
        assert [click.interaction_id for click in taken] == [2, 4]  # 1 expired, 3 not ours
        assert await clicks.take(Shards(4, (1, 3)), now=150) == []
        assert [c.interaction_id for c in await clicks.take(Shards(4, (0,)), now=150)] == [3]
    finally:
        await storage.close()


async def test_a_click_whose_wake_up_was_lost_is_found_by_the_poll(database_url: str) -> None:
    """A click stored before the owner listened (its notification went to nobody) is taken
    at the inbox's next look, once."""
    storage = await Storage.open(database_url)
    spawned: list[str] = []

    def spawn(work: Coroutine[Any, Any, None], name: str) -> None:
        work.close()  # running a click is the first test's subject
        spawned.append(name)

    await storage.clicks.forward(ForwardedClick(7, 1, "t", "{}", 2**40))
    inbox = ClickInbox(
        discord.Client(intents=discord.Intents.none()), storage, Shards(2, (1,)), 0.05, list, spawn
    )
    try:
        inbox.start()
        for _ in range(600):
            if spawned:
                break
            await asyncio.sleep(0.05)
        assert spawned == ["forwarded-7"]
        await asyncio.sleep(0.2)  # later looks find nothing more
        assert spawned == ["forwarded-7"]
    finally:
        await inbox.close()
        await storage.close()
