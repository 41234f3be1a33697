"""The architecture holds (issue 16; docs/architecture.md): ``lint-imports`` checks the
contracts in pyproject.toml on the whole tree: ``tables/`` imports neither Django nor Celery nor
``tournament``; no two modules or packages of ``tournament`` import each other, directly or
round a loop; pages, tasks and commands sit above the services, which sit above the models and
the rules; the clubs app (issue 25) sits beside ``tournament``, which never imports it, in
layers of its own."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).parent / "lint-imports"
    run = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert len(contracts) >= 8  # tables/, no cycles, the layers, clubs beside, the plug-ins, poker's own
    assert f"Contracts: {len(contracts)} kept, 0 broken." in run.stdout, run.stdout[-2000:]
