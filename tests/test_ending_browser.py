"""The end of a 30-guest evening in Chromium (issue 11 deliver 4): the host ends the evening
from the board (with its confirmation), the last round's bell, the final count table by table
(a count that is off refused, then agreed), every prize revealed one tap at a time on a
1920×1080 room display that never scrolls, the final standings paged with names of 28 px or
more, and a prize winner's phone at 390 px (and 320 px) with their prize and final place.
Screenshots go to /tmp/ending/."""

from __future__ import annotations

import os
import re

import pytest

from tests.fixtures_ending import last_results
from tests.fixtures_room import played_evening
from tests.test_narrow_browser import phone as guest_phone
from tests.test_room_scale import MEASURE, check_fits
from tournament.models import Bell, Evening, FinalCount
from tournament.services import ending
from tournament.services.bell import bell_ring
from tournament.services.prizes import evening_standings
from tournament.services.state import current_round, evening_state

SHOTS = "/tmp/ending"


def phone(browser, live_server, host=None, width=320):
    """A page ``width`` px wide, logged in as ``host`` when given (a session made here, through
    Django's own model backend), else a guest's phone."""
    if host is None:
        return guest_phone(browser, live_server, width=width)
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    context = browser.new_context(viewport={"width": width, "height": 640})
    session = SessionStore()
    session[SESSION_KEY], session[BACKEND_SESSION_KEY] = str(host.pk), "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = host.get_session_auth_hash()
    session.save()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_server.url}])
    return context.new_page()


FITS = """() => {
  const d = document.documentElement, out = [];
  for (const el of document.querySelectorAll('#room-live .slide.active .prize-winners li, #room-live .slide.active .prize-title')) {
    const r = el.getBoundingClientRect();
    out.push({text: el.textContent.trim(), size: parseFloat(getComputedStyle(el).fontSize),
              inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth});
  }
  return {scroll: [d.scrollHeight, innerHeight, d.scrollWidth, innerWidth], shown: out,
          slide: document.getElementById('room-live').dataset.slide};
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_host_ends_the_evening_and_gives_every_prize_on_the_room_display(browser, live_server, host):
    os.makedirs(SHOTS, exist_ok=True)
    evening = played_evening(host, 30, red_label="Ladies", blue_label="Gentlemen")
    url = live_server.url
    desk = phone(browser, live_server, host, width=1280)
    desk.set_viewport_size({"width": 1280, "height": 900})

    # End the evening from the board: a confirmation first, then round 2 is the last.
    desk.goto(f"{url}/host/e/{evening.pk}/")
    desk.get_by_role("link", name=re.compile("End the evening: make round 2 the last")).click()
    assert desk.get_by_label("Yes, end the evening").get_attribute("required") is not None  # the browser asks first
    desk.get_by_label("Yes, end the evening").check()
    desk.get_by_role("button", name="End the evening").click()
    assert desk.get_by_role("heading", name=re.compile("Round 2 of 2 — the last round")).is_visible()
    desk.screenshot(path=f"{SHOTS}/host-last-round-1280.png", full_page=True)

    last_results(evening)
    before = evening_state(evening).tables
    assert bell_ring(round_id=current_round(evening).pk, cause=Bell.Cause.HOST) is not None
    assert evening_state(evening).tables == before  # the last bell moves nobody

    # The board leads to the final count; table 1 is counted 5 short, refused, then agreed.
    desk.goto(f"{url}/host/e/{evening.pk}/")
    desk.get_by_role("link", name="Take the final count").click()
    tables = ending.final_count_tables(evening)
    assert desk.get_by_role("heading", name=f"1. The final count: 0 of {len(tables)} tables counted").is_visible()
    desk.screenshot(path=f"{SHOTS}/host-finish-1280.png", full_page=True)
    desk.get_by_role("link", name="Count table 1").click()
    head = tables[0]
    field = desk.locator(f"#id_counters_{head.guests[0]}")
    assert field.input_value() == str(head.last[head.guests[0]])  # pre-filled from the last count
    field.fill(str(head.last[head.guests[0]] - 5))
    desk.get_by_role("button", name="Save table 1's final count").click()
    total = sum(head.last.values())
    assert f"add up to {total - 5}, 5 short of the {total}" in desk.content()
    assert not FinalCount.objects.filter(evening=evening).exists()
    desk.screenshot(path=f"{SHOTS}/host-count-off-1280.png", full_page=True)
    desk.get_by_label(re.compile("The table agrees the count is off by 5")).check()
    desk.get_by_role("button", name="Save table 1's final count").click()
    assert "Final count saved for table 1" in desk.content()
    for table in tables[1:]:  # the other tables as they are filled in: one tap each
        desk.goto(f"{url}/host/e/{evening.pk}/finish/count/{table.number}/")
        desk.get_by_role("button", name=f"Save table {table.number}'s final count").click()
    assert f"{len(tables)} of {len(tables)} tables counted" in desk.content()

    # The ceremony: each tap shows the next prize on the room display.
    room = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    small = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()  # a 720p screen beside it
    for screen in (room, small):
        screen.goto(f"{url}/e/{evening.public_key}/room/")
        screen.get_by_role("button", name=re.compile("Start the room display")).click()
        assert "The host is taking the final count" in screen.content()
    room.screenshot(path=f"{SHOTS}/room-thanks-1080p.png")
    evening.refresh_from_db()
    prizes = ending.reveal_order(evening_standings(evening).prizes)
    assert [p.prize.key for p in prizes] == ["booby", "red_pack", "blue_pack", "head_table"]
    # A prize nobody won has no reveal of its own (house rule, docs/rules/progressive-poker.md):
    # here nobody of the red pack won counters.
    prizes = tuple(p for p in prizes if p.winners)
    for number, prize in enumerate(prizes, 1):
        desk.get_by_role("button", name=f"Reveal next prize: {prize.title}").click()
        assert "The room display shows" in desk.content()
        room.wait_for_function(
            f"() => (document.querySelector('.prize-count')?.textContent || '').includes('Prize {number} of')",
            timeout=20_000,
        )
        found = room.evaluate(FITS)
        height, inner_h, width, inner_w = found["scroll"]
        assert height <= inner_h and width <= inner_w, found
        names = [x for x in found["shown"] if x["text"] != prize.title]
        assert [x["text"] for x in names] == [g.name for g in prize.winners]
        assert all(x["inside"] and x["size"] >= 28 for x in found["shown"]), found
        room.screenshot(path=f"{SHOTS}/room-prize-{number}-1080p.png")
        small.wait_for_function(
            f"() => (document.querySelector('.prize-count')?.textContent || '').includes('Prize {number} of')",
            timeout=20_000,
        )
        found = small.evaluate(FITS)
        assert found["scroll"][0] <= found["scroll"][1] and found["scroll"][2] <= found["scroll"][3], found
        assert all(x["inside"] for x in found["shown"]), found
        small.screenshot(path=f"{SHOTS}/room-prize-{number}-720p.png")
    desk.get_by_role("button", name="Show the final standings").click()
    room.wait_for_function(
        "() => document.getElementById('room-live')?.dataset.pages && !!document.querySelector('.room-final')",
        timeout=20_000,
    )
    room.evaluate("window.roomDisplay.pause()")
    final_names = []
    for slide in room.evaluate("window.roomDisplay.pages()"):
        for number in range(slide["pages"]):
            room.evaluate("([s, n]) => window.roomDisplay.show(s, n)", [slide["slide"], number])
            found = room.evaluate(MEASURE)
            check_fits(found, big_screen=True)
            if slide["slide"] == "final":
                final_names += [n["text"] for n in found["names"]]
            room.screenshot(path=f"{SHOTS}/room-{slide['slide']}-{number + 1}-1080p.png")
    assert final_names == [g.name for _, g, _ in evening_standings_lines(evening)]
    small.wait_for_function("() => !!document.querySelector('.room-final')", timeout=20_000)
    small.evaluate("window.roomDisplay.pause()")
    small_names = []
    for slide in small.evaluate("window.roomDisplay.pages()"):
        for number in range(slide["pages"]):
            small.evaluate("([s, n]) => window.roomDisplay.show(s, n)", [slide["slide"], number])
            found = small.evaluate(MEASURE)
            check_fits(found, big_screen=False)
            if slide["slide"] == "final":
                small_names += [n["text"] for n in found["names"]]
            small.screenshot(path=f"{SHOTS}/room-{slide['slide']}-{number + 1}-720p.png")
    assert small_names == final_names  # every guest on some page at 720p too
    assert "Every prize has been given" in desk.content()
    desk.screenshot(path=f"{SHOTS}/host-finished-1280.png", full_page=True)
    assert desk.get_by_role("link", name="Results (PDF)").get_attribute("href").endswith("/print/results.pdf")
    assert desk.get_by_role("link", name="Certificates (PDF)").get_attribute("href").endswith("/print/certificates.pdf")

    # A prize winner's phone: their prize and final place, no table to go to.
    winner = prizes[-1].winners[0]
    place = next(line.place for line in evening_standings(evening).lines if line.guest.pk == winner.pk)
    for width in (390, 320):
        mobile = phone(browser, live_server, width=width)
        mobile.goto(f"{url}/g/{winner.key}/")
        body = mobile.locator("body").inner_text()
        assert "You won a prize" in body and prizes[-1].title in body
        assert re.search(rf"Your final place\s+{place}\b", body) and "Go to" not in body
        assert mobile.evaluate("document.documentElement.scrollWidth") <= width
        mobile.screenshot(path=f"{SHOTS}/phone-winner-{width}.png", full_page=True)


def evening_standings_lines(evening: Evening):
    """(place, guest, row) of the final standings, as the room display lists them."""
    from tournament.selectors.board import evening_board

    return evening_board(Evening.objects.get(pk=evening.pk)).standing_lines()


def shared_booby_counts(evening: Evening) -> None:
    """The final count of a party where many guests end level: the head table's counters shared
    out evenly, and at every other table the first guest takes 10 from each of the others, so
    every one of those others ends on 40 and they share the booby prize (fewest counters won)."""
    for table in ending.final_count_tables(evening):
        counts = dict(table.prefill)
        if table.number == 1:
            total, n = sum(counts.values()), len(counts)
            counts = {g: total // n + (total % n if i == 0 else 0) for i, g in enumerate(table.guests)}
        else:
            first, *others = table.guests
            counts = {first: counts[first] + sum(counts[g] - 40 for g in others), **{g: 40 for g in others}}
        ending.final_count_record(
            evening=evening,
            table=table.number,
            counters=counts,
            agreed_off=sum(counts.values()) - sum(table.last.values()),
        )


def visit_pages(page, url: str, shots: str, *, big_screen: bool) -> dict[str, list[str]]:
    """Open the room display, stop its timer, show and check every page of every slide; returns
    slide -> the names shown, page after page."""
    page.goto(url)
    page.wait_for_function("() => !!document.querySelector('#room-live')?.dataset.pages")
    page.evaluate("window.roomDisplay.pause()")
    seen: dict[str, list[str]] = {}
    for slide in page.evaluate("window.roomDisplay.pages()"):
        for number in range(slide["pages"]):
            page.evaluate("([s, n]) => window.roomDisplay.show(s, n)", [slide["slide"], number])
            found = page.evaluate(MEASURE)
            check_fits(found, big_screen=big_screen)
            seen.setdefault(slide["slide"], []).extend(n["text"] for n in found["names"])
            if number < 2 or number == slide["pages"] - 1:
                page.screenshot(path=f"{shots}-{slide['slide']}-{number + 1}.png")
    return seen


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [8, 150, 500])
def test_a_prize_shared_by_many_and_the_final_standings_fit_any_screen(browser, live_server, host, size):
    os.makedirs(SHOTS, exist_ok=True)
    from tests.fixtures_ending import ended_evening, reveal

    evening = ended_evening(host, size)
    level = sum(len(t.guests) - 1 for t in ending.final_count_tables(evening)[1:])  # all on 40
    shared_booby_counts(evening)
    evening = reveal(evening, 1)
    booby = ending.ceremony(evening).revealed[0]
    assert booby.prize.key == "booby" and len(booby.winners) == level
    url = f"{live_server.url}/e/{evening.public_key}/room/"
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        shots = f"{SHOTS}/room-{size}-{height}p"
        prize = visit_pages(page, url, f"{shots}-shared", big_screen=height == 1080)
        assert sorted(prize["prize"]) == sorted(g.name for g in booby.winners)  # every winner on some page
        context.close()
    evening = reveal(evening, ending.ceremony(evening).steps)
    standings = [g.name for _, g, _ in evening_standings_lines(evening)]
    assert len(standings) == size
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        final = visit_pages(page, url, f"{SHOTS}/room-{size}-{height}p", big_screen=height == 1080)
        assert final["final"] == standings  # every guest once, in order, page after page
        context.close()
