"""A group DM (or a DM between two people) under simcord, which simulates neither: a
channel of Discord's type 3 (or 1) where people use the app installed to their own account
(``context`` private_channel, the installs that authorised it naming only a user's), and
where the bot is not a member: its own requests to the channel are refused (Missing Access),
so that only its interactions' tokens reach it.

simcord builds the interaction payloads of guild members and of a person in their DM with
the bot; this fake builds the same payloads for a group DM from simcord's own builders, and
hands them to the bot the way simcord's actors do. Responses, follow-ups and edits go
through simcord's interaction routes, whose tokens expire with the simulated clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import discord
import simcord
from simcord import interactions as simcord_interactions
from simcord.actors import _find_component
from simcord.backend import serializers
from simcord.backend.models import Channel
from simcord.enums import SELECT_TYPES, AppCommandType, ComponentType, InteractionType
from simcord.results import to_discord_message

from bot.app import CardroomBot
from bot.tables.session import TableSession
from engine.registry import games
from tests.bot.helpers import members_of, move_buttons, short_options, shown_pick

DM = 1  # Discord's channel types: a DM, a group DM
GROUP_DM = 3
PRIVATE_CHANNEL = 2  # the interaction context of a DM between people or a group DM
USER_INSTALL = "1"  # the key of a user's install in authorizing_integration_owners
MISSING_ACCESS = 50001


@dataclass
class GroupDm:
    """A group DM of ``people`` in which the app is used through a user install."""

    env: simcord.Env
    people: list[simcord.UserHandle]
    channel_id: int = 0
    channel_type: int = GROUP_DM

    @classmethod
    def open(cls, env: simcord.Env, *names: str, channel_type: int = GROUP_DM) -> GroupDm:
        """A new group DM of new people (a DM between two with ``channel_type=DM``); the
        bot cannot see it."""
        people = [env.create_user(name) for name in names]
        assert channel_type == GROUP_DM or len(people) == 2, "a DM is between two people"
        backend = env.backend
        channel_id = backend.snowflake()
        backend.channels[channel_id] = Channel(
            id=channel_id, type=channel_type, recipient_ids=[person.id for person in people]
        )
        backend.messages[channel_id] = {}
        # the bot is no member: any request of its own to the channel is refused
        for path in (f"/channels/{channel_id}", f"/channels/{channel_id}/*"):
            env.inject_error(
                "*", path, status=403, code=MISSING_ACCESS, message="Missing Access", times=None
            )
        return cls(env, people, channel_id, channel_type)

    def history(self, viewer: simcord.UserHandle | None = None) -> list[discord.Message]:
        """The channel's messages, oldest first (with ``viewer``: what that person sees)."""
        messages = self.env.backend.messages.get(self.channel_id, {}).values()
        return [
            to_discord_message(self.env, message)
            for message in sorted(messages, key=lambda m: m.id)
            if message.visible_to(None if viewer is None else viewer.id)
        ]

    def handle(self) -> simcord.ChannelHandle:
        """The channel as simcord's handles (its preview) take it."""
        return simcord.ChannelHandle(self.env, None, self.env.backend.get_channel(self.channel_id))

    def shown_to(self, person: simcord.UserHandle) -> None:
        """Let simcord's preview draw the channel for ``person``: it draws a channel outside
        a server only for the person whose DM with the bot it is, so the person's DM is
        pointed at this channel (for pictures only: the person's own DM is lost)."""
        self.env.backend.dm_channels[person.id] = self.channel_id

    def _channel_payload(self) -> dict[str, Any]:
        backend = self.env.backend
        return {
            "id": str(self.channel_id),
            "type": self.channel_type,
            "name": None,
            "icon": None,
            "owner_id": str(self.people[0].id),
            "recipients": [
                dict(serializers.user_payload(backend.get_user(person.id)))
                for person in self.people
            ],
        }

    async def _dispatch(
        self,
        person: simcord.UserHandle,
        kind: int,
        data: dict[str, Any],
        source: Any = None,
    ) -> simcord.InteractionResult:
        assert person in self.people, "only its members can use the group DM"
        backend = self.env.backend
        record, payload = simcord_interactions.base_payload(
            backend,
            type=kind,
            channel_id=self.channel_id,
            guild_id=None,
            user_id=person.id,
            data=data,
        )
        payload["context"] = PRIVATE_CHANNEL
        payload["authorizing_integration_owners"] = {USER_INSTALL: str(person.id)}
        payload["channel"] = self._channel_payload()
        if source is not None:
            payload["message"] = dict(serializers.message_payload(backend, source))
            record.source_message_id = source.id
        backend.emit("INTERACTION_CREATE", payload)
        await self.env._settle_internal(dispatch="INTERACTION_CREATE")
        return simcord.InteractionResult(self.env, record)

    async def slash(
        self, person: simcord.UserHandle, name: str, /, **options: Any
    ) -> simcord.InteractionResult:
        """``person`` uses a slash command of the user-installed app here."""
        parts = name.split()
        backend = self.env.backend
        root = backend.find_command(parts[0], None)
        assert root is not None, f"/{parts[0]} is not registered"
        contexts = root.get("contexts") or []
        assert PRIVATE_CHANNEL in contexts, f"/{parts[0]} is not allowed in group DMs"
        assert 1 in (root.get("integration_types") or []), f"/{parts[0]} has no user install"
        leaf, nesting = simcord_interactions.walk_to_subcommand(root, parts[1:])
        built, resolved = simcord_interactions.build_options(
            person, name, leaf, options, channel_id=self.channel_id
        )
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": AppCommandType.CHAT_INPUT,
            "options": simcord_interactions.nest_options(root, nesting, built),
        }
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(person, InteractionType.APPLICATION_COMMAND, data)

    def _stored(self, person: simcord.UserHandle, message: Any) -> Any:
        stored = self.env.backend.get_message(self.channel_id, message.id)
        assert stored.visible_to(person.id), "that message is not shown to them"
        return stored

    async def click(
        self,
        person: simcord.UserHandle,
        message: Any,
        *,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> simcord.InteractionResult:
        """``person`` clicks a button of a message of the group DM."""
        stored = self._stored(person, message)
        found = _find_component(
            stored.components, types=(ComponentType.BUTTON,), custom_id=custom_id, label=label
        )
        data = {"custom_id": found["custom_id"], "component_type": ComponentType.BUTTON}
        return await self._dispatch(person, InteractionType.MESSAGE_COMPONENT, data, stored)

    async def select(
        self, person: simcord.UserHandle, message: Any, values: list[str], *, custom_id: str
    ) -> simcord.InteractionResult:
        """``person`` chooses ``values`` in a select of a message of the group DM."""
        stored = self._stored(person, message)
        menu = _find_component(
            stored.components, types=SELECT_TYPES, custom_id=custom_id, label=None
        )
        data = {"custom_id": menu["custom_id"], "component_type": menu["type"], "values": values}
        return await self._dispatch(person, InteractionType.MESSAGE_COMPONENT, data, stored)


async def open_group_table(
    group: GroupDm, bot: CardroomBot, game_id: str, ai_seats: int, **more: Any
) -> TableSession:
    """The first person opens a lobby with the app, the others join, AI seats, Start."""
    host, *others = group.people
    options = short_options(games()[game_id]) | more
    lobby = (await group.slash(host, f"game start {game_id}", **options)).response
    assert lobby is not None, "the lobby was not answered"
    for person in others:
        await group.click(person, lobby, label="Join")
    for _ in range(ai_seats):
        await group.click(host, lobby, label="Add AI")
    await group.click(host, lobby, label="Start")
    return next(t for t in bot.tables.tables.values() if t.channel_id == group.channel_id)


def table_shown(group: GroupDm, bot: CardroomBot, table: TableSession) -> discord.Message:
    """The table's message in the group DM (shown through a token)."""
    message_id = bot.wiring.anywhere.tables[table.table_id].message_id
    return next(m for m in group.history() if m.id == message_id)


async def move_in_hand(
    group: GroupDm, person: simcord.UserHandle, table: TableSession, rng: random.Random
) -> None:
    """Open the Hand view from the table and click options until a move is made."""
    bot_table = table
    bot = group.env.bot
    assert isinstance(bot, CardroomBot)
    shown = table_shown(group, bot, table)
    result = await group.click(person, shown, label="Hand")
    assert result.ephemeral and result.response is not None
    hand: Any = result.response
    revision = bot_table.revision
    for _ in range(12):
        options = move_buttons(hand)
        if not options:
            return
        item = rng.choice(options)
        custom_id = str(item["custom_id"])
        if custom_id.startswith("cr:pick:"):
            seat = table.seat_of(person.id)
            assert seat is not None
            pick = shown_pick(table, seat, item)
            values = members_of(pick, rng.choice(pick.sets)[1])
            result = await group.select(person, hand, values, custom_id=custom_id)
        elif custom_id.startswith("cr:step-menu:"):
            value = rng.choice(item["options"])["value"]
            result = await group.select(person, hand, [value], custom_id=custom_id)
        else:
            result = await group.click(person, hand, custom_id=custom_id)
        if result.response is not None:
            hand = result.response
        if table.revision != revision or table.ended:
            return


async def play_out(group: GroupDm, bot: CardroomBot, table: TableSession, seed: str) -> None:
    """People move through Hand views; time passes for the AI and the clocks."""
    rng = random.Random(seed)
    for _ in range(3000):
        if table.ended:
            return
        waiting = [s for s in table.state.waiting_for() if table.seats[s].is_human]
        if waiting:
            user_id = table.seats[waiting[0]].user_id
            person = next(p for p in group.people if p.id == user_id)
            await move_in_hand(group, person, table, rng)
        else:
            await group.env.advance_time(6)
    raise AssertionError(f"{table.game.id} did not end")
