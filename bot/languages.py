"""Choosing the language, and slash commands in every language.

``/language`` shows or sets the language of a person's own answers and views (else their
Discord client's); ``/cardroom language`` (Manage Server) the language of a server's tables
(else the server's locale). ``CatalogTranslator`` gives Discord the commands' names,
descriptions and choices in each language from the same catalogs as every other message; a
name Discord would refuse (with a space or a capital) is left out, and a description past
Discord's 100 characters is cut, so that one bad entry never stops the commands from syncing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord
from babel import Locale
from discord import app_commands
from discord.ext import commands

from bot.answers import answers_user_errors, clicker_language
from bot.errors import UserError
from bot.i18n import (
    COMMAND_NAME,
    LANGUAGES,
    SOURCE_LANGUAGE,
    catalog,
    command_name,
    language_of,
)
from bot.preferences import Languages
from bot.text import clip
from engine.words import N_, _, speaking

log = logging.getLogger(__name__)

NAME_LIMIT, TEXT_LIMIT = 32, 100  # Discord's: a name's characters, a description's or choice's
NAME_PUNCTUATION = "-_'"
NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)
DISCORDS = "discord"  # the choice that forgets a person's (or server's) choice


def valid_command_name(name: str) -> bool:
    """Whether Discord takes ``name`` as a command's or option's name: 1 to 32 letters,
    digits, ``-``, ``_`` or ``'``, in lower case where the script has cases."""
    return (
        0 < len(name) <= NAME_LIMIT
        and all(char.isalnum() or char in NAME_PUNCTUATION for char in name)
        and name == name.lower()
    )


class CatalogTranslator(app_commands.Translator):
    """The command tree's words in each Discord locale, from Cardroom's catalogs."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The translation of ``string``, or None to keep the English."""
        render = string.extras.get(RENDER)
        if render is not None:
            return rendered(render, string.message, str(locale))
        return translated(string.message, str(locale), context.location in NAMES)


RENDER = "render"  # a ``composed`` text's extra: makes it in the active language


def composed(render: Callable[[], str]) -> app_commands.locale_str:
    """A command's text made at run time (a game option's description with its default):
    ``render`` makes it in the active language, for English now and each locale when the
    commands are synced."""
    return app_commands.locale_str(clip(render(), TEXT_LIMIT), **{RENDER: render})


def rendered(render: Callable[[], str], english: str, locale: str) -> str | None:
    """A ``composed`` text in the language of the Discord ``locale``; None where it reads as
    the English."""
    language = language_of(locale)
    if language == SOURCE_LANGUAGE:
        return None
    with speaking(catalog(language)):
        found = clip(render(), TEXT_LIMIT)
    return None if found == english else found


def translated(message: str, locale: str, name: bool) -> str | None:
    """``message`` (a name when ``name``) in the language of the Discord ``locale``; None
    where it is English, untranslated, or a name Discord would refuse."""
    language = language_of(locale)
    if language == SOURCE_LANGUAGE:
        return None
    words = catalog(language)
    found = words.pgettext(COMMAND_NAME, message) if name else words.gettext(message)
    if found == message:
        return None
    if name and not valid_command_name(found):
        log.warning("the %s name %r (for %r) is not one Discord takes", language, found, message)
        return None
    return found if name else clip(found, TEXT_LIMIT)


def language_choices(forget: str) -> list[app_commands.Choice[str]]:
    """Each language by its own name ("Deutsch"), then ``forget`` (back to Discord's)."""
    return [
        app_commands.Choice(name=language_name(language), value=language) for language in LANGUAGES
    ] + [app_commands.Choice(name=forget, value=DISCORDS)]


def language_name(language: str) -> str:
    """A language as its speakers name it ("Português (Brasil)")."""
    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


PERSON_FORGET = N_("My Discord's language")
SERVER_FORGET = N_("This server's own language")


async def setup(bot: commands.AutoShardedBot, languages: Languages) -> None:
    """Add /language to the bot."""
    await bot.add_cog(LanguageCog(languages))


class LanguageCog(commands.Cog):
    """The /language command."""

    def __init__(self, languages: Languages) -> None:
        self.languages = languages

    @app_commands.command(
        name=command_name("language"),
        description=N_("The language Cardroom speaks to you (only you see it)"),
    )
    @app_commands.rename(language=command_name("language"))
    @app_commands.describe(language=N_("leave out to see it"))
    @app_commands.choices(language=language_choices(PERSON_FORGET))
    @answers_user_errors
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        """Show, or change, the person's own language (privately, in that language)."""
        user_id = interaction.user.id
        if language is not None:
            await self.languages.choose(user_id, None if language == DISCORDS else language)
        else:
            await self.languages.refresh(user_id)
        chosen = self.languages.of_person(user_id)
        with speaking(catalog(clicker_language(interaction))):
            if chosen is None:
                answer = _(
                    "I speak to you in your Discord's language ({language}). Choose another "
                    "with `/language`."
                ).format(language=language_name(language_of(str(interaction.locale))))
            else:
                answer = _(
                    "I speak to you in {language}, whatever your Discord's language. Change it "
                    "with `/language`."
                ).format(language=language_name(chosen))
        await interaction.response.send_message(answer, ephemeral=True)


def server_language_command(languages: Languages) -> app_commands.Command[Any, ..., None]:
    """``/cardroom language``: see or set the language of the server's tables."""

    @app_commands.rename(language=command_name("language"))
    @app_commands.describe(language=N_("leave out to see it"))
    @app_commands.choices(language=language_choices(SERVER_FORGET))
    @answers_user_errors
    async def language(interaction: discord.Interaction, language: str | None = None) -> None:
        await server_language(languages, interaction, language)

    return app_commands.Command(
        name=command_name("language"),
        description=N_("The language of this server's tables (Manage Server)"),
        callback=language,
    )


async def server_language(
    languages: Languages, interaction: discord.Interaction, language: str | None
) -> None:
    """Show, or change, the language of the server's tables (Manage Server: Discord checks
    it first; checked again here, since a server may hand the command to anyone); answered
    privately in the clicker's language."""
    with speaking(catalog(clicker_language(interaction))):
        if interaction.guild_id is None:
            raise UserError(_("A server's language is chosen in that server."))
        if language is not None and not interaction.permissions.manage_guild:
            raise UserError(_("Only someone with Manage Server can change Cardroom's language."))
        if language is not None:
            await languages.choose_for_server(
                interaction.guild_id, None if language == DISCORDS else language
            )
        chosen = languages.of_server(interaction.guild_id)
        if chosen is None:
            server = language_name(language_of(str(interaction.guild_locale)))
            answer = _(
                "Tables on this server speak its own language ({language}); each person's Hand "
                "and answers speak theirs."
            ).format(language=server)
        else:
            answer = _(
                "Tables on this server speak {language}; each person's Hand and answers speak "
                "theirs."
            ).format(language=language_name(chosen))
    await interaction.response.send_message(answer, ephemeral=True)
