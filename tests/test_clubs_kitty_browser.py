"""The kitty's pages in Debian's Chromium (issue 25 item 3): the host types an evening's fee and
payouts, reads the settlement sheet, settles the evening and reads the season's ledger, at the
host's 1280 px and on a 390 px phone; each page fits the screen (no sideways scroll of the page)
and passes axe-core. Screenshots go to /tmp/kitty-*.png."""

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


def test_the_kitty_from_fee_to_ledger(browser, live_server, host):
    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring 2026", starts_on=D(2026, 3, 1))
    evening = play(club_evening(club, host, D(2026, 3, 5), subs="Dana Sub, red"), host, rounds=3)
    page = login(browser, live_server.url, host)
    page.goto(f"{live_server.url}/host/clubs/{club.pk}/")
    page.get_by_role("link", name="kitty").first.click()
    page.get_by_label("Entry fee").fill("5")
    page.get_by_label("Payouts").fill("Most buncos, 40 %\nMost wins, 30 %\nBooby, 10 %")
    page.get_by_role("button", name="Save the kitty").click()
    assert page.get_by_text("The kitty is saved.").is_visible()
    # Thirteen guests at 5.00: a pot of 65.00.
    assert page.get_by_text("Collected USD 65.00").is_visible()
    page.screenshot(path="/tmp/kitty-sheet.png", full_page=True)
    assert _fits(page) and axe_violations(page) == []
    page.get_by_role("button", name="Settle the evening").click()
    assert page.get_by_text(f"“{evening.name}” is settled: USD 65.00 collected.").is_visible()
    page.goto(f"{live_server.url}/host/clubs/{club.pk}/seasons/{season.pk}/ledger/")
    assert page.get_by_text("collected USD 65.00").is_visible()
    assert "Dana Sub (sub)" in page.get_by_role("region", name="The ledger per member").inner_text()
    page.screenshot(path="/tmp/kitty-ledger.png", full_page=True)
    assert _fits(page) and axe_violations(page) == []
    page.set_viewport_size({"width": 390, "height": 844})
    for name, path in (
        ("ledger-390", page.url),
        ("sheet-390", f"{live_server.url}/host/clubs/{club.pk}/evenings/{evening.pk}/kitty/"),
    ):
        page.goto(path)
        page.screenshot(path=f"/tmp/kitty-{name}.png", full_page=True)
        assert _fits(page), name
        assert axe_violations(page) == [], name
