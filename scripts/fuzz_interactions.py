"""A stream of random interactions against the real bot under simcord (offline), checking after
each one that nothing broke. Prints one line of figures; exits 1 on the first failure.

    python scripts/fuzz_interactions.py [--interactions 1000] [--seed N] [--shrink-seconds 120]

Step after step, seeded: slash commands (``/game start`` of every game with extreme or random
options, hand, leave, stop, rules, history, replay with junk ids, pings, ``/scoreboard``,
``/stats``, ``/cardroom settings``, ``/help``) by members, an admin and people of another
server; clicks on the buttons and menus people see (the channels' messages, their hand DMs,
their private answers, old ones included: stale revisions); forged clicks (a real custom id
sent by someone else, from another server or a DM, another table's id in its place, an old
revision, junk numbers); two clicks landing at the same moment (doubled, or two people);
and time passing (turn clocks, AI moves, idle lobbies).

After every step: every interaction was answered (nobody sees "This interaction failed"), no
error was logged (ERROR records, discord.py's ``on_error``, the command tree's errors), each
channel has at most one running game and no open lobby beside it, every table is dealt for
its seats and live (the supervisor's check finds nothing to repair), and no card reached
anyone whose seat may not see it (the private answers at once, channel messages and hand
DMs every few steps; in the engine's views, as the privacy tests check). Every few steps the
stored lobbies are checked against the bot's.

Each step draws from its own generator (the seed and the step's number), so a failing run
is replayed by its seed, and steps can be left out of it: on a failure the run is shrunk to
fewer steps that still fail (within ``--shrink-seconds``), and the steps that remain are
printed, as the command that replays them.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import random
import re
import secrets
import sys
import tempfile
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
import simcord
from simcord import interactions as simcord_interactions
from simcord.backend import serializers
from simcord.backend.errors import BackendError, SetupError
from simcord.backend.models.message import Message
from simcord.enums import ComponentType, InteractionType

from bot.app import CardroomBot, create_bot
from bot.settings import Settings
from bot.tables.session import TableSession
from engine.registry import games
from tests.bot.helpers import SeededDraws, allowed_cards, cards_in, components, text_of

# How long simcord waits, in real time, for the bot to finish a step: the bot's sleeps due
# within it are waited for in real time too (the others are left to simulated time), so it is
# short; a step whose work outlasts it (a loaded machine) is waited for a settle at a time, up
# to HANG_SECONDS, before the bot counts as hung
SETTLE_SECONDS = 2.0
HANG_SECONDS = 120.0
# simcord looks at the bot's unfinished work every 50 ms by default, which is most of a step's
# time; the bot's work here is all in this process (and SQLite's thread) and quick
SETTLE_POLL_SECONDS = 0.002
CHECK_EVERY = 25  # steps between the checks of the stored lobbies, channels and DMs
LATEST = 30  # tables of a channel, seats of a person, whose cards its latest messages may show
# seconds: a snap window, an AI move, a quick turn, a turn, an idle lobby (rarely)
TIME_STEPS = (1, 1, 6, 6, 31, 31, 121, 700)
GAMES = sorted(games())
TURN_TIMES = ("quick", "normal", "relaxed", "post")
PINGS = ("now", "30s", "2min", "dm", "never")
# cards any lobby or table may name: the games' pitches and options (fishing's 2♣ and 10♦)
NAMED_CARDS = cards_in(
    "\n".join(
        " ".join([game.pitch, *(option.description for option in game.options)])
        for game in games().values()
    )
)

# the interactions whose answers show a table (the others' answers show cards only on
# purpose: rules and help examples, finished games face up in replays)
PRIVATE_CHECKED = (
    *("cr:hand:", "cr:refresh:", "cr:deck:", "cr:step", "cr:lobby:", "cr:rematch:"),
    *("game start", "game hand", "game leave", "game stop"),
)


class Failure(AssertionError):
    """An invariant broke (or the bot failed to answer) at some step."""


@dataclass
class Person:
    """Someone who uses the bot: a user, and their member in each server they belong to."""

    name: str
    user: simcord.UserHandle
    members: dict[int, simcord.MemberActor] = field(default_factory=dict)
    # (channel id, message id) of their last private answers: old ones are clicked too
    private: deque[tuple[int, int]] = field(default_factory=lambda: deque(maxlen=8))

    @property
    def id(self) -> int:
        return self.user.id


@dataclass
class Click:
    """A component interaction to send: who, from which message (and server), with what."""

    person: Person
    guild_id: int | None
    message: Message
    data: dict[str, Any]
    # forged: the one component the message is made to carry (as a message of an older
    # version of the bot, or of another table, could), in place of its own
    forged: dict[str, Any] | None = None

    def words(self) -> str:
        """The click in words, as a failure lists it."""
        where = "a DM" if self.guild_id is None else f"channel {self.message.channel_id}"
        values = f" {self.data['values']}" if "values" in self.data else ""
        how = "a forged " if self.forged is not None else ""
        return f"{self.person.name} clicks {how}{self.data['custom_id']}{values} in {where}"


class ErrorLog(logging.Handler):
    """Every ERROR record anyone logs while the run lasts."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record, as the log would show it."""
        self.records.append(self.format(record))


class Privacy:
    """What each seat of each table (and the channel: seat None) was ever allowed to see."""

    def __init__(self) -> None:
        self.ever: dict[tuple[str, int | None], set[str]] = {}
        # the latest tables of each channel, and seats of each person: what the messages a
        # check reads (the latest ones) may come from
        self.channel_tables: dict[int, deque[str]] = {}
        self.seats_of: dict[int, deque[tuple[str, int]]] = {}  # user → (table, seat)
        self.exempt: set[int] = set()  # messages that are no table's (help, rules, replays)
        self.tables: list[str] = []  # every table's id, in the order they began

    def remember(self, session: TableSession) -> None:
        """Add what the table's seats may see now."""
        if (session.table_id, None) not in self.ever:
            self.tables.append(session.table_id)
        latest = self.channel_tables.setdefault(session.channel_id, deque(maxlen=LATEST))
        if session.table_id not in latest:
            latest.append(session.table_id)
        for seat in [None, *range(len(session.seats))]:
            key = (session.table_id, seat)
            self.ever.setdefault(key, set()).update(allowed_cards(session, seat))
            if seat is not None and session.seats[seat].user_id is not None:
                user = session.seats[seat].user_id
                assert user is not None
                seats = self.seats_of.setdefault(user, deque(maxlen=LATEST))
                if (session.table_id, seat) not in seats:
                    seats.append((session.table_id, seat))

    def allowed(self, channel_id: int | None, user_id: int | None) -> set[str]:
        """The cards shown in a channel (None: a DM) may show: what its tables' onlookers may
        see, and for a message only ``user_id`` sees (None: everyone there), what their seats
        at any table may (their own Hand, wherever they asked for it)."""
        allowed: set[str] = set()
        for table_id in self.channel_tables.get(channel_id or 0, ()):
            allowed |= self.ever.get((table_id, None), set())
        for table_id, seat in self.seats_of.get(user_id or 0, ()):
            allowed |= self.ever.get((table_id, seat), set())
        return allowed

    def check(self, message: Message, env: simcord.Env, who: str, allowed: set[str]) -> None:
        """Fail if ``message`` shows a card outside ``allowed`` (but for the answers that show
        cards on purpose: rules and help examples, finished games' replays)."""
        if message.id in self.exempt:
            return
        text = text_of(simcord.ResponseMessage(env, message))
        leaked = cards_in(text) - allowed - NAMED_CARDS
        if leaked:
            raise Failure(f"{who} saw hidden cards {sorted(leaked)} in: {text[:400]!r}")


class World:
    """The bot, two servers and the people who use them; one ``step`` at a time."""

    def __init__(self, env: simcord.Env, bot: CardroomBot, seed: int, errors: ErrorLog) -> None:
        self.env = env
        self.bot = bot
        self.seed = seed
        self.privacy = Privacy()
        self.errors = errors  # every ERROR record of the run
        self.error_cursor = 0
        self.interactions = 0
        self.doing = ""  # the step under way, in words
        home = env.create_guild(name="home")
        away = env.create_guild(name="away")
        self.channels = {
            home.id: [home.create_text_channel(f"table-{n}") for n in range(3)],
            away.id: [away.create_text_channel("away-table")],
        }
        admins = home.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        self.people: list[Person] = []
        for number in range(9):
            person = Person(f"p{number}", env.create_user(f"p{number}"))
            if number < 7:  # p0 is an admin; p7 belongs to both servers, p8 only to away
                roles = [admins] if number == 0 else []
                person.members[home.id] = home.add_member(person.user, roles=roles)
            if number >= 6:
                person.members[away.id] = away.add_member(person.user)
            self.people.append(person)
        # whenever a table is shown: what its seats may see from then on (its end's reveal too)
        presenter = bot.tables.presenter
        for name in ("table_changed", "hand_changed", "round_ended", "table_ended"):
            setattr(presenter, name, self.remembering(getattr(presenter, name)))

    def remembering(self, show: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """``show`` (a presenter's), noting first what the table's seats may see."""

        async def shown(session: TableSession, *args: Any) -> Any:
            self.privacy.remember(session)
            return await show(session, *args)

        return shown

    # -- the steps -----------------------------------------------------------------------------
    async def step(self, index: int) -> None:
        """Make step ``index`` (from its own generator), then check the invariants."""
        rng = Random(f"{self.seed}:{index}")
        self.remember_all()
        kind = rng.choices(
            ["slash", "click", "double", "forged", "time"], weights=[30, 45, 8, 9, 8]
        )[0]
        if kind == "slash":
            await self.slash(rng)
        elif kind == "time":
            seconds = rng.choice(TIME_STEPS)
            self.doing = f"{seconds} s pass"
            await self.env.advance_time(seconds)
        else:
            clicks = self.clicks(rng, kind)
            if not clicks:
                self.doing = "1 s passes (nothing to click)"
                await self.env.advance_time(1)
            else:
                self.doing = " and at once ".join(click.words() for click in clicks)
                await self.send(clicks)
        self.remember_all()
        self.check(index)

    async def catch_up(self, index: int) -> None:
        """The step's work outlasted simcord's settle: wait for the rest, then check."""
        started = time.perf_counter()
        while True:
            try:
                await self.env.settle(timeout=SETTLE_SECONDS)
                break
            except TimeoutError:
                if time.perf_counter() - started > HANG_SECONDS:
                    raise Failure(
                        f"the bot hung: a step's work went on {HANG_SECONDS:.0f} s"
                    ) from None
        self.remember_all()
        self.check(index)

    async def slash(self, rng: Random) -> None:
        """Someone uses a slash command in a channel of a server of theirs (or /help in a DM);
        one Discord would not offer them (permissions) is left at that."""
        person = rng.choice(self.people)
        if rng.random() < 0.05:  # in a DM: only the commands a DM offers
            self.doing = f"{person.name}: /help in a DM"
            try:
                result = await person.user.slash("help")
            except SetupError:
                return  # not offered there
            self.answered(person, None, "help", [result])
            return
        guild_id = rng.choice(sorted(person.members))
        member = person.members[guild_id]
        channel = rng.choice(self.channels[guild_id])
        words, options = self.command(rng, guild_id)
        shown = {name: getattr(value, "name", value) for name, value in options.items()}
        self.doing = f"{person.name}: /{words} {shown} in channel {channel.id}"
        try:
            result = await member.slash(channel, words, **options)
        except SetupError:  # Discord would not offer it (permissions)
            self.doing += " (not offered)"
            return
        self.answered(person, channel.id, words, [result])

    def command(self, rng: Random, guild_id: int) -> tuple[str, dict[str, Any]]:
        """A command and its options, often at their extremes."""
        game_id = rng.choice(GAMES)
        pick = rng.randrange(14)
        if pick < 5:
            options: dict[str, Any] = {}
            for option in games()[game_id].options:
                if rng.random() < 0.5:
                    continue
                if option.kind is bool:
                    options[option.name] = rng.random() < 0.5
                else:
                    low, high = option.minimum or 0, option.maximum or 2**31
                    options[option.name] = rng.choice([low, high, rng.randint(low, high)])
            if rng.random() < 0.3:
                options["turn_time"] = rng.choice(TURN_TIMES)
            return f"game start {game_id}", options
        if pick < 8:
            return rng.choice(["game hand", "game leave", "game stop"]), {}
        if pick == 8:
            return "game rules", {"game": game_id}
        if pick == 9:
            return "game history", rng.choice([{}, {"game": game_id}])
        if pick == 10:
            return "game replay", {"table": self.table_id(rng)}
        if pick == 11:
            return rng.choice(
                [
                    ("game pings", rng.choice([{}, {"when": rng.choice(PINGS)}])),
                    ("cardroom settings", rng.choice([{}, {"turn_pings": rng.choice(PINGS)}])),
                    ("help", {}),
                ]
            )
        if pick == 12:
            season = rng.choice([None, 1, 2, 10_000])
            options = {} if season is None else {"season": season}
            if rng.random() < 0.5:
                options["game"] = game_id
            return "scoreboard", options
        member = rng.choice([p for p in self.people if guild_id in p.members]).members[guild_id]
        return "stats", rng.choice([{}, {"member": member}])

    def table_id(self, rng: Random) -> str:
        """A table id for /game replay: a real one (running or finished), or junk."""
        known = self.privacy.tables
        junk = ["0", "x" * 200, "ffffffffffffffff", "../../etc", "🂡", " ", "1e9999"]
        if known and rng.random() < 0.6:
            return rng.choice(known)
        return rng.choice(junk)

    def clicks(self, rng: Random, kind: str) -> list[Click]:
        """One click ("click", "forged") or two at once ("double")."""
        for person in rng.sample(self.people, len(self.people)):
            found = self.clickable(person, rng)
            if found:
                break
        else:
            return []
        guild_id, message, item = rng.choice(found)
        click = Click(person, guild_id, message, self.data(item, rng))
        if kind == "forged":
            return [self.forge(click, item, rng)]
        if kind == "double":
            if rng.random() < 0.5:  # the same click twice (a double click)
                return [click, click]
            other = rng.choice(self.people)  # someone else's, on a message both see
            if not message.is_ephemeral and guild_id is not None and guild_id in other.members:
                return [click, Click(other, guild_id, message, self.data(item, rng))]
            return [click, click]
        return [click]

    def clickable(self, person: Person, rng: Random) -> list[tuple[int | None, Message, Any]]:
        """(server, message, button or menu) someone can click now: the channels' recent
        messages, their DMs and their private answers (old ones too)."""
        backend = self.env.backend
        messages: list[tuple[int | None, Message]] = []
        for server in person.members:
            for channel in self.channels[server]:
                shown = self.recent(channel.id, 6, lambda m: bool(m.components))
                messages += [(server, m) for m in shown]
        dm = backend.dm_channels.get(person.id)
        if dm is not None:
            messages += [(None, m) for m in self.recent(dm, 4)]
        for channel_id, message_id in person.private:
            try:
                stored = backend.get_message(channel_id, message_id)
            except BackendError:
                continue
            messages.append((backend.get_channel(channel_id).guild_id, stored))
        if not messages:
            return []
        guild_id, message = rng.choice(messages)
        items = components(simcord.ResponseMessage(self.env, message))
        usable = [item for item in items if item.get("custom_id") and not item.get("disabled")]
        return [(guild_id, message, item) for item in usable]

    def recent(
        self, channel_id: int, count: int, keep: Callable[[Message], bool] = bool
    ) -> list[Message]:
        """The channel's last ``count`` messages that everyone there sees (and ``keep``
        keeps), oldest first; the older ones are left alone (a channel only grows)."""
        messages = reversed(self.env.backend.messages.get(channel_id, {}).values())
        shown = (m for m in messages if not m.is_ephemeral and keep(m))
        return list(itertools.islice(shown, count))[::-1]

    @staticmethod
    def data(item: dict[str, Any], rng: Random) -> dict[str, Any]:
        """The interaction data of clicking a button, or choosing in a menu."""
        if item["type"] == ComponentType.BUTTON:
            return {"custom_id": item["custom_id"], "component_type": ComponentType.BUTTON}
        values = [option["value"] for option in item.get("options", [])]
        count = rng.randint(item.get("min_values", 1), item.get("max_values", 1))
        return {
            "custom_id": item["custom_id"],
            "component_type": item["type"],
            "values": rng.sample(values, min(count, len(values))),
        }

    def forge(self, click: Click, item: dict[str, Any], rng: Random) -> Click:
        """The click with a changed custom id or menu value, sent by anyone from a message
        of theirs (a channel of a server of theirs, or their DM)."""
        how = rng.randrange(4)
        data = dict(click.data)
        if how == 0:  # a junk number in place of one of its numbers
            parts = data["custom_id"].split(":")
            numbers = [n for n, part in enumerate(parts) if part.isdigit()]
            if numbers:
                junk = rng.choice(["0", "1", "99", str(2**63), "9" * 40])
                parts[rng.choice(numbers)] = junk
            data["custom_id"] = ":".join(parts)
        elif how == 1:  # another table's id (or a lobby's, or junk)
            others = self.privacy.tables or ["0"]
            parts = data["custom_id"].split(":")
            if len(parts) > 2:
                parts[2] = rng.choice([*others, "0", "zz", "_" * 90])
            data["custom_id"] = ":".join(parts)
        elif how == 2 and "values" in data:  # a menu value that is not offered
            data["values"] = [rng.choice(["-1", "999999", "x", "0.0.0", ""])]
        forged = {**item, "custom_id": data["custom_id"]}
        if "values" in data:
            forged["options"] = [
                {"label": value or "-", "value": value} for value in data["values"]
            ]
        person = rng.choice(self.people)
        places: list[tuple[int | None, int]] = [
            (server, channel.id) for server in person.members for channel in self.channels[server]
        ]
        dm = self.env.backend.dm_channels.get(person.id)
        if dm is not None:
            places.append((None, dm))
        rng.shuffle(places)
        for guild_id, channel_id in places:
            shown = self.recent(channel_id, 5)
            if shown:
                return Click(person, guild_id, rng.choice(shown), data, forged)
        return Click(click.person, click.guild_id, click.message, data, forged)

    async def send(self, clicks: Sequence[Click]) -> None:
        """Send the clicks at the same moment (each answered before simcord settles)."""
        env = self.env
        backend = env.backend
        results = []
        env._begin_operation("fuzz clicks")
        try:
            for click in clicks:
                record, payload = simcord_interactions.base_payload(
                    backend,
                    type=InteractionType.MESSAGE_COMPONENT,
                    channel_id=click.message.channel_id,
                    guild_id=click.guild_id,
                    user_id=click.person.id,
                    data=click.data,
                )
                payload["message"] = dict(serializers.message_payload(backend, click.message))
                if click.forged is not None:
                    row = {"type": ComponentType.ACTION_ROW, "components": [click.forged]}
                    payload["message"]["components"] = [row]
                record.source_message_id = click.message.id
                env._notify_dispatch_observers(record)
                backend.emit("INTERACTION_CREATE", payload)
                results.append((click, simcord.InteractionResult(env, record)))
            await env._settle_internal(dispatch="INTERACTION_CREATE")
        finally:
            env._end_operation()
        for click, result in results:
            self.answered(click.person, click.message.channel_id, click.data["custom_id"], [result])

    def answered(
        self,
        person: Person,
        channel_id: int | None,
        what: str,
        results: Sequence[simcord.InteractionResult],
    ) -> None:
        """Check each result was answered; keep its private messages; check what they show."""
        self.remember_all()  # the positions the answers were drawn from
        for result in results:
            self.interactions += 1
            if not result.acknowledged:
                raise Failure(f"{person.name}'s {what!r} was never answered")
            shown = [m for m in [result.response, *result.followups] if m is not None]
            for message in shown:
                if message.ephemeral:
                    person.private.append((message.channel_id, message.id))
                if not what.startswith(PRIVATE_CHECKED):
                    self.privacy.exempt.add(message.id)
                else:
                    in_dm = channel_id in self.env.backend.dm_channels.values()
                    where = None if in_dm else channel_id
                    # a message in the channel is seen by everyone there
                    viewer = person.id if message.ephemeral or in_dm else None
                    allowed = self.privacy.allowed(where, viewer)
                    self.privacy.check(message._message, self.env, person.name, allowed)

    # -- the checks ----------------------------------------------------------------------------
    def remember_all(self) -> None:
        """Note what every table's seats may see now."""
        for session in self.bot.tables.tables.values():
            self.privacy.remember(session)

    def check(self, index: int) -> None:
        """The invariants after a step."""
        errors = self.env.errors_since(self.error_cursor)
        self.error_cursor += len(errors)
        if errors:
            raise Failure(f"unhandled error: {errors[0]!r}")
        if self.errors.records:
            raise Failure(f"an error was logged: {self.errors.records[0]}")
        service = self.bot.tables
        running: dict[int, list[str]] = {}
        for session in service.tables.values():
            if session.ended:
                continue
            running.setdefault(session.channel_id, []).append(session.table_id)
            if len(session.seats) != session.state.players:
                raise Failure(
                    f"table {session.table_id}: {len(session.seats)} seats for a game dealt for "
                    f"{session.state.players}"
                )
            problem = service.supervisor.problem(session)
            if problem is not None:
                raise Failure(f"table {session.table_id} is not live: {problem}")
        for channel_id, tables in running.items():
            if len(tables) > 1:
                raise Failure(f"channel {channel_id} runs {len(tables)} games: {tables}")
            if service.lobbies.in_channel(channel_id) is not None:
                raise Failure(f"channel {channel_id} has an open lobby beside its game")
        if index % CHECK_EVERY == 0:
            self.check_seen()

    def check_seen(self) -> None:
        """No card a person's seat may not see in a channel's recent messages or their DMs."""
        backend = self.env.backend
        for channels in self.channels.values():
            for channel in channels:
                messages = self.recent(channel.id, 8)
                allowed = self.privacy.allowed(channel.id, None)
                for message in messages:
                    if not message.is_ephemeral:
                        self.privacy.check(message, self.env, f"channel {channel.id}", allowed)
        for person in self.people:
            dm = backend.dm_channels.get(person.id)
            if dm is None:
                continue
            allowed = self.privacy.allowed(None, person.id)
            for message in self.recent(dm, 4):
                self.privacy.check(message, self.env, f"{person.name}'s DMs", allowed)

    async def check_stored(self) -> None:
        """The stored open lobbies are the bot's, none in a channel with a running game."""
        stored, _ = await self.bot.storage.lobbies.load()
        service = self.bot.tables
        open_ids = set(service.lobbies.by_id)
        for lobby in stored:
            if lobby.lobby_id not in open_ids:
                raise Failure(f"lobby {lobby.lobby_id} is stored but closed")
            table_id = service.by_channel.get(lobby.channel_id)
            if table_id in service.tables and not service.tables[table_id].ended:
                raise Failure(f"lobby {lobby.lobby_id} is stored beside a running game")


@contextmanager
def quick_settling() -> Iterator[None]:
    """simcord's settling polls every ``SETTLE_POLL_SECONDS`` while the block runs (the poll is
    a default of its internal settle, which every operation calls)."""
    defaults = simcord.Env._settle_internal.__kwdefaults__
    assert defaults is not None and "idle" in defaults
    before = defaults["idle"]
    defaults["idle"] = SETTLE_POLL_SECONDS
    try:
        yield
    finally:
        defaults["idle"] = before


@contextmanager
def captured(handler: logging.Handler) -> Iterator[None]:
    """``handler`` hears every record of the process while the block runs."""
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


def fuzz_settings(directory: str) -> Settings:
    """The bot's settings for the run: short turns so that clocks run out, no AI delay."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=str(Path(directory) / "fuzz.db"),
        turn_seconds=30,
        ai_delay_seconds=0.0,
        table_edit_seconds=0.0,
        optional_window_seconds=0.0,
        ai_think_rollouts=8,
        ai_processes=0,  # searches in this process, so simulated time covers them
        shard_heartbeat_seconds=3600,
        # the fuzzer asks the supervisor's question itself after every step
        supervisor_seconds=0,
        max_tables_per_server=4,
        max_tables_per_member=2,
    )


@dataclass
class Outcome:
    """How a run went: the steps made (their numbers and what each did), and the failure."""

    steps: list[int] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    interactions: int = 0
    seconds: float = 0.0
    slow_steps: int = 0  # steps whose work outlasted simcord's settle (waited for, checked)
    failure: str | None = None

    @property
    def rate(self) -> float:
        """Interactions a second."""
        return self.interactions / self.seconds if self.seconds else 0.0


async def fuzz(
    seed: int,
    steps: Iterable[int],
    interactions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Outcome:
    """Make the given steps of the seed's stream (until ``interactions`` were sent, if given)
    against a new bot; stop at the first failure."""
    started = time.perf_counter()
    outcome = Outcome()
    errors = ErrorLog()
    random.seed(seed)  # the bot's own jitter (retry delays), so that a seed replays a run
    with tempfile.TemporaryDirectory() as directory, captured(errors), quick_settling():
        bot = create_bot(fuzz_settings(directory))
        async with simcord.run(bot, settle_timeout=SETTLE_SECONDS, check_errors=False) as env:
            try:
                await bot.tree.sync()
                bot.tables.draws = SeededDraws(f"fuzz {seed}")
                # Cardroom sends no polls: simcord's look at every message ever sent for a due
                # poll, at each move of its clock, would make each step slower than the last
                env.backend.expire_due_polls = lambda: None  # type: ignore[method-assign]
                env.backend.next_poll_deadline = lambda: None  # type: ignore[method-assign]
                world = World(env, bot, seed, errors)
                for index in steps:
                    outcome.steps.append(index)
                    try:
                        try:
                            await world.step(index)
                        except TimeoutError:  # its answers are not checked, the rest is
                            outcome.slow_steps += 1
                            await world.catch_up(index)
                        if len(outcome.steps) % CHECK_EVERY == 0:
                            await world.check_stored()
                    except Exception as error:  # Failure, or the fuzzer's own
                        outcome.failure = str(error) if isinstance(error, Failure) else repr(error)
                    outcome.done.append(f"step {index}: {world.doing}")
                    outcome.interactions = world.interactions
                    if outcome.failure is not None:
                        break
                    if interactions is not None and world.interactions >= interactions:
                        break
                    if progress is not None and len(outcome.steps) % 1000 == 0:
                        rate = world.interactions / (time.perf_counter() - started)
                        progress(f"{world.interactions} interactions, {rate:.0f}/s")
                if outcome.failure is None:
                    try:
                        await world.check_stored()
                    except Failure as failure:
                        outcome.failure = str(failure)
            finally:
                await bot.storage.close()
    outcome.seconds = time.perf_counter() - started
    return outcome


def kind_of(failure: str) -> str:
    """A failure without its numbers and names: the same bug, found through other steps."""
    return re.sub(r"\d+", "N", failure)[:60]


async def shrink(seed: int, failed: Outcome, seconds: float) -> Outcome:
    """Fewer steps of ``failed``'s that fail the same way: chunks of steps are left out while
    that still fails, halving the chunk down to single steps, until ``seconds`` have passed."""
    assert failed.failure is not None
    best = failed
    deadline = time.perf_counter() + seconds
    chunk = max(1, len(best.steps) // 2)
    while chunk >= 1 and time.perf_counter() < deadline:
        start = 0
        while start < len(best.steps) - 1 and time.perf_counter() < deadline:
            kept = best.steps[:start] + best.steps[start + chunk :]
            if not kept or kept[-1] != best.steps[-1]:
                kept = [*kept, best.steps[-1]]  # the failing step stays
            tried = await fuzz(seed, kept)
            if tried.failure is not None and kind_of(tried.failure) == kind_of(failed.failure):
                best = tried
            else:
                start += chunk
        chunk //= 2
    return best


def written_steps(steps: Sequence[int]) -> str:
    """Step numbers as ``--steps`` takes them, runs written as ranges.

    >>> written_steps([0, 1, 2, 3, 7, 9, 10])
    '0-3,7,9-10'
    """
    runs: list[list[int]] = []
    for step in steps:
        if runs and step == runs[-1][-1] + 1:
            runs[-1].append(step)
        else:
            runs.append([step])
    return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def read_steps(text: str) -> list[int]:
    """The step numbers ``written_steps`` wrote.

    >>> read_steps("0-3,7,9-10")
    [0, 1, 2, 3, 7, 9, 10]
    """
    steps: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        steps += range(int(first), int(last or first) + 1)
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interactions", type=int, default=1000)
    parser.add_argument("--seed", type=int, help="default: a random one (printed)")
    parser.add_argument("--steps", help="only these steps (as a failure prints them): 0-9,17,40")
    parser.add_argument("--shrink-seconds", type=float, default=120.0)
    args = parser.parse_args()
    seed = secrets.randbelow(2**32) if args.seed is None else args.seed
    print(f"fuzz_interactions: seed {seed}", file=sys.stderr, flush=True)

    def progress(line: str) -> None:
        print(f"fuzz_interactions: {line}", file=sys.stderr, flush=True)

    if args.steps:
        steps: Iterable[int] = read_steps(args.steps)
        outcome = asyncio.run(fuzz(seed, steps, None, progress))
    else:
        outcome = asyncio.run(fuzz(seed, itertools.count(), args.interactions, progress))
    figures = {
        "seed": seed,
        "interactions": outcome.interactions,
        "steps": len(outcome.steps),
        "seconds": round(outcome.seconds, 1),
        "interactions_per_second": round(outcome.rate, 1),
        "slow_steps": outcome.slow_steps,
        "failures": 0 if outcome.failure is None else 1,
    }
    print(json.dumps(figures), flush=True)
    if outcome.failure is None:
        return
    progress(f"FAILED at {outcome.done[-1]}: {outcome.failure}")
    if args.shrink_seconds > 0:
        progress(f"shrinking {len(outcome.steps)} steps for {args.shrink_seconds:.0f} s")
        outcome = asyncio.run(shrink(seed, outcome, args.shrink_seconds))
    progress(f"{len(outcome.steps)} steps that fail ({outcome.failure}):")
    for line in outcome.done:
        progress(f"  {line}")
    replay = f"--seed {seed} --steps {written_steps(outcome.steps)}"
    progress(f"replay: python scripts/fuzz_interactions.py {replay}")
    sys.exit(1)


if __name__ == "__main__":
    main()
