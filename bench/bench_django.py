"""The Django set-up every database benchmark shares: import it before Django.

On import it puts the repository on ``sys.path`` and points the test settings at a fresh
``var/bench-<pid>/`` folder. ``bench_database(url)`` then creates a throw-away test database
(SQLite under that folder, or ``test_<name>`` on the server of ``url``, e.g. PostgreSQL) and
removes it and the folder afterwards, so a benchmark never touches the ``make run`` database.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VAR = ROOT / "var" / f"bench-{os.getpid()}"
os.environ["HEADTABLE_VAR_DIR"] = str(VAR)
os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings_test"


@contextmanager
def bench_database(database_url: str = "") -> Iterator:
    """Set Django up on a throw-away test database and yield its connection; takes a
    ``DATABASE_URL`` (empty: SQLite). Drops the database and ``VAR`` on the way out."""
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield connection
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        shutil.rmtree(VAR, ignore_errors=True)
