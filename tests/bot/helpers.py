"""Driving Cardroom like people do: slash commands, lobby buttons, Hand views, DMs."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar
from unittest import mock

import discord
import pytest
import simcord
from simcord.components import walk_components

from bot.app import CardroomBot, create_bot
from bot.tables.session import TableSession
from bot.text import suit_symbols
from engine.choices import HERE, Pick, Step, StepChoice, choice_label, pick_at, resolve
from engine.core import Action, Game

PRETTY = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")
SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
# how a picture's alt text names a card ("queen of spades")
WORDS = re.compile(r"\b(ace|10|[2-9]|jack|queen|king) of (clubs|diamonds|hearts|spades)\b")
RANK_WORDS = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}


class SeededDraws:
    """Seeds and table ids from a seeded generator, so that a test deals the same cards every
    run (the bot's own come from ``secrets``)."""

    def __init__(self, seed: str) -> None:
        self._rng = random.Random(seed)

    def seed(self) -> int:
        return self._rng.getrandbits(63)

    def table_id(self) -> str:
        return f"{self._rng.getrandbits(64):016x}"


def short_options(game: Game) -> dict[str, Any]:
    """Options that keep a test game short (by option name; the rest stay at defaults)."""
    chosen: dict[str, Any] = {}
    for option in game.options:
        if option.name in ("target", "rounds") and option.minimum is not None:
            chosen[option.name] = option.minimum
        if option.name == "snap_seconds":
            chosen[option.name] = option.minimum or 0
    return chosen


def layout_of(message: Any) -> list[dict[str, Any]]:
    """Every component of a message, nested ones included, in wire form and reading order."""
    rows = message.components if isinstance(message, simcord.ResponseMessage) else None
    if rows is None:
        rows = [component.to_dict() for component in message.components]
    return list(walk_components(rows))


class TranslatedLabel(str):
    """A label the helpers look for (``BACK``, ``MORE`` …), equal to its English and to its
    form in the language the test plays in (``into``, set by ``speak_labels``)."""

    into: ClassVar[Callable[[str], str]] = staticmethod(lambda label: label)

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other) or other == type(self).into(str(self))

    def __hash__(self) -> int:
        return str.__hash__(self)


def clicking_translated(click: Any, translate: Callable[[str], str]) -> Any:
    """``click`` that finds a button named in English by its ``translate``d label where the
    message shows that one (tests and screenshots in another language)."""

    async def clicked(self: Any, message: Any, *, label: str | None = None, **rest: Any) -> Any:
        shown = {str(item.get("label")) for item in components(message)}
        if label is not None and label not in shown and translate(label) in shown:
            label = translate(label)
        return await click(self, message, label=label, **rest)

    return clicked


def speak_labels(monkeypatch: pytest.MonkeyPatch, translate: Callable[[str], str]) -> None:
    """People click the labels the bot shows them in ``translate``'s language."""
    monkeypatch.setattr(TranslatedLabel, "into", staticmethod(translate))
    for name in ("BACK", "PREVIOUS", "MORE", "NOT_YET"):
        monkeypatch.setattr(sys.modules[__name__], name, TranslatedLabel(globals()[name]))
    for actor in (simcord.MemberActor, simcord.UserHandle):
        monkeypatch.setattr(actor, "click", clicking_translated(actor.click, translate))


def components(message: Any) -> list[dict[str, Any]]:
    """Every button and select of a message (dicts, wire form)."""
    return [item for item in layout_of(message) if item.get("type") in (2, 3)]


def text_of(message: Any) -> str:
    """All text a person sees in a message: content, embeds, text displays, the pictures' alt
    text (it lists their cards), labels and select options."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        if embed.footer and embed.footer.text:
            parts.append(embed.footer.text)
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    for item in layout_of(message):
        parts.append(str(item.get("content") or ""))
        parts += [str(media.get("description") or "") for media in item.get("items", [])]
        parts.append(str(item.get("label") or ""))
        parts.append(str(item.get("placeholder") or ""))
        parts += [str(option.get("label")) for option in item.get("options", [])]
    return "\n".join(part for part in parts if part)


def cards_in(text: str) -> set[str]:
    """Card texts (``10D``) of every card written in people form in ``text`` (``10♦``, or
    ``10 of diamonds`` as alt text says it)."""
    found = {rank + SUITS[suit] for rank, suit in PRETTY.findall(text)}
    return found | {
        RANK_WORDS.get(rank, rank) + suit[0].upper() for rank, suit in WORDS.findall(text)
    }


MACHINE_CARD = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")


def allowed_cards(table: TableSession, seat: int | None) -> set[str]:
    """Cards a seat (None: onlookers) may see now: its view, and the events it may see."""
    state = table.state
    view = state.public_view() if seat is None else state.view(seat)
    text = json.dumps(view, ensure_ascii=False)
    allowed = {rank + suit for rank, suit in MACHINE_CARD.findall(text)}
    allowed |= cards_in(text)
    allowed |= cards_in("\n".join(table.game.describe(view)))
    for logged in table.log:
        if logged.event.visible(seat):
            allowed |= cards_in(logged.event.text)
    return allowed


@dataclass
class Player:
    """A person at the table: the guild member and the same user for DMs."""

    member: simcord.MemberActor
    user: simcord.UserHandle
    seen_private: list[Any] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.member.id


def add_player(env: simcord.Env, guild: simcord.GuildHandle, name: str) -> Player:
    """A new member who can also be reached by DM."""
    user = env.create_user(name)
    return Player(guild.add_member(user), user)


async def open_table(
    bot: CardroomBot,
    channel: simcord.ChannelHandle,
    players: list[Player],
    game_id: str,
    ai_seats: int,
    options: dict[str, Any] | None = None,
    deck: Sequence[str] | None = None,
    ai_level: str = "normal",
) -> TableSession:
    """Start a game: the first player hosts, the others join, AI seats are added, Start.

    ``deck`` stacks the first hand (top card first; then seat 0 deals, as in engine tests).
    """
    host = players[0]
    result = await host.member.slash(channel, f"game start {game_id}", **(options or {}))
    assert result.response is not None, "the lobby was not posted"
    lobby = result.response
    for player in players[1:]:
        await player.member.click(lobby, label="Join")
    for _ in range(ai_seats):
        added = await host.member.click(lobby, label="Add AI")
        if ai_level != "normal":  # normal is what Add AI adds; another level is offered
            await host.member.click(added.followups[0], label=ai_level.capitalize())
    game = bot.tables.lobbies.get(bot.tables.by_channel[channel.id]).game
    # The bot has no deck hook (it deals from a fresh seed): the game gets the deck on Start.
    stacked = partial(game.new_state, deck=deck) if deck is not None else game.new_state
    with mock.patch.object(game, "new_state", stacked):
        await host.member.click(lobby, label="Start")
    table = list(bot.tables.tables.values())[-1]  # the latest dealt (in the channel or a thread)
    assert channel.id in (table.channel_id, table.parent_channel_id), "no table was dealt"
    return table


def last_notice(channel: simcord.ChannelHandle) -> str:
    """The text of the channel's last message but turn pings."""
    return [text_of(m) for m in channel.history() if "it is your turn" not in m.content][-1]


def table_message(channel: simcord.ChannelHandle, table: TableSession) -> discord.Message:
    """The table's current message in the channel."""
    for message in reversed(channel.history()):
        if message.id == table.table_message_id:
            return message
    raise AssertionError("the table message is missing")


BACK, PREVIOUS, MORE, NOT_YET = "◀ Back", "◀ Previous", "More ▶", "◀ Not yet"


def move_buttons(message: Any) -> list[dict[str, Any]]:
    """The buttons and selects that make or continue a move (not Back, Refresh, pages)."""
    chosen = []
    for item in components(message):
        custom_id = str(item.get("custom_id", ""))
        if item.get("disabled"):
            continue
        label = str(item.get("label") or "")
        if custom_id.startswith(("cr:step-menu:", "cr:pick:")) or (
            custom_id.startswith("cr:step:") and label not in (BACK, PREVIOUS, MORE, NOT_YET)
        ):
            chosen.append(item)
    return chosen


def shown_pick(table: TableSession, seat: int, item: dict[str, Any]) -> Pick:
    """The engine's pick that a hand's multi-select (``cr:pick:``) offers ``seat`` now."""
    path = str(item["custom_id"]).split(":")[4]
    prefix = tuple(HERE if part == "x" else int(part) for part in path.split(".") if part)
    pick = pick_at(table.game, table.state.legal_actions(seat), prefix)
    assert pick is not None, f"no pick at {prefix}"
    return pick


def members_of(pick: Pick, action: Action) -> list[str]:
    """The select values (item indices) that choose ``action`` at ``pick``."""
    keys = next(keys for keys, listed in pick.sets if listed == action)
    free = list(range(len(pick.items)))
    values = []
    for key in keys:
        index = next(i for i in free if pick.keys[i] == key)
        free.remove(index)
        values.append(str(index))
    return values


async def click_through(
    actor: simcord.MemberActor | simcord.UserHandle,
    message: Any,
    table: TableSession,
    rng: random.Random,
    seen: list[Any],
) -> bool:
    """Click random options of a private hand until a move is made; False if none was offered."""
    revision = table.revision
    for _ in range(12):
        options = move_buttons(message)
        if not options:
            return False
        item = rng.choice(options)
        if str(item["custom_id"]).startswith("cr:pick:"):  # a legal set of cards, at random
            seat = table.seat_of(actor.id)
            assert seat is not None
            pick = shown_pick(table, seat, item)
            values = members_of(pick, rng.choice(pick.sets)[1])
            result = await actor.select(message, values, custom_id=item["custom_id"])
        elif str(item["custom_id"]).startswith("cr:step-menu:"):
            value = rng.choice(item["options"])["value"]
            result = await actor.select(message, [value], custom_id=item["custom_id"])
        else:
            result = await actor.click(message, custom_id=item["custom_id"])
        assert result.acknowledged
        if result.response is not None:
            message = result.response
            seen.append(message)
        for followup in result.followups:
            seen.append(followup)
        if table.revision != revision or table.ended:
            return True
        if result.response is not None and "⚠️" in text_of(result.response):
            return False  # refused (e.g. snaps still open): try again later
    return False


async def open_hand(
    player: Player, channel: simcord.ChannelHandle, table: TableSession
) -> simcord.ResponseMessage:
    """The private Hand view, opened with the table message's Hand button."""
    result = await player.member.click(table_message(channel, table), label="Hand")
    assert result.ephemeral and result.response is not None
    player.seen_private.append(result.response)
    return result.response


async def move_by_hand(
    player: Player, channel: simcord.ChannelHandle, table: TableSession, rng: random.Random
) -> bool:
    """Open the Hand view from the table message and make a move there."""
    hand = await open_hand(player, channel, table)
    return await click_through(player.member, hand, table, rng, player.seen_private)


def hand_dm(player: Player, table: TableSession) -> discord.Message:
    """The player's current hand DM (as it reads now)."""
    seat = table.seat_of(player.id)
    assert seat is not None
    message_id = table.seats[seat].dm_message_id
    assert message_id is not None, "no hand DM was sent"
    return next(m for m in player.user.dm_channel.history() if m.id == message_id)


async def move_by_dm(player: Player, table: TableSession, rng: random.Random) -> bool:
    """Make a move with the controls of the hand DM."""
    message = hand_dm(player, table)
    return await click_through(player.user, message, table, rng, player.seen_private)


async def release(*bots: CardroomBot) -> None:
    """Close the bots' storage at the end of a test: simcord never calls ``bot.close()``, and
    an open aiosqlite connection's thread would keep the test process from exiting."""
    for bot in bots:
        if hasattr(bot, "storage"):
            await bot.storage.close()


async def kill_and_restart(
    env: simcord.Env, old: CardroomBot, meanwhile: Callable[[], None] = lambda: None
) -> CardroomBot:
    """Drop ``old`` as if its process were killed; a new bot starts on the same database file
    (after ``meanwhile``: what happens while no bot runs).

    None of Cardroom's shutdown runs (``CardroomBot.close`` stops the timers and closes
    storage): simcord's ``restart_bot`` never calls into the old bot; it cancels every task the
    bot owns, its timers included, as the process dying would, and attaches the new one. The
    old database connection is left open, so the new bot reads the database as a killed
    process leaves it; its file lock (SQLite) or shard locks (PostgreSQL) are released, as the
    system or the server does for a dead process. That is all a kill leaves: every accepted
    move is committed before its answer is sent (``TableSession._commit``), and a simcord
    operation returns only once the bot's work has settled, so no move is half done when the
    bot is dropped between two operations.
    """
    if old.storage.file_lock is not None:  # SQLite's
        old.storage.file_lock.release()
    if old.storage.shard_locks is not None:  # PostgreSQL's: the server drops a dead client's
        await old.storage.shard_locks.release()
    meanwhile()
    new = create_bot(old.settings)
    await env.restart_bot(new)
    return new


# Called with the Hand view just opened, before a move is clicked in it.
BeforeClick = Callable[[Player, simcord.ResponseMessage], Awaitable[None]]
# Called before each step (None, no messages) and after a person's move (who, what they saw).
Watch = Callable[[Player | None, Sequence[Any]], None]


@dataclass
class Playthrough:
    """People playing a table like the whole-game tests do, the same way for the same rng.

    Waited-for people move at once; people who may only act out of turn (snaps) sometimes do;
    moves alternate between the Hand view and the hand DM; when nobody moved, time passes so
    AI seats, timers and windows go on. ``table`` may be replaced (by a restored one).
    """

    env: simcord.Env
    channel: simcord.ChannelHandle
    players: list[Player]
    table: TableSession
    rng: random.Random
    before_click: BeforeClick | None = None
    human_moves: int = 0

    def next_player(self) -> Player | None:
        """Who moves now, if anyone (uses the rng only when a snap is possible)."""
        seats = self.table.seats
        waiting = [seat for seat in self.table.state.waiting_for() if seats[seat].is_human]
        optional = [seat for seat in self.table.optional_seats() if seats[seat].is_human]
        if not waiting and optional and self.rng.random() < 0.3:
            waiting = [self.rng.choice(optional)]
        if not waiting:
            return None
        user_id = seats[waiting[0]].user_id
        return next(player for player in self.players if player.id == user_id)

    async def move(self, player: Player) -> bool:
        """One move by ``player``: through the hand DM every other move, else the Hand view."""
        seat = self.table.seat_of(player.id)
        assert seat is not None
        if self.human_moves % 2 == 1 and not self.table.seats[seat].dm_failed:
            moved = await move_by_dm(player, self.table, self.rng)
        else:
            hand = await open_hand(player, self.channel, self.table)
            if self.before_click is not None:
                await self.before_click(player, hand)
            moved = await click_through(
                player.member, hand, self.table, self.rng, player.seen_private
            )
        self.human_moves += moved
        return moved

    async def step(self, watch: Watch | None = None) -> None:
        """A person's move if one is due; time passes when nothing changed."""
        revision = self.table.revision
        if watch is not None:
            watch(None, ())
        player = self.next_player()
        if player is not None:
            seen_before = len(player.seen_private)
            await self.move(player)
            if watch is not None:
                watch(player, player.seen_private[seen_before:])
        if self.table.revision == revision and not self.table.ended:
            await self.env.advance_time(6)

    async def to_the_end(self, watch: Watch | None = None, max_steps: int = 4000) -> None:
        """Step until the game is over (fails the test if it does not end)."""
        for _ in range(max_steps):
            if self.table.ended:
                return
            await self.step(watch)
        raise AssertionError(f"{self.table.game.id} did not end within {max_steps} steps")


MAX_PAGES = 20


def answer(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The message an interaction was answered with (the hand it showed next)."""
    assert result.acknowledged and result.response is not None, "the click got no answer"
    return result.response


async def pick(
    actor: simcord.MemberActor | simcord.UserHandle, message: Any, *labels: str
) -> simcord.ResponseMessage:
    """Choose the options labelled ``labels`` one step after another in a private hand (a
    button, or a select's option, turning its pages); returns the message after the last."""
    for label in labels:
        message = await _pick_one(actor, message, {label})
    assert isinstance(message, simcord.ResponseMessage), "no label was given"
    return message


async def _pick_one(
    actor: simcord.MemberActor | simcord.UserHandle, message: Any, labels: Collection[str]
) -> simcord.ResponseMessage:
    for _ in range(MAX_PAGES):
        for item in move_buttons(message):
            if item.get("label") in labels:
                return answer(await actor.click(message, custom_id=item["custom_id"]))
            for option in item.get("options", []):
                if option["label"] in labels:
                    chosen = [option["value"]]
                    return answer(await actor.select(message, chosen, custom_id=item["custom_id"]))
        if not any(item.get("label") == MORE for item in components(message)):
            break
        message = answer(await actor.click(message, label=MORE))
    raise AssertionError(f"no option {labels} in {text_of(message)}")


def option_towards(table: TableSession, step: Step, wanted: Action) -> tuple[StepChoice, str]:
    """The option of ``step`` that leads towards ``wanted``, and its label as the hand shows
    it (the engine's words, red suits red)."""
    depth = len(step.prefix)
    for choice in step.choices:
        ends_here = choice.index == HERE and choice.only == wanted
        on_the_way = depth < len(wanted.path) and choice.step == wanted.path[depth]
        if ends_here or (choice.index != HERE and on_the_way):
            return choice, suit_symbols(choice_label(table.game, step, choice, table.names))
    raise AssertionError(f"{wanted.text} is not offered at {step.chosen}")


async def play(player: Player, table: TableSession, *texts: str, shown: Any = None) -> None:
    """Make the moves written ``texts`` (``look C D``) step by step in the player's hand DM
    (the first in ``shown`` when given: a Hand view the player opened earlier)."""
    for text in texts:
        action = table.game.parse_action(text)
        seat = table.seat_of(player.id)
        assert seat is not None
        legal = table.state.legal_actions(seat)
        revision = table.revision
        message: Any = hand_dm(player, table) if shown is None else shown
        actor = player.user if shown is None else player.member
        shown = None
        step = resolve(legal, ())
        while isinstance(step, Step) and table.revision == revision:
            pick = pick_at(table.game, legal, step.prefix)
            if pick is not None:  # the cards chosen together, in one multi-select
                menu = next(
                    i for i in move_buttons(message) if i["custom_id"].startswith("cr:pick:")
                )
                values = members_of(pick, action)
                message = answer(await actor.select(message, values, custom_id=menu["custom_id"]))
                break
            choice, label = option_towards(table, step, action)
            message = await _pick_one(actor, message, {label})
            # the action, or the step confirming it (``Game.confirmation``)
            step = resolve(legal, (*step.prefix, choice.index), table.game.confirmation)
        made = table.actions[revision : revision + 1]
        assert made == [(seat, action.text)], f"{text!r}: {text_of(message)}"


def results_message(
    channel: simcord.ChannelHandle, title: str = "— results"
) -> discord.Message | None:
    """The results message (the one whose text has ``title``), once posted."""
    for message in reversed(channel.history()):
        if title in text_of(message):
            return message
    return None


def all_messages(channel: simcord.ChannelHandle, players: Iterable[Player]) -> list[Any]:
    """Every message of the channel, the players' DMs and the private answers they saw."""
    found: list[Any] = list(channel.history())
    for player in players:
        found += [*player.user.dm_channel.history(), *player.seen_private]
    return found


def assert_within_discord_limits(message: Any) -> None:
    """A Components V2 message as Discord takes it: at most 40 components, 4000 characters of
    text, labels and alt texts within their limits, every picture with its alt text."""
    found = layout_of(message)
    assert len(found) <= 40, f"{len(found)} components"
    texts = [str(item["content"]) for item in found if item.get("type") == 10]
    assert sum(map(len, texts)) <= 4000 and all(texts), "text displays"
    for item in found:
        assert len(str(item.get("label") or "")) <= 80
        for media in item.get("items", []):
            assert 0 < len(media.get("description") or "") <= 1024, "a picture without alt text"
        assert len(item.get("options", [])) <= 25
        assert all(len(option["label"]) <= 100 for option in item.get("options", []))
    rows = [item for item in found if item.get("type") == 1]
    assert all(1 <= len(row["components"]) <= 5 for row in rows)


def all_seen(
    channel: simcord.ChannelHandle, players: Iterable[Player]
) -> list[tuple[Player | None, str]]:
    """(who, text) of every message someone can see now (None: everyone in the channel)."""
    seen: list[tuple[Player | None, str]] = [
        (None, text_of(m)) for m in channel.history() if not m.flags.ephemeral
    ]
    for player in players:
        seen += [(player, text_of(m)) for m in player.user.dm_channel.history()]
    return seen
