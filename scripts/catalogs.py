"""Cardroom's message catalogs (gettext, kept with Babel): ``python scripts/catalogs.py``
(``./run catalogs``) extracts the marked messages of ``engine/`` and ``bot/`` into
``data/locales/cardroom.pot``, brings each language's ``.po`` up to date with it and
compiles every ``.po`` into its ``.mo``; ``--compile`` only compiles (what the install does:
setup.py and ``./run``).

Marked are ``_("…")`` and ``N_("…")``, the plural entries ``ngettext("…", "…", n)`` and
``Nn_("…", "…")`` (a count's two English forms, one entry whose language picks its own form:
``engine.words``), and the names of slash commands, groups and options, ``command_name("…")``
(``bot.i18n``), which get the context ``slash command name``: a name is a word on its own,
translated apart from the same word in a sentence, and Discord allows only some characters in
it. A comment starting ``Translators:`` just above a marked message reaches the translators
with it. A count's forms marked as two messages (``N_("{count} club")``, ``N_("{count}
clubs")``) are refused: the English count would pick the form in every language.

The ``.mo`` are built, never committed (``.gitignore``); the tests check each against a fresh
compilation of its ``.po``, so an out-of-date one cannot go unnoticed.
"""

from __future__ import annotations

import argparse
import io
import re
import string
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES_DIR = ROOT / "data" / "locales"
TEMPLATE = LOCALES_DIR / "cardroom.pot"
DOMAIN = "cardroom"
SOURCES = ("engine", "bot")
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "Nn_": (1, 2),
}
NAME_KEYWORDS: dict[str, tuple[int, ...] | None] = {"command_name": None}
COMMAND_NAME_CONTEXT = "slash command name"
COMMENT_TAGS = ("Translators:",)
WIDTH = 100


def new_catalog(language: str | None = None) -> Catalog:
    """An empty catalog of Cardroom's (a template when ``language`` is None)."""
    return Catalog(
        locale=language,
        domain=DOMAIN,
        project="Cardroom",
        copyright_holder="Cardroom's contributors",
        charset="utf-8",
        fuzzy=False,
    )


def extracted() -> Catalog:
    """Every message marked in the code now, as a template (no translations)."""
    template = new_catalog()
    for keywords, context in ((KEYWORDS, None), (NAME_KEYWORDS, COMMAND_NAME_CONTEXT)):
        for source in SOURCES:
            found = extract_from_dir(
                ROOT / source,
                method_map=[("**.py", "python")],
                keywords=keywords,
                comment_tags=COMMENT_TAGS,
                strip_comment_tags=True,
            )
            for filename, lineno, message, comments, own_context in found:
                template.add(
                    message,
                    locations=[(f"{source}/{filename}", lineno)],
                    auto_comments=comments,
                    context=context or own_context,
                )
    return template


def languages() -> list[str]:
    """The languages with a catalog besides English (whose messages are their own ids)."""
    sys.path.insert(0, str(ROOT))
    from engine.languages import LANGUAGES, SOURCE_LANGUAGE

    return [language for language in LANGUAGES if language != SOURCE_LANGUAGE]


def po_path(language: str) -> Path:
    """Where ``language``'s translations are kept."""
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    """A ``.po`` or ``.pot`` file."""
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


Key = tuple[tuple[str, ...], str | None]
"""A message's identity: its id (and plural id) and its context."""


def key(message: Message) -> Key:
    """``message``'s identity."""
    return _strings(message.id), message.context


def _strings(value: object) -> tuple[str, ...]:
    # Babel holds a singular as a string, a plural as a tuple or list of them
    return tuple(value) if isinstance(value, tuple | list) else (str(value or ""),)


def keys(catalog: Catalog) -> set[Key]:
    """Every message's identity."""
    return {key(message) for message in messages(catalog)}


def messages(catalog: Catalog) -> Iterator[Message]:
    """The catalog's messages, without its header entry."""
    return (message for message in catalog if message.id)


def write(catalog: Catalog, path: Path) -> None:
    """Write a ``.po``/``.pot`` file, its messages in the order of their ids: no line numbers
    and no order by place, which Babel knows for freshly extracted messages and not for those
    read back from a file, so that a run on unchanged messages rewrites nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(
            file,
            catalog,
            width=WIDTH,
            sort_output=True,
            include_lineno=False,
            ignore_obsolete=True,
        )


def update_template() -> Catalog:
    """Write the template afresh when the marked messages (or where they are) changed."""
    template = extracted()
    if TEMPLATE.is_file():
        kept = read_catalog(TEMPLATE)
        if _entries(kept) == _entries(template):
            return kept  # the same messages: no new creation date to commit
    write(template, TEMPLATE)
    return template


def _entries(catalog: Catalog) -> set[tuple[object, ...]]:
    return {
        (m.id, m.context, tuple(sorted({f for f, _ in m.locations})), tuple(m.auto_comments))
        for m in messages(catalog)
    }


def update_languages(template: Catalog, wanted: Iterable[str]) -> None:
    """Bring each language's ``.po`` up to date with ``template``: new messages untranslated,
    changed ones marked fuzzy (a guess to review), removed ones dropped."""
    for language in wanted:
        path = po_path(language)
        catalog = read_catalog(path, language) if path.is_file() else new_catalog(language)
        catalog.update(template, update_creation_date=False)
        write(catalog, path)


def compiled(po: Path) -> bytes:
    """The ``.mo`` that ``po`` compiles to (fuzzy translations left out, as gettext does)."""
    catalog = read_catalog(po, po.parent.parent.name)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def compile_catalogs(locales: Path = LOCALES_DIR) -> list[Path]:
    """Compile every ``.po`` under ``locales`` into the ``.mo`` beside it; returns those."""
    written = []
    for po in sorted(locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        content = compiled(po)
        if not mo.is_file() or mo.read_bytes() != content:
            mo.write_bytes(content)
        written.append(mo)
    return written


def problems(catalog: Catalog, template: Catalog) -> list[str]:
    """What keeps a language's catalog from shipping: a message of ``template`` missing,
    untranslated or fuzzy (a guess to review); an entry the code no longer marks; a
    placeholder (``{player}``) lost, added or misspelt; a plural form left empty (Babel
    reads as many as the language's rule has), or the wrong plural rule."""
    wanted = keys(template)
    have = {key(message): message for message in messages(catalog)}
    found = [f"missing: {_said(each)}" for each in sorted(wanted - have.keys(), key=repr)]
    unused = [*(have.keys() - wanted), *map(key, catalog.obsolete.values())]
    found += [f"unused: {_said(each)}" for each in sorted(unused, key=repr)]
    rule = new_catalog(str(catalog.locale)).plural_forms
    if catalog.plural_forms != rule:
        found.append(f"plural rule {catalog.plural_forms!r}: {catalog.locale} needs {rule!r}")
    for each in sorted(wanted & have.keys(), key=repr):
        found += [f"{problem}: {_said(each)}" for problem in _message_problems(have[each])]
    return found


def _message_problems(message: Message) -> Iterator[str]:
    ids, texts = _strings(message.id), _strings(message.string)
    if message.fuzzy:
        yield "fuzzy"
    if not all(texts):
        yield "untranslated"
        return
    try:
        given = set().union(*map(placeholders, ids))
        each = [placeholders(text) for text in texts]
    except ValueError as error:
        yield f"malformed placeholder ({error})"
        return
    # a singular may leave the count out ("One card"); every form says nothing new, and the
    # last (the most general) says everything the plural does
    if any(not form <= given for form in each) or each[-1] != placeholders(ids[-1]):
        yield f"placeholders {sorted(set().union(*each))}, not {sorted(given)}"


_WORD_END_S = re.compile(r"s\b")


def forms_apart(template: Catalog) -> list[str]:
    """The counts whose two English forms are marked as two messages rather than one plural
    entry: two messages that count (``{count}``) and differ only in words' final s."""
    counting: dict[tuple[str, str | None], list[str]] = {}
    for message in messages(template):
        if isinstance(message.id, str) and "count}" in message.id:
            stem = _WORD_END_S.sub("", message.id)
            counting.setdefault((stem, message.context), []).append(message.id)
    return [
        "forms apart (one plural entry: Nn_ or ngettext): " + " / ".join(map(repr, sorted(ids)))
        for ids in counting.values()
        if len(ids) > 1
    ]


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message (``{player}``); ValueError when malformed."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _said(identity: Key) -> str:
    ids, context = identity
    return repr(ids[0]) if context is None else f"{ids[0]!r} ({context})"


def main(argv: list[str] | None = None) -> int:
    """Extract, update and compile (or only compile, or only check)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compile", action="store_true", help="only compile the .po files")
    parser.add_argument(
        "--check", action="store_true", help="only list what keeps each catalog from shipping"
    )
    args = parser.parse_args(argv)
    if args.check:
        template = read_catalog(TEMPLATE)
        found = {"template": forms_apart(template)}
        found |= {
            each: problems(read_catalog(po_path(each), each), template) for each in languages()
        }
        for language, listed in found.items():
            print(f"{language}: {len(listed)} problems", *listed[:20], sep="\n  ")
        return int(any(found.values()))
    if not args.compile:
        template = update_template()
        update_languages(template, languages())
        print(f"{TEMPLATE.relative_to(ROOT)}: {len(keys(template))} messages")
    for mo in compile_catalogs():
        print(f"compiled {mo.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
