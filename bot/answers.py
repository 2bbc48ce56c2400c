"""The one place errors become answers: user-caused errors get a private, plain-language reply;
anything unexpected is logged and answered with a short apology (never silence).

A click's or a command's work runs in its clicker's language (``in_clickers_language``), so
whatever it answers privately, errors included, is in their words."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, Protocol, runtime_checkable

import discord
from discord import app_commands

from bot.errors import UserError
from bot.i18n import ChosenLanguages, catalog, private_language, table_language
from engine.errors import EngineError
from engine.words import N_, _, speaking

log = logging.getLogger(__name__)
P = ParamSpec("P")

APOLOGY = N_("Sorry, something went wrong on our side; it has been logged. Please try again.")
NOT_OURS = N_("That button is not one of ours.")


@runtime_checkable
class KnowsLanguages(Protocol):
    """A client that knows the languages people and servers chose (the bot, from its
    ``setup_hook`` on)."""

    languages: ChosenLanguages


class _NoneChosen:
    """Nobody chose: everyone reads their Discord's language (a client without choices)."""

    def of_person(self, user_id: int) -> str | None:
        return None

    def of_server(self, guild_id: int) -> str | None:
        return None


def _chosen(interaction: discord.Interaction) -> ChosenLanguages:
    client = interaction.client
    return client.languages if isinstance(client, KnowsLanguages) else _NoneChosen()


def clicker_language(interaction: discord.Interaction) -> str:
    """The language a person who clicked or ran a command reads: the one they chose with
    ``/language``, else their Discord's."""
    return private_language(_chosen(interaction), interaction.user.id, interaction.locale.value)


def public_language(interaction: discord.Interaction) -> str:
    """The language a table opened by ``interaction`` speaks in public: the one its server's
    admin chose, else the server's own, else its opener's where there is no server (a DM)."""
    locale = interaction.guild_locale or interaction.locale
    return table_language(_chosen(interaction), interaction.guild_id, locale.value)


@contextmanager
def in_clickers_language(interaction: discord.Interaction) -> Iterator[None]:
    """Speak the clicker's language inside the block: what they are answered is theirs."""
    with speaking(catalog(clicker_language(interaction))):
        yield


def user_message(error: BaseException) -> str | None:
    """The private answer for a user-caused error, or None for an unexpected one."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return error.message
    if isinstance(error, EngineError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions):
        return _("You need the Manage Server permission for this.")
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works in a server channel, not in DMs.")
    if isinstance(error, app_commands.CheckFailure):
        return _("You cannot use this command here.")
    if isinstance(error, app_commands.TransformerError):
        return _("I could not read {value}.").format(value=repr(error.value))
    return None


async def reply_private(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error answer for interaction %s", interaction.id)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer an error from a command or a component."""
    with in_clickers_language(interaction):
        text = user_message(error)
        if text is None:
            log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
            text = _(APOLOGY)
    await reply_private(interaction, text)


async def answer_click(
    interaction: discord.Interaction, handle: Callable[[], Awaitable[None]]
) -> None:
    """Run a button's work; any error becomes the clicker's private answer (an unexpected one
    is logged with an apology and raised on, so discord.py's handler sees it too)."""
    with in_clickers_language(interaction):
        try:
            await handle()
        except Exception as error:
            await report_error(interaction, error)
            if user_message(error) is None:
                raise


def answers_user_errors(
    func: Callable[P, Coroutine[Any, Any, None]],
) -> Callable[P, Coroutine[Any, Any, None]]:
    """Wrap a command callback: user-caused errors get their private answer here; anything
    else goes on to the central handler (logged, apology)."""

    @functools.wraps(func)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        interaction = next(a for a in args if isinstance(a, discord.Interaction))
        with in_clickers_language(interaction):
            try:
                await func(*args, **kwargs)
            except Exception as error:
                text = user_message(error)
                if text is None:
                    raise
                await reply_private(interaction, text)

    return wrapper
