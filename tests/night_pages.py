"""The pages of a night's end as the browser tests drive them: the room display started, and the
host revealing the prizes on the finish page (tests/test_night_browser.py,
tests/test_night_bunco_browser.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

ROOM = {"viewport": {"width": 1920, "height": 1080}}


def room_display(browser, base: str, evening):
    """A new 1920x1080 page on ``evening``'s room display, started (its first tap). Returns it."""
    room = browser.new_context(**ROOM).new_page()
    room.goto(f"{base}/e/{evening.public_key}/room/")
    room.get_by_role("button", name=re.compile("Start the room display")).click()
    return room


def reveal_the_rest(desk, titles: Sequence[str] = ()) -> None:
    """On the host's finish page (``desk``): tap *Reveal next prize* for each of ``titles`` in
    that order (the button must name it), then while the button is there, then *Show the final
    standings*; asserts every prize has been given."""
    for title in titles:
        desk.get_by_role("button", name=f"Reveal next prize: {title}").click()
        desk.wait_for_load_state()
    reveal = desk.get_by_role("button", name=re.compile("^Reveal next prize: "))
    while reveal.count():
        reveal.click()
        desk.wait_for_load_state()
    desk.get_by_role("button", name="Show the final standings").click()
    desk.wait_for_load_state()
    main = desk.locator("main").inner_text()
    assert "Every prize has been given" in main, main
