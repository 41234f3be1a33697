"""Issue 3's browser test, in Debian's Chromium: the host records a physical draw from the
keyboard (type-ahead names, cards typed as text, Enter, the focus back on the name box), makes
deliberate mistakes that are shown and fixed, finishes, and sees the seating; then the same page
without JavaScript. Screenshots go to /tmp/draw-*.png."""

import pytest

from tests.test_draw_services import make, physical_cards
from tournament.models import DrawnCard, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def login(browser, base, host, **context):
    page = browser.new_context(viewport={"width": 1280, "height": 900}, **context).new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(host.username)
    page.get_by_label("Password").fill("pass-word-123")
    page.get_by_role("button", name="Log in").click()
    return page


def focus_on_name(page) -> None:
    """Wait until the name box has the focus (htmx focuses ``autofocus`` as the swap settles);
    fails after five seconds."""
    page.wait_for_function("document.activeElement && document.activeElement.id === 'id_guest'", timeout=5000)


def saved(page, text: str) -> None:
    """Wait until the "Saved: ..." line names ``text``; on a timeout, a screenshot for the log."""
    try:
        page.wait_for_function(
            f"document.querySelector('.done') && document.querySelector('.done').innerText.includes({text!r})",
            timeout=5000,
        )
    except Exception:
        page.screenshot(path="/tmp/draw-fail.png", full_page=True)
        raise


def test_the_host_records_a_physical_draw_from_the_keyboard(browser, live_server, host):
    base = live_server.url
    evening = make(7, 5, host=host)
    page = login(browser, base, host)
    page.goto(f"{base}/host/e/{evening.pk}/draw/")
    page.screenshot(path="/tmp/draw-page.png", full_page=True)
    page.get_by_role("button", name="Start a physical draw").click()
    page.wait_for_url(f"{base}/host/e/{evening.pk}/draw/physical/")
    focus_on_name(page)
    cards = physical_cards(evening)

    def enter(name: str, card: str) -> None:
        page.keyboard.type(name)
        page.keyboard.press("Tab")
        page.keyboard.type(card)
        page.keyboard.press("Enter")

    first, card = cards[0]
    enter(first.name, card)
    page.locator(".done").wait_for()
    assert f"Saved: {first.name}" in page.locator(".done").inner_text()
    focus_on_name(page)
    assert page.locator("#id_guest").input_value() == ""

    # mistakes: the same guest again, then a rank beyond the plan (three tables)
    enter(first.name, "2")
    page.locator("#card-error").wait_for()
    assert f"{first.name} has already drawn" in page.locator("#card-error").inner_text()
    focus_on_name(page)
    second, card = cards[1]
    page.locator("#id_guest").fill("")
    enter(second.name, "queen")
    page.wait_for_function("document.querySelector('#card-error').innerText.includes('queen')")
    assert "There is no queen" in page.locator("#card-error").inner_text()
    assert page.locator("#id_guest").input_value() == second.name  # the typing is kept to fix
    page.screenshot(path="/tmp/draw-physical-mistake.png", full_page=True)
    assert DrawnCard.objects.count() == 1
    page.locator("#id_card").fill(card)
    page.locator("#id_card").press("Enter")
    saved(page, second.name)

    # the rest, one after the other
    for guest, card in cards[2:]:
        page.locator("#id_guest").fill("")
        enter(guest.name, card)
        saved(page, guest.name + ":")
    assert "12</strong> of 12 cards recorded" in page.content()
    page.screenshot(path="/tmp/draw-physical-complete.png", full_page=True)
    page.get_by_role("button", name="Finish the draw and seat everyone").click()
    page.wait_for_url(f"{base}/host/e/{evening.pk}/seating/")
    assert "Table 1 · Head table" in page.content() and Seat.objects.count() == 12
    page.screenshot(path="/tmp/draw-seating.png", full_page=True)

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    phone.goto(f"{base}/e/{evening.public_key}/seating/")
    assert "Table 3 · Booby table" in phone.content()
    phone.screenshot(path="/tmp/draw-seating-public-phone.png", full_page=True)


def test_the_physical_draw_page_works_without_javascript(browser, live_server, host):
    base = live_server.url
    evening = make(6, 6, host=host)
    page = login(browser, base, host, java_script_enabled=False)
    page.goto(f"{base}/host/e/{evening.pk}/draw/")
    page.get_by_role("button", name="Start a physical draw").click()
    page.wait_for_url(f"{base}/host/e/{evening.pk}/draw/physical/")
    guest, card = physical_cards(evening)[0]
    page.locator("#id_guest").fill(guest.name)
    page.locator("#id_card").fill("7")
    page.locator("#id_card").press("Enter")
    page.wait_for_load_state()
    assert "There is no seven" in page.locator("#card-error").inner_text()
    page.locator("#id_card").fill(card)
    page.locator("#id_card").press("Enter")
    page.wait_for_url(f"{base}/host/e/{evening.pk}/draw/physical/")
    assert f"{guest.name}:" in page.locator(".taken").inner_text()
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path="/tmp/draw-physical-phone-nojs.png", full_page=True)
    page.get_by_role("button", name=f"Undo {guest.name}'s card").click()
    page.wait_for_url(f"{base}/host/e/{evening.pk}/draw/physical/")
    assert not DrawnCard.objects.exists()
