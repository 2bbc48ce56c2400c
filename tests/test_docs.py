"""The documents hold together: every relative link and picture in README.md, CHANGELOG.md,
CONTRIBUTING.md and docs/ reaches a file of the repository, every ``#anchor`` a heading of its
target (named as GitHub names them); the README stays a short front door; and no document
reads as a dated run log (the history is in git)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parents[1]
README_MOST_LINES = 250
RUN_LOG_PHRASES = ("this session", "load average", "earlier session", "previous session")

MARKDOWN = MarkdownIt("commonmark").enable("table")  # GitHub's Markdown, as far as links go
TARGET_ATTRIBUTE = {"link_open": "href", "image": "src"}  # where each kind of link points
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def documents() -> list[Path]:
    """Every document whose links are checked."""
    top = [ROOT / name for name in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md")]
    return top + sorted((ROOT / "docs").rglob("*.md"))


def inline_tokens(text: str) -> Iterator[Token]:
    """The inline pieces of a Markdown text (text, code, links, pictures), outside code blocks."""
    for block in MARKDOWN.parse(text):
        yield from block.children or ()


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading's text: lower-cased, punctuation dropped (letters,
    digits, ``_`` and ``-`` stay), each space a hyphen."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a document's headings, repeats numbered as GitHub numbers them."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    blocks = MARKDOWN.parse(text)
    for opening, content in pairwise(blocks):
        if opening.type != "heading_open":
            continue
        words = "".join(
            piece.content
            for piece in content.children or ()
            if piece.type in ("text", "code_inline")
        )
        base = slug(words)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def link_targets(text: str) -> Iterator[str]:
    """The targets of a document's links and pictures (reference links resolved), outside
    code."""
    for piece in inline_tokens(text):
        attribute = TARGET_ATTRIBUTE.get(piece.type)
        target = piece.attrGet(attribute) if attribute else None
        if isinstance(target, str):
            yield target


def broken_links(text: str, path: Path) -> list[str]:
    """Each relative link of ``text``, the document at ``path``, that reaches no file of the
    repository, or no heading of its target, with why."""
    problems = []
    for target in link_targets(text):
        if EXTERNAL.match(target):
            continue
        file_part, _, anchor = unquote(target).partition("#")
        destination = (path.parent / file_part).resolve() if file_part else path
        if file_part and (not destination.is_relative_to(ROOT) or not destination.exists()):
            problems.append(f"{target}: no such file in the repository")
            continue
        if not anchor:
            continue
        if not file_part:
            headings = anchors(text)
        elif destination.suffix == ".md":
            headings = anchors(destination.read_text(encoding="utf-8"))
        else:
            headings = set()
        if anchor not in headings:
            problems.append(f"{target}: no heading #{anchor} in {destination.name}")
    return problems


@pytest.mark.parametrize("path", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_reaches_a_file_and_heading(path: Path) -> None:
    assert broken_links(path.read_text(encoding="utf-8"), path) == []


def test_a_broken_link_or_anchor_is_reported() -> None:
    """The check itself: a file that is not there, and a heading that is not there, are
    found; links inside code, to other sites and to real headings are left alone."""
    text = (
        "# Where to start\n"
        "## Where to start\n"
        "[ok](#where-to-start) [ok again](#where-to-start-1) [site](https://example.org/x)\n"
        "`[code](nothing.md)` [rules](rules/README.md#dealing-from-a-given-deck)\n"
        "[missing](nothing-here.md) [no heading](#nowhere) ![picture](images/none.png)\n"
        "[other file's heading](architecture.md#not-a-heading)\n"
    )
    # read as a document in docs/ (never written): its links lead where that one's would
    assert broken_links(text, ROOT / "docs" / "check.md") == [
        "nothing-here.md: no such file in the repository",
        "#nowhere: no heading #nowhere in check.md",
        "images/none.png: no such file in the repository",
        "architecture.md#not-a-heading: no heading #not-a-heading in architecture.md",
    ]


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("What is saved, and what survives a restart", "what-is-saved-and-what-survives-a-restart"),
        ("`./run test --fast`: the inner loop", "run-test---fast-the-inner-loop"),
        ("Running at scale: shards", "running-at-scale-shards"),
        ("[0.2.0] - 2026-12-06", "020---2026-12-06"),
        ("🎨 Four-colour deck", "-four-colour-deck"),
        ("See [the rules](docs/rules/README.md)", "see-the-rules"),
        ("*Where* is `engine/cli.py`?", "where-is-engineclipy"),
    ],
)
def test_anchors_are_named_as_github_names_them(heading: str, anchor: str) -> None:
    assert anchors(f"# {heading}\n") == {anchor}


def test_the_readme_is_a_short_front_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES


@pytest.mark.parametrize("path", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_document_reads_as_a_run_log(path: Path) -> None:
    text = path.read_text(encoding="utf-8").lower()
    assert [phrase for phrase in RUN_LOG_PHRASES if phrase in text] == []
