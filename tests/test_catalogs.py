"""The message catalogs that ship: the template holds exactly what the code marks now, every
language translates every message of it (nothing fuzzy, nothing unused, the same placeholders,
its own plural rule), and each compiled ``.mo`` is what its ``.po`` compiles to today.

A message marked in the code and not yet translated fails ``test_every_catalog_is_complete``
for each language until a translator fills it (``./run catalogs`` adds it to each ``.po``;
``python scripts/catalogs.py --check`` lists what is left)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.languages import valid_command_name
from bot.tables.records import UnreadableLines, read_back
from engine.core import args_json, counted_phrase
from tests.scripts import load_script

catalogs = load_script("catalogs")
COMMAND_NAME_CONTEXT = catalogs.COMMAND_NAME_CONTEXT
TEMPLATE = catalogs.TEMPLATE
extracted, po_path, problems, read_catalog = (
    catalogs.extracted,
    catalogs.po_path,
    catalogs.problems,
    catalogs.read_catalog,
)

LANGUAGES = catalogs.languages()


def test_the_template_holds_exactly_the_messages_the_code_marks() -> None:
    found, kept = extracted(), read_catalog(TEMPLATE)
    missing = catalogs.keys(found) - catalogs.keys(kept)
    unused = catalogs.keys(kept) - catalogs.keys(found)
    assert not missing and not unused, (
        f"run ./run catalogs: {len(missing)} new messages, {len(unused)} no longer marked"
    )
    # the template is not empty: the completeness test below has something to check
    assert len(catalogs.keys(found)) > 100


def test_extraction_finds_every_marker_and_gives_names_their_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "bot"
    source.mkdir()
    (source / "marked.py").write_text(
        "# Translators: a seat's name\n"
        "a = _('Your turn')\n"
        "b = N_('Cambio')\n"
        "c = ngettext('{count} card', '{count} cards', n)\n"
        "d = command_name('hand')\n"
        "e = print('not marked')\n"
        "f = Nn_('{count} club', '{count} clubs')\n"
    )
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    monkeypatch.setattr(catalogs, "SOURCES", ("bot",))
    found = extracted()
    assert catalogs.keys(found) == {
        (("Your turn",), None),
        (("Cambio",), None),
        (("{count} card", "{count} cards"), None),
        (("hand",), COMMAND_NAME_CONTEXT),
        (("{count} club", "{count} clubs"), None),
    }
    assert found.get("Your turn").auto_comments == ["a seat's name"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_its_catalog(language: str) -> None:
    assert po_path(language).is_file(), "run ./run catalogs"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_is_complete(language: str) -> None:
    found = problems(read_catalog(po_path(language), language), read_catalog(TEMPLATE))
    assert not found, f"{language}: {len(found)} problems, first: " + "\n".join(found[:15])


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_compiled_catalog_is_its_po_compiled_now(language: str) -> None:
    # the install compiles them (setup.py, ./run); a .po changed since must not ship an old .mo
    mo = po_path(language).with_suffix(".mo")
    assert mo.is_file() and mo.read_bytes() == catalogs.compiled(po_path(language)), (
        f"{mo} is missing or older than its .po: run ./run catalogs --compile"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_translated_command_names_are_names_discord_takes(language: str) -> None:
    names = [
        message
        for message in read_catalog(po_path(language), language)
        if message.context == COMMAND_NAME_CONTEXT and message.string
    ]
    assert all(valid_command_name(str(message.string)) for message in names)


def po(text: str, language: str = "fr") -> Catalog:
    header = (
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 '
        '? 1 : 2;\\n"\n\n'
    )
    return read_po(io.BytesIO((header + text).encode()), locale=language)


TEMPLATE_TEXT = (
    'msgid "{player} draws"\nmsgstr ""\n\n'
    'msgid "{count} card"\nmsgid_plural "{count} cards"\nmsgstr[0] ""\nmsgstr[1] ""\n\n'
)


def test_a_complete_catalog_has_no_problems() -> None:
    good = po(
        'msgid "{player} draws"\nmsgstr "{player} pioche"\n\n'
        'msgid "{count} card"\nmsgid_plural "{count} cards"\n'
        'msgstr[0] "une carte"\nmsgstr[1] "{count} de cartes"\nmsgstr[2] "{count} cartes"\n'
    )
    assert problems(good, po(TEMPLATE_TEXT)) == []


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ('msgid "{count} card"\nmsgid_plural "{count} cards"\nmsgstr[0] "a"\n', "missing"),
        ('msgid "{player} draws"\nmsgstr ""\n', "untranslated"),
        ('#, fuzzy\nmsgid "{player} draws"\nmsgstr "{player} pioche"\n', "fuzzy"),
        ('msgid "{player} draws"\nmsgstr "{joueur} pioche"\n', "placeholders"),
        ('msgid "{player} draws"\nmsgstr "pioche"\n', "placeholders"),
        ('msgid "{player} draws"\nmsgstr "{player pioche"\n', "malformed"),
        ('msgid "Gone"\nmsgstr "Parti"\n', "unused"),
        ('#~ msgid "Old"\n#~ msgstr "Vieux"\n', "unused"),
        (
            'msgid "{count} card"\nmsgid_plural "{count} cards"\n'
            'msgstr[0] "une"\nmsgstr[1] "des"\nmsgstr[2] "des cartes"\n',
            "placeholders",
        ),
    ],
)
def test_each_kind_of_problem_is_found(entries: str, problem: str) -> None:
    found = problems(po(entries), po(TEMPLATE_TEXT))
    assert any(each.startswith(problem) for each in found), found


def test_a_wrong_plural_rule_is_found() -> None:
    wrong = po('msgid "{player} draws"\nmsgstr "{player} pioche"\n').plural_forms
    header = (
        b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"'
    )
    catalog = read_po(io.BytesIO(header), locale="fr")
    assert catalog.plural_forms != wrong
    assert any(each.startswith("plural rule") for each in problems(catalog, po("")))


def test_writing_a_catalog_does_not_depend_on_where_its_messages_were_read(
    tmp_path: Path,
) -> None:
    # freshly extracted messages know their line numbers, messages read back from a file do
    # not: the two must be written alike, or every run rewrites the catalogs in a new order
    fresh, read_back = tmp_path / "fresh.pot", tmp_path / "read_back.pot"
    catalogs.write(extracted(), fresh)
    catalogs.write(read_catalog(fresh), read_back)
    assert fresh.read_bytes() == read_back.read_bytes()


def test_no_count_has_its_two_forms_marked_as_two_messages() -> None:
    assert catalogs.forms_apart(extracted()) == []


def test_a_count_s_two_forms_marked_apart_are_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    apart = po(
        'msgid "{count} club"\nmsgstr ""\n\nmsgid "{count} clubs"\nmsgstr ""\n\n'
        'msgid "{player} exchanges {count} card; {left} left"\nmsgstr ""\n\n'
        'msgid "{player} exchanges {count} cards; {left} left"\nmsgstr ""\n\n'
        'msgid "{count} spade"\nmsgid_plural "{count} spades"\nmsgstr[0] ""\nmsgstr[1] ""\n\n'
        'msgid "{player} wins"\nmsgstr ""\n\nmsgid "{player} win"\nmsgstr ""\n'
    )
    assert catalogs.forms_apart(apart) == [
        "forms apart (one plural entry: Nn_ or ngettext): '{count} club' / '{count} clubs'",
        "forms apart (one plural entry: Nn_ or ngettext): "
        "'{player} exchanges {count} card; {left} left' / "
        "'{player} exchanges {count} cards; {left} left'",
    ]
    # --check refuses it
    template = tmp_path / "cardroom.pot"
    catalogs.write(apart, template)
    monkeypatch.setattr(catalogs, "TEMPLATE", template)
    monkeypatch.setattr(catalogs, "languages", list)
    assert catalogs.main(["--check"]) == 1
    assert "template: 2 problems" in capsys.readouterr().out


def test_two_messages_joined_into_one_plural_entry_keep_their_singular_for_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # how the catalogs moved from a count's two messages to one plural entry: the update
    # keeps the singular's translation as the first form, marked fuzzy, so that the check
    # refuses the entry until a translator writes every form
    monkeypatch.setattr(catalogs, "LOCALES_DIR", tmp_path)
    catalogs.write(
        po(
            'msgid "{count} club"\nmsgstr "{count} trèfle"\n\n'
            'msgid "{count} clubs"\nmsgstr "{count} trèfles"\n'
        ),
        po_path("fr"),
    )
    template = po('msgid "{count} club"\nmsgid_plural "{count} clubs"\nmsgstr[0] ""\n')
    catalogs.update_languages(template, ["fr"])
    updated = read_catalog(po_path("fr"), "fr")
    assert [(m.id, m.string, m.fuzzy) for m in catalogs.messages(updated)] == [
        (("{count} club", "{count} clubs"), ("{count} trèfle", "", ""), True)
    ]
    assert {each.split(":")[0] for each in problems(updated, template)} == {
        "fuzzy",
        "untranslated",
    }


def test_plural_entries_are_written_in_the_order_of_their_ids(tmp_path: Path) -> None:
    catalog = po(
        'msgid "{player} draws"\nmsgstr ""\n\n'
        'msgid "{count} club"\nmsgid_plural "{count} clubs"\nmsgstr[0] ""\n\n'
        'msgid "Your turn"\nmsgstr ""\n'
    )
    catalogs.write(catalog, tmp_path / "sorted.pot")
    ids = [
        line
        for line in (tmp_path / "sorted.pot").read_text().splitlines()
        if line.startswith("msgid ")
    ]
    assert ids == [
        'msgid ""',
        'msgid "Your turn"',
        'msgid "{count} club"',
        'msgid "{player} draws"',
    ]


def test_every_marked_message_reads_back_from_storage() -> None:
    """A stored line is checked when read back (``records.read_back``), so that a damaged one
    never fails where it is shown: every message the code marks must pass that check, or its
    lines would read as unreadable after a restart (a ``{count:d}`` or ``{card.text}`` would)."""
    unreadable, reports = [], UnreadableLines()
    for message in catalogs.messages(read_catalog(TEMPLATE)):
        if isinstance(message.id, tuple):
            singular, plural = message.id[:2]
            phrase = counted_phrase((singular, plural), 2)
            args = args_json([("why", phrase)])
            event = read_back(reports, "t", "catalog", "{why}", "info", args)
            read = event.message == "{why}"
        else:
            read = read_back(reports, "t", "catalog", message.id, "info", []).message == message.id
        if not read:
            unreadable.append(message.id)
    assert not unreadable
