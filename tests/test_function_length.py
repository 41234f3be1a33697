"""No function or method in ``tournament/``, ``tables/`` or ``clubs/`` is longer than 60 lines (issue 16,
"views that do five jobs"): a long function is split by job into named functions.

Length counts from the ``def`` line to the last line of the body, docstring included
(``end_lineno - lineno + 1``); decorators are not counted. Migrations are generated, so skipped.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.source_trees import parse_source

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 60


def _lengths(source: str) -> list[tuple[int, str, int]]:
    """(line of the ``def``, name, length in lines) for every function and method in ``source``."""
    return [
        (node.lineno, node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(parse_source(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]


def test_the_measure_counts_from_def_to_the_last_line_of_the_body():
    source = '@decorator\ndef f():\n    """Doc."""\n\n    return 1\n\n\nclass C:\n    def m(self):\n        pass\n'
    assert sorted(_lengths(source)) == [(2, "f", 4), (9, "m", 2)]


def test_no_function_is_longer_than_sixty_lines():
    files = [
        p
        for base in ("tournament", "tables", "clubs")
        for p in sorted((ROOT / base).rglob("*.py"))
        if "migrations" not in p.relative_to(ROOT).parts
    ]
    assert len(files) > 50  # the walk found the code
    offenders = [
        f"{path.relative_to(ROOT)}:{line} {name} ({length} lines)"
        for path in files
        for line, name, length in _lengths(path.read_text(encoding="utf-8"))
        if length > LIMIT
    ]
    assert not offenders, "Functions over 60 lines (split them by job):\n" + "\n".join(offenders)
