"""Reading our own source as syntax trees, for the tests that check the code's shape."""

from __future__ import annotations

import ast
from pathlib import Path


def parse_file(path: Path) -> ast.Module:
    """The syntax tree of the Python file at ``path`` (see ``parse_source``)."""
    return parse_source(path.read_text(encoding="utf-8"), filename=str(path))


def parse_source(source: str, *, filename: str = "<source>") -> ast.Module:
    """The syntax tree of ``source``.

    CPython 3.11's AST builder can raise a spurious ``SystemError: AST constructor recursion depth
    mismatch`` when another thread (a live server's, a browser driver's) runs while it builds
    (python/cpython#106905, fixed in 3.12); that error says nothing about the file, so the parse
    is tried again, up to three times. Any other error is raised at once."""
    for attempt in range(3):
        try:
            return ast.parse(source, filename=filename)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error) or attempt == 2:
                raise
    raise AssertionError("unreachable")
