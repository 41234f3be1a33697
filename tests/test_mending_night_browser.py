"""The mended Progressive Euchre night of tests/test_mending_night_euchre.py, round 6, on the
captains' phones in Debian's Chromium (390 px): the Wi-Fi drops while a captain reports.

- Table 1's captain opens the report page, taps the hands in, the Wi-Fi drops
  (``context.set_offline(True)``), they send: the phone says in plain words that the report is
  kept and will be sent when the Wi-Fi is back, and the server has nothing; the Wi-Fi comes
  back (``set_offline(False)``): the page sends it by itself, says it is sent, and the server
  has it exactly once, for the four who sit at table 1 after the mending.
- Table 2's captain sends with the Wi-Fi down, then the phone sleeps: the page is gone, and
  the browser opens it again from what it kept (the same ``localStorage``, a new page) once the
  Wi-Fi is back: the kept report is sent once, by itself, and nothing is left on the phone.
- Table 3's captain sends with the Wi-Fi down and the screen locks (the page frozen, Chromium's
  page lifecycle over CDP); the Wi-Fi comes back; on waking the phone says the report is in,
  and the server has it once.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.test_mending_night_euchre import mended_euchre
from tests.test_phones_offline_browser import KEPT_KEYS, KEPT_REPORT, confirmed, phone_at, reopened
from tournament.formats.partnership.state import foursome_state
from tournament.models import AuditEntry, Guest, PhoneSend, Result
from tournament.services.clock import round_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SENT = ["result is sent", "was recorded already"]


def _tap(phone, points: dict[str, list[int]]) -> None:
    """The captain's taps on the score helper: each side's hands, one tap a hand."""
    for side, hands in points.items():
        for n in hands:
            phone.locator(f"button[data-hand={side}][data-points='{n}']").click()


def test_a_captains_report_on_the_mended_night_survives_the_wifi_and_a_sleeping_phone(browser, live_server, host):
    evening, _ = mended_euchre(Client(), host)
    rnd = round_start(evening=evening, user=host)
    tables = foursome_state(evening).tables
    captain = Guest.objects.get(pk=tables[0][0])  # table 1, North: E after the mending
    assert captain.name == "E"

    context, wifi, phone = phone_at(browser, 390)
    url = f"{live_server.url}/g/{captain.key}/report/"
    phone.goto(url)
    _tap(phone, {"NS": [1, 2, 1], "EW": [2]})
    wifi.down()  # mid-report
    _tap(phone, {"NS": [1]})
    phone.get_by_role("button", name="Send the result").click()
    note = phone.locator(".kept-notes .kept-waiting")
    note.wait_for()
    assert note.inner_text() == KEPT_REPORT
    assert not Result.objects.filter(round=rnd).exists()
    wifi.up()  # back: sent by itself, without a reload
    assert confirmed(phone, SENT) == "result is sent"
    (result,) = Result.objects.filter(round=rnd)
    assert (result.table, result.report["points"]) == (1, {"NS": 5, "EW": 2})
    assert phone.evaluate(KEPT_KEYS) == []
    phone.reload()
    phone.wait_for_timeout(500)
    assert Result.objects.filter(round=rnd).count() == 1
    assert PhoneSend.objects.filter(evening=evening).count() == 1

    # table 2's captain: sent with the Wi-Fi down, then the phone sleeps and wakes on the Wi-Fi
    second = Guest.objects.get(pk=tables[1][0])
    url = f"{live_server.url}/g/{second.key}/report/"
    phone.goto(url)
    _tap(phone, {"EW": [2, 2], "NS": [1]})
    wifi.down()
    phone.get_by_role("button", name="Send the result").click()
    phone.locator(".kept-notes .kept-waiting").wait_for()
    assert phone.locator(".kept-notes").inner_text().startswith(KEPT_REPORT)
    assert not Result.objects.filter(round=rnd, table=2).exists()
    phone = reopened(wifi, phone, url)  # the phone slept; it wakes on the Wi-Fi, the page opened again
    assert confirmed(phone, SENT) in SENT
    assert Result.objects.get(round=rnd, table=2).report["points"] == {"NS": 1, "EW": 4}
    assert phone.evaluate(KEPT_KEYS) == []
    phone.reload()
    phone.wait_for_timeout(500)
    assert Result.objects.filter(round=rnd).count() == 2

    # table 3's captain: sent with the Wi-Fi down, then the screen locks (the page frozen, as a
    # phone's browser freezes a page it does not show), the Wi-Fi comes back, the screen wakes
    third = Guest.objects.get(pk=tables[2][0])
    phone.goto(f"{live_server.url}/g/{third.key}/report/")
    _tap(phone, {"NS": [2, 2, 1], "EW": [1]})
    wifi.down()
    phone.get_by_role("button", name="Send the result").click()
    phone.locator(".kept-notes .kept-waiting").wait_for()
    assert phone.locator(".kept-notes").inner_text().startswith(KEPT_REPORT)
    screen = wifi.context.new_cdp_session(phone)
    screen.send("Page.setWebLifecycleState", {"state": "frozen"})
    wifi.up()
    phone.wait_for_timeout(1000)
    screen.send("Page.setWebLifecycleState", {"state": "active"})
    assert confirmed(phone, SENT, timeout=25_000) in SENT
    assert Result.objects.get(round=rnd, table=3).report["points"] == {"NS": 5, "EW": 1}
    assert phone.evaluate(KEPT_KEYS) == []
    assert Result.objects.filter(round=rnd).count() == 3 and PhoneSend.objects.filter(evening=evening).count() == 3
    assert AuditEntry.objects.filter(evening=evening, action="result.record").count() == 3 + 5 * 3 + 1
    wifi.context.close()
