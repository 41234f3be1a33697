"""Tables of four in Debian's Chromium (issue 15): a bunco night on phones at 390 px (the
captain taps each roll, another guest confirms, the bell rings and each phone says where to go;
the report also fits 320 px) and a euchre night of 500 guests with the room display at
1920×1080 (every table's four, the moves, the leaderboard: nothing spills, names legible).
Screenshots go to /tmp/foursome-*.png."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from tests import fixtures_phones
from tests.factories import EveningFactory, GuestFactory
from tests.test_room_scale import check_fits, visit_every_page
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
LEGENDS_OUTSIDE = """() => [...document.querySelectorAll('form.foursome-report fieldset > legend')]
    .filter((legend) => legend.getBoundingClientRect().top <= legend.parentElement.getBoundingClientRect().top)
    .map((legend) => legend.textContent)"""  # a legend drawn on its box's border starts at the box's top


def night(fmt: str, guests: int) -> Evening:
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK)
    GuestFactory.create_batch(guests, evening=evening)
    for n, guest in enumerate(evening.guests.order_by("id")):
        guest.pack = "red" if n % 2 == 0 else "blue"
        guest.save(update_fields=["pack"])
    foursome_draw(evening=evening)
    round_start(evening=evening)
    return evening


def test_a_bunco_night_on_phones(browser, live_server):
    evening = night("bunco", 8)
    (n1, e1, s1, w1), (n2, e2, s2, w2) = foursome_state(evening).tables
    guests = Guest.objects.in_bulk([n1, e1, s1])
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/g/{guests[n1].key}/")
    assert phone.locator(".now .big").inner_text() == "Table 1"
    assert f"Your partner: {guests[s1].name}" in phone.locator(".partner").inner_text()
    phone.get_by_role("link", name="Report the result of table 1").click()
    north, south, east = (phone.locator(f"fieldset[data-player='{p}']") for p in (n1, s1, e1))
    # A double tap on the bunco button counts one bunco (house rule: a bunco is a new roll).
    north.get_by_role("button", name=f"a bunco for {guests[n1].name}").dblclick()
    north.get_by_role("button", name=f"2 points for {guests[n1].name}").click()
    south.get_by_role("button", name=f"1 point for {guests[s1].name}").click()
    east.get_by_role("button", name=f"a mini bunco for {guests[e1].name}").click()
    assert phone.locator("[data-team=NS]").inner_text() == "24" and phone.locator("[data-team=EW]").inner_text() == "5"
    assert north.locator(f"input[name=buncos_{n1}]").input_value() == "1"
    assert phone.locator(f"input[name=points_{w1}]").input_value() == "0"  # untapped: 0, not an empty box
    assert "The target number this round: 1." in phone.locator("p.target").inner_text()
    phone.reload()  # a phone that locks or reloads during the game keeps its taps
    assert phone.locator("[data-team=NS]").inner_text() == "24" and phone.locator("[data-team=EW]").inner_text() == "5"
    assert north.locator(f"input[name=buncos_{n1}]").input_value() == "1"
    assert phone.locator(f"input[name=points_{w1}]").input_value() == "0"  # untapped: 0, not an empty box
    assert "The target number this round: 1." in phone.locator("p.target").inner_text()
    phone.screenshot(path="/tmp/foursome-bunco-report-390.png", full_page=True)
    phone.set_viewport_size({"width": 320, "height": 700})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 320
    assert phone.evaluate(LEGENDS_OUTSIDE) == []  # a legend of two lines heads its box, not astride its border
    phone.screenshot(path="/tmp/foursome-bunco-report-320.png", full_page=True)
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.get_by_role("button", name="Send the result").click()
    assert "result is sent" in phone.locator(".messages").inner_text()
    report = evening.rounds.get().results.get().report
    assert report["points"] == {"NS": 24, "EW": 5} and report["buncos"] == {str(n1): 1}
    assert report["rolls"] == {str(n1): [21, 2], str(s1): [1], str(e1): [5]}
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.startsWith('headtable-draft:'))") == []

    other = browser.new_context(**PHONE).new_page()
    other.goto(f"{live_server.url}/g/{guests[e1].key}/")
    assert "North–South won, 24 points to 5" in other.locator("section.result").inner_text()
    other.get_by_role("button", name="Confirm: that is right").click()
    assert "you confirmed the result" in other.locator(".messages").inner_text()

    rnd = evening.rounds.get()
    foursome_report(round=rnd, table=2, report={"points": {"NS": 3, "EW": 14}})
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    phone.wait_for_function("() => document.body.innerText.includes('At the last bell')", timeout=10_000)
    assert "You won at the head table: stay at table 1." in phone.locator(".bellnews").inner_text()
    other.wait_for_function("() => document.body.innerText.includes('At the last bell')", timeout=10_000)
    assert (
        "You lost at the head table: move down to table 2, the foot table." in other.locator(".bellnews").inner_text()
    )
    assert other.locator(".now .big").inner_text() == "Table 2"
    other.screenshot(path="/tmp/foursome-bunco-after-bell-390.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_euchre_night_of_500_with_the_room_display(browser, live_server):
    evening = night("euchre", 500)
    tables = foursome_state(evening).tables
    captain = Guest.objects.get(pk=tables[0][0])
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/g/{captain.key}/report/")
    for side, points in (("North–South", 1), ("North–South", 2), ("East–West", 1), ("North–South", 1)):
        phone.get_by_role("button", name=f"{points} point{'s' if points > 1 else ''} to {side}", exact=True).click()
    assert phone.locator("[data-total=NS]").inner_text() == "4" and phone.locator("[data-total=EW]").inner_text() == "1"
    assert phone.locator("input[name=points_ns]").input_value() == "4"
    phone.screenshot(path="/tmp/foursome-euchre-report-390.png", full_page=True)
    phone.get_by_role("button", name="Send the result").click()
    phone.locator(".messages").wait_for()  # sent by fetch, kept on the phone until the server has it
    assert evening.rounds.get().results.get().report["hands"] == [["NS", 1], ["NS", 2], ["EW", 1], ["NS", 1]]
    rnd = evening.rounds.get()
    for number in range(2, len(tables) + 1):
        foursome_report(round=rnd, table=number, report={"points": {"NS": 3 + number % 2, "EW": 4 - number % 2}})
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    url = live_server.url + reverse("room", args=[evening.public_key])
    os.makedirs("/tmp/foursome-room", exist_ok=True)
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    between = visit_every_page(page, url + "?mode=full", "/tmp/foursome-room/euchre-500-between")
    assert list(between) == ["clock", "tables", "seating", "standings"]
    for found in [p for pages in between.values() for p in pages]:
        check_fits(found, big_screen=True)
    on_tables = [n["text"] for p in between["tables"] for n in p["names"]]
    assert len(on_tables) == 500 and len(between["tables"]) <= 8
    after = visit_every_page(page, url + "?mode=moves", "/tmp/foursome-room/euchre-500-moves")
    for found in after["moves"]:
        check_fits(found, big_screen=True)
    print(
        f"\n500 guests, euchre, 1920×1080: tables {len(between['tables'])} pages, "
        f"seating {len(between['seating'])}, moves {len(after['moves'])}"
    )
