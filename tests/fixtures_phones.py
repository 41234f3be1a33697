"""Fixtures for the guests' phones tests (issue 6): an evening drawn and in play, helpers to
read a table and to fetch a page's CSRF token, and a clean link/version cache per test."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from tournament.models import Guest
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state


@pytest.fixture(autouse=True)
def clean_cache():
    """Each test starts and ends with an empty cache (the link and version entries)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def playing(make_evening):
    """An evening of 16 guests (8 + 8), drawn, with round 1 running."""
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    round_start(evening=evening)
    evening.refresh_from_db()
    return evening


def at_table(evening, number: int) -> list[Guest]:
    """The guests at table ``number`` now, in seat order."""
    ids = evening_state(evening).tables[number - 1]
    by_id = Guest.objects.in_bulk(ids)
    return [by_id[i] for i in ids]


def csrf_from(response) -> str:
    """The CSRF token in a rendered page's form."""
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode())
    assert match, "no CSRF token in the page"
    return match.group(1)
