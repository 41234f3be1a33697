"""Issue 2's browser test, in Debian's Chromium: the host runs a 12-guest evening through two
bells from the host's pages while a guest's phone (390x844) shows the new table without a reload."""

import re

import pytest

from tournament.models import Evening, Guest, Seat
from tournament.services.state import evening_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table_of(guest: Guest) -> int:
    return Seat.objects.get(guest=guest).table


def enter_result(page, base, evening, table, winner, counters=None, call=()):
    page.goto(f"{base}/host/e/{evening.pk}/result/{table}/")
    page.get_by_role("radio", name=winner.name, exact=True).check()
    for name in call:
        page.get_by_role("checkbox", name=name, exact=True).check()
    for name, count in (counters or {}).items():
        page.get_by_role("spinbutton", name=name, exact=True).fill(str(count))
    page.get_by_role("button", name="Save the result").click()
    page.wait_for_url(f"{base}/host/e/{evening.pk}/")
    assert "Result saved" in page.content()


def test_host_runs_two_bells_while_a_phone_follows(browser, live_server, host):
    base = live_server.url
    host_page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host_page.goto(f"{base}/accounts/login/")
    host_page.get_by_label("Username").fill(host.username)
    host_page.get_by_label("Password").fill("pass-word-123")
    host_page.get_by_role("button", name="Log in").click()

    host_page.get_by_label(re.compile(r"^Name:?$")).fill("Browser evening")
    host_page.get_by_label(re.compile(r"^Date:?$")).fill("2026-12-04")
    host_page.get_by_role("button", name="Create the evening").click()
    evening = Evening.objects.get(name="Browser evening")
    names = [f"Rosa {i}, red" for i in range(6)] + [f"Bruno {i}, blue" for i in range(6)]
    host_page.get_by_label("Paste a list").fill("\n".join(names))
    host_page.get_by_label("Check them all in now").check()
    host_page.get_by_role("button", name="Register the list").click()
    assert "12 guests registered" in host_page.content()
    host_page.goto(f"{base}/host/e/{evening.pk}/draw/")
    host_page.get_by_role("button", name="Deal the cards").click()
    assert "every guest here has a table" in host_page.content()

    # The phone: a guest at table 2, who will win the pool there and move up.
    mover = Guest.objects.filter(evening=evening, seat__table=2).order_by("name").first()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    phone.goto(f"{base}/g/{mover.key}/")
    assert phone.locator(".now .big").inner_text() == "Table 2"
    phone.evaluate("window.__sameDocument = true")

    for round_number in (1, 2):
        host_page.get_by_role("button", name=f"Start round {round_number}").click()
        assert f"Round {round_number} has started" in host_page.content()
        tables = {}
        for seat in Seat.objects.filter(evening=evening).select_related("guest").order_by("guest__name"):
            tables.setdefault(seat.table, []).append(seat.guest)
        head = tables[1]
        winner = mover if mover in head else head[0]
        held = evening_state(evening).counters  # the counts must add up to what the table held
        counters = {g.name: held[g.pk] for g in head}
        loser = next(g for g in head if g != winner and held[g.pk] >= 15)
        counters[winner.name] += 15
        counters[loser.name] -= 15
        enter_result(host_page, base, evening, 1, winner, counters)
        second_winner = mover if mover in tables[2] else tables[2][0]
        enter_result(host_page, base, evening, 2, second_winner)
        enter_result(host_page, base, evening, 3, tables[3][0])
        host_page.get_by_role("button", name="Ring the bell now").click()
        assert f"The bell of round {round_number} has rung" in host_page.content()
        expected = table_of(mover)
        # The phone updates itself (htmx polling) without a reload.
        phone.wait_for_function(
            "t => document.querySelector('.now .big').innerText === t", arg=f"Table {expected}", timeout=15_000
        )
        assert phone.evaluate("window.__sameDocument") is True
        if round_number == 1:
            assert expected == 1
            assert re.search(r"won the pool at table 2", phone.content(), re.I)
    phone.screenshot(path="/tmp/guest-phone-after-two-bells.png", full_page=True)
    host_page.screenshot(path="/tmp/host-after-two-bells.png", full_page=True)
