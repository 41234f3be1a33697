"""The season's room display in Debian's Chromium at 1920×1080 (issue 25 item 2): the prize just
revealed (title, winners, why) in large type, then the final season standings, each on one
screen (nothing scrolls), as the host's taps on the season page reveal them; the display picks a
tap up by its poll. Screenshots go to /tmp/season-room-*.png."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.ceremony import season_ceremony
from clubs.models import Season
from tests.test_clubs_ceremony import _played_season
from tests.test_draw_browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Nothing scrolls, and every line of the slide is inside the stage (between the header and the bottom).
FITS = """() => {
  const root = document.documentElement, stage = document.querySelector('.room-stage').getBoundingClientRect();
  const shown = [...document.querySelectorAll('.room-stage .slide *')].map((el) => el.getBoundingClientRect());
  return root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth
    && shown.every((r) => r.bottom <= stage.bottom + 1 && r.right <= innerWidth + 1);
}"""


def test_the_season_room_at_1080(browser, live_server, host):
    season = _played_season(host)
    prizes = season_ceremony(season).prizes
    host_page = login(browser, live_server.url, host)
    host_page.goto(live_server.url + reverse("club-season", args=[season.club_id, season.pk]))
    room = browser.new_page(viewport={"width": 1920, "height": 1080})
    room.goto(live_server.url + reverse("season-room", args=[season.room_key]))
    assert room.get_by_text("Thank you for the season!").is_visible()
    for step, prize in enumerate(prizes, start=1):
        host_page.get_by_role("button", name="Reveal next prize").click()
        room.get_by_role("heading", name=prize.award.title).wait_for(timeout=10_000)  # the poll, every 3 s
        room.screenshot(path=f"/tmp/season-room-prize-{step}.png")
        title = room.get_by_role("heading", name=prize.award.title)
        assert float(title.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 60
        name = room.locator(".prize-winners .name").first
        assert float(name.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 40
        assert room.get_by_text(prize.reason[:20]).first.is_visible()
        assert room.evaluate(FITS), prize.award.title
    host_page.get_by_role("button", name="Show the final standings").click()
    room.get_by_role("heading", name="Final season standings").wait_for(timeout=10_000)
    room.screenshot(path="/tmp/season-room-final.png")
    assert room.evaluate(FITS)
    assert room.locator(".season-final li.season-line").count() == 12
    name = room.locator(".season-table .name").first
    assert float(name.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 36
    assert Season.objects.get(pk=season.pk).ceremony_step == len(prizes) + 1
    assert host_page.get_by_text("Every season prize and the final standings are on the room display.").is_visible()
