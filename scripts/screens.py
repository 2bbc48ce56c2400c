"""Screenshots of every screen a player sees, for review: ``python scripts/screens.py``.

Each game is played under simcord (the simulated Discord the bot tests use) by ann and bob, with
an AI seat where the game allows three, short options (the lowest target or round count), and
cara watching. simcord's preview draws each screen as the Discord client does, as the person who
sees it, in Debian's chromium; the PNGs are the lobby (and the AI level offer Add AI answers
with), the table after a few moves, the channel, the Hand at a person's turn and the next
steps of a move, the hand DM, the table and a Hand while a snap window is open (games with
out-of-turn moves), the results, the boards (``/scoreboard``, ``/stats``, ``/game
history``), the rules (``/game rules``), a replay and the review of ann's moves, each in the
dark and the light theme at a desktop and a phone width. ``--game notices`` shoots a table in
trouble, ``--game welcome`` what a newcomer finds (``/help``, a lobby and its How to play,
``/stats`` of a lowest-wins game), ``--game threads`` a table in a thread of its own (the
games' screens show their table in the channel, as a server without threads has it),
``--game picks`` Hands that choose several cards at once (cambio's opening look, twentytwo's
exchange) and a fishing turn whose cards say they capture, ``--game anywhere`` a table in a
group DM (the app installed to a user), resting and brought back. ``--language es`` (or
pt_BR, fr, de) plays in that language: a server admin chooses it with ``/cardroom language``
and each person with ``/language`` before the first game, and the script's clicks find their
buttons by their labels in it.

simcord's preview draws Discord's dark theme only: the light theme is Discord's light palette
laid over the preview's colour variables, close to Discord's but not its pixels.

    python scripts/screens.py                       # every game, into screens/
    python scripts/screens.py --game fishing --out /tmp/shots --themes dark --widths 400

Files: ``OUT/<game>/<NN>-<scene>-<theme>-<desktop|phone>.png`` and ``OUT/index.md``, which
lists each screen, who sees it and what it shows. A review tool, not a test: a scene that
cannot be reached in a game (no snap window in fishing) is listed as skipped.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType
from simcord.preview import Preview, _capture

from bot.app import CardroomBot, create_bot
from bot.i18n import LANGUAGES, SOURCE_LANGUAGE, catalog
from bot.settings import Settings
from bot.storage import Shards
from bot.tables.results import saved_game
from bot.text import suit_symbols
from engine.registry import games
from engine.words import _ as translated
from engine.words import speaking
from tests.bot.conftest import admin
from tests.bot.group_dm import GroupDm, move_in_hand, open_group_table, table_shown
from tests.bot.helpers import (
    Player,
    Playthrough,
    add_player,
    answer,
    clicking_translated,
    hand_dm,
    move_buttons,
    move_by_hand,
    open_table,
    pick,
    play,
    release,
    results_message,
    short_options,
    table_message,
)
from tests.bot.records import finished
from tests.browser.chromium import BROWSER_ARGS, CHROMIUM
from tests.engine.decks import round_robin_deck
from tests.engine.test_twentytwo import deal_deck

WIDTH_NAMES = ("desktop", "phone")
# Tall enough that no message is cut; a channel is shot as the window a person sees.
MESSAGE_HEIGHT, CHANNEL_HEIGHT = 2400, 1000
# Discord's light palette over the preview's colour variables (the page's own are dark), and
# over the colours its sheet writes out (message text, mentions) rather than as variables.
LIGHT_CSS = """
:root {
  color-scheme: light !important;
  --discord-bg: #ffffff; --discord-surface: #f2f3f5; --discord-elevated: #e3e5e8;
  --discord-control: #e3e5e8; --discord-hover: #ebedef; --discord-text: #313338;
  --discord-muted: #5c5e66; --discord-subtle: #4e5058; --discord-border: #d4d7dc;
  --component-surface: #f2f3f5; --component-border: #e3e5e8; --modal-surface: #ffffff;
  --modal-separator: #e3e5e8; --control-border: #d4d7dc; --chip-surface: #e3e5e8;
  --list-surface: #ffffff; --option-hover: #ebedef; --subtle-surface: #e3e5e8;
  --subtle-surface-text: #313338; --entity-text: #4e5058; --entity-dim: #5c5e66;
  --input-surface: #ebedef; --input-placeholder: #5c5e66; --modal-trigger-border: #d4d7dc;
  --choice-border: #b5bac1; --button-alt: #e3e5e8; --button-alt-hover: #d4d7dc;
  --button-alt-active: #c4c9ce; --code-surface: #e3e5e8; --code-border: #d4d7dc;
  --code-text: #2e3338; --embed-field-name: #060607; --link-text: #006ce7;
  --button-secondary-surface: #e3e5e8;
}
.button-style-2, .button-secondary { color: #313338 !important; }
.message-content { color: #313338; }
.mention { color: #505cdc; background: rgba(88, 101, 242, .15); }
html, body, .preview-stage, .preview-app { background: #ffffff !important; color: #313338; }
"""


def screen_settings(database: Path) -> Settings:
    """The bot's settings for shooting: its own database, no waiting for the AI or edits."""
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        discord_token=None,
        database_url=str(database),
        dev_guild_id=None,
        ai_delay_seconds=0.0,
        table_edit_seconds=0.0,
        table_threads=False,  # --game threads turns them on for its server
    )


class Browser:
    """One chromium for every capture, and the theme painted on the next ones.

    simcord's captures launch Playwright's own browser (not installed here, and fetched from the
    network) and paint the dark theme only: its private capture hooks are replaced.
    """

    def __init__(self, executable: str) -> None:
        self.executable = executable
        self.theme = "dark"
        self._playwright: Any = None
        self._browser: Any = None

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Replace simcord's capture hooks while the block runs."""
        hooks = _capture.ManagedCapture
        saved = (hooks._ensure_browser, hooks.close, hooks._freeze)
        browser = self
        freeze = hooks._freeze

        async def ensure_browser(capture: Any) -> Any:
            capture._browser = await browser.launched()
            return capture._browser

        async def close(capture: Any) -> None:  # the browser outlives each preview
            capture._browser = None

        async def paint(page: Any) -> None:
            await freeze(page)
            if browser.theme == "light":  # the page's CSP refuses <style>; a sheet object is fine
                await page.evaluate(
                    """css => { const sheet = new CSSStyleSheet(); sheet.replaceSync(css);
                    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; }""",
                    LIGHT_CSS,
                )

        hooks._ensure_browser = ensure_browser  # type: ignore[method-assign, assignment]
        hooks.close = close  # type: ignore[method-assign, assignment]
        hooks._freeze = staticmethod(paint)  # type: ignore[method-assign]
        try:
            yield
        finally:
            hooks._ensure_browser, hooks.close, hooks._freeze = saved  # type: ignore[method-assign]

    async def launched(self) -> Any:
        """The browser, started on first use."""
        if self._browser is None:
            from playwright.async_api import async_playwright

            self._playwright = await async_playwright().start()
            self._browser = await self._playwright.chromium.launch(
                executable_path=self.executable, args=BROWSER_ARGS
            )
        return self._browser

    async def close(self) -> None:
        """Stop the browser, if it was started."""
        if self._browser is not None:
            await self._browser.close()
            await self._playwright.stop()
            self._browser = self._playwright = None


@dataclass
class Camera:
    """Saves screens of one simulated Discord as the people who see them."""

    env: simcord.Env
    browser: Browser
    folder: Path
    themes: list[str]
    widths: list[tuple[str, int]]
    index: list[str]
    people: list[simcord.MemberActor]
    shots: int = 0
    preview: Preview | None = None
    showing: tuple[int, tuple[int, ...]] = (0, ())

    async def shoot(
        self,
        scene: str,
        what: str,
        channel: simcord.ChannelHandle,
        viewer: simcord.MemberActor | simcord.UserHandle,
        target: Any,
        layout: str = "message",
    ) -> None:
        """Save ``target`` (a message, or an interaction's answer) as ``viewer`` sees it, in
        every theme and width; ``layout="channel"``: the channel around it instead."""
        preview = await self._preview(channel, viewer)
        files = []
        for theme in self.themes:
            self.browser.theme = theme
            for name, width in self.widths:
                path = self.folder / f"{scene}-{theme}-{name}.png"
                await preview.screenshot(
                    path,
                    viewer=viewer,
                    target=target,
                    viewport=(width, CHANNEL_HEIGHT if layout == "channel" else MESSAGE_HEIGHT),
                    layout=layout,  # type: ignore[arg-type]
                    mode="viewport" if layout == "channel" else "surface",
                    allow_incomplete=True,
                )
                files.append(path.name)
                self.shots += 1
        who = viewer.name if isinstance(viewer, simcord.UserHandle) else viewer.user.name
        self.index.append(f"- `{self.folder.name}/{scene}` — {what} (seen by {who})")

    def skip(self, scene: str, why: str) -> None:
        """Note a scene the game did not reach."""
        self.index.append(f"- `{self.folder.name}/{scene}` — skipped: {why}")

    async def _preview(
        self, channel: simcord.ChannelHandle, viewer: simcord.MemberActor | simcord.UserHandle
    ) -> Preview:
        # simcord keeps one preview per Env: a screen of another channel closes the last one
        if self.preview is None or self.showing[0] != channel.id:
            await self.close()
            viewers = [viewer] if isinstance(viewer, simcord.UserHandle) else self.people
            self.preview = self.env.preview(channel, viewers=viewers)
            await self.preview.__aenter__()
            self.showing = (channel.id, tuple(v.id for v in viewers))
        return self.preview

    async def close(self) -> None:
        """Close the open preview."""
        if self.preview is not None:
            await self.preview.close()
            self.preview = None


@dataclass
class World:
    """A bot in a simulated server with ann, bob and cara, and a channel for one game."""

    env: simcord.Env
    bot: CardroomBot
    channel: simcord.ChannelHandle
    guild: simcord.GuildHandle
    ann: Player
    bob: Player
    cara: Player
    players: list[Player] = field(default_factory=list)
    language: str = SOURCE_LANGUAGE


async def world(scratch: Path, game_id: str, language: str = SOURCE_LANGUAGE) -> World:
    """Start the bot under simcord with a server, ``#<game>`` and three people, all speaking
    ``language`` (chosen as an admin and as each person would)."""
    bot = create_bot(screen_settings(scratch / f"{game_id}.db"))
    env = simcord.Env(bot)
    env.backend.bot_user.name = "Cardroom"
    await env.start()
    await bot.tree.sync()
    guild = env.create_guild(name="Cardroom")
    channel = guild.create_text_channel(game_id)
    ann, bob, cara = (add_player(env, guild, name) for name in ("ann", "bob", "cara"))
    if language != SOURCE_LANGUAGE:
        await admin(env, guild, "boss").slash(channel, "cardroom language", language=language)
        for person in (ann, bob, cara):
            await person.member.slash(channel, "language", language=language)
    return World(env, bot, channel, guild, ann, bob, cara, [ann, bob], language)


@contextmanager
def labels_in(language: str) -> Iterator[None]:
    """Make every click of a button by its label (``label="Join"``) look for the label in
    ``language``: the script names buttons in English, the bot shows them in the players'
    language."""

    def translate(label: str) -> str:
        with speaking(catalog(language)):
            return translated(label)

    original = simcord.MemberActor.click
    simcord.MemberActor.click = clicking_translated(original, translate)  # type: ignore[method-assign]
    try:
        yield
    finally:
        simcord.MemberActor.click = original  # type: ignore[method-assign]


async def shoot_game(here: World, camera: Camera, game_id: str, seed: int) -> None:
    """Play ``game_id`` to its end, saving each screen on the way."""
    game = games()[game_id]
    channel, ann, bob, cara = here.channel, here.ann, here.bob, here.cara
    started = await ann.member.slash(channel, f"game start {game_id}", **start_options(game))
    lobby = answer(started)
    await bob.member.click(lobby, label="Join")
    if 3 in game.player_counts:
        added = await ann.member.click(lobby, label="Add AI")
        await camera.shoot(
            "01-lobby-ai-level",
            "the AI level offer that Add AI answers with (only the clicker sees it)",
            channel,
            ann.member,
            added.followups[0],
        )
    await camera.shoot(
        "01-lobby",
        "the lobby: ann hosts, bob joined, an AI seat where allowed, before Start",
        channel,
        ann.member,
        latest(channel, lobby.id),
    )
    await ann.member.click(lobby, label="Start")
    table = here.bot.tables.tables[here.bot.tables.by_channel[channel.id]]
    run = Playthrough(here.env, channel, here.players, table, random.Random(seed))
    shot_snap = shot_turn = shot_round = False
    for _ in range(4000):
        if table.ended:
            break
        if table.round_end is not None:  # a round's end held before the next deal
            if not shot_round:
                await shoot_round_end(here, camera, table, "shot")
            await bob.member.click(table_message(channel, table), label="Next round")
            if not shot_round:
                await shoot_round_end(here, camera, table, "kept")
            shot_round = True
            continue
        if not shot_snap and snap_open(run):
            shot_snap = True
            await shoot_snap_window(here, camera, run)
        if not shot_turn and run.human_moves >= 3 and person_waited_for(run) is not None:
            shot_turn = True
            await shoot_turn(here, camera, run)
        await run.step()
    if not shot_snap:
        camera.skip("06-snap-*", f"{game.name} opened no snap window for a person")
    if not shot_round:
        camera.skip("17-round-end*", f"{game.name} ended in one round")
    with speaking(catalog(here.language)):
        title = translated("{game} — results").format(game=translated(game.name))
    results = results_message(channel, title)
    if results is None:
        camera.skip("08-results", "the game did not end")
        return
    await camera.shoot("08-results", "the results message", channel, cara.member, results)
    await camera.shoot(
        "09-channel-end",
        "the channel at the end, as ann sees it",
        channel,
        ann.member,
        results,
        layout="channel",
    )
    await shoot_boards(here, camera, game_id)
    await shoot_replay(here, camera, results)


async def shoot_replay(here: World, camera: Camera, results: Any) -> None:
    """The replay ann opens from the results (at a step in the middle of the game, every
    card face up) and the review of her moves."""
    channel, ann = here.channel, here.ann
    shown = answer(await ann.member.click(results, label="▶ Replay"))
    for _ in range(7):
        shown = answer(await ann.member.click(shown, label="Next ▶"))
    await camera.shoot(
        "15-replay",
        "ann's private replay at step 7, every card face up",
        channel,
        ann.member,
        shown,
    )
    # simcord waits for the bot to settle after a click (5 s at most): the review runs in
    # this process, on a small budget (the screen is the same; the figures are the bench's)
    here.bot.reviews.in_process = True
    here.bot.reviews.worlds = 2
    reviewed = answer(await ann.member.click(shown, label="Review my moves"))
    await camera.shoot("16-review", "the review of ann's moves", channel, ann.member, reviewed)


async def shoot_round_end(here: World, camera: Camera, table: Any, moment: str) -> None:
    """A round's end: on the table with Next round ("shot"), then kept in the channel once
    bob pressed it and the table moved on ("kept")."""
    channel = here.channel
    if moment == "shot":
        # simcord backs the break's timer with a real one, and shooting takes longer: the
        # driver is stopped so the break stays on screen until bob presses Next round
        here.bot.tables.timers.cancel(table)
        held = table_message(channel, table)
        what = "the table at a round's end: scores, cards turned up, Next round"
        await camera.shoot("17-round-end", what, channel, here.cara.member, held)
        await camera.shoot(
            "17-round-end-channel",
            "the channel at a round's end, as ann sees it",
            channel,
            here.ann.member,
            held,
            layout="channel",
        )
        return
    kept = channel.history()[-1]
    await camera.shoot(
        "17-round-kept",
        "the channel after bob pressed Next round: the next deal, the round's end below",
        channel,
        here.ann.member,
        kept,
        layout="channel",
    )


def start_options(game: Any) -> dict[str, Any]:
    """A short game (the lowest target or round count, but two rounds of a game of rounds, so
    that one ends before the game does) with its snap window kept open."""
    options = short_options(game)
    if "rounds" in options:
        options["rounds"] = max(2, options["rounds"])
    if "snap_seconds" in options:
        options["snap_seconds"] = 10
    return options


def latest(channel: simcord.ChannelHandle, message_id: int) -> Any:
    """A channel message as it reads now."""
    return next(m for m in reversed(channel.history()) if m.id == message_id)


def person_waited_for(run: Playthrough) -> Player | None:
    """The person the game waits for, if it waits for one."""
    for seat in run.table.state.waiting_for():
        for player in run.players:
            if run.table.seats[seat].user_id == player.id and run.table.seats[seat].is_human:
                return player
    return None


def snap_open(run: Playthrough) -> bool:
    """Whether a person may snap (act out of turn) just now."""
    seats = run.table.seats
    return any(seats[seat].is_human for seat in run.table.optional_seats())


async def shoot_turn(here: World, camera: Camera, run: Playthrough) -> None:
    """The table, the channel, a person's Hand at their turn, the next steps and the DM."""
    channel, table = here.channel, run.table
    player = person_waited_for(run)
    assert player is not None
    name = player.user.name
    await camera.shoot(
        "02-table",
        "the table message after a few moves",
        channel,
        here.cara.member,
        table_message(channel, table),
    )
    await camera.shoot(
        "03-channel",
        "the channel around the table",
        channel,
        here.cara.member,
        table_message(channel, table),
        layout="channel",
    )
    clicked = await player.member.click(table_message(channel, table), label="Hand")
    await camera.shoot("04-hand", f"{name}'s Hand at their turn", channel, player.member, clicked)
    message: Any = answer(clicked)
    for depth in (1, 2):
        step = next_step(message)
        if step is None:
            break
        label, choose = step
        message = answer(await choose(player.member, message))
        await camera.shoot(
            f"04-hand-step{depth}",
            f"{name}'s Hand after choosing {label}",
            channel,
            player.member,
            message,
        )
    dm = hand_dm(player, table)
    await camera.shoot(
        "05-dm", f"{name}'s hand by DM at their turn", player.user.dm_channel, player.user, dm
    )


Choose = Callable[[simcord.MemberActor, Any], Awaitable[simcord.InteractionResult]]


def next_step(message: Any) -> tuple[str, Choose] | None:
    """A choice of ``message`` that goes on to another step (not one that makes the move)."""
    for item in move_buttons(message):
        custom_id = item["custom_id"]
        if custom_id.startswith("cr:pick:"):  # several cards at once: that makes the move
            continue
        if "options" in item:  # a select: its first option

            async def select(actor: simcord.MemberActor, on: Any, item: Any = item) -> Any:
                return await actor.select(
                    on, [item["options"][0]["value"]], custom_id=item["custom_id"]
                )

            return str(item["options"][0]["label"]), select
        if item.get("style") == 1:  # primary: goes on (success, green, makes the move)

            async def click(actor: simcord.MemberActor, on: Any, custom_id: str = custom_id) -> Any:
                return await actor.click(on, custom_id=custom_id)

            return str(item.get("label")), click
    return None


async def shoot_snap_window(here: World, camera: Camera, run: Playthrough) -> None:
    """The table and a person's Hand while they may snap."""
    channel, table = here.channel, run.table
    seat = next(s for s in table.optional_seats() if table.seats[s].is_human)
    player = next(p for p in run.players if p.id == table.seats[seat].user_id)
    await camera.shoot(
        "06-snap-table",
        "the table while a snap window is open",
        channel,
        here.cara.member,
        table_message(channel, table),
    )
    clicked = await player.member.click(table_message(channel, table), label="Hand")
    await camera.shoot(
        "06-snap-hand",
        f"{player.user.name}'s Hand while they may snap",
        channel,
        player.member,
        clicked,
    )
    await camera.shoot(
        "07-snap-dm",
        f"{player.user.name}'s hand DM while they may snap",
        player.user.dm_channel,
        player.user,
        hand_dm(player, table),
    )


async def shoot_boards(here: World, camera: Camera, game_id: str) -> None:
    """``/scoreboard``, ``/stats``, ``/game history`` and ``/game rules`` after the game, as
    ann asks them."""
    channel, ann = here.channel, here.ann
    for scene, command, options, what in (
        ("10-scoreboard", "scoreboard", {"game": game_id}, "/scoreboard for this game"),
        ("11-scoreboard-all", "scoreboard", {}, "/scoreboard with no game given"),
        ("12-stats", "stats", {}, "ann's /stats"),
        ("13-history", "game history", {}, "/game history"),
        ("14-rules", "game rules", {"game": game_id}, "/game rules for this game"),
    ):
        result = await ann.member.slash(channel, command, **options)
        await camera.shoot(scene, what, channel, ann.member, result)


NOTICES = "notices"
"""Not a game: the messages of a table in trouble (``--game notices``)."""
WELCOME = "welcome"
"""Not a game: what a newcomer finds (``--game welcome``)."""
THREADS = "threads"
"""Not a game: a table in a thread of its own (``--game threads``)."""


async def shoot_threads(here: World, camera: Camera) -> None:
    """A fishing table in its own thread, as cara (watching) sees it: the channel once it
    started (the lobby message opens the thread), the table in the thread, and the channel
    at the end (the short result linking to the thread, archived)."""
    env, bot, channel = here.env, here.bot, here.channel
    await bot.wiring.table_threads.choose(here.guild.id, True)
    options = start_options(games()["fishing"])
    table = await open_table(bot, channel, here.players, "fishing", 1, options)
    thread = next(each for each in channel.threads if each.id == table.channel_id)
    await shoot_channel(
        here, camera, "01-channel-started", "the channel once Start opened the table's thread"
    )
    run = Playthrough(env, thread, here.players, table, random.Random(0))
    while run.human_moves < 3:
        await run.step()
    await camera.shoot(
        "02-thread-table",
        "the table in its thread",
        thread,
        here.cara.member,
        table_message(thread, table),
        layout="channel",
    )
    await run.to_the_end()
    await env.advance_time(1)
    await shoot_channel(
        here, camera, "03-channel-end", "the channel at the end: the result, the thread archived"
    )


PICKS = "picks"
"""Not a game: Hands that choose several cards at once (``--game picks``)."""
ANYWHERE = "anywhere"
"""Not a game: a table in a group DM, where the bot is no member (``--game anywhere``)."""


async def shoot_anywhere(here: World, camera: Camera) -> None:
    """A fishing table in a group DM through the user-installed app, as ann sees it: the
    table after a few moves, the table resting once no click came for 14 minutes (every
    token about to expire), and the table brought back by bob's click."""
    env, bot = here.env, here.bot
    group = GroupDm.open(env, "ann", "bob")
    ann, bob = group.people
    table = await open_group_table(group, bot, "fishing", 0, turn_time="post")
    rng = random.Random(0)
    for _ in range(3):
        waiting = table.seats[table.state.waiting_for()[0]].user_id
        await move_in_hand(group, ann if waiting == ann.id else bob, table, rng)
    group.shown_to(ann)
    channel = group.handle()
    table_now = table_shown(group, bot, table)
    await camera.shoot("01-table", "the table in a group DM", channel, ann, table_now, "channel")
    await env.advance_time(14 * 60)
    resting = table_shown(group, bot, table)
    await camera.shoot("02-resting", "the table resting", channel, ann, resting, "channel")
    await group.click(bob, resting, label="Bring it back")
    back = table_shown(group, bot, table)
    await camera.shoot("03-brought-back", "the table brought back", channel, ann, back, "channel")


async def shoot_welcome(here: World, camera: Camera) -> None:
    """/help, a lobby and its How to play answer, and /stats with a game won by the lowest
    score, as cara (new here) and ann see them."""
    channel, ann, bob, cara = here.channel, here.ann, here.bob, here.cara
    helped = await cara.member.slash(channel, "help")
    await camera.shoot("01-help", "/help", channel, cara.member, helped)
    lobby = answer(await ann.member.slash(channel, "game start cambio"))
    await camera.shoot("02-lobby", "a cambio lobby ann opened", channel, cara.member, lobby)
    rules = await cara.member.click(lobby, label="How to play")
    await camera.shoot(
        "03-how-to-play", "the lobby's How to play answer", channel, cara.member, rules
    )
    await ann.member.click(lobby, label="Cancel")
    results: list[tuple[str, dict[int | None, int], dict[int | None, int]]] = [
        ("w1", {ann.id: 1, bob.id: 2}, {ann.id: 12, bob.id: 23}),
        ("w2", {ann.id: 2, bob.id: 1}, {ann.id: 30, bob.id: 10}),
    ]
    for table_id, places, scores in results:
        await here.bot.storage.results.finish(
            finished(table_id, places, game_id="twentytwo", guild_id=here.guild.id, scores=scores)
        )
    stats = await ann.member.slash(channel, "stats")
    await camera.shoot(
        "04-stats", "ann's /stats after two games of Twenty-Two", channel, ann.member, stats
    )


async def shoot_picks(here: World, camera: Camera) -> None:
    """Hands whose step chooses several cards at once or says what a card does next: cambio's
    opening look (a multi-select of two positions), twentytwo's exchange (ranks only) and a
    fishing turn whose cards say they capture, then one card's captures; each game in a
    channel of its own."""
    bot, guild, ann, bob = here.bot, here.guild, here.ann, here.bob
    channel = here.channel
    await open_table(bot, channel, here.players, "cambio", 0, {"rounds": 1})
    hand = answer(await ann.member.click(latest_table(here), label="Hand"))
    await camera.shoot(
        "01-cambio-look", "ann's Hand at the opening look", channel, ann.member, hand
    )
    channel = guild.create_text_channel("twentytwo")
    deck = deal_deck(2, 0, {1: "9C 10C JC QC KC AC 9D", 0: "2D 2H 5C 7D 9S QD QH"})
    table = await open_table(bot, channel, here.players, "twentytwo", 0, deck=deck)
    await play(bob, table, "keep")
    hand = answer(await ann.member.click(table_message(channel, table), label="Hand"))
    step = await pick(ann.member, hand, "Exchange cards …")
    await camera.shoot("02-twentytwo-exchange", "ann's exchange", channel, ann.member, step)
    channel = guild.create_text_channel("fishing")
    deck = round_robin_deck(["3C 5C 7C 8C", "KS 6D 9H 2C"], after=["KH KD 2H 4S"])
    table = await open_table(bot, channel, here.players, "fishing", 0, deck=deck)
    hand = answer(await bob.member.click(table_message(channel, table), label="Hand"))
    await camera.shoot("03-fishing-turn", "bob's Hand at his turn", channel, bob.member, hand)
    step = await pick(bob.member, hand, suit_symbols("Capture with K♠ …"))
    await camera.shoot("04-fishing-capture", "bob's K♠ captures", channel, bob.member, step)


async def shoot_notices(here: World, camera: Camera) -> None:
    """What people are told when a table pauses (the bot lost its channel permissions) and
    goes on, when another writer saved its game first, and when this process lost its shard.

    An answer is shot only if the preview of its channel was open when it was given: each
    click comes after a shot of its channel."""
    env, bot, channel, ann, cara = here.env, here.bot, here.channel, here.ann, here.cara
    table = await open_table(bot, channel, here.players, "fishing", 0)
    assert bot.user is not None
    denied = discord.Permissions(view_channel=True).value
    env.backend.set_overwrite(
        channel.id, Overwrite(target_id=bot.user.id, type=OverwriteType.MEMBER, deny=denied)
    )
    run = Playthrough(env, channel, here.players, table, random.Random(0))
    while not table.paused:
        await run.step()
    await camera.shoot(
        "01-paused-table", "the table as the bot left it", channel, cara.member, latest_table(here)
    )
    mover = run.next_player()
    assert mover is not None
    await move_by_hand(mover, channel, table, run.rng)  # refused while paused: the hand says why
    name = mover.user.name
    await shoot_hand(camera, channel, mover, "02-paused-hand", "after trying to move while paused")
    owner = here.guild.owner
    for scene, person, what in (
        ("03-paused-player-dm", mover.user, f"{name}'s DM: the table is paused"),
        ("04-paused-owner-dm", owner, "the server owner's DM: the table is paused"),
    ):
        dm = person.dm_channel
        await camera.shoot(scene, what, dm, person, dm.history()[-1])
    env.backend.delete_overwrite(channel.id, bot.user.id)
    await env.advance_time(1)
    await shoot_channel(here, camera, "05-resumed", "the channel when the permissions are back")
    # another writer saves the game first (as a second owner of its shard would)
    theirs = saved_game(table).model_copy(update={"revision": table.revision + 1})
    await bot.storage.running.save(theirs, table.revision)
    mover = run.next_player()
    assert mover is not None
    await move_by_hand(mover, channel, table, run.rng)
    assert table.ended
    await shoot_hand(camera, channel, mover, "06-moved-hand", "when the game was saved elsewhere")
    await shoot_channel(
        here, camera, "07-moved-channel", "the channel when the game was saved elsewhere"
    )
    # this process loses its hold on the server's shard
    table = await open_table(bot, channel, here.players, "fishing", 0)
    bot.tables.shards_lost(Shards.every())
    await env.advance_time(1)
    await shoot_channel(
        here,
        camera,
        "08-shard-lost-channel",
        "the channel when the bot lost its hold on the server's games",
    )
    refused = await ann.member.slash(channel, "game start fishing")
    await camera.shoot("09-shard-not-here", "a /game start meanwhile", channel, ann.member, refused)
    await camera.shoot(
        "10-shard-lost-dm",
        "ann's hand DM when the bot lost its hold on the server's games",
        ann.user.dm_channel,
        ann.user,
        hand_dm(ann, table),
    )


async def shoot_channel(here: World, camera: Camera, scene: str, what: str) -> None:
    """The channel around its last message, as cara (watching) sees it."""
    channel = here.channel
    await camera.shoot(
        scene, what, channel, here.cara.member, channel.history()[-1], layout="channel"
    )


async def shoot_hand(
    camera: Camera, channel: simcord.ChannelHandle, player: Player, scene: str, when: str
) -> None:
    """The last private message ``player`` was shown in the channel (their Hand)."""
    name = player.user.name
    await camera.shoot(
        scene, f"{name}'s Hand {when}", channel, player.member, player.seen_private[-1]
    )


def latest_table(here: World) -> Any:
    """The running table's message in the channel, as it reads now."""
    table = here.bot.tables.tables[here.bot.tables.by_channel[here.channel.id]]
    return table_message(here.channel, table)


async def shoot(
    game_ids: list[str],
    out: Path,
    themes: list[str],
    widths: list[int],
    executable: str,
    say: Callable[[str], None],
    language: str = SOURCE_LANGUAGE,
) -> int:
    """Shoot every game of ``game_ids`` into ``out``; the number of PNGs saved."""
    browser = Browser(executable)
    index = ["# Cardroom's screens", ""]
    shots = 0
    started = time.monotonic()
    named = list(zip(WIDTH_NAMES, widths, strict=False))
    with (
        tempfile.TemporaryDirectory(prefix="cardroom-screens-") as scratch,
        browser.installed(),
        labels_in(language),
    ):
        try:
            for seed, game_id in enumerate(game_ids):
                folder = out / game_id
                folder.mkdir(parents=True, exist_ok=True)
                here = await world(Path(scratch), game_id, language)
                people = [here.ann.member, here.bob.member, here.cara.member]
                camera = Camera(here.env, browser, folder, themes, named, index, people)
                titles = {
                    NOTICES: "A table in trouble",
                    WELCOME: "A newcomer",
                    THREADS: "A table in its thread",
                    PICKS: "Several cards at once",
                    ANYWHERE: "A table in a group DM",
                }
                title = games()[game_id].name if game_id in games() else titles[game_id]
                index += ["", f"## {title}", ""]
                try:
                    if game_id == NOTICES:
                        await shoot_notices(here, camera)
                    elif game_id == WELCOME:
                        await shoot_welcome(here, camera)
                    elif game_id == THREADS:
                        await shoot_threads(here, camera)
                    elif game_id == PICKS:
                        await shoot_picks(here, camera)
                    elif game_id == ANYWHERE:
                        await shoot_anywhere(here, camera)
                    else:
                        await shoot_game(here, camera, game_id, seed)
                finally:
                    await camera.close()
                    await release(here.bot)
                    await here.env.shutdown()
                shots += camera.shots
                say(f"{game_id}: {camera.shots} screens ({time.monotonic() - started:.0f} s)")
        finally:
            await browser.close()
    (out / "index.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return shots


def main(argv: list[str] | None = None) -> int:
    """Parse the options and shoot."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ids = [*sorted(games()), NOTICES, WELCOME, THREADS, PICKS, ANYWHERE]
    parser.add_argument(
        "--game",
        action="append",
        choices=ids,
        help="a game to shoot, notices: a table in trouble, welcome: what a newcomer finds, "
        "threads: a table in its thread, picks: several cards chosen at once, or anywhere: a "
        "table in a group DM (repeat; default all)",
    )
    parser.add_argument("--out", type=Path, default=Path("screens"), help="default screens/")
    parser.add_argument("--themes", default="dark,light", help="dark, light or both (default)")
    parser.add_argument(
        "--widths", default="1000,400", help="desktop[,phone] widths in pixels (1000,400)"
    )
    parser.add_argument("--browser", default=str(CHROMIUM), help="chromium to drive")
    parser.add_argument("--language", default=SOURCE_LANGUAGE, choices=LANGUAGES, help="default en")
    args = parser.parse_args(argv)
    themes = args.themes.split(",")
    if not set(themes) <= {"dark", "light"}:
        parser.error("--themes: dark, light or dark,light")
    widths = [int(width) for width in args.widths.split(",")][: len(WIDTH_NAMES)]
    if not Path(args.browser).exists():
        parser.error(f"no browser at {args.browser}: apt-get install -y chromium (as root)")
    out = args.out.resolve()
    shots = asyncio.run(
        shoot(
            args.game or ids,
            out,
            themes,
            widths,
            args.browser,
            lambda line: print(line, flush=True),
            args.language,
        )
    )
    print(f"{shots} screens in {out} (list: {out / 'index.md'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
