"""The room display of a small evening at tables of four fills the screen (``views.room.room_size``):
3 tables at 1920×1080 are laid out over the width with names about 54 px (5 % of the height),
not one narrow left column at 31 px; nothing scrolls or spills, and the where-to-go slide shows
every player, stayers too. Screenshots go to /tmp/room-small/."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from tests.test_phones_bell_words import euchre
from tests.test_room_scale import check_fits, visit_every_page
from tournament.models import Bell, Evening
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.foursome_reports import foursome_report

SHOTS = "/tmp/room-small"
SPREAD = """() => {
  const slide = document.querySelector('#room-live .slide.active');
  const items = [...slide.querySelectorAll('.pager > .item')].filter((el) => el.offsetParent !== null);
  const left = Math.min(...items.map((el) => el.getBoundingClientRect().left));
  const right = Math.max(...items.map((el) => el.getBoundingClientRect().right));
  return (right - left) / innerWidth;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_three_tables_fill_a_1080p_screen_with_big_names(browser, live_server):
    evening, tables = euchre(Evening.RoundEnd.CLOCK, 12)
    rnd = evening.rounds.get()
    for number in (1, 2, 3):
        foursome_report(round=rnd, table=number, report={"points": {"NS": 7, "EW": 3 + number}})
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    round_start(evening=evening)
    url = live_server.url + reverse("room", args=[evening.public_key])
    os.makedirs(SHOTS, exist_ok=True)
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    between = visit_every_page(page, url + "?mode=full", f"{SHOTS}/euchre-12-between")
    assert {"tables", "seating", "standings"} <= set(between)
    for slide in ("tables", "seating", "standings"):
        assert len(between[slide]) == 1, slide  # one page each
        found = between[slide][0]
        check_fits(found, big_screen=True)
        assert min(n["size"] for n in found["names"]) >= 47, (slide, found["names"][0])
    for slide in ("tables", "seating"):
        page.evaluate("(s) => window.roomDisplay.show(s, 0)", slide)
        assert page.evaluate(SPREAD) > 0.8, slide  # over the width, not a quarter of it
    after = visit_every_page(page, url + "?mode=moves", f"{SHOTS}/euchre-12-moves")
    shown = [n["text"] for p in after["moves"] for n in p["names"]]  # "Player 01 stays at table 2"
    assert len(after["moves"]) == 1 and len(shown) == 12
    assert sorted(t.split(" ")[0] + " " + t.split(" ")[1] for t in shown) == sorted(g.name for t in tables for g in t)
    for found in after["moves"]:
        check_fits(found, big_screen=True)
