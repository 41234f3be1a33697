"""Shared fixtures: hosts, evenings with guests, and Debian's Chromium through Playwright.

Browser tests (marked ``browser``) are skipped, with the reason, where /usr/bin/chromium is
missing; ``.ci/run`` installs it so they always run in CI.
"""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import settings as hypothesis_settings

from tests.factories import EveningFactory, GuestFactory, HostFactory

# Property tests check rules, not speed (speed is bench/'s): no per-example deadline, which
# failed examples of plain rules on a machine busy with other runs (about 200 ms of wait).
hypothesis_settings.register_profile("head-table", deadline=None)
hypothesis_settings.load_profile("head-table")

# The real Celery worker and a Redis of one's own, for the clock's tests (tests/test_worker*.py).
pytest_plugins = ["tests.fixtures_clock"]

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def pytest_sessionfinish(session, exitstatus):
    """Remove this run's own var/test/run-<pid>/ folder (see tournament/settings_test.py)."""
    from django.conf import settings

    folder = str(settings.VAR_DIR)
    if "/var/test/run-" in folder:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def nothing_held():
    """Each test starts with nothing held in this process's memory (the versions and links a
    web process holds with a shared cache: ``tournament.services.held``), as the database and
    the cache start empty."""
    from tournament.services.held import drop_all

    drop_all()
    yield
    drop_all()


@pytest.fixture
def host(db):
    return HostFactory()


@pytest.fixture
def make_evening(db, host):
    """make_evening(n_red, n_blue, **fields) -> an evening with that many checked-in guests."""

    def make(red: int = 6, blue: int = 6, **fields):
        evening = EveningFactory(host=host, **fields)
        for i in range(red):
            GuestFactory(evening=evening, name=f"Red {i + 1}", pack="red")
        for i in range(blue):
            GuestFactory(evening=evening, name=f"Blue {i + 1}", pack="blue")
        return evening

    return make


@pytest.fixture(scope="session")
def chromium_path():
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip(f"No Chromium at {CHROMIUM}: install Debian's chromium to run the browser tests.")
    return CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")


@pytest.fixture(scope="session")
def browser(chromium_path):
    """A headless Debian Chromium driven by Playwright (no browser download)."""
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield TestBrowser(browser)
        browser.close()


class TestBrowser:
    """The Chromium the tests drive, whose pages let Playwright's own string predicates run
    (``page.wait_for_function("…")`` evaluates its string, which the site's Content-Security-Policy
    forbids, as it should, to the site's own pages). ``bypass_csp=False`` keeps the policy:
    tests/test_accessibility.py walks every page that way and fails on any refusal."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("bypass_csp", True)
        return self._browser.new_context(**options)

    def new_page(self, **options):
        options.setdefault("bypass_csp", True)
        return self._browser.new_page(**options)

    def __getattr__(self, name):
        return getattr(self._browser, name)
