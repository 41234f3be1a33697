"""The scan behind ``tests/test_except_order.py``, run in a process of its own.

Reads every ``try`` in ``tournament/`` and ``tables/`` with ``ast`` and resolves each handler's
classes by importing the module. It runs apart from the test process because CPython 3.11's AST
converter keeps its recursion count per interpreter, not per thread: a traceback printed by
another thread at the same moment (a browser test's live server) breaks ``ast.parse`` with
"AST constructor recursion depth mismatch", and then pytest's own traceback formatting too.

``python tests/except_scan.py`` prints, as JSON: ``places`` (each try's file and first
handler), ``shadowed`` and ``wide`` (the findings, one line each).
"""

from __future__ import annotations

import ast
import builtins
import importlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CONVERTERS = {"int", "float", "request.POST.get", "data.get", "request.POST.get('seating', '').split"}


def _modules():
    for folder in ("tournament", "tables"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            yield path, name.removesuffix(".__init__")


def _local_imports(tree: ast.Module, module: str) -> dict:
    """The names imported anywhere in the module, inside functions too (a handler may catch a
    class imported where it is used)."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            source = importlib.import_module(node.module)
            for alias in node.names:
                if hasattr(source, alias.name):
                    names[alias.asname or alias.name] = getattr(source, alias.name)
    return names


def _handlers():
    """(path, line, module name, [(handler source, [classes])]) for every ``try`` with handlers."""
    found = []
    for path, name in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tries = [node for node in ast.walk(tree) if isinstance(node, ast.Try) and node.handlers]
        if not tries:
            continue
        module = importlib.import_module(name)
        space = {**vars(builtins), **_local_imports(tree, name), **vars(module)}
        for node in tries:
            rows = []
            for handler in node.handlers:
                if handler.type is None:
                    rows.append(("bare except", [BaseException]))
                    continue
                value = eval(compile(ast.Expression(handler.type), str(path), "eval"), space)  # noqa: S307
                rows.append((ast.unparse(handler.type), list(value) if isinstance(value, tuple) else [value]))
            found.append((path.relative_to(ROOT), node, rows))
    return found


def _logs_the_traceback(handler: ast.ExceptHandler) -> bool:
    return any(
        isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "exception"
        for statement in handler.body
        for call in ast.walk(statement)
    )


def shadowed(found) -> list[str]:
    """Handlers that an earlier handler of the same ``try`` catches first."""
    shadowed = []
    for path, node, rows in found:
        for later, (source, classes) in enumerate(rows):
            for earlier_source, earlier in rows[:later]:
                if any(issubclass(c, e) for c in classes for e in earlier):
                    shadowed.append(f"{path}:{node.lineno}: {source} after {earlier_source}")
    return shadowed


def wide(found) -> list[str]:
    from tables.errors import RuleError

    """A handler of ``ValueError`` (or wider) in a view or a service, with no ``RuleError``
    handler before it, may guard only a number's conversion: anything else can raise a
    ``RuleError`` whose message would be lost. A handler that logs the whole traceback
    (``log.exception``: queueing a timed task on a broker that is down) loses nothing."""
    wide = []
    for path, node, rows in found:
        if path.parts[1] not in ("views", "services"):
            continue
        for index, (source, classes) in enumerate(rows):
            if _logs_the_traceback(node.handlers[index]):
                continue
            if classes[0] is BaseException or any(c in (Exception, BaseException) for c in classes):
                wide.append(f"{path}:{node.lineno}: {source}")
            if not any(c in RuleError.__mro__[1:] for c in classes):
                continue
            if any(issubclass(RuleError, c) for _, before in rows[:index] for c in before):
                continue
            calls = {
                ast.unparse(call.func)
                for statement in node.body
                for call in ast.walk(statement)
                if isinstance(call, ast.Call)
            }
            if calls - CONVERTERS:
                wide.append(f"{path}:{node.lineno}: {source} around {sorted(calls - CONVERTERS)}")
    return wide


def main() -> None:
    """Set Django up, scan, print the findings as JSON."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings_test")
    import django

    django.setup()
    found = _handlers()
    print(
        json.dumps(
            {
                "places": sorted({(str(path), rows[0][0]) for path, _, rows in found}),
                "shadowed": shadowed(found),
                "wide": wide(found),
            }
        )
    )


if __name__ == "__main__":
    main()
