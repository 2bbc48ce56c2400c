"""The one place errors become answers: user-caused errors get a private, plain-language reply;
anything unexpected is logged and answered with a short apology (never silence)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec

import discord
from discord import app_commands

from bot.errors import UserError
from engine.errors import EngineError

log = logging.getLogger(__name__)
P = ParamSpec("P")

APOLOGY = "Sorry, something went wrong on our side; it has been logged. Please try again."
NOT_OURS = "That button is not one of ours."


def user_message(error: BaseException) -> str | None:
    """The private answer for a user-caused error, or None for an unexpected one."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return error.message
    if isinstance(error, EngineError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Server permission for this."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works in a server channel, not in DMs."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use this command here."
    if isinstance(error, app_commands.TransformerError):
        return f"I could not read {error.value!r}."
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
    text = user_message(error)
    if text is None:
        log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
        text = APOLOGY
    await reply_private(interaction, text)


async def answer_click(
    interaction: discord.Interaction, handle: Callable[[], Awaitable[None]]
) -> None:
    """Run a button's work; any error becomes the clicker's private answer (an unexpected one
    is logged with an apology and raised on, so discord.py's handler sees it too)."""
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
        try:
            await func(*args, **kwargs)
        except Exception as error:
            text = user_message(error)
            if text is None:
                raise
            interaction = next(a for a in args if isinstance(a, discord.Interaction))
            await reply_private(interaction, text)

    return wrapper
