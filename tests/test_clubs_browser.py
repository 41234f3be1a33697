"""The club pages in Debian's Chromium at the host's 1280 px (issue 25 items 1 and 2): the club,
a new evening from its roster and a season's standings fit the screen (no sideways scroll of the
page), pass axe-core, and the standings read as the season was played. Screenshots go to
/tmp/clubs-*.png."""

from __future__ import annotations

import datetime

import pytest

from clubs import services
from tests.fixtures_clubs import bunco_club, club_evening, play
from tests.test_accessibility import axe_violations
from tests.test_draw_browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

D = datetime.date


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_club_pages_at_1280(browser, live_server, host):
    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring 2026", starts_on=D(2026, 3, 1), ends_on=D(2026, 6, 30))
    everyone = list(club.members.all())
    for n, date in enumerate((D(2026, 3, 5), D(2026, 4, 2), D(2026, 5, 7))):
        subs = "Dana Sub, red" if n != 1 else ""
        members = everyone[:11] if subs else everyone
        play(club_evening(club, host, date, members=members, subs=subs), host, rounds=2)
    club_evening(club, host, D(2026, 6, 4))  # not played yet
    page = login(browser, live_server.url, host)
    for name, path in (
        ("clubs", "/host/clubs/"),
        ("club", f"/host/clubs/{club.pk}/"),
        ("evening-new", f"/host/clubs/{club.pk}/evenings/new/"),
        ("season", f"/host/clubs/{club.pk}/seasons/{season.pk}/"),
    ):
        page.goto(live_server.url + path)
        page.screenshot(path=f"/tmp/clubs-{name}.png", full_page=True)
        assert _fits(page), name
        assert axe_violations(page) == [], name
    table = page.get_by_role("region", name="The season's standings")
    assert table.get_by_role("row").count() == 14  # the header, twelve members and the sub
    assert "Dana Sub (sub)" in table.inner_text()
    assert page.get_by_text("Most buncos of the season").is_visible()
    assert page.get_by_text("3 of 4 evenings played").is_visible()
