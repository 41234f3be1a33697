"""The print page in Debian's Chromium at phone size (390x844): it fits the screen, the paper
choice switches the links, and a download link gives a PDF whose QR codes are the real links."""

import pytest
from django.urls import reverse

from tests.fixtures_printing import printing_evening
from tests.test_printing_documents import scan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp"


def test_the_print_page_on_a_phone(browser, live_server, host):
    evening = printing_evening(host, guests=16)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, accept_downloads=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(host.username)
    page.get_by_label("Password").fill("pass-word-123")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}{reverse('host-evening', args=[evening.pk])}")
    page.get_by_role("link", name="Print", exact=True).click()
    page.wait_for_url(f"**{reverse('host-print', args=[evening.pk])}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=f"{SHOTS}/print-page-phone.png", full_page=True)

    page.get_by_role("link", name="US Letter").click()
    assert "paper=letter" in page.get_by_role("link", name="8 a page, with cut marks (PDF)").get_attribute("href")
    with page.expect_download() as info:
        page.get_by_role("link", name="8 a page, with cut marks (PDF)").click()
    download = info.value
    assert download.suggested_filename == f"seating-cards-{evening.pk}-letter.pdf"
    with open(download.path(), "rb") as pdf:
        codes = scan(pdf.read())
    assert sorted(codes) == sorted(
        f"{live_server.url}{reverse('guest-page', args=[g.key])}" for g in evening.guests.all()
    )
    context.close()
