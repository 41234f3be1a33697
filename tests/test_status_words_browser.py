"""Status words never split (issue 24 item 8: "Registere/d", "Check/ed in" at 1280 px and on the
door's phone): on the guests page, which the door helper's phone shows too, every guest's
status ("Registered", "Checked in", "Left") stays on one line beside the longest names, at
1280 px and at a phone's 390 and 320 px."""

from __future__ import annotations

import pytest

from tests.factories import EveningFactory
from tests.fixtures_room import guest_names
from tests.test_draw_browser import login
from tournament.models import Guest

# Each status cell's text, the lines its words take, and whether its box holds it.
STATUS_LINES = """() => [...document.querySelectorAll('#guest-rows td.st')].map((td) => {
  const words = document.createRange();
  words.selectNodeContents(td);
  const lines = new Set([...words.getClientRects()].map((r) => Math.round(r.top)));
  return [td.textContent.trim(), lines.size, td.scrollWidth <= td.clientWidth + 1];
})"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [1280, 390, 320])
def test_every_status_stays_on_one_line(browser, live_server, host, width):
    evening = EveningFactory(host=host)
    statuses = [Guest.Status.REGISTERED, Guest.Status.HERE, Guest.Status.LEFT]
    Guest.objects.bulk_create(
        [
            Guest(evening=evening, name=name, name_key=Guest.fold_name(name), pack="red", status=statuses[i % 3])
            for i, name in enumerate(guest_names(12))
        ]
    )
    page = login(browser, live_server.url, host)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/host/e/{evening.pk}/guests/")
    found = page.evaluate(STATUS_LINES)
    assert {text for text, _, _ in found} == {"Registered", "Checked in", "Left"}
    split = [(text, lines) for text, lines, _ in found if lines != 1]
    assert not split, f"at {width} px these status words break over lines: {split}"
    assert all(fits for _, _, fits in found)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing scrolls sideways for it
