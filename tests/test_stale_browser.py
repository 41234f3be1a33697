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


def test_the_boards_live_poll_keeps_its_buttons_fresh(browser, live_server, host):
    """A result reported from elsewhere reaches the open board by its live poll (no reload);
    the morphed board's buttons carry the new mark, so *Ring the bell now* is not refused."""
    from tests.factories import EveningFactory
    from tests.fixtures_bell import seat_by_names
    from tests.test_host_bell_browser import host_page
    from tournament.models import Bell
    from tournament.services.clock import round_start
    from tournament.services.results import result_record

    evening = EveningFactory(host=host, name="Live night")
    ids = seat_by_names(evening, [["Ann", "Bob", "Cy", "Di"], ["Eve", "Fay", "Gus", "Hal"]])
    rnd = round_start(evening=evening)
    base, board = live_server.url, host_page(browser, live_server, host)
    board.goto(f"{base}/host/e/{evening.pk}/")
    board.evaluate("window.__sameDocument = true")
    drawn = board.locator("#board input[name=seen]").first.get_attribute("value")
    result_record(round=rnd, table=1, pool_winner=ids["Ann"], counters={ids[n]: 50 for n in ("Ann", "Bob", "Cy", "Di")})
    result_record(round=rnd, table=2, pool_winner=ids["Eve"])
    board.get_by_text("2 of 2 tables in").wait_for(timeout=15_000)  # the live poll, no reload
    marks = set(board.locator("#board input[name=seen]").evaluate_all("(inputs) => inputs.map((i) => i.value)"))
    assert len(marks) == 1 and marks != {drawn}
    board.get_by_role("button", name="Ring the bell now").click()
    board.get_by_text("The bell of round 1 has rung.").wait_for()
    assert board.evaluate("window.__sameDocument") is None  # the button's POST loaded the board anew
    assert Bell.objects.filter(round=rnd, kind=Bell.Kind.BELL).count() == 1
