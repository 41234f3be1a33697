"""The host's guide's screenshots, taken by driving a demo evening in Debian's Chromium, so the
pictures in ``docs/host-guide.md`` show the product as it is.

Every run walks the night the guide describes (the guests checked in, the draw, Connect phones,
the Print page, a round with its results and the bell, a guest's phone, the room display, the
standings) and checks each page answers. The pictures are written to a temporary folder, or to
``docs/images/`` when ``GUIDE_IMAGES`` names that folder (``make guide-images``), 1280 px wide
(a phone's 390 px), reduced to 256 colours: small enough to commit. A second test keeps the
guide and the pictures in step: every picture the guide shows exists, and every picture taken
is shown.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.fixtures_printing import play_round
from tests.test_narrow_browser import phone as phone_page
from tournament.models import Evening, Guest
from tournament.services.draws import draw_digital
from tournament.services.guests import guests_register, parse_guest_list
from tournament.services.results import result_record
from tournament.services.state import evening_state

GUIDE = Path(settings.BASE_DIR) / "docs" / "host-guide.md"
SHOTS = ("evening", "guests", "draw", "connect-phones", "print", "phone", "room", "standings", "ending", "prize")
LAN = "http://192.168.1.23:8000"  # the address make party would find; the pictures show it


def shown_in_guide() -> set[str]:
    """The names of the pictures the guide shows (``![...](images/NAME.png)``)."""
    return set(re.findall(r"\]\(images/([\w-]+)\.png\)", GUIDE.read_text(encoding="utf-8")))


def test_the_guide_shows_every_picture_taken_and_every_picture_exists():
    assert shown_in_guide() == set(SHOTS)
    for name in SHOTS:
        assert (GUIDE.parent / "images" / f"{name}.png").stat().st_size < 250_000, name


def save(page, folder: Path, name: str, *, full_page: bool = False) -> None:
    """A screenshot of ``page`` as ``folder/name.png``, reduced to 256 colours."""
    from PIL import Image

    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    image = Image.open(path).convert("RGB")
    if full_page and image.height > 1800:
        image = image.crop((0, 0, image.width, 1800))
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def demo_evening(host) -> Evening:
    """The demo evening's 32 guests, checked in and drawn; round 1 rung; round 2 in play with
    the head table's result in."""
    evening = Evening.objects.create(
        host=host,
        name="Harvest Progressive",
        date="2026-11-28",
        rounds_planned=6,
        minutes_per_round=12,
        red_label="Ladies",
        blue_label="Gentlemen",
    )
    text = (Path(settings.BASE_DIR) / "seeds" / "demo_guests.csv").read_text(encoding="utf-8")
    guests_register(evening=evening, rows=parse_guest_list(text, evening=evening), check_in=True)
    draw_digital(evening=evening)
    play_round(evening)
    rnd = play_round(evening, ring=False, only_head=True)
    state = evening_state(evening)
    result_record(round=rnd, table=2, pool_winner=state.tables[1][2])
    return Evening.objects.get(pk=evening.pk)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_guides_night_in_pictures(browser, live_server, host, settings, tmp_path):
    folder = Path(os.environ.get("GUIDE_IMAGES") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    evening = demo_evening(host)
    settings.SITE_URL = LAN  # as make party sets it: the pictures show a network address
    url = live_server.url
    desk = phone_page(browser, live_server, host, width=1280)
    desk.set_viewport_size({"width": 1280, "height": 800})
    for name, path in (
        ("guests", f"/host/e/{evening.pk}/guests/"),
        ("draw", f"/host/e/{evening.pk}/draw/"),
        ("connect-phones", "/host/connect/"),
        ("print", f"/host/e/{evening.pk}/print/"),
        ("evening", f"/host/e/{evening.pk}/"),
        ("standings", f"/host/e/{evening.pk}/standings/"),
    ):
        assert desk.goto(url + path).status == 200, path
        if name == "connect-phones":
            assert LAN in desk.content() and "Only this computer" not in desk.content()
        if name == "print":
            assert "Phones cannot open these links" not in desk.content()
        save(desk, folder, name)

    guest = Guest.objects.get(pk=evening_state(evening).tables[1][2])
    mobile = phone_page(browser, live_server, width=390)
    mobile.set_viewport_size({"width": 390, "height": 844})
    assert mobile.goto(f"{url}/g/{guest.key}/").status == 200
    assert guest.name in mobile.content()
    save(mobile, folder, "phone")

    room = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    assert room.goto(f"{url}/e/{evening.public_key}/room/").status == 200
    start = room.get_by_role("button", name=re.compile("Start the room display"))
    if start.count():
        start.first.click()
        start.first.wait_for(state="hidden")
    save(room, folder, "room")

    # The end of the evening: round 2 made the last, rung; the final count taken; two prizes shown.
    ending_shots(evening, desk, room, url, folder)
    for name in SHOTS:
        assert (folder / f"{name}.png").stat().st_size > 5_000, name


def ending_shots(evening: Evening, desk, room, url: str, folder: Path) -> None:
    """The end page after the final count and two prizes, and the room display showing the
    second prize (the guide's "The end of the evening and the prizes")."""
    from tests.fixtures_ending import count_every_table, reveal
    from tournament.models import Bell
    from tournament.services import ending
    from tournament.services.bell import bell_ring
    from tournament.services.state import current_round

    rnd = current_round(evening)
    ending.evening_end(evening=evening, seen_round=rnd.number)
    state = evening_state(evening)
    for number, ids in enumerate(state.tables[2:], 3):
        result_record(round=rnd, table=number, pool_winner=ids[0])
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None
    evening = Evening.objects.get(pk=evening.pk)
    count_every_table(evening)
    reveal(evening, 2)
    assert desk.goto(f"{url}/host/e/{evening.pk}/finish/").status == 200
    assert "Reveal next prize" in desk.content()
    save(desk, folder, "ending")
    room.reload()
    room.wait_for_selector(".room-prize")
    start = room.get_by_role("button", name=re.compile("Start the room display"))
    if start.count() and start.first.is_visible():
        start.first.click()
        start.first.wait_for(state="hidden")
    save(room, folder, "prize")
