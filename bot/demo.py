"""``python -m bot.demo`` (``./run demo``): the real bot in a local Discord-like page, no token.

The bot is ``create_bot(settings)``, unmodified, attached to simcord (the simulated Discord the
bot tests use) instead of Discord's gateway. simcord's preview serves a page on loopback that
draws a channel as the Discord client does, with a composer for slash commands and clickable
buttons and selects; each person's DMs get a page of their own. The server has one channel,
``#games``, with you (ann) and up to three friends; every page has a "Viewing as" picker, so a
friend's view opens in another tab.

This module is a demo, not part of the bot: the bot never imports it, and simcord (a dev
dependency) is imported only here. It reaches a few of simcord's private hooks, each marked
where it is used, because the preview is made for tests, where the test drives time and one
page at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import simcord
from simcord.preview import Preview

from bot.app import CardroomBot, create_bot
from bot.settings import Settings
from bot.storage.connection import POSTGRESQL_SCHEMES

log = logging.getLogger(__name__)

FRIEND_NAMES = ("bob", "cara", "dan")
# How often the simulated clock catches up with the real one (timers, AI moves, page updates).
TICK_SECONDS = 0.25
CHANNEL_PATH = re.compile(r"/channels/(\d+)/")


def demo_database(scratch: Path) -> Path | str:
    """The demo's own SQLite file in ``scratch``, or, to try the bot on PostgreSQL, the
    database of ``DATABASE_URL=postgresql://…`` in the environment (never ``.env``'s)."""
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(POSTGRESQL_SCHEMES) else scratch / "demo.db"


def demo_settings(database: Path | str) -> Settings:
    """The bot's own defaults (turn time, AI delay…), a demo database and no token; tables
    play in the channel (simcord's page draws a thread only as a line under its message, with
    no page of its own to play in)."""
    return Settings(
        _env_file=None,
        discord_token=None,
        database_url=str(database),
        dev_guild_id=None,
        table_threads=False,
    )  # type: ignore[call-arg]


def changed_channels(entries: Sequence[tuple[str, str, Any]]) -> set[int] | None:
    """The channels that simcord's transcript ``entries`` changed; None if one may be unknown.

    Gateway events name their channel; the bot's writes name it in the path, except edits of an
    interaction's answer (``/webhooks/…``), which could be anywhere.
    """
    changed: set[int] = set()
    for seam, what, payload in entries:
        if seam == "GATEWAY":
            if isinstance(payload, dict) and payload.get("channel_id") is not None:
                changed.add(int(payload["channel_id"]))
            continue
        method, _, path = what.partition(" ")
        if method == "GET":
            continue
        if path.startswith("/webhooks/"):
            return None
        found = CHANNEL_PATH.match(path)
        if found:
            changed.add(int(found.group(1)))
    return changed


@dataclass
class Demo:
    """A running demo: the simulated Discord, the bot in it, and the pages that show it."""

    env: simcord.Env
    bot: CardroomBot
    channel: simcord.ChannelHandle
    people: list[simcord.MemberActor]
    # the #games page first, then each person's DMs (by name)
    pages: list[Preview] = field(default_factory=list)
    dm_pages: dict[str, Preview] = field(default_factory=dict)
    # One simcord operation at a time: a page's action and the clock's catching up take turns.
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    seen_events: int = 0

    def urls(self) -> list[tuple[str, str]]:
        """(what, address) of every page, to print."""
        lines = [("#games (you and your friends: pick who under 'Viewing as')", self.pages[0].url)]
        lines += [(f"{name}'s DMs with Cardroom", page.url) for name, page in self.dm_pages.items()]
        return lines

    async def open_page(
        self,
        channel: simcord.ChannelHandle,
        viewers: Sequence[simcord.MemberActor | simcord.UserHandle],
        port: int = 0,
    ) -> Preview:
        """A page showing ``channel`` on loopback; its clicks and commands take turns with the
        clock, and other pages are redrawn after them.

        simcord allows one preview per Env (its tests show one channel); the demo shows each
        person's DMs too, so the Env's slot (private) is cleared while another page opens.
        """
        held = self.env._preview
        self.env._preview = None
        try:
            page = self.env.preview(channel, viewers=viewers, layout="channel", port=port)
            await page.__aenter__()
        finally:
            self.env._preview = held or self.env._preview
        act = page._action  # what the page's server calls for each click or command

        async def act_in_turn(context_id: str | None, body: Mapping[str, Any]) -> dict[str, Any]:
            async with self.turn:
                # the page writes "in 2 minutes" against its own clock, which simcord moves
                # only on a refresh (private): an acting page would keep the time it opened at
                page._advance_presentation_time()
                answer = await act(context_id, body)
                await self.redraw(acted=(page, context_id))
                return answer

        page._action = act_in_turn  # type: ignore[method-assign]
        self.pages.append(page)
        return page

    async def redraw(self, acted: tuple[Preview, str | None] | None = None) -> None:
        """Redraw the pages whose channel the bot changed since the last call.

        ``acted``: a page and the browser tab (simcord's page context) that just acted. simcord
        has drawn that tab, and only it: the other tabs of its page are drawn here (private
        hooks), but not that tab again, or its next click would be refused as made on an old
        drawing.
        """
        transcript = self.env.backend.transcript
        changed = changed_channels(transcript[self.seen_events :])
        self.seen_events = len(transcript)
        for page in self.pages:
            if changed is not None and page.channel.id not in changed:
                continue
            if acted is None or acted[0] is not page:
                await page.refresh()
                continue
            for context, tab in list(page._pages.items()):
                if context != acted[1]:
                    page._publish(tab, reason="refresh")

    async def catch_up(self, seconds: float) -> None:
        """Move the simulated clock on by ``seconds`` (turn timers, AI moves, throttled
        edits), then redraw what changed."""
        async with self.turn:
            try:
                await self.env.advance_time(seconds)
            except TimeoutError as error:  # the bot was busy too long; the clock went on
                log.warning("the simulated clock could not settle the bot: %s", error)
            await self.redraw()

    async def run_clock(self) -> None:
        """Keep the simulated clock in step with the real one until cancelled.

        Each tick brings it to the real time elapsed since the start, never past it: simcord
        also moves its clock by itself when a bot timer comes due in real time, and adding each
        tick's length on top of that ran the demo ahead (about 7 seconds a minute).
        """
        started, origin = time.monotonic(), self.env.now()
        while True:
            await asyncio.sleep(TICK_SECONDS)
            real = origin + timedelta(seconds=time.monotonic() - started)
            await self.catch_up(max(0.0, (real - self.env.now()).total_seconds()))


async def start_demo(database: Path | str, friends: int, port: int) -> Demo:
    """Start the bot under simcord with a server, a channel, you and ``friends`` friends.

    If a step fails (the port is taken…), what was started is stopped before the error goes on.
    """
    bot = create_bot(demo_settings(database))
    env = simcord.Env(bot)
    env.backend.bot_user.name = "Cardroom"  # simcord's bot account is "TestBot" by default
    # simcord's clock starts on 2026-01-01: start it at today's date and time instead
    env.backend.advance_clock(max(0.0, (datetime.now(UTC) - env.now()).total_seconds()))
    await env.start()
    guild = env.create_guild(name="Cardroom demo")
    channel = guild.create_text_channel("games", topic="Try /game start")
    people = [guild.add_member(env.create_user(name)) for name in ("ann", *FRIEND_NAMES[:friends])]
    demo = Demo(env, bot, channel, people)
    try:
        await bot.tree.sync()  # what the owner's "@Cardroom sync" does on a real server
        await demo.open_page(channel, people, port)
        for person in people:
            user = person.user
            demo.dm_pages[user.name] = await demo.open_page(user.dm_channel, [user])
    except BaseException:
        await stop_demo(demo)
        raise
    demo.seen_events = len(env.backend.transcript)
    return demo


async def stop_demo(demo: Demo) -> None:
    """Close the pages, detach the bot and close its database."""
    for page in demo.pages:
        await page.close()
    await demo.env.shutdown()
    await demo.bot.storage.close()


async def serve(
    database: Path | str, friends: int, port: int, announce: Callable[[str], None]
) -> None:
    """Run the demo until SIGINT, SIGTERM or SIGHUP (a closed terminal)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    demo = await start_demo(database, friends, port)
    clock = asyncio.create_task(demo.run_clock())
    stopped = asyncio.create_task(stop.wait())
    try:
        announce("Cardroom demo: the real bot in a simulated Discord. Open in a browser:")
        for what, url in demo.urls():
            announce(f"  {what}:\n    {url}")
        announce("In #games, type /game start in the message box. Ctrl-C stops the demo.")
        await asyncio.wait({clock, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if clock.done():
            clock.result()  # the clock failed: raise its error
    finally:
        for task in (clock, stopped):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await stop_demo(demo)


def say(line: str) -> None:
    """Print a line; a closed terminal (SIGHUP) is no error."""
    with contextlib.suppress(OSError):
        print(line, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, run the demo, and say one line when it stops."""
    parser = argparse.ArgumentParser(
        prog="./run demo", description="Try Cardroom's bot in a local Discord-like page."
    )
    parser.add_argument(
        "--friends",
        type=int,
        default=2,
        choices=range(4),
        help="how many friends besides you (default 2)",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="the #games page's port (default: any free one)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with tempfile.TemporaryDirectory(prefix="cardroom-demo-") as scratch:
        database = demo_database(Path(scratch))
        try:
            asyncio.run(serve(database, args.friends, args.port, say))
        except simcord.SetupError as error:  # a taken port, most likely
            print(f"error: the demo could not start: {error}", file=sys.stderr)
            return 1
    say("Cardroom demo stopped.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
