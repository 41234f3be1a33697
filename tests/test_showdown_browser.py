"""Issue 8's browser test, in Debian's Chromium at phone size (390x844): a table captain picks
both hands from the card grid (a used card is disabled), sees the verdict with each hand's
reason, and sends the winner as the table's pool winner in one tap. Screenshots go to /tmp."""

import re

import pytest

from tournament.formats.poker.games import evening_game_set
from tournament.models import Result
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_captain_picks_two_hands_sees_the_tiger_win_and_sends(browser, live_server, make_evening):
    evening = make_evening(8, 8)
    evening_game_set(evening=evening, game="draw_poker", options={"tiger": True})
    draw_digital(evening=evening)
    round_start(evening=evening)
    seating = evening_state(evening).tables[1]
    captain = evening.guests.get(pk=seating[0])
    second = evening.guests.get(pk=seating[1])

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{live_server.url}/g/{captain.key}/")
    phone.get_by_role("link", name="Showdown helper: who wins?").click()
    phone.wait_for_url(f"{live_server.url}/g/{captain.key}/showdown/")
    phone.screenshot(path="/tmp/showdown-empty.png", full_page=True)

    for card in ["AC", "2D", "3H", "4S", "5C"]:
        phone.locator(f"button.card[data-card='{card}']").tap()
    assert phone.locator("input[name='seat'][value='2']").is_checked()  # a full hand moves on
    assert phone.locator("button.card[data-card='AC']").is_disabled()
    for card in ["10C", "JD", "QH", "KS", "AD"]:
        phone.locator(f"button.card[data-card='{card}']").tap()
    assert phone.locator("#hand-1").input_value() == "AC 2D 3H 4S 5C"
    assert phone.locator("#hand-2").input_value() == "10C JD QH KS AD"
    phone.locator("#hand-3").fill("2h 6h")  # typed cards disable their buttons too
    assert phone.locator("button.card[data-card='6H']").is_disabled()
    phone.locator("button.unpick[value='3']").tap()
    phone.locator("button.unpick[value='3']").tap()
    assert phone.locator("#hand-3").input_value() == "" and phone.locator("button.card[data-card='6H']").is_enabled()
    phone.select_option("#dealer", "1")
    phone.locator(".sticky-actions button[value='decide']").tap()

    verdict = phone.locator("#verdict")
    verdict.wait_for()
    assert "Seat 1 wins the pool with the Tiger" in verdict.inner_text()
    assert "a straight" in verdict.inner_text()
    phone.screenshot(path="/tmp/showdown-verdict.png", full_page=False)
    phone.screenshot(path="/tmp/showdown-verdict-full.png", full_page=True)

    phone.get_by_role("button", name=f"Send: {captain.name} won the pool").tap()
    phone.wait_for_url(re.compile(re.escape(f"{live_server.url}/g/{captain.key}/") + "(#.*)?$"))
    assert f"Sent: {captain.name} won the pool at table 2" in phone.content()
    result = Result.objects.get(superseded_at__isnull=True)
    assert (result.table, result.pool_winner_id, result.reported_by_guest_id) == (2, captain.pk, captain.pk)
    assert second.pk != result.pool_winner_id
    phone.screenshot(path="/tmp/showdown-sent.png", full_page=True)
