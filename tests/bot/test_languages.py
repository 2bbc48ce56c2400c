"""Whose language a message speaks, the choices that decide it (``/language``,
``/cardroom language``, stored across restarts), and the slash commands' words in each
Discord locale (``CatalogTranslator``)."""

from __future__ import annotations

import gettext
import io
import logging
from typing import Any

import pytest
import simcord
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from bot.answers import APOLOGY
from bot.app import CardroomBot
from bot.i18n import COMMAND_NAME, catalog, day, listing, number, private_language, table_language
from bot.languages import CatalogTranslator, translated, valid_command_name
from bot.preferences import Languages
from bot.storage import Storage
from engine import languages as loader
from engine.registry import get_game
from engine.words import ENGLISH
from tests.bot.conftest import admin, member
from tests.bot.helpers import kill_and_restart, release
from tests.pseudo import PseudoCatalog


def compiled_catalog(language: str, entries: dict[Any, str]) -> gettext.GNUTranslations:
    """A catalog of ``entries`` (message id, or (context, id) for a name) as gettext loads one."""
    catalog = Catalog(locale=language)
    for key, text in entries.items():
        context, message = key if isinstance(key, tuple) else (None, key)
        catalog.add(message, text, context=context)
    out = io.BytesIO()
    write_mo(out, catalog)
    out.seek(0)
    return gettext.GNUTranslations(out)


GERMAN = compiled_catalog(
    "de",
    {
        (COMMAND_NAME, "language"): "sprache",
        (COMMAND_NAME, "help"): "Hilfe Seite",  # a capital and a space: Discord refuses it
        "The language Cardroom speaks to you (only you see it)": "Die Sprache, in der "
        "Cardroom mit dir spricht (nur du siehst sie), und das ist ein sehr langer Satz, viel "
        "länger als hundert Zeichen",
        "I speak to you in {language}, whatever your Discord's language. Change it with "
        "`/language`.": "Ich spreche {language} mit dir. Ändere es mit `/language`.",
    },
)


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> None:
    """German from the catalog above; every other language English."""
    monkeypatch.setattr(
        loader, "_compiled", lambda language: GERMAN if language == "de" else ENGLISH
    )


class Unreachable:
    """A preferences store whose every call fails (a database gone away)."""

    def __getattr__(self, name: str) -> Any:
        async def fail(*args: Any) -> None:
            raise OSError("the database is gone")

        return fail


# -- whose language -----------------------------------------------------------------------------
def test_a_private_answer_speaks_the_persons_choice_else_their_discords() -> None:
    chosen = Languages(Unreachable(), {1: "fr"}, {})
    assert private_language(chosen, 1, "de") == "fr"
    assert private_language(chosen, 2, "pt-BR") == "pt_BR"
    assert private_language(chosen, 2, "ja") == "en"


def test_a_table_speaks_its_servers_choice_else_the_servers_locale() -> None:
    chosen = Languages(Unreachable(), {}, {10: "es"})
    assert table_language(chosen, 10, "de") == "es"
    assert table_language(chosen, 11, "de") == "de"
    assert table_language(chosen, None, "fr") == "fr"  # a DM: the locale the caller gives


def test_numbers_dates_and_lists_follow_the_language() -> None:
    import datetime

    assert number(1234.5, "en") == "1,234.5" and number(1234.5, "de") == "1.234,5"
    assert day(datetime.date(2026, 12, 6), "fr") == "6 déc. 2026"
    assert listing(["ann", "bob", "cara"], "es") == "ann, bob y cara"
    assert listing(["ann", "bob", "cara"], "en") == "ann, bob, and cara"


# -- the choices --------------------------------------------------------------------------------
async def test_choices_are_stored_forgotten_and_read_back(database_url: str) -> None:
    storage = await Storage.open(database_url)
    try:
        chosen = await Languages.load(storage.preferences)
        await chosen.choose(7, "de")
        await chosen.choose(8, "pt_BR")
        await chosen.choose(8, None)  # back to Discord's
        await chosen.choose_for_server(70, "fr")
        await chosen.choose_for_server(70, "es")  # replaced: one row
        with pytest.raises(ValueError, match="does not speak"):
            await chosen.choose(9, "xx")
        assert chosen.of_person(7) == "de" and chosen.of_person(8) is None
    finally:
        await storage.close()
    again = await Storage.open(database_url)
    try:
        assert await again.preferences.languages() == {7: "de"}
        assert await again.preferences.server_languages() == {70: "es"}
        await again.preferences.set_language(7, "xx")  # written by a newer or older Cardroom
        reloaded = await Languages.load(again.preferences)
        assert reloaded.of_person(7) is None and reloaded.of_server(70) == "es"
    finally:
        await again.close()


async def test_a_failed_save_changes_nothing_and_a_failed_read_keeps_what_is_known(
    caplog: pytest.LogCaptureFixture,
) -> None:
    chosen = Languages(Unreachable(), {1: "fr"}, {10: "es"})
    with pytest.raises(OSError):
        await chosen.choose(1, "de")
    with pytest.raises(OSError):
        await chosen.choose_for_server(10, None)
    with caplog.at_level(logging.WARNING):
        assert await chosen.refresh(1) == "fr"
    assert chosen.of_person(1) == "fr" and chosen.of_server(10) == "es"
    assert "could not read the language of user 1" in caplog.text


async def test_a_person_chooses_their_language_and_it_survives_a_restart(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    german: None,
) -> None:
    ann = member(env, guild, "ann")
    asked = await ann.slash(channel, "language")
    assert asked.ephemeral and asked.response is not None
    assert "your Discord's language (English)" in asked.response.content
    chosen = await ann.slash(channel, "language", language="de")
    assert chosen.response is not None
    assert chosen.response.content == "Ich spreche Deutsch mit dir. Ändere es mit `/language`."
    restarted = await kill_and_restart(env, bot)
    try:
        assert restarted.wiring.languages.of_person(ann.id) == "de"
        back = await ann.slash(channel, "language", language="discord")
        assert back.response is not None and "Discord's language" in back.response.content
        assert restarted.wiring.languages.of_person(ann.id) is None
    finally:
        await release(restarted)


async def test_an_admin_chooses_the_servers_language(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    boss = admin(env, guild, "boss")
    asked = await boss.slash(channel, "cardroom language")
    assert asked.ephemeral and asked.response is not None
    assert "its own language (English)" in asked.response.content
    chosen = await boss.slash(channel, "cardroom language", language="pt_BR")
    assert chosen.response is not None
    assert "speak Português (Brasil)" in chosen.response.content
    assert bot.wiring.languages.of_server(guild.id) == "pt_BR"
    assert table_language(bot.wiring.languages, guild.id, "en-US") == "pt_BR"
    await boss.slash(channel, "cardroom language", language="discord")
    assert bot.wiring.languages.of_server(guild.id) is None
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await member(env, guild, "ann").slash(channel, "cardroom language", language="de")


# -- slash commands in each locale --------------------------------------------------------------
def test_names_descriptions_and_choices_come_from_the_catalogs(
    german: None, caplog: pytest.LogCaptureFixture
) -> None:
    assert translated("language", "de", name=True) == "sprache"
    assert translated("language", "en-US", name=True) is None  # English is the ids
    assert translated("stop", "de", name=True) is None  # untranslated: the English name
    with caplog.at_level(logging.WARNING):
        assert translated("help", "de", name=True) is None  # Discord would refuse it
    assert "not one Discord takes" in caplog.text
    description = translated("The language Cardroom speaks to you (only you see it)", "de", False)
    assert description is not None and len(description) == 100 and description.endswith("…")


@pytest.mark.parametrize(
    ("name", "valid"),
    [("hand", True), ("mão", True), ("main-jouée", True), ("Hand", False), ("la main", False)],
)
def test_valid_command_names(name: str, valid: bool) -> None:
    assert valid_command_name(name) is valid
    assert not valid_command_name("x" * 33)


async def test_every_command_in_a_longer_language_is_valid_and_within_discords_limits(
    bot: CardroomBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "_compiled", lambda language: PseudoCatalog())
    translator = CatalogTranslator()
    payloads = [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]
    assert {payload["name"] for payload in payloads} >= {"language", "cardroom", "help"}
    checked = 0
    for payload in payloads:
        for node in walk(payload):
            names = node.get("name_localizations") or {}
            assert names, f"{node['name']} has no translated name"
            for locale, name in names.items():
                assert valid_command_name(name), (locale, name)
            for text in (node.get("description_localizations") or {}).values():
                assert len(text) <= 100
                checked += 1
    assert checked > 20


def walk(node: dict[str, Any]) -> list[dict[str, Any]]:
    """A command payload's command, options and choices (each with its localisations)."""
    found = [node]
    for option in node.get("options") or []:
        found += walk(option)
    for choice in node.get("choices") or []:
        assert all(len(name) <= 100 for name in (choice.get("name_localizations") or {}).values())
        assert len(choice["name_localizations"] or {}) > 0
    return found


def test_the_translator_is_set_on_the_tree(bot: CardroomBot) -> None:
    assert isinstance(bot.tree.translator, CatalogTranslator)


async def test_a_choice_that_cannot_be_saved_is_answered_privately_and_changes_nothing(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, boss = member(env, guild, "ann"), admin(env, guild, "boss")
    store = bot.storage.preferences
    monkeypatch.setattr(store, "set_language", Unreachable().set_language)
    monkeypatch.setattr(store, "set_server_language", Unreachable().set_server_language)
    for actor, command in ((ann, "language"), (boss, "cardroom language")):
        refused = await actor.slash(channel, command, language="fr")
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content == APOLOGY
    assert bot.wiring.languages.of_person(ann.id) is None
    assert bot.wiring.languages.of_server(guild.id) is None
    logged = env.errors  # the failed saves, logged for the operators
    assert len(logged) == 2 and all("the database is gone" in repr(e.__cause__) for e in logged)


async def test_a_game_options_description_and_its_default_read_in_each_locale(
    bot: CardroomBot,
) -> None:
    # composed at run time ("{description} (default {amount})"): the shipped catalogs make it
    # anew in each language, its default's words included
    game = next(command for command in bot.tree.get_commands() if command.name == "game")
    payload = await game.get_translated_payload(bot.tree, CatalogTranslator())
    start = next(node for node in payload["options"] if node["name"] == "start")
    cambio = next(node for node in start["options"] if node["name"] == "cambio")
    memory_aid = next(node for node in cambio["options"] if node["name"] == "memory_aid")
    assert memory_aid["description"].endswith("(default off)")
    german = memory_aid["description_localizations"]["de"]
    assert german.endswith("(Standard aus)"), german
    option = next(option for option in get_game("cambio").options if option.name == "memory_aid")
    assert german.startswith(catalog("de").gettext(option.description))
