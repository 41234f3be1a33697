"""Settings for the test run: the project's settings with their own ``var/test/`` folder, so a
test run never shares a SQLite file or a filesystem-broker queue with ``make run``."""

import os
from pathlib import Path

# One folder per test process, so parallel runs never share a database file or a broker queue;
# tests/conftest.py removes it at the end. Worker subprocesses inherit HEADTABLE_VAR_DIR.
os.environ.setdefault(
    "HEADTABLE_VAR_DIR", str(Path(__file__).resolve().parent.parent / "var" / "test" / f"run-{os.getpid()}")
)

from tournament.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests

# Every request thread of the tests' live server (Playwright's pages, their polls) opens its own
# database connection; with the project's CONN_MAX_AGE (60 s) each stays open after its thread
# is gone, and a run of the browser tests on PostgreSQL used up its 100 connections ("too many
# clients"). Closed at the end of every request instead (Django's close_old_connections).
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
