"""A phone sees the bell within 1.5 s of the bell rung by a service call: the push of the
evening's version (issue 26 item 2: ``static/live.js`` waits on ``/g/<key>/wait/``, whose answer
brings the new page itself), with the
page's 3 s poll stretched to 60 s so that only the push can bring it that fast; and with the push
dropped by the network, the poll still brings the bell (the fallback); while the push answers,
the timed poll is skipped, and it is back when the push fails. Against pytest-django's
live server (WSGI, threaded: a wait holds one of its threads), on SQLite with this process's
cache (the in-process check) locally and on Redis pub/sub in CI."""

from __future__ import annotations

import time

import pytest

from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tests.test_guest_browser import PHONE, ring
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

clean_cache = fixtures_phones.clean_cache  # a pytest fixture


@pytest.fixture
def live_evening(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    round_start(evening=evening)
    return evening


def open_phone(browser, live_server, guest, *, poll_seconds: int, monkeypatch, drop_push: bool = False):
    """A phone's page at the guest's link, polling every ``poll_seconds``, its push waiting (or,
    with ``drop_push``, every wait failing as on a network that drops long requests)."""
    monkeypatch.setattr("tournament.views.guest.POLL_SECONDS", poll_seconds)
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    if drop_push:
        phone.route("**/wait/?v=*", lambda route: route.abort())
        phone.goto(f"{live_server.url}/g/{guest.key}/")
    else:
        with phone.expect_request(lambda r: "/wait/?v=" in r.url):
            phone.goto(f"{live_server.url}/g/{guest.key}/")
        phone.wait_for_timeout(300)  # the wait is on the server
    assert phone.locator(".now .big").inner_text() == "Table 1"
    return context, phone


def test_a_phone_shows_the_bell_within_1_5_s_by_the_push(browser, live_server, live_evening, monkeypatch):
    guest = at_table(live_evening, 1)[-1]  # the head table's last seat: loses 10 and goes down
    context, phone = open_phone(browser, live_server, guest, poll_seconds=60, monkeypatch=monkeypatch)
    phone.evaluate("window.__same = true")
    page, seen = f"{live_server.url}/g/{guest.key}/", []
    phone.on("request", lambda r: seen.append(r.url))
    started = time.monotonic()
    ring(live_evening, at_table(live_evening, 1)[0].pk)
    booby = len(evening_state(live_evening).tables)
    phone.wait_for_function(
        "t => document.querySelector('.now .big').innerText === t", arg=f"Table {booby}", timeout=1_500
    )
    assert time.monotonic() - started < 1.5
    assert phone.evaluate("window.__same") is True and phone.get_by_text("At the last bell").is_visible()
    assert page not in seen  # the page came in the wait's answer (views.waits.page_answer): no refetch

    # The next change comes the same way: the push waits again after each answer.
    phone.wait_for_timeout(300)
    started = time.monotonic()
    round_start(evening=live_evening)
    phone.wait_for_function("() => /Round 2/.test(document.querySelector('.round').innerText)", timeout=1_500)
    assert time.monotonic() - started < 1.5
    context.close()


def test_with_the_push_dropped_the_3_s_poll_still_brings_the_bell(browser, live_server, live_evening, monkeypatch):
    guest = at_table(live_evening, 1)[-1]
    context, phone = open_phone(browser, live_server, guest, poll_seconds=3, monkeypatch=monkeypatch, drop_push=True)
    ring(live_evening, at_table(live_evening, 1)[0].pk)
    booby = len(evening_state(live_evening).tables)
    phone.wait_for_function(
        "t => document.querySelector('.now .big').innerText === t", arg=f"Table {booby}", timeout=5_000
    )
    assert phone.locator(".offline").is_hidden()  # a dropped push is no "offline" notice
    context.close()


def test_while_the_push_answers_the_timed_poll_is_skipped_and_comes_back_when_it_fails(
    browser, live_server, live_evening, monkeypatch
):
    monkeypatch.setattr("tournament.views.waits.WAIT_SECONDS", 1.0)  # a wait answers every second
    guest = at_table(live_evening, 1)[-1]
    context, phone = open_phone(browser, live_server, guest, poll_seconds=1, monkeypatch=monkeypatch)
    page, seen = f"{live_server.url}/g/{guest.key}/", []
    phone.on("request", lambda r: seen.append(r.url))
    phone.wait_for_timeout(1_500)  # the first wait has answered: the push works
    seen.clear()
    phone.wait_for_timeout(3_000)
    assert [u for u in seen if u == page] == [] and len([u for u in seen if "/wait/?v=" in u]) >= 2

    phone.route("**/wait/?v=*", lambda route: route.abort())  # the network drops the push
    phone.wait_for_timeout(1_500)
    seen.clear()
    phone.wait_for_timeout(3_000)
    assert len([u for u in seen if u == page]) >= 2  # the 1 s poll is back
    context.close()
