"""Each reader's language: the public table (its messages, pictures, notices, results) speaks
the table's language, fixed from its server's locale when it opens and kept across restarts;
what one person reads alone (their Hand view, a private answer, their hand DM) speaks theirs;
two tables in two languages never mix, however their renderings interleave; the table log is
stored as message ids with arguments, so it is read again in whatever language reads it.

The catalogs here are a test's own: every message is its English text after its language's
tag (``⟦de⟧``), so each line shows which language said it."""

from __future__ import annotations

import gettext
import random
from typing import Any

import pytest
import simcord
import simcord.interactions

from bot import i18n
from bot.app import CardroomBot
from bot.storage import SavedEvent
from bot.tables.records import LoggedEvent, UnreadableLines, summary_of
from bot.tables.session import TableSession
from engine import languages
from engine.words import ENGLISH, speaking
from tests.bot.conftest import admin
from tests.bot.helpers import (
    Player,
    add_player,
    allowed_cards,
    cards_in,
    click_through,
    hand_dm,
    kill_and_restart,
    release,
    table_message,
    text_of,
)

GERMAN, SPANISH, FRENCH = "⟦de⟧", "⟦es⟧", "⟦fr⟧"
TAGS = (GERMAN, SPANISH, FRENCH)


class Tagged(gettext.NullTranslations):
    """A test catalog: each message is its English text after the language's tag."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.tag = f"⟦{language}⟧"

    def gettext(self, message: str) -> str:
        return self.tag + message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.tag + (msgid1 if n == 1 else msgid2)


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Tagged catalogs for every language but English, and interactions that carry each
    person's Discord locale (by user id; set in the returned dict) and their server's."""

    tagged = {language: Tagged(language) for language in i18n.LANGUAGES if language != "en"}
    # the compiled catalogs, as engine.languages loads them (behind bot.i18n.catalog)
    monkeypatch.setattr(languages, "_compiled", lambda language: tagged.get(language, ENGLISH))
    people: dict[int, str] = {}
    build = simcord.interactions.base_payload

    def with_locales(backend: Any, **fields: Any) -> Any:
        record, payload = build(backend, **fields)
        payload["locale"] = people.get(fields["user_id"], "en-US")
        if fields["guild_id"] is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locales)
    return people


def said_in(text: str) -> set[str]:
    """The languages (tags) a text was said in."""
    return {tag for tag in TAGS if tag in text}


async def tagged_table(
    bot: CardroomBot,
    channel: simcord.ChannelHandle,
    host: Player,
    tag: str,
    game_id: str = "fishing",
) -> TableSession:
    """A table of ``host`` and one AI, opened in ``channel`` whose lobby speaks ``tag``."""
    result = await host.member.slash(channel, f"game start {game_id}")
    assert result.response is not None, "the lobby was not posted"
    lobby = result.response
    assert said_in(text_of(lobby)) == {tag}, "the lobby speaks its server's language"
    await host.member.click(lobby, label=f"{tag}Add AI")
    await host.member.click(lobby, label=f"{tag}Start")
    return list(bot.tables.tables.values())[-1]


async def hand_view(
    player: Player, channel: simcord.ChannelHandle, table: TableSession, tag: str
) -> simcord.ResponseMessage:
    """The player's Hand view, opened with the table's Hand button (labelled in ``tag``)."""
    result = await player.member.click(table_message(channel, table), label=f"{tag}Hand")
    assert result.ephemeral and result.response is not None
    return result.response


def public(channel: simcord.ChannelHandle) -> list[str]:
    """The text of every message everyone in the channel sees."""
    return [text_of(m) for m in channel.history() if not m.flags.ephemeral]


def ana_in_a_german_server(
    env: simcord.Env, locales: dict[int, str], reads: str
) -> tuple[simcord.GuildHandle, simcord.ChannelHandle, Player]:
    """A German server, its channel and ana, whose Discord is in the locale ``reads``."""
    guild = env.create_guild(name="Kartenraum", preferred_locale="de")
    channel = guild.create_text_channel("spiele")
    ana = add_player(env, guild, "ana")
    locales[ana.id] = reads
    return guild, channel, ana


async def test_the_table_speaks_its_servers_language_and_a_hand_its_readers(
    env: simcord.Env, bot: CardroomBot, locales: dict[int, str]
) -> None:
    guild, channel, ana = ana_in_a_german_server(env, locales, "es-ES")
    table = await tagged_table(bot, channel, ana, GERMAN)
    assert table.language == "de"
    assert said_in(text_of(table_message(channel, table))) == {GERMAN}
    assert said_in(text_of(hand_dm(ana, table))) == {SPANISH}, "her DM is hers"
    rng = random.Random(3)
    for _ in range(4):  # her moves, made in Spanish, redraw the table in German
        while 0 not in table.state.waiting_for() and not table.ended:
            await env.advance_time(1)
        if table.ended:
            break
        hand = await hand_view(ana, channel, table, GERMAN)
        assert said_in(text_of(hand)) == {SPANISH}, "her Hand view is hers"
        seen: list[Any] = []
        assert await click_through(ana.member, hand, table, rng, seen)
        assert all(said_in(text_of(message)) <= {SPANISH} for message in seen)
        shown = text_of(table_message(channel, table))
        assert said_in(shown) == {GERMAN}, "the table is everyone's: the server's language"
        assert cards_in(shown) <= allowed_cards(table, None), "no hidden card on the table"
    assert all(said_in(text) == {GERMAN} for text in public(channel))
    bob = add_player(env, guild, "bob")
    locales[bob.id] = "es-ES"
    refused = await bob.member.slash(channel, "game leave")  # not seated: told privately
    assert refused.ephemeral and refused.response is not None
    assert text_of(refused.response) == f"{SPANISH}You are not seated at this table."


async def test_the_languages_people_and_admins_chose_win_over_discords(
    env: simcord.Env, bot: CardroomBot, locales: dict[int, str]
) -> None:
    guild, channel, ana = ana_in_a_german_server(env, locales, "de")
    await ana.member.slash(channel, "language", language="es")  # hers, over her Discord's
    await admin(env, guild, "boss").slash(channel, "cardroom language", language="fr")
    table = await tagged_table(bot, channel, ana, FRENCH)  # the server's choice, over its own
    assert table.language == "fr"
    assert said_in(text_of(hand_dm(ana, table))) == {SPANISH}
    while 0 not in table.state.waiting_for():
        await env.advance_time(1)
    assert said_in(text_of(await hand_view(ana, channel, table, FRENCH))) == {SPANISH}


async def test_two_tables_in_two_languages_never_mix(
    env: simcord.Env, bot: CardroomBot, locales: dict[int, str]
) -> None:
    tables: list[tuple[simcord.ChannelHandle, TableSession, str]] = []
    # each host reads the other table's language: their clicks start tasks that draw
    for locale, tag, hosts_locale in (("de", GERMAN, "fr"), ("fr", FRENCH, "de")):
        guild = env.create_guild(name=locale, preferred_locale=locale)
        channel = guild.create_text_channel("games")
        host = add_player(env, guild, f"host-{locale}")
        locales[host.id] = hosts_locale
        tables.append((channel, await tagged_table(bot, channel, host, tag), tag))
    # their people are away: both tables' clocks run out together, and the AI plays on at
    # both, each drawn in the background (timers, AI moves, notices) as the other one is
    revisions = [table.revision for _, table, _ in tables]
    for _ in range(4):
        await env.advance_time(bot.settings.turn_seconds + 1)
    moved = zip(tables, revisions, strict=True)
    assert all(table.revision > before for (_, table, _), before in moved)
    for channel, _, tag in tables:
        seen = public(channel)
        assert any("ran out of time" in text for text in seen), "the timers' notice"
        assert all(said_in(text) == {tag} for text in seen), "nothing of the other table"


async def test_a_stored_log_is_read_again_in_its_readers_language_after_a_restart(
    env: simcord.Env, bot: CardroomBot, locales: dict[int, str]
) -> None:
    _, channel, ana = ana_in_a_german_server(env, locales, "de")
    table = await tagged_table(bot, channel, ana, GERMAN)
    rng = random.Random(5)
    while table.revision < 3:
        if 0 in table.state.waiting_for():
            assert await click_through(ana.user, hand_dm(ana, table), table, rng, [])
        await env.advance_time(1)
    stored = [entry.event for entry in table.log]
    assert any(event.args for event in stored), "events are stored with their arguments"
    new = await kill_and_restart(env, bot)
    try:
        restored = new.tables.tables[table.table_id]
        assert restored.language == "de", "kept with the table"
        assert [entry.event for entry in restored.log][:-1] == stored  # then "resumes…"
        locales[ana.id] = "es-419"  # she reads Spanish now
        hand = await hand_view(ana, channel, restored, GERMAN)
        recent = text_of(hand).split(f"{SPANISH}Recent")[1]
        assert said_in(recent) == {SPANISH}, "the stored moves in her language"
        with speaking(i18n.catalog("es")):
            last = restored.log[-2].event.render(restored.names)  # before "resumes…"
        assert last.startswith(SPANISH) and last in recent.replace("\ufe0f", "").replace(
            "\ufe0e", ""
        )
        await env.advance_time(1)  # the table shown anew after the restart
        assert said_in(text_of(table_message(channel, restored))) == {GERMAN}
    finally:
        await release(new)


async def test_an_open_lobby_keeps_its_language_across_a_restart(
    env: simcord.Env, bot: CardroomBot, locales: dict[int, str]
) -> None:
    # the host reads Spanish; her server speaks German
    _, channel, ana = ana_in_a_german_server(env, locales, "es-ES")
    result = await ana.member.slash(channel, "game start fishing")
    assert result.response is not None
    lobby = result.response
    await ana.member.click(lobby, label=f"{GERMAN}Add AI")
    new = await kill_and_restart(env, bot)
    try:
        restored = new.tables.lobbies.get(new.tables.by_channel[channel.id])
        assert restored.language == "de", "kept with the lobby, not its host's"
        started = await ana.member.click(lobby, label=f"{GERMAN}Start")
        assert started.response is not None and said_in(text_of(started.response)) == {GERMAN}
        table = new.tables.tables[new.tables.by_channel[channel.id]]
        assert table.language == "de"
        assert said_in(text_of(table_message(channel, table))) == {GERMAN}
    finally:
        await release(new)


def test_a_log_saved_as_english_text_reads_as_it_was_written() -> None:
    """Saves from before events carried arguments: plain English, shown as is."""
    old = SavedEvent(revision=3, text="{s0} plays 6♦", kind="play")
    with speaking(ENGLISH):
        assert (
            LoggedEvent.from_record(old, "t1", UnreadableLines()).event.render(["ann"])
            == "ann plays 6♦"
        )
        summary = summary_of(
            "Hand 1 scores: {ann} 3; bob 0", "t1", UnreadableLines()
        )  # a name with braces in it
        assert summary.render(["{ann}", "bob"]) == "Hand 1 scores: {ann} 3; bob 0"


def test_lines_saved_before_their_counts_were_plural_entries_read_as_they_said() -> None:
    """Stuck's and cambio's lines saved with their count as a plain argument: their message
    ids are gone from the catalogs, so they read in English, as they were said then."""
    old = [
        SavedEvent(
            revision=9,
            text="{player} cannot play and, with {count} stuck cards already, draws a card"
            " into the hand",
            kind="draw",
            args=[["player", "{s0}"], ["count", "3"]],
        ),
        SavedEvent(
            revision=9,
            text="{player} cannot draw: the stock is empty after the round's {count} reshuffles.",
            kind="draw",
            args=[["player", "{s0}"], ["count", "2"]],
        ),
    ]
    with speaking(i18n.catalog("de")):
        said = [
            LoggedEvent.from_record(saved, "t1", UnreadableLines()).event.render(["ann"])
            for saved in old
        ]
    assert said == [
        "ann cannot play and, with 3 stuck cards already, draws a card into the hand",
        "ann cannot draw: the stock is empty after the round's 2 reshuffles.",
    ]


def test_a_cambio_line_saved_with_the_count_it_never_said_reads_in_its_readers_language() -> None:
    """Cambio's "no cards are left to take" was stored with a ``count`` it never said; such a
    line reads as the line made now does, translated, not as a line that cannot be read."""
    text = "{player} cannot draw: no cards are left to take."
    old = SavedEvent(revision=4, text=text, kind="draw", args=[["player", "{s0}"], ["count", "2"]])
    now = SavedEvent(revision=4, text=text, kind="draw", args=[["player", "{s0}"]])
    with speaking(i18n.catalog("de")):
        said = [
            LoggedEvent.from_record(saved, "t1", UnreadableLines()).event.render(["ann"])
            for saved in (old, now)
        ]
    assert said == ["ann kann nicht ziehen: es sind keine Karten mehr da."] * 2
