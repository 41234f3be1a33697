"""The room display at every evening size (issue 11, deliver 5): 8, 30, 150 and 500 guests on a
1920×1080 and a 1280×720 screen. In every mode and on every page nothing scrolls and nothing
spills out of its box, names are at least 28 px at 1080p and never cut with "…", every seated
guest is on some page of the seating, every move on some page of "where to go"; the standings
show their top. Screenshots go to /tmp/host-scale/."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from tests.fixtures_room import played_evening
from tournament.selectors.board import evening_board
from tournament.views.room import move_groups

SHOTS = "/tmp/host-scale"

# Everything the test needs from one page of one slide, measured in the browser.
MEASURE = """() => {
  const live = document.getElementById('room-live');
  const slide = document.querySelector('#room-live .slide.active');
  const pager = slide.querySelector('.pager');
  const box = (pager || slide).getBoundingClientRect();
  const inside = (r) => r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1
                        && r.bottom <= box.bottom + 1 && r.right <= innerWidth && r.bottom <= innerHeight;
  const names = [...slide.querySelectorAll('.name')].filter((el) => el.offsetParent !== null).map((el) => {
    const style = getComputedStyle(el), r = el.getBoundingClientRect();
    const group = el.closest('.move-group');
    return {text: el.textContent.trim(), size: parseFloat(style.fontSize), inside: inside(r),
            ellipsis: style.textOverflow === 'ellipsis', cut: el.scrollWidth > el.clientWidth + 1,
            table: group ? group.dataset.table || '' : (el.closest('.seat')?.querySelector('.at')?.textContent.replace('table', '').trim() || '')};
  });
  // A table's number in big type (where to go, the tables at tables of four) and beside a name
  // (find your name, a box of its own): one line, its digits inside its box, inside the item.
  const within = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1;
  const numbers = [...slide.querySelectorAll('.to-number, .seat .at')].filter((el) => el.offsetParent !== null).map((el) => {
    const size = parseFloat(getComputedStyle(el).fontSize), r = el.getBoundingClientRect();
    const digits = document.createRange();
    digits.selectNodeContents(el);
    const lines = el.matches('.at') ? [r] : [...digits.getClientRects()];
    const box = el.parentElement.getBoundingClientRect(), item = el.closest('.item').getBoundingClientRect();
    return {text: el.textContent.trim(), size, big: el.matches('.to-number'), tall: r.height / size, lines: lines.length,
            inside: lines.every((line) => within(line, box)) && within(box, item) && r.bottom <= item.bottom + 1,
            spills: el.scrollWidth > el.clientWidth + 1 || el.parentElement.scrollWidth > el.parentElement.clientWidth + 1};
  });
  const top = document.querySelector('.room-top').getBoundingClientRect();
  return {slide: live.dataset.slide, page: +live.dataset.page, pages: +live.dataset.pages,
          scroll: [document.documentElement.scrollHeight, innerHeight, document.documentElement.scrollWidth, innerWidth],
          foot: document.querySelector('.room-page').textContent, header: top.height, names, numbers};
}"""


def visit_every_page(page, url: str, shots: str) -> dict[str, list[dict]]:
    """Open the display, stop its timer, show every page of every slide; returns slide -> pages."""
    page.goto(url)
    page.wait_for_function("() => !!document.querySelector('#room-live')?.dataset.pages")
    page.evaluate("window.roomDisplay.pause()")
    seen: dict[str, list[dict]] = {}
    for slide in page.evaluate("window.roomDisplay.pages()"):
        for number in range(slide["pages"]):
            page.evaluate("([s, n]) => window.roomDisplay.show(s, n)", [slide["slide"], number])
            found = page.evaluate(MEASURE)
            assert (found["slide"], found["page"]) == (slide["slide"], number + 1)
            seen.setdefault(slide["slide"], []).append(found)
            if number < 2 or number == slide["pages"] - 1:
                page.screenshot(path=f"{shots}-{slide['slide']}-{number + 1}.png")
    return seen


def check_fits(found: dict, *, big_screen: bool) -> None:
    """No scrolling, every name inside its box, legible and whole."""
    height, inner_h, width, inner_w = found["scroll"]
    assert height <= inner_h and width <= inner_w, found["scroll"]
    where = f"{found['slide']} page {found['page']}"
    assert found["header"] <= 0.1 * inner_h, where  # the clock's strip leaves the screen to the rest
    for name in found["names"]:
        assert name["inside"], f"{name['text']} spills out on {where}"
        assert not name["ellipsis"] and not name["cut"], f"{name['text']} is cut on {where}"
        if big_screen:
            assert name["size"] >= 28, f"{name['text']} is {name['size']} px on {where}"
    for number in found["numbers"]:
        text = f"table {number['text']} on {where}"
        assert number["tall"] < 1.3 and number["lines"] == 1, f"{text} breaks over lines: {number}"
        assert number["inside"] and not number["spills"], f"{text} spills out of its box: {number}"
        if big_screen and number["big"]:
            assert number["size"] >= 50, f"{text} is {number['size']} px"
    if found["pages"] > 1:
        assert found["foot"] == f"page {found['page']} of {found['pages']}"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [8, 30, 150, 500])
def test_the_room_display_fits_any_screen_at_any_size(browser, live_server, host, size):
    evening = played_evening(host, size)
    board = evening_board(evening)
    seated = sorted((line.guest.name, str(t.number)) for t in board.tables for line in t.lines)
    moved = sorted((g.name, str(group.table)) for group in move_groups(board) for g in group.guests)
    assert len(seated) == size and moved  # the bell moved someone: there is something to find
    url = live_server.url + reverse("room", args=[evening.public_key])
    os.makedirs(SHOTS, exist_ok=True)
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        between = visit_every_page(page, url + "?mode=full", f"{SHOTS}/room-{size}-{height}p-between")
        assert list(between) == ["clock", "seating", "standings"]
        for found in [p for pages in between.values() for p in pages]:
            check_fits(found, big_screen=height == 1080)
        on_seating = sorted((n["text"], n["table"]) for p in between["seating"] for n in p["names"])
        assert on_seating == seated  # every guest once, with their table
        top = [n["text"] for n in between["standings"][0]["names"]]
        assert len(between["standings"]) == 1 and top == [g.name for _, g, _ in board.standing_lines()[: len(top)]]
        assert len(top) >= min(size, 10)

        after = visit_every_page(page, url + "?mode=moves", f"{SHOTS}/room-{size}-{height}p-moves")
        assert list(after) == ["moves"]
        for found in after["moves"]:
            check_fits(found, big_screen=height == 1080)
        on_moves = sorted((n["text"], n["table"]) for p in after["moves"] for n in p["names"] if n["table"])
        assert on_moves == moved
        if size == 500:
            print(
                f"\n500 guests at {width}×{height}: seating {len(between['seating'])} pages, "
                f"moves {len(after['moves'])} pages"
            )
        context.close()
