"""Issue 22 in Debian's Chromium: a corrected ceremony at Progressive Poker. The worked evening of
four rounds (tests/test_corrections.py) is played and counted; the host reveals every prize from
the finish page while the room display (1920x1080) and H2's phone (390 px) are open in their own
contexts; then corrects round 3's head table so that H2 won: the page shows what changes (the
most yellow counters, H1 → H2), the host confirms, and the room display and H2's phone follow
without a reload (before the fix, the phone stopped polling once every prize was given, so
the re-opened ceremony never reached it). Screenshots: /tmp/night-*.png."""

from __future__ import annotations

import pytest

from tests.fixtures_ending import count_every_table
from tests.night_pages import reveal_the_rest, room_display
from tests.test_corrections import four_rounds
from tests.test_draw_browser import login
from tournament.models import Evening, Guest
from tournament.services import ending

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_poker_a_correction_after_the_ceremony_reaches_the_room_and_the_phone(browser, live_server, host):
    from tests.factories import EveningFactory

    base = live_server.url
    evening = EveningFactory(host=host, name="Poker night", rounds_planned=4)
    ids = four_rounds(evening)
    evening = Evening.objects.get(pk=evening.pk)
    count_every_table(evening)
    room = room_display(browser, base, evening)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{base}/g/{Guest.objects.get(pk=ids['H2']).key}/")
    desk = login(browser, base, host)
    desk.goto(f"{base}/host/e/{evening.pk}/finish/")
    prizes = ending.ceremony(evening).prizes
    reveal_the_rest(desk, [prize.title for prize in ending.reveal_order(prizes)])
    desk.screenshot(path="/tmp/night-poker-finish-before.png", full_page=True)
    most = next(p for p in prizes if p.prize.key == "head_table").title
    room.wait_for_function("() => document.querySelector('[data-slide=final]') !== null", timeout=20_000)
    room.screenshot(path="/tmp/night-poker-room-before.png")
    phone.screenshot(path="/tmp/night-poker-phone-before.png", full_page=True)
    assert most not in phone.locator("body").inner_text()

    desk.goto(f"{base}/host/e/{evening.pk}/corrections/3/1/")
    desk.get_by_role("radio", name="H2", exact=True).check()
    for name, count in {"H1": 75, "H2": 60, "H3": 35, "M2": 50}.items():
        desk.get_by_role("spinbutton", name=name, exact=True).fill(str(count))
    desk.get_by_role("button", name="Save the correction").click()
    desk.get_by_role("button", name="Confirm and save the correction").wait_for()
    assert f"{most}: H1 → H2" in desk.locator("main").inner_text()
    desk.screenshot(path="/tmp/night-poker-confirm.png", full_page=True)
    desk.get_by_role("button", name="Confirm and save the correction").click()
    desk.wait_for_url(f"{base}/host/e/{evening.pk}/corrections/")
    desk.goto(f"{base}/host/e/{evening.pk}/finish/")
    assert "Every prize has been given" not in desk.content()
    desk.get_by_role("button", name=f"Reveal next prize: {most}").click()
    desk.wait_for_load_state()
    desk.screenshot(path="/tmp/night-poker-finish.png", full_page=True)
    room.wait_for_function(
        "() => document.querySelector('[data-slide=prize]')?.innerText.includes('H2')", timeout=20_000
    )
    room.screenshot(path="/tmp/night-poker-room-after.png")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path="/tmp/night-poker-phone-stale.png", full_page=True)
    phone.wait_for_function(f"() => document.body.innerText.includes({most!r})", timeout=20_000)
    phone.screenshot(path="/tmp/night-poker-phone-after.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
