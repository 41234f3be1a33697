"""Issue 22 item 7 in Debian's Chromium: the host opens *The draw* in two tabs, deals in one,
then presses *Deal the cards* in the other. The second tab's button changes nothing: one draw
stands, and the page says the host made the draw, when. Screenshot: /tmp/stale-draw.png."""

import pytest

from tests.test_draw_browser import login
from tests.test_draw_services import make
from tournament.models import AuditEntry, Draw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_stale_draw_tab_does_not_deal_again(browser, live_server, host):
    base = live_server.url
    evening = make(6, 6, host=host)
    first = login(browser, base, host)
    second = first.context.new_page()  # a second tab of the same login
    for tab in (first, second):
        tab.goto(f"{base}/host/e/{evening.pk}/draw/")
        tab.get_by_role("button", name="Deal the cards").wait_for()
    first.get_by_role("button", name="Deal the cards").click()
    first.wait_for_url(f"{base}/host/e/{evening.pk}/")
    assert "The draw is made" in first.content()
    second.get_by_role("button", name="Deal the cards").click()
    second.wait_for_url(f"{base}/host/e/{evening.pk}/draw/")
    alert = second.get_by_text("Nothing was changed: since this page was drawn, the host made the draw")
    alert.wait_for()
    second.screenshot(path="/tmp/stale-draw.png", full_page=True)
    assert "12 guests at 3 tables (" in alert.inner_text() and "Look at the page again." in alert.inner_text()
    assert AuditEntry.objects.filter(evening=evening, action="draw.digital").count() == 1
    assert Draw.objects.filter(evening=evening).count() == 1
    second.get_by_role("button", name="Redraw (replaces the draw in force)").click()  # the page as it is now
    second.wait_for_url(f"{base}/host/e/{evening.pk}/")
    assert AuditEntry.objects.filter(evening=evening, action="draw.digital").count() == 2
