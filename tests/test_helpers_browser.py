"""A door helper checks guests in on a phone (390 px wide, Chromium): the link from the host's
QR code, find as you type, one tap per guest (the row swaps in place), a guest added at the
door; the host sees it all in the audit log. Screenshots go to /tmp/host-door/."""

import os
import re

import pytest

from tests.factories import EveningFactory
from tests.test_draw_browser import login
from tournament.models import AuditEntry, Guest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = "/tmp/host-door"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def test_a_door_helper_checks_guests_in_on_a_phone(browser, live_server, host):
    os.makedirs(SHOTS, exist_ok=True)
    evening = EveningFactory(host=host, name="Friday at the club")
    names = [
        f"{first} {last}"
        for first in ("Alma", "Bo", "Cleo", "Dag", "Eva", "Frej")
        for last in ("Ahlberg", "Berg", "Crona", "Dahl", "Ek")
    ]
    Guest.objects.bulk_create(
        [
            Guest(
                evening=evening,
                name=n,
                name_key=Guest.fold_name(n),
                pack="red" if i % 2 else "blue",
                status="registered",
            )
            for i, n in enumerate(names)
        ]
    )

    # The host creates a door link for Britt on the door page.
    host_page = login(browser, live_server.url, host)
    host_page.goto(f"{live_server.url}/host/e/{evening.pk}/door/")
    host_page.get_by_label("A link for").select_option("door")
    host_page.get_by_label("For whom (optional)").fill("Britt")
    host_page.get_by_role("button", name="Create the link").click()
    host_page.get_by_text("Link 1 is ready").wait_for()
    host_page.get_by_text("Show the QR code to scan").click()
    host_page.locator("#helper-1 svg.qr").wait_for()
    host_page.screenshot(path=f"{SHOTS}/helpers-door-page.png", full_page=True)
    url = host_page.locator("#helper-1 .linktext a").get_attribute("href")
    assert "/h/" in url

    # Britt opens it on her phone.
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(url)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    phone.evaluate("window.notReloaded = true")
    search = phone.get_by_label("Find a guest")
    for name in ("Cleo Dahl", "Eva Berg", "Alma Ek"):
        search.fill("")
        search.press_sequentially(name.lower(), delay=20)
        guest = Guest.objects.get(name=name)
        # the last search has answered (its address is pushed after the swap): then tap
        phone.wait_for_function(f"new URLSearchParams(location.search).get('q') === {name.lower()!r}")
        assert phone.locator("#guest-rows tr[id^=guest-]").count() == (2 if name == "Eva Berg" else 1)  # + Ahlberg
        phone.locator(f"#guest-{guest.pk}").get_by_role("button", name="Check in").tap()
        phone.wait_for_function(f"document.querySelector('#guest-{guest.pk}').classList.contains('here')")
    assert phone.evaluate("window.notReloaded") is True
    assert set(Guest.objects.filter(status="here").values_list("name", flat=True)) == {
        "Cleo Dahl",
        "Eva Berg",
        "Alma Ek",
    }
    assert "3 here" in phone.locator("#guest-counts").inner_text()
    phone.screenshot(path=f"{SHOTS}/helper-phone-checked-in.png")

    # A guest not on the list.
    phone.get_by_text("Add a guest who is not on the list", exact=True).tap()
    phone.get_by_label(re.compile(r"^Name:?$")).fill("Gustav Late")
    phone.get_by_label("Pack").select_option("red")
    phone.get_by_role("button", name="Add the guest").tap()
    phone.get_by_text("Gustav Late is registered and checked in.").wait_for()
    assert Guest.objects.get(name="Gustav Late").status == "here"
    search = phone.get_by_label("Find a guest")
    search.fill("")
    phone.wait_for_function("document.querySelectorAll('#guest-rows tr[id^=guest-]').length === 31")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=f"{SHOTS}/helper-phone-list.png", full_page=False)

    # The host's audit log names her.
    assert AuditEntry.objects.filter(helper__number=1).count() == 4
    host_page.goto(f"{live_server.url}/host/e/{evening.pk}/audit/")
    assert host_page.get_by_text("The door helper (link 1, Britt) ").count() == 4

    # Revoked: the phone's next tap gets "Not found", and nothing changes.
    host_page.goto(f"{live_server.url}/host/e/{evening.pk}/door/")
    host_page.get_by_role("button", name="Revoke link 1").click()
    host_page.get_by_text("Link 1 is revoked").wait_for()
    phone.reload()
    assert "This link does not work" in phone.content()
    phone.context.close()
    host_page.context.close()


def test_a_door_link_revoked_while_its_page_is_open_says_so_on_the_next_tap(browser, live_server, host):
    """The host revokes the door link while the helper's phone shows the guests list: *Check
    in* answered 404 and htmx showed nothing; the page now says the link no longer works."""
    from tournament.services.helpers import helper_link_create, helper_link_revoke

    evening = EveningFactory(host=host, name="Friday at the club")
    guest = Guest.objects.create(evening=evening, name="Cleo Dahl", pack="red", status="registered")
    link = helper_link_create(evening=evening, role="door")
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/h/{link.key}/")
    phone.locator(f"#guest-{guest.pk}").get_by_role("button", name="Check in").wait_for()
    helper_link_revoke(evening=evening, number=link.number)
    phone.locator(f"#guest-{guest.pk}").get_by_role("button", name="Check in").tap()
    alert = phone.get_by_role("alert")
    alert.wait_for()
    assert "This link does not work" in alert.inner_text() and "Ask the host for a new one" in alert.inner_text()
    assert phone.get_by_role("button", name="Check in").count() == 0  # nothing left to tap
    assert Guest.objects.get(pk=guest.pk).status == "registered"


def test_a_scorer_enters_a_tables_report_at_tables_of_four_on_a_phone(browser, live_server, host):
    """Bunco, 3 tables (a ghost at one): the scorer's tables and a table's report form fit a
    390 px phone (no sideways scrolling), every player named; the report typed in is saved and
    the table shows it. Screenshots: /tmp/host-scorer/."""
    from tournament.formats.partnership.state import foursome_draw, foursome_state
    from tournament.services.clock import round_start
    from tournament.services.helpers import helper_link_create

    os.makedirs("/tmp/host-scorer", exist_ok=True)
    evening = EveningFactory(host=host, name="Bunco at Maj-Britt's", format="bunco", round_end="clock")
    names = ["Alma Ahlberg", "Bo Berg", "Cleo Crona", "Dag Dahl", "Eva Ek", "Frej Falk", "Gun Gran", "Hugo Holm"]
    names += ["Ines Isaksson-Lindqvist", "Jon Jansson", "Karin Kvist"]
    Guest.objects.bulk_create(
        [Guest(evening=evening, name=n, name_key=Guest.fold_name(n), pack="red", status="here") for n in names]
    )
    foursome_draw(evening=evening)
    round_start(evening=evening)
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven")
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/h/{scorer.key}/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    for name in names:
        assert phone.get_by_text(name, exact=True).count() == 1
    phone.screenshot(path="/tmp/host-scorer/scorer-tables.png", full_page=True)
    phone.get_by_role("link", name="Table 2").click()
    phone.get_by_role("button", name="Save the report").wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.locator("#id_points_NS").fill("23")
    phone.locator("#id_points_EW").fill("9")
    phone.locator("#id_buncos_0").fill("1")
    phone.screenshot(path="/tmp/host-scorer/scorer-report-form.png", full_page=True)
    phone.get_by_role("button", name="Save the report").click()
    phone.get_by_text("Report saved for table 2.").wait_for()
    north = Guest.objects.get(pk=foursome_state(evening).tables[1][0])
    assert phone.get_by_text(f"buncos: {north.name} 1").count() == 1
    phone.screenshot(path="/tmp/host-scorer/scorer-saved.png", full_page=True)
    entry = AuditEntry.objects.get(evening=evening, action="result.record")
    assert entry.helper == scorer and entry.detail["table"] == 2
