"""The rulebook is in the repository: what the code and the documents cite as a rule's source is
a page of ``docs/rules/`` (or "house rule: ..."), never a document outside the repository, and
every page and section cited exists.

The files walked are the tracked ones (``git ls-files``): ``.py`` files by their docstrings and
comments only (read with ``ast`` and ``tokenize``, so that a string the code stores, such as the
file names earlier versions wrote into bells already rung, ``tables.sources.OLD_NAMES``, is data
and not a citation), ``.html`` and ``.md`` files whole. A citation of a section is the page and
the section's heading in single quotes, "docs/rules/progressive-poker.md, 'The bell'"; the
heading on the page starts with those words.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OUTSIDE = re.compile(
    "|".join(
        (
            "/" + "shared/",  # the project's shared documents beside the repository
            "seeds/" + r"README\.md",  # the summary of the seed texts there
            r"\bshared" + "/seeds",  # the folder of the seed texts
            r"\b\d{3}_[0-9a-f]{16}\.txt\b",  # the seed texts themselves
            r"(?<![\w/.-])(?:formats|DESIGN|STYLE)\.md\b",  # the product brief's documents
        )
    )
)
"""A citation of a document outside the repository."""

PAGE = re.compile(r"docs/rules/[\w.-]+\.md")
SECTION = re.compile(r"(docs/rules/[\w.-]+\.md)(?:``)?,\s+'([^']+)'")
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")


def tracked(*suffixes: str) -> list[str]:
    """The repository's tracked files ending in one of ``suffixes`` (paths from the root)."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [name for name in listed.splitlines() if name.endswith(suffixes) and (ROOT / name).is_file()]


def python_prose(source: str) -> list[tuple[int, str]]:
    """The docstrings and comments of Python ``source``: (line, text) for every comment and every
    string standing alone as a statement (module, class and function docstrings, and the
    docstrings under constants). Other strings are the code's data and are left out."""
    found = [
        (node.lineno, node.value.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    ]
    found += [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    ]
    return sorted(found)


def prose(name: str) -> list[tuple[int, str]]:
    """What file ``name`` says in words: a Python file's docstrings and comments, any other
    file's whole text (as one piece from line 1)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    return python_prose(text) if name.endswith(".py") else [(1, text)]


def outside_citations(pieces: list[tuple[int, str]]) -> list[str]:
    """Every citation of a document outside the repository in ``pieces``, with its line."""
    return [
        f"line {line + text[: m.start()].count(chr(10))}: {m.group(0)}"
        for line, text in pieces
        for m in OUTSIDE.finditer(text)
    ]


def headings(page: Path) -> list[str]:
    """The headings of a Markdown page, without their #s and with single spaces."""
    lines = page.read_text(encoding="utf-8").splitlines()
    return [" ".join(line.lstrip("#").split()) for line in lines if line.startswith("#")]


def missing_rules(pieces: list[tuple[int, str]]) -> list[str]:
    """Every ``docs/rules/`` page cited in ``pieces`` that does not exist, and every section
    cited whose page has no heading starting with its words."""
    problems = []
    for _, text in pieces:
        for page in PAGE.findall(text):
            if not (ROOT / page).is_file():
                problems.append(f"{page}: no such page")
        for page, section in SECTION.findall(text):
            words = " ".join(section.split())
            if (ROOT / page).is_file() and not any(h.startswith(words) for h in headings(ROOT / page)):
                problems.append(f"{page}: no section '{words}'")
    return problems


def test_nothing_cites_a_document_outside_the_repository():
    problems = {name: found for name in tracked(".py", ".html", ".md") if (found := outside_citations(prose(name)))}
    assert not problems, "cite the docs/rules/ page that says the rule instead:\n" + "\n".join(
        f"{name}: {', '.join(found)}" for name, found in sorted(problems.items())
    )


def test_every_rules_page_and_section_cited_exists():
    problems = {name: found for name in tracked(".py", ".html", ".md") if (found := missing_rules(prose(name)))}
    assert not problems, "\n".join(f"{name}: {', '.join(found)}" for name, found in sorted(problems.items()))
    assert len([n for n in tracked(".py", ".html") if PAGE.search(" ".join(t for _, t in prose(n)))]) > 50


def test_the_rulebook_links_lead_to_pages_that_exist():
    pages = sorted((ROOT / "docs" / "rules").glob("*.md"))
    assert {p.name for p in pages} >= {
        "README.md",
        "progressive-poker.md",
        "draw-poker.md",
        "whiskey-poker.md",
        "commerce.md",
        "thirty-one.md",
        "my-ship-sails.md",
        "tables-of-four.md",
        "progressive-euchre.md",
        "drive-whist.md",
        "bunco.md",
        "euchre-tournament.md",
    }
    broken = [
        f"{page.relative_to(ROOT)} -> {target}"
        for page in [*pages, ROOT / "README.md", ROOT / "docs" / "architecture.md"]
        for target in LINK.findall(page.read_text(encoding="utf-8"))
        if not target.startswith("http") and not (page.parent / target).is_file()
    ]
    assert not broken, broken
    index = (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    assert all(p.name in index for p in pages if p.name != "README.md"), "the index names every page"
    assert "docs/rules/README.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "rules/README.md" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_house_rule_option_is_named_on_its_page():
    """Each option the host can change is named on the page of its format or game, with its
    field name as the code has it."""
    from dataclasses import fields

    from tables.formats import FoursomeOptions
    from tables.formats.poker.bell.options import BellOptions
    from tables.formats.poker.commerce import CommerceOptions
    from tables.formats.poker.poker import PokerOptions
    from tables.formats.poker.prizes import PrizeOptions
    from tables.formats.poker.thirty_one import ThirtyOneOptions

    def page(name: str) -> str:
        return (ROOT / "docs" / "rules" / name).read_text(encoding="utf-8")

    expected = {
        "progressive-poker.md": [*fields(BellOptions), *fields(PrizeOptions)],
        "draw-poker.md": [f for f in fields(PokerOptions) if f.name != "with_money"],
        "whiskey-poker.md": [f for f in fields(PokerOptions) if f.name == "with_money"],
        "commerce.md": list(fields(CommerceOptions)),
        "thirty-one.md": list(fields(ThirtyOneOptions)),
        "tables-of-four.md": list(fields(FoursomeOptions)),
    }
    missing = [
        f"{name}: {f.name}" for name, wanted in expected.items() for f in wanted if f"``{f.name}``" not in page(name)
    ]
    assert not missing, missing


# --- the checks themselves, on made-up files: each must find what it is for ---------------------


def test_a_docstring_or_a_comment_citing_an_outside_document_is_found_and_data_is_not():
    source = (
        '"""Rules: ``/' + 'shared/formats.md``."""\n'
        "OLD = {'seeds/" + "README.md (Progressive Poker)': 1}  # data, not a citation\n"
        "x = 1  # from 004_" + "5d1bc750ac89c154.txt\n"
        "def f():\n"
        "    '''Source: STYLE" + ".md.'''\n"
    )
    found = outside_citations(python_prose(source))
    assert found == ["line 1: /shared/", "line 3: 004_5d1bc750ac89c154.txt", "line 5: STYLE.md"]
    assert outside_citations([(1, "see docs/rules/bunco.md and docs/export.md")]) == []


def test_a_missing_page_or_section_is_found():
    text = (
        "``docs/rules/bunco.md``, 'The bell'; docs/rules/progressive-poker.md, 'The\n    bell'; "
        "docs/rules/progressive-poker.md, 'The gong'; docs/rules/whist.md"
    )
    assert missing_rules([(1, text)]) == [
        "docs/rules/whist.md: no such page",
        "docs/rules/progressive-poker.md: no section 'The gong'",
    ]
