"""Tables where the bot is not a member, shown through interaction tokens
(``bot.tables.tokens`` keeps them; see "Tables without the bot present" in
docs/architecture.md).

``AnywherePresenter`` is the ``DiscordPresenter`` for every table: at a table where the
bot is not a member it shows through the tokens what the bot would otherwise post in the
channel, and what needs the bot present degrades. A resting table (its last token about to
expire) shows ``resting_message``, whose ``BringBackButton`` shows it again.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.answers import answer_click
from bot.storage import BrokenGame
from bot.tables.lobby import Lobby
from bot.tables.presenter import DiscordPresenter, no_answer
from bot.tables.records import RoundEnd
from bot.tables.session import TableSession
from bot.tables.table_view import results_message, round_message, table_message
from bot.tables.tokens import WARN_SECONDS, Anywhere, Token
from bot.text import said
from bot.ui import GREY, Message, button, controls, layout
from bot.wiring import UsesWiring
from engine.core import Event
from engine.words import N_, _

log = logging.getLogger(__name__)

FOLLOWUPS_PER_TOKEN = 5  # follow-ups one interaction may post (Discord limits them)
# Discord's answers meaning a token may post no more: Unknown Webhook (expired), Maximum
# number of follow-up messages hit
TOKEN_REFUSED = frozenset({10015, 40094})
POSTED_KEPT = 10_000  # follow-ups remembered, to delete a ping once its turn is over

GOING_QUIET = N_(
    "⏳ **This table is resting.** Discord lets me show a game here only for 15 minutes "
    "after someone clicks, and nobody has for a while. Nothing is lost: press **Bring it "
    "back** and the game goes on where it stopped, each player with a whole turn."
)


def resting_message(session: TableSession) -> Message:
    """A resting table: its game, why it rests, and Bring it back."""
    return Message(
        layout(
            f"## {_(session.game.name)}\n{_(GOING_QUIET)}",
            controls(BringBackButton(session.table_id)),
            colour=GREY,
        )
    )


class BringBackButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:back:(?P<table>\w+)",
):
    """Bring it back, on a resting table: its click's token shows the table again."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        label = _("Bring it back")
        super().__init__(button(f"cr:back:{table_id}", label, discord.ButtonStyle.success))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BringBackButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the table in place of the resting message and set its clocks going."""

        async def bring_back() -> None:
            service = self.wiring.tables
            session = service.table(self.table_id)
            shown = table_message(session, service.clock())
            await interaction.response.edit_message(**shown.kwargs())
            anywhere = self.wiring.anywhere
            anywhere.noted(interaction)
            token = anywhere.freshest(session.channel_id)
            if token is not None and interaction.message is not None:
                anywhere.owned(session, token, interaction.message.id)
            anywhere.brought_back(session)

        await answer_click(interaction, bring_back)


class AnywherePresenter(DiscordPresenter):
    """The presenter of every table: where the bot is a member, ``DiscordPresenter``'s
    posts and edits; elsewhere the same through the tables' interaction tokens, and what
    needs the bot present degrades (no hand DMs: the Hand view; a turn ping is a follow-up
    mention while a token lives, and a DM ping the same)."""

    def __init__(self, anywhere: Anywhere, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.anywhere = anywhere
        anywhere.show_resting = self.show_resting
        # the follow-ups posted (by message id) and the token that may delete them
        self._posted: dict[int, Token] = {}

    def _webhook(self, token: Token) -> discord.Webhook:
        application_id = self.client.application_id
        assert application_id is not None, "known once the bot is logged in"
        data: Any = {"id": application_id, "type": 3, "token": token.value}
        return discord.Webhook.from_state(data, state=self.client._connection)

    def _absent(self, session: TableSession) -> bool:
        return self.anywhere.absent(session.channel_id)

    async def _follow_up(self, session: TableSession, shown: Message, **extra: Any) -> int | None:
        """Post ``shown`` as a follow-up of the channel's freshest token (its id), or None
        when no token may post any more."""
        for token in reversed(self.anywhere.recent.get(session.channel_id, ())):
            if token.alive(self.clock()) and token.followups < FOLLOWUPS_PER_TOKEN:
                token.followups += 1
                try:
                    webhook = self._webhook(token)
                    sent = await webhook.send(wait=True, **shown.send_kwargs(), **extra)
                except discord.HTTPException as error:
                    if no_answer(error) or error.code not in TOKEN_REFUSED:
                        raise
                    # this token may post no more (its follow-ups used up, or expired
                    # sooner than counted): the next freshest may
                    token.followups = FOLLOWUPS_PER_TOKEN
                    continue
                self._posted[sent.id] = token
                if len(self._posted) > POSTED_KEPT:
                    del self._posted[next(iter(self._posted))]
                return sent.id
        log.info("table %s: no token left to post with", session.table_id)
        return None

    async def table_changed(self, session: TableSession) -> int | None:
        """Edit the table through the token that owns its message while it has more than a
        short while left; else post it anew through the freshest token (the old message
        deleted while its token lives). A resting table wakes only for a token with time
        to spare."""
        if not self._absent(session):
            return await super().table_changed(session)
        table = self.anywhere.table(session)
        now = self.clock()
        shown = table_message(session, now)
        if table.asleep and self.anywhere.freshest(session.channel_id, WARN_SECONDS) is None:
            return None  # nothing could show it long enough: it waits for Bring it back
        owner = table.owner
        edited = False
        if owner is not None and table.message_id is not None and owner.alive(now, WARN_SECONDS):
            try:
                await self._webhook(owner).edit_message(table.message_id, **shown.kwargs())
                edited = True
            except discord.NotFound:  # its token (or message) is gone sooner than counted
                owner.expires = now
        if not edited:
            posted = await self._follow_up(session, shown)
            if posted is None:
                return None
            old, old_owner = table.message_id, owner
            self.anywhere.owned(session, self._posted[posted], posted)
            if old is not None and old_owner is not None and old_owner.alive(now):
                await self._delete(old_owner, old)
        self.anywhere.woke(session)
        await self.open_hands.follow(session, self._hand_view)
        return None

    async def _delete(self, token: Token, message_id: int) -> None:
        try:
            await self._webhook(token).delete_message(message_id)
        except discord.HTTPException as error:
            if no_answer(error):
                raise
            log.info("could not delete the old table message %s", message_id)

    async def show_resting(self, session: TableSession) -> None:
        """Show that the table rests: through the token of its message while it lives, else
        as a follow-up of the freshest token; if none lives, the table was already out of
        reach (its next click shows it)."""
        table = self.anywhere.table(session)
        shown = resting_message(session)
        owner, now = table.owner, self.clock()
        try:
            if owner is not None and table.message_id is not None and owner.alive(now):
                await self._webhook(owner).edit_message(table.message_id, **shown.kwargs())
                return
            posted = await self._follow_up(session, shown)
            if posted is not None:
                self.anywhere.owned(session, self._posted[posted], posted)
        except discord.HTTPException:
            log.warning("table %s: could not say that it rests", session.table_id)

    async def hand_changed(self, session: TableSession, seat: int) -> tuple[int | None] | None:
        """No hand DMs where the bot is not a member (it may not DM people it shares no
        server with): the Hand view is the way to the cards."""
        if self._absent(session):
            return (None,)
        return await super().hand_changed(session, seat)

    async def hand_closed(self, session: TableSession, seat: int) -> None:
        """Nothing to close where no hand DM was sent."""
        if not self._absent(session):
            await super().hand_closed(session, seat)

    async def notice(self, session: TableSession, notice: Event) -> None:
        """A follow-up while a token may post one, in the table's language."""
        if not self._absent(session):
            return await super().notice(session, notice)
        with session.in_its_language():
            text = said(notice, session.names)
        await self._follow_up(session, Message(layout(text, colour=GREY)))

    async def round_ended(self, session: TableSession, ended: RoundEnd) -> None:
        """The round's end as a follow-up while a token may post one."""
        if not self._absent(session):
            return await super().round_ended(session, ended)
        await self._follow_up(session, round_message(session, ended))

    async def table_paused(self, session: TableSession) -> None:
        """A table without the bot is never paused (it has no channel to lose)."""
        if not self._absent(session):
            await super().table_paused(session)

    async def ping(self, session: TableSession, seat: int, direct: bool) -> int | None:
        """A mention of the seat's person alone as a follow-up (a DM ping too: the bot may
        not DM them), while a token may post one."""
        if not self._absent(session):
            return await super().ping(session, seat, direct)
        user_id = session.seats[seat].user_id
        text = _("<@{user}>, it is your turn in **{game}**.").format(
            user=user_id, game=_(session.game.name)
        )
        only_them = discord.AllowedMentions(users=[discord.Object(id=user_id or 0)])
        return await self._follow_up(
            session, Message(layout(text, colour=GREY)), allowed_mentions=only_them
        )

    async def unping(self, session: TableSession, message_id: int) -> None:
        """Delete a ping while the token that posted it lives."""
        if not self._absent(session):
            return await super().unping(session, message_id)
        token = self._posted.pop(message_id, None)
        if token is not None and token.alive(self.clock()):
            await self._delete(token, message_id)

    async def post_ending(self, session: TableSession) -> int | None:
        """The results (or why it stopped) as a follow-up; failing that, in place of the
        table while its message's token lives. Saved either way: the boards have them."""
        if not self._absent(session):
            return await super().post_ending(session)
        ending = session.ending
        assert ending is not None, "shown once it ended"
        shown = results_message(session) if ending.finished else Message(layout(ending.text))
        table = self.anywhere.table(session)
        try:
            posted = await self._follow_up(session, shown)
            if posted is not None:
                return posted
            owner = table.owner
            if owner is not None and table.message_id is not None and owner.alive(self.clock()):
                await self._webhook(owner).edit_message(table.message_id, **shown.kwargs())
        except discord.HTTPException as error:
            if no_answer(error):
                raise
            log.warning("table %s: could not show its end", session.table_id)
        return None

    async def table_ended(self, session: TableSession, results_id: int | None) -> None:
        """The open Hand views lose their controls; the table's tokens are forgotten."""
        if not self._absent(session):
            return await super().table_ended(session, results_id)
        await self.open_hands.follow(session, self._hand_view)
        self.anywhere.forget(session)

    async def restore_failed(self, broken: BrokenGame) -> None:
        """Nobody can be told where the bot may not post."""
        if broken.channel_id is not None and self.anywhere.absent(broken.channel_id):
            log.warning("table %s could not be restored", broken.table_id)
            return
        await super().restore_failed(broken)

    async def show_lobby(self, lobby: Lobby) -> bool:
        """A lobby where the bot may not post is not shown again after a restart."""
        if self.anywhere.absent(lobby.channel_id):
            return False
        return await super().show_lobby(lobby)

    async def lobby_closed(self, lobby: Lobby, reason: Event) -> None:
        """An expired lobby where the bot may not post: its buttons answer that it closed."""
        if not self.anywhere.absent(lobby.channel_id):
            await super().lobby_closed(lobby, reason)
