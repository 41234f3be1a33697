"""Issue 4 in Debian's Chromium at phone size (390x844): the host corrects a result three
rounds back, the guest's phone shows the new table without a reload, and the standings page
shows the corrected counters. Set SCREENSHOTS=/some/dir to keep screenshots of each page."""

import os

import pytest

from tests.fixtures_bell import play, seat_by_names
from tournament.models import Evening, Guest, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEAD, MIDDLE, BOOBY = ["H1", "H2", "H3", "H4"], ["M1", "M2", "M3", "M4"], ["B1", "B2", "B3", "B4"]


def shot(page, name):
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"issue4-{name}.png"), full_page=True)


def test_a_correction_three_rounds_back_reaches_the_phone(browser, live_server, host):
    from tests.factories import EveningFactory

    evening = EveningFactory(host=host, name="Corrections evening", counter_value="0.10")
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    play(
        evening,
        ids,
        {
            1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}),
            2: ("M1", [], {}),
            3: ("B1", [], {"B1": 60, "B2": 40, "B3": 50, "B4": 50}),
        },
    )
    for winner in ("H2", "H1", "H1"):
        head = [g for g, t in Seat.objects.filter(evening=evening, table=1).values_list("guest__name", "table")]
        counters = {name: 50 for name in head}
        play(evening, ids, {1: (winner, [], counters), 2: (None, [], {}), 3: (None, [], {})})
    base = live_server.url
    host_page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    host_page.goto(f"{base}/accounts/login/")
    host_page.get_by_label("Username").fill(host.username)
    host_page.get_by_label("Password").fill("pass-word-123")
    host_page.get_by_role("button", name="Log in").click()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    phone.goto(f"{base}/g/{Guest.objects.get(evening=evening, name='B2').key}/")
    assert phone.locator(".now .big").inner_text() == "Table 3"

    host_page.goto(f"{base}/host/e/{evening.pk}/corrections/")
    shot(host_page, "corrections")
    host_page.goto(f"{base}/host/e/{evening.pk}/corrections/1/3/")
    host_page.get_by_role("radio", name="B2", exact=True).check()
    for name, count in {"B1": 40, "B2": 60}.items():
        host_page.get_by_role("spinbutton", name=name, exact=True).fill(str(count))
    shot(host_page, "correction-form")
    host_page.get_by_role("button", name="Save the correction").click()
    host_page.wait_for_url(f"{base}/host/e/{evening.pk}/corrections/")
    assert "were played again. B2 now sits at table 2, " in host_page.content()
    # B2 won round 1 at the booby table after all: B2 is at table 2 now, and the phone shows it.
    phone.wait_for_function("document.querySelector('.now .big').innerText === 'Table 2'", timeout=15000)

    host_page.goto(f"{base}/host/e/{evening.pk}/standings/")
    assert "Settlement sheet" in host_page.content()
    shot(host_page, "standings")
    host_page.goto(f"{base}/host/e/{evening.pk}/audit/")
    assert (
        "The host corrected table 3's result in round 1: B2 won the pool (not B1)"
        in host_page.locator("table.audit").inner_text()
    )
    shot(host_page, "audit")
    host_page.goto(f"{base}/host/e/{evening.pk}/house-rules/")
    shot(host_page, "house-rules")
    host_page.goto(f"{base}/host/e/{evening.pk}/")
    shot(host_page, "board")
    assert Evening.objects.get(pk=evening.pk).version > 1

    # Round 5: two head-table guests tie for who goes down; the host enters the cards cut.
    from tournament.services.clock import round_start
    from tournament.services.results import result_record
    from tournament.services.state import evening_state

    rnd = round_start(evening=evening)
    tables = evening_state(evening).tables
    result_record(round=rnd, table=1, pool_winner=tables[0][0], counters={g: 50 for g in tables[0]})
    for number in (2, 3):
        result_record(round=rnd, table=number, pool_winner=tables[number - 1][0])
    host_page.goto(f"{base}/host/e/{evening.pk}/bell/")
    assert "Who goes down from the head table" in host_page.content()
    shot(host_page, "bell-cuts")
    for select in host_page.locator("select").all():
        select.select_option("7")
    first = host_page.locator("select").first
    cutter = Guest.objects.get(pk=int(first.get_attribute("name").removeprefix("cut_")))
    first.select_option("13")  # a king: the highest cut goes down
    host_page.get_by_role("button", name="Ring the bell now").click()
    host_page.wait_for_url(f"{base}/host/e/{evening.pk}/")
    assert "has rung" in host_page.content()
    assert Seat.objects.get(guest=cutter).table == 3
