"""A whole Bunco night in Debian's Chromium, beside tests/test_night_browser.py's poker night:
a late guest is checked in at the door (a helper's phone, 390 px) while round 1 is played; the
host's board shows them waiting for a seat; table 1's North reports the table's score from their
phone with the score helper; the host enters table 2 and rings the bell from the board; round 2
is played and its bell ends the night; the host reveals every prize while the room display
(1920x1080) and a guest's phone (390 px) are open; then corrects round 2's head table so that the
other pair won, and the room display and the phone follow without a reload. Screenshots:
/tmp/night-bunco-*.png."""

from __future__ import annotations

import re

import pytest

from tests import fixtures_phones
from tests.factories import EveningFactory
from tests.fixtures_foursome_night import report_for
from tests.night_pages import reveal_the_rest, room_display
from tests.test_draw_browser import login
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Evening, Guest
from tournament.services import ending
from tournament.services.clock import round_start
from tournament.services.helpers import helper_link_create
from tournament.services.state import current_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
NAMES = ["Ada Berg", "Bo Carlsson", "Cleo Dahl", "Dag Ek", "Eva Falk", "Finn Gran", "Gun Holm", "Hugo Ivarsson"]


def bunco_night(host) -> tuple[Evening, Guest]:
    """Eight guests here and drawn at two tables, round 1 started, two rounds planned; and one
    guest registered who has not arrived yet."""
    evening = EveningFactory(host=host, name="Bunco night", format="bunco", rounds_planned=2)
    for n, name in enumerate(NAMES):
        Guest.objects.create(evening=evening, name=name, pack="red" if n % 2 == 0 else "blue", status="here")
    late = Guest.objects.create(evening=evening, name="Lou Late", pack="red", status="registered")
    foursome_draw(evening=evening)
    round_start(evening=evening)
    return Evening.objects.get(pk=evening.pk), late


def test_a_bunco_night_door_board_phone_bell_ceremony_correction(browser, live_server, host):
    base = live_server.url
    evening, late = bunco_night(host)
    (n1, e1, s1, w1), table2 = foursome_state(evening).tables
    names = dict(Guest.objects.filter(evening=evening).values_list("pk", "name"))

    # The door: a helper's phone checks in the late guest while round 1 is played.
    door = browser.new_context(**PHONE).new_page()
    door.goto(f"{base}/h/{helper_link_create(evening=evening, role='door', label='Britt').key}/")
    door.locator(f"#guest-{late.pk}").get_by_role("button", name="Check in").tap()
    door.wait_for_function(f"document.querySelector('#guest-{late.pk}').classList.contains('here')")
    assert Guest.objects.get(pk=late.pk).status == "here"
    assert door.evaluate("document.documentElement.scrollWidth") <= 390
    door.screenshot(path="/tmp/night-bunco-door.png", full_page=True)

    # The host's board.
    desk = login(browser, base, host)
    desk.goto(f"{base}/host/e/{evening.pk}/")
    board = desk.locator("main").inner_text()
    desk.screenshot(path="/tmp/night-bunco-board.png", full_page=True)
    assert "Checked in but not seated: Lou Late." in board and "Round 1 of 2" in board
    assert "with no ghost seated, opens a new foot table with three ghosts" in board  # none is seated

    # Table 1's North reports the table's score from their phone, with the score helper.
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{base}/g/{Guest.objects.get(pk=n1).key}/report/")
    phone.get_by_role("button", name=f"a bunco for {names[n1]}").click()
    phone.get_by_role("button", name=f"2 points for {names[s1]}").click()
    phone.get_by_role("button", name=f"a mini bunco for {names[e1]}").click()
    assert phone.locator("[data-team=NS]").inner_text() == "23" and phone.locator("[data-team=EW]").inner_text() == "5"
    phone.get_by_role("button", name="Send the result").click()
    phone.locator(".messages").wait_for()
    assert "result is sent" in phone.locator(".messages").inner_text()
    rnd = current_round(evening)
    assert rnd.results.get(table=1).report["points"] == {"NS": 23, "EW": 5}

    # The host enters table 2 from the score sheet and rings the bell from the board.
    foursome_report(round=rnd, table=2, report=report_for("bunco", table2, ns_wins=False), user=host)
    desk.reload()
    assert "2 of 2 tables in" in desk.locator("main").inner_text()
    desk.get_by_role("button", name="Ring the bell now").click()
    desk.wait_for_load_state()
    desk.screenshot(path="/tmp/night-bunco-bell.png", full_page=True)
    assert "The bell of round 1 has rung." in desk.locator("main").inner_text()
    phone.wait_for_function("() => document.body.innerText.includes('At the last bell')", timeout=10_000)
    assert "stay at table 1" in phone.locator(".bellnews").inner_text()  # the head table's winners stay

    # Between rounds the host seats the late guest: with no ghost seated, a new foot table.
    desk.get_by_role("link", name="seat them").click()
    desk.locator(f"#guest-{late.pk}").get_by_role("button", name="Seat now").click()
    desk.get_by_text("Lou Late opens a new foot table, table 3, with three ghosts.").wait_for()
    desk.goto(f"{base}/host/e/{evening.pk}/")
    assert "Table 3 · Foot table" in desk.locator("main").inner_text()
    desk.get_by_role("button", name="Start round 2").click()
    desk.wait_for_load_state()
    assert "Round 2 of 2" in desk.locator("main").inner_text()

    # Round 2 (the last): every table reports; the host's bell ends the night.
    rnd = current_round(evening)
    tables = foursome_state(evening).tables
    for number, seats in enumerate(tables, start=1):
        foursome_report(round=rnd, table=number, report=report_for("bunco", seats, ns_wins=True), user=host)
    desk.reload()
    desk.get_by_role("button", name="Ring the bell now").click()
    desk.wait_for_load_state()
    evening = Evening.objects.get(pk=evening.pk)
    assert evening.stage == Evening.Stage.ENDED, evening.stage

    room = room_display(browser, base, evening)
    phone.goto(f"{base}/g/{Guest.objects.get(pk=tables[0][0]).key}/")
    desk.goto(f"{base}/host/e/{evening.pk}/finish/")
    prizes = ending.ceremony(evening).prizes
    reveal_the_rest(desk, [prize.title for prize in ending.reveal_order(prizes)])
    room.wait_for_function("() => document.querySelector('[data-slide=final]') !== null", timeout=20_000)
    north = names[tables[0][0]]
    # The phone follows by its push: after a page in a wait's answer it waits again 0.5-1.5 s later.
    phone.wait_for_function(
        "n => document.querySelector('main').innerText.includes(n + ': ')", arg=north, timeout=5_000
    )
    room.screenshot(path="/tmp/night-bunco-room-before.png")
    phone.screenshot(path="/tmp/night-bunco-phone-before.png", full_page=True)
    line = re.search(
        rf"{north}: (\d+) wins?, (\d+) loss(?:es)?, (\d+) buncos?, (\d+) mini buncos?, (\d+) points",
        phone.locator("main").inner_text(),
    )
    assert line, phone.locator("main").inner_text()
    wins, losses, buncos, minis, points = map(int, line.groups())

    # After the ceremony the host finds round 2's head table was the other way round.
    desk.goto(f"{base}/host/e/{evening.pk}/corrections/2/1/")
    desk.get_by_label(re.compile("^North–South .*: points:$")).fill("8")
    desk.get_by_label(re.compile("^East–West .*: points:$")).fill("30")
    desk.get_by_label(f"{north} (North): buncos:").fill("0")
    desk.get_by_role("button", name="Save the correction").click()
    desk.get_by_role("button", name="Confirm and save the correction").wait_for()
    desk.screenshot(path="/tmp/night-bunco-confirm.png", full_page=True)
    desk.get_by_role("button", name="Confirm and save the correction").click()
    desk.wait_for_url(f"{base}/host/e/{evening.pk}/corrections/")
    desk.goto(f"{base}/host/e/{evening.pk}/finish/")
    assert "Every prize has been given" not in desk.content()
    reveal = desk.get_by_role("button", name=re.compile("^Reveal next prize: "))
    first = reveal.inner_text().removeprefix("Reveal next prize: ")
    reveal.click()
    desk.wait_for_load_state()
    room.wait_for_function(
        f"() => document.querySelector('[data-slide=prize]')?.innerText.includes({first!r})", timeout=20_000
    )
    room.screenshot(path="/tmp/night-bunco-room-prize.png")
    reveal_the_rest(desk)
    room.wait_for_function("() => document.querySelector('[data-slide=final]') !== null", timeout=20_000)
    room.screenshot(path="/tmp/night-bunco-room-after.png")
    after = f"{north}: {wins - 1} win{'s' if wins - 1 != 1 else ''}, {losses + 1} loss{'es' if losses + 1 != 1 else ''}"
    phone.wait_for_function(f"() => document.body.innerText.includes({after!r})", timeout=20_000)
