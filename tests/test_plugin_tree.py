"""The plug-in interface, the registry and the models draw no circle, even for the type checker.

``lint-imports`` leaves out imports made only for the type checker (``exclude_type_checking_imports``),
so these read the syntax trees themselves: the interface (``tournament/plugin.py``) names only the
models above the rules, the registry only the interface and the installed formats' loader
(``tournament/format_setting.py``), and that loader nothing of ``tournament``, so that the models,
which ask the loader, close no loop (issue 23: the circle of 17 files through ``DocumentKind``,
``EveningBoard`` and ``Shared``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tournament_imports(path: str) -> set[str]:
    """Every ``tournament.*`` module the file imports, at run time or for the type checker."""
    tree = ast.parse((ROOT / path).read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tournament"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("tournament")}
    return found


def test_the_interface_names_only_the_models():
    assert _tournament_imports("tournament/plugin.py") <= {"tournament.models"}


def test_the_registry_names_only_the_interface_and_the_loader():
    assert _tournament_imports("tournament/registry.py") <= {"tournament.plugin", "tournament.format_setting"}


def test_the_loader_and_the_models_stay_below_the_interface():
    assert _tournament_imports("tournament/format_setting.py") == set()
    models = _tournament_imports("tournament/models.py")
    assert "tournament.registry" not in models and "tournament.plugin" not in models
