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
    )
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    monkeypatch.setattr(catalogs, "SOURCES", ("bot",))
    found = extracted()
    assert catalogs.keys(found) == {
        (("Your turn",), None),
        (("Cambio",), None),
        (("{count} card", "{count} cards"), None),
        (("hand",), COMMAND_NAME_CONTEXT),
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
