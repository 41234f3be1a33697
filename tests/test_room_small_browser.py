"""The room display of a small evening fills the screen (``views.room.room_size``, one rule for
every table game, by the seats at the tables). At tables of four, 3 tables at 1920×1080 are laid
out over the width with names about 54 px (5 % of the height), not one narrow left column at
31 px, and the where-to-go slide shows every player, stayers too. At Progressive Poker, 8 and 14
guests get names of 47 to 65 px, 24 guests 39 to 50 px, in every mode (between bells, after a
bell, the prize ceremony): each list on one page, over the width and in the middle of the
screen's height, where it was a quarter of the width at 31 px; 60 guests keep the usual 31 px.
Nothing scrolls or spills. Screenshots go to /tmp/room-small/."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from tests.fixtures_ending import ended_evening, reveal
from tests.fixtures_room import played_evening
from tests.test_ending_browser import shared_booby_counts
from tests.test_phones_bell_words import euchre
from tests.test_room_scale import check_fits, visit_every_page
from tournament.formats.partnership.reports import foursome_report
from tournament.models import Bell, Evening
from tournament.selectors.board import evening_board
from tournament.services import ending
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start

SHOTS = "/tmp/room-small"
SPREAD = """() => {
  const slide = document.querySelector('#room-live .slide.active');
  const items = [...slide.querySelectorAll('.pager > .item')].filter((el) => el.offsetParent !== null);
  const left = Math.min(...items.map((el) => el.getBoundingClientRect().left));
  const right = Math.max(...items.map((el) => el.getBoundingClientRect().right));
  return (right - left) / innerWidth;
}"""
# How much of the stage (the screen between the header and the footer) the active slide's title
# and list cover: their bounding box's share of the stage's width and height, and the empty
# share above and below it.
FILL = """() => {
  const stage = document.querySelector('#room-live .room-stage').getBoundingClientRect();
  const slide = document.querySelector('#room-live .slide.active');
  const shown = [...slide.querySelectorAll(':scope > h2, .pager > .item, .prize-winners > li')]
    .filter((el) => el.offsetParent !== null).map((el) => el.getBoundingClientRect());
  const top = Math.min(...shown.map((r) => r.top)), bottom = Math.max(...shown.map((r) => r.bottom));
  const left = Math.min(...shown.map((r) => r.left)), right = Math.max(...shown.map((r) => r.right));
  return {wide: (right - left) / stage.width, tall: (bottom - top) / stage.height,
          above: (top - stage.top) / stage.height, below: (stage.bottom - bottom) / stage.height,
          lines: Math.max(0, ...[...slide.querySelectorAll('.prize-line')].map((el) => parseFloat(getComputedStyle(el).fontSize)))};
}"""
# Poker evening of this many guests -> its size and the smallest name (px at 1080p) on the
# seating, the standings and where to go.
POKER_SIZES = {8: ("few", 50, 45, 60), 14: ("few", 50, 45, 60), 24: ("some", 40, 38, 48)}


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


def check_fills(page, slide: str, found: dict, smallest: float) -> dict:
    """One page of a small evening's slide: fits, names at least ``smallest`` px, the title and
    the list over most of the width and in the middle of the height. Returns the fill."""
    check_fits(found, big_screen=True)
    assert found["pages"] == 1, slide
    assert min(n["size"] for n in found["names"]) >= smallest, (slide, found["names"][0])
    page.evaluate("(s) => window.roomDisplay.show(s, 0)", slide)
    fill = page.evaluate(FILL)
    assert fill["wide"] > 0.8 and fill["wide"] * fill["tall"] > 0.35, (slide, fill)
    assert abs(fill["above"] - fill["below"]) < 0.05, (slide, fill)  # in the middle, not on top
    return fill


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", sorted(POKER_SIZES))
def test_a_small_poker_evening_fills_a_1080p_screen_in_every_mode(browser, live_server, host, size):
    grade, seating, standings, moves = POKER_SIZES[size]
    evening = played_evening(host, size)
    url = live_server.url + reverse("room", args=[evening.public_key])
    os.makedirs(SHOTS, exist_ok=True)
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    between = visit_every_page(page, url + "?mode=full", f"{SHOTS}/poker-{size}-between")
    assert f"size-{grade}" in page.evaluate("document.getElementById('room-live').className").split()
    for slide, smallest in (("seating", seating), ("standings", standings)):
        check_fills(page, slide, between[slide][0], smallest)
        assert len(between[slide][0]["names"]) == size, slide  # every guest, on one page
    after = visit_every_page(page, url + "?mode=moves", f"{SHOTS}/poker-{size}-moves")
    check_fills(page, "moves", after["moves"][0], moves)
    board = evening_board(evening)
    named = {e.guest.name for e in board.last_entries if e.kind in ("yellow", "stake") or e.to_table != e.from_table}
    assert {n["text"] for n in after["moves"][0]["names"]} == named


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_prize_ceremony_of_a_small_poker_evening_fills_the_screen(browser, live_server, host):
    evening = ended_evening(host, 14)
    shared_booby_counts(evening)  # 8 guests share the booby prize: a list, not one big name
    evening = reveal(evening, 1)
    url = live_server.url + reverse("room", args=[evening.public_key])
    os.makedirs(SHOTS, exist_ok=True)
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    prize = visit_every_page(page, url, f"{SHOTS}/poker-14-booby")["prize"]
    assert len(prize) == 1 and len({n["text"] for n in prize[0]["names"]}) == 8
    check_fits(prize[0], big_screen=True)
    assert min(n["size"] for n in prize[0]["names"]) >= 40  # the "many" size, not the long list's 31 px
    assert page.evaluate(FILL)["wide"] > 0.6
    evening = reveal(evening, ending.ceremony(evening).steps)
    end = visit_every_page(page, url, f"{SHOTS}/poker-14-final")
    check_fills(page, "final", end["final"][0], 45)
    assert len(end["final"][0]["names"]) == 14
    page.evaluate("window.roomDisplay.show('prizes', 0)")
    assert page.evaluate(FILL)["lines"] >= 45  # the prizes' list as big as the standings


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_poker_evening_beyond_32_guests_keeps_the_usual_size(browser, live_server, host):
    evening = played_evening(host, 33)
    url = live_server.url + reverse("room", args=[evening.public_key])
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    between = visit_every_page(page, url + "?mode=full", f"{SHOTS}/poker-33-between")
    assert "size-" not in page.evaluate("document.getElementById('room-live').className")
    assert {n["size"] for p in between["seating"] for n in p["names"]} == {31.32}  # 2.9 % of 1080 px
