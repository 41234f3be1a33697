"""The host's "Change seats" page in Debian's Chromium at 1280 px: a Bunco night after round 1's
bell, two guests swapped with the page's own lists, the message naming them, the page fitting
the screen; then the undo. Screenshot: /tmp/seats-page.png."""

import pytest

from tests.test_draw_browser import login
from tests.test_seat_changes import _evening, _ring_round_1, _tables
from tournament.models import Guest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_host_swaps_two_guests_and_undoes_it_at_1280px(browser, live_server, host):
    base = live_server.url
    evening = _evening(host, "bunco")
    _ring_round_1(evening, host)
    tables = _tables(evening)
    a, b = Guest.objects.get(pk=tables[0][0]), Guest.objects.get(pk=tables[1][0])
    page = login(browser, base, host)
    page.goto(f"{base}/host/e/{evening.pk}/")
    page.get_by_role("link", name="Change seats").click()
    page.wait_for_url(f"{base}/host/e/{evening.pk}/seats/")
    swap = page.locator("form", has=page.get_by_role("button", name="Swap their seats"))
    swap.get_by_label("Guest").select_option(str(a.pk))
    swap.get_by_label("Swaps seats with").select_option(str(b.pk))
    swap.get_by_role("button", name="Swap their seats").click()
    page.wait_for_load_state()
    said = page.locator(".messages").inner_text()
    assert a.name in said and b.name in said
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path="/tmp/seats-page.png", full_page=True)
    assert _tables(evening)[0][0] == b.pk
    page.get_by_role("button", name="Undo this seat change").click()
    page.wait_for_load_state()
    assert "undone" in page.content()
    assert _tables(evening) == tables
    page.context.close()
