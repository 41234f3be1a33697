"""Formats are plug-ins: the registry loads them from the settings, and nothing outside a format's
package asks which format an evening plays (``tournament.registry``, ``tournament.plugin``,
``docs/architecture.md``, "The formats: plug-ins").

Checked by analysing the code, not by searching its text: the import graph (grimp, the library
import-linter is built on) for who imports a format's package, Python's syntax trees for
comparisons with a format's key, and Django's template lexer for templates that compare one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType
from django.utils.module_loading import import_string

from tournament.plugin import FormatPlugin
from tournament.registry import default_format, format_choices, format_for, format_named, installed_formats

ROOT = Path(__file__).resolve().parent.parent
FORMATS = "tournament.formats"


def test_the_registry_is_the_setting_loaded_once():
    """Every path in ``HEAD_TABLE_FORMATS`` is one plug-in, made once, in the setting's order."""
    plugins = installed_formats()
    assert [type(p) for p in plugins.values()] == [import_string(path) for path in settings.HEAD_TABLE_FORMATS]
    assert installed_formats() is plugins
    assert len(plugins) == len(settings.HEAD_TABLE_FORMATS)
    assert default_format() == "poker"
    assert format_choices()[0] == ("poker", "Progressive Poker")
    assert all(isinstance(p, FormatPlugin) for p in plugins.values())


def test_an_unknown_format_is_refused_in_words():
    from tables.errors import RuleError

    with pytest.raises(RuleError, match="“chess” is not a format this site plays: it plays Progressive Poker"):
        format_named("chess")


@pytest.mark.parametrize("key", ["poker", "euchre", "whist", "bunco"])
def test_each_format_answers_for_itself(key):
    """The plug-in of an evening is its format's; its rules and title are the engine's."""
    from tournament.models import Evening

    plugin = format_for(Evening(format=key))
    assert plugin.key == key
    assert plugin.rules.entry.key == key
    assert plugin.title == plugin.entry.title


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        "tournament", "tables", include_external_packages=False, exclude_type_checking_imports=True
    )


def _outside_formats(module: str) -> bool:
    return not (module == FORMATS or module.startswith(FORMATS + "."))


def test_nothing_outside_the_formats_imports_a_format():
    """The product reaches a format only through the registry: no module outside
    ``tournament.formats`` imports one (the settings name them; ``import_string`` loads them)."""
    graph = _graph()
    importers = {
        (importer, imported)
        for imported in graph.find_descendants(FORMATS) | {FORMATS}
        for importer in graph.find_modules_that_directly_import(imported)
        if _outside_formats(importer)
    }
    assert importers == set()


def _python_files() -> list[Path]:
    """Every module outside the formats' packages: ``tournament/``'s and the clubs app's."""
    return [
        path
        for path in [*sorted((ROOT / "tournament").rglob("*.py")), *sorted((ROOT / "clubs").rglob("*.py"))]
        if "migrations" not in path.parts and "formats" not in path.relative_to(ROOT).parts[1:2]
    ]


def _key_constants(node: ast.AST, keys: set[str]) -> list[str]:
    """The format keys written as string constants in ``node`` (a constant, or a tuple, list or
    set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in keys:
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [k for element in node.elts for k in _key_constants(element, keys)]
    return []


def _format_attribute(node: ast.AST) -> bool:
    """``x.format`` (the evening's stored format), ``fmt.key`` / ``format.key``, or ``X.Format.Y``."""
    if isinstance(node, ast.Attribute) and node.attr == "format":
        return True
    if isinstance(node, ast.Attribute) and node.attr == "key" and isinstance(node.value, ast.Name | ast.Attribute):
        owner = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
        if owner in ("fmt", "format", "plugin", "entry"):
            return True
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "Format"


def key_comparisons(source: str, keys: set[str]) -> list[tuple[int, str]]:
    """Where ``source`` compares with a format key: ``== "poker"``, ``in ("euchre", ...)``, a
    stored format compared with a constant, a dict keyed by format keys, ``Format.POKER``
    (line, what). Used by the test below; exercised on examples by the next test."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = [k for side in sides for k in _key_constants(side, keys)]
            if named:
                found.append((node.lineno, f"compares with {', '.join(named)}"))
            elif any(_format_attribute(s) for s in sides) and any(isinstance(s, ast.Constant) for s in sides):
                found.append((node.lineno, "compares a format with a constant"))
        elif isinstance(node, ast.Dict):  # a table with a row per format (one key may be a word)
            named = [k for key in node.keys if key is not None for k in _key_constants(key, keys)]
            if len(named) > 1:
                found.append((node.lineno, f"a mapping keyed by {', '.join(named)}"))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "Format":
            found.append((node.lineno, f"names Format.{node.attr}"))
        elif isinstance(node, ast.Name | ast.Attribute) and getattr(node, "id", getattr(node, "attr", "")) == (
            "is_foursome"
        ):
            found.append((node.lineno, "asks is_foursome"))
    return found


def test_the_analysis_finds_what_it_looks_for():
    """The checker itself, on examples of each kind of format branch (and of what is not one)."""
    keys = {"poker", "bunco"}
    assert key_comparisons('if evening.format != "poker":\n    pass\n', keys) == [(1, "compares with poker")]
    assert key_comparisons('x = key in ("bunco", "whist")\n', keys) == [(1, "compares with bunco")]
    assert key_comparisons('x = e.format == "chess"\n', keys) == [(1, "compares a format with a constant")]
    assert key_comparisons('WORDS = {"poker": 1, "bunco": 2}\n', keys) == [(1, "a mapping keyed by poker, bunco")]
    assert key_comparisons("x = Evening.Format.POKER\n", keys) == [(1, "names Format.POKER")]
    assert key_comparisons("if is_foursome(e):\n    pass\n", keys) == [(1, "asks is_foursome")]
    assert key_comparisons('x = chosen == evening.format\ny = "poker chips"\nz = prize.key == "red"\n', keys) == []


def test_no_format_branches_outside_the_formats():
    """No module outside ``tournament.formats`` (and the rules in ``tables/``) compares a format's
    key: each asks the evening's plug-in instead."""
    keys = set(installed_formats())
    found = {
        str(path.relative_to(ROOT)): hits
        for path in _python_files()
        if (hits := key_comparisons(path.read_text(encoding="utf-8"), keys))
    }
    assert found == {}


FAMILIES = {path.rsplit(".", 1)[-1] for path in settings.FORMAT_FAMILIES}


def template_key_comparisons(text: str, keys: set[str]) -> list[tuple[int, str]]:
    """Where a template's ``{% if %}`` / ``{% elif %}`` compares with a format key (quoted), or
    its ``{% include %}`` / ``{% extends %}`` names a format's own template (``bunco/...``,
    ``partnership/...``), as Django's lexer reads the template: (line, the tag's contents)."""
    found = []
    for token in Lexer(text).tokenize():
        if token.token_type is not TokenType.BLOCK:
            continue
        words = token.split_contents()
        if words and words[0] in ("include", "extends") and len(words) > 1:
            folder = words[1].strip("\"'").split("/")[0]
            if folder in keys | FAMILIES:
                found.append((token.lineno, token.contents))
        if words and words[0] in ("if", "elif"):
            quoted = {w.strip("\"'") for w in words[1:] if w[:1] in "\"'"}
            if quoted & keys:
                found.append((token.lineno, token.contents))
    return found


def test_no_template_outside_the_formats_compares_a_format():
    keys = set(installed_formats())
    assert template_key_comparisons('{% if evening.format == "poker" %}x{% endif %}', keys) == [
        (1, 'if evening.format == "poker"')
    ]
    assert template_key_comparisons('{% include "partnership/room.html" %}', keys) == [
        (1, 'include "partnership/room.html"')
    ]
    assert template_key_comparisons("{% include format_room %}{% include 'guest/_page.html' %}", keys) == []
    found = {
        str(path.relative_to(ROOT)): hits
        for path in [*sorted((ROOT / "templates").rglob("*.html")), *sorted((ROOT / "clubs").rglob("*.html"))]
        if (hits := template_key_comparisons(path.read_text(encoding="utf-8"), keys))
    }
    assert found == {}
