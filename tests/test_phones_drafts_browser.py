"""Nothing a guest enters on a phone is lost before the server has it, and the phone's "not sent
yet" note covers nothing, in Debian's Chromium at 390 and 320 px.

Every form a guest fills keeps its draft on the phone (``static/keep.js``, localStorage keys
``headtable-draft:``) across a reload and a browser that drops the page (a phone asleep): the
poker captain's report (winner, the call, the counters), the showdown helper's hands, a dispute
note, the Euchre and Whist reports typed; the draft is gone once the server confirms the send.
The kept note ("Not sent yet: ...") takes its own place at the top of the page: its box
overlaps no other element's, wherever the page is scrolled, on the report form and on the
dispute page. Screenshots go to /tmp/phones-drafts/."""

from __future__ import annotations

import os

import pytest

from tests import fixtures_phones
from tests.factories import EveningFactory, GuestFactory
from tests.test_phones_offline_browser import Wifi, confirmed, phone_context
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Evening, Guest, Result
from tournament.services.captains import captain_report
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
SHOTS = "/tmp/phones-drafts"
WIDTHS = [390, 320]
DRAFTS = "Object.keys(localStorage).filter(k => k.startsWith('headtable-draft:'))"

# The elements whose box the kept note's box overlaps (neither inside it nor holding it), by
# tag and text, with the page scrolled to ``y``.
OVERLAPPED = """(y) => {
  window.scrollTo(0, y);
  const note = document.querySelector(".kept-notes"), n = note.getBoundingClientRect(), hits = [];
  for (const el of document.querySelectorAll("body *")) {
    if (note.contains(el) || el.contains(note) || !el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < n.right - 0.5 && r.right > n.left + 0.5 && r.top < n.bottom - 0.5 && r.bottom > n.top + 0.5)
      hits.push(el.tagName + ": " + el.textContent.trim().slice(0, 40));
  }
  return hits;
}"""


def phone_at(browser, width: int):
    context = phone_context(browser, width)
    return context, Wifi(context), context.new_page()


def asleep(page, url: str):
    """The phone's browser dropped the page (asleep, or closed): a new context with the same
    localStorage opens ``url`` again. Returns the new page."""
    kept = page.context.storage_state()
    width = page.viewport_size["width"]
    browser = page.context.browser
    page.context.close()
    page = phone_context(browser, width, storage_state=kept).new_page()
    page.goto(url)
    return page


def covers_nothing(page) -> None:
    """The kept note overlaps nothing at the top, the middle and the bottom of the page."""
    bottom = page.evaluate("document.documentElement.scrollHeight")
    for y in (0, bottom // 3, bottom // 2, bottom):
        assert page.evaluate(OVERLAPPED, y) == [], y


def poker_night() -> Evening:
    evening = EveningFactory()
    for n in range(16):
        GuestFactory(evening=evening, name=f"Guest {n + 1:02}", pack="red" if n % 2 else "blue")
    draw_digital(evening=evening)
    round_start(evening=evening)
    return evening


@pytest.mark.parametrize("width", WIDTHS)
def test_the_poker_report_keeps_what_was_typed_until_the_server_has_it(browser, live_server, width):
    os.makedirs(SHOTS, exist_ok=True)
    evening = poker_night()
    state = evening_state(evening)
    ids = list(state.tables[0])  # the head table: everyone's counters
    guests = Guest.objects.in_bulk(ids)
    captain, winner, caller = guests[ids[0]], guests[ids[1]], guests[ids[2]]
    counters = {g: state.counters[g] - 10 for g in ids if g != winner.pk}
    counters[winner.pk] = state.counters[winner.pk] + 10 * (len(ids) - 1)
    url = f"{live_server.url}/g/{captain.key}/report/"
    context, wifi, page = phone_at(browser, width)
    page.goto(url)
    page.get_by_role("group", name="Who won the pool?").get_by_label(winner.name, exact=True).check()
    page.get_by_role("group", name="Who was in the call").get_by_label(caller.name, exact=True).check()
    for g, c in counters.items():
        page.locator("div.counter").filter(has_text=guests[g].name).locator("input").fill(str(c))
    page.reload()  # what was typed comes back
    assert page.get_by_role("group", name="Who won the pool?").get_by_label(winner.name, exact=True).is_checked()
    assert page.get_by_role("group", name="Who was in the call").get_by_label(caller.name, exact=True).is_checked()
    for g, c in counters.items():
        assert page.locator("div.counter").filter(has_text=guests[g].name).locator("input").input_value() == str(c)
    page = asleep(page, url)  # and after the browser dropped the page
    assert page.get_by_role("group", name="Who won the pool?").get_by_label(winner.name, exact=True).is_checked()
    for g, c in counters.items():
        assert page.locator("div.counter").filter(has_text=guests[g].name).locator("input").input_value() == str(c)
    assert len(page.evaluate(DRAFTS)) == 1
    page.get_by_role("button", name="Send the result").click()
    confirmed(page, ["result is sent"])
    result = Result.objects.get()
    assert result.pool_winner_id == winner.pk and result.in_call == [caller.pk]
    assert {int(g): c for g, c in result.counters.items()} == counters
    assert page.evaluate(DRAFTS) == []  # confirmed: nothing left on the phone
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_kept_note_takes_its_own_place_on_the_report_form(browser, live_server, width):
    evening = poker_night()
    ids = list(evening_state(evening).tables[1])
    captain, winner, caller = (Guest.objects.get(pk=p) for p in ids[:3])
    context, wifi, page = phone_at(browser, width)
    page.goto(f"{live_server.url}/g/{captain.key}/report/")
    page.get_by_role("group", name="Who won the pool?").get_by_label(winner.name, exact=True).check()
    page.get_by_role("group", name="Who was in the call").get_by_label(caller.name, exact=True).check()
    wifi.down()
    page.get_by_role("button", name="Send the result").click()
    note = page.locator(".kept-notes .kept-waiting")
    note.wait_for()
    box = note.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 740  # in sight once shown
    page.screenshot(path=f"{SHOTS}/poker-kept-{width}.png", full_page=False)
    covers_nothing(page)
    context.close()


def test_the_kept_note_covers_nothing_on_the_dispute_page_and_the_note_is_kept(browser, live_server):
    evening = poker_night()
    captain, winner, voter = (Guest.objects.get(pk=p) for p in evening_state(evening).tables[1][:3])
    captain_report(guest=captain, round_number=1, table=2, pool_winner=winner.pk)
    url = f"{live_server.url}/g/{voter.key}/"
    context, wifi, page = phone_at(browser, 320)
    page.goto(url)
    page.get_by_label("Why you dispute it (optional)").fill("Bo had 60, not 40")
    page = asleep(page, url)  # the phone slept before the guest sent it
    assert page.get_by_label("Why you dispute it (optional)").input_value() == "Bo had 60, not 40"
    wifi = Wifi(page.context)
    wifi.down()
    page.get_by_role("button", name="Dispute: the host decides").click()
    page.locator(".kept-notes .kept-waiting").wait_for()
    page.screenshot(path=f"{SHOTS}/dispute-kept-320.png", full_page=True)
    covers_nothing(page)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        covers_nothing(page)
    wifi.up()
    confirmed(page, ["Your dispute is sent: the host will decide."])
    vote = Result.objects.get().votes.get()
    assert (vote.verdict, vote.note) == ("dispute", "Bo had 60, not 40")
    assert page.evaluate(DRAFTS) == []
    page.context.close()


@pytest.mark.parametrize("fmt", ["euchre", "whist"])
def test_a_typed_tables_of_four_report_survives_a_reload(browser, live_server, fmt):
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK)
    for n in range(8):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    round_start(evening=evening)
    north = Guest.objects.get(pk=foursome_state(evening).tables[0][0])
    url = f"{live_server.url}/g/{north.key}/report/"
    context, wifi, page = phone_at(browser, 390)
    page.goto(url)
    field, value, other = ("points_ns", "7", "points_ew") if fmt == "euchre" else ("tricks_ns", "8", "tricks_ew")
    page.locator(f"input[name={field}]").fill(value)
    page.locator(f"input[name={other}]").fill("5")
    page.reload()
    assert page.locator(f"input[name={field}]").input_value() == value
    assert page.locator(f"input[name={other}]").input_value() == "5"
    page = asleep(page, url)
    assert page.locator(f"input[name={field}]").input_value() == value
    page.get_by_role("button", name="Send the result").click()
    confirmed(page, ["result is sent"])
    assert Result.objects.count() == 1 and page.evaluate(DRAFTS) == []
    page.context.close()


def test_the_showdown_helpers_hands_survive_a_reload(browser, live_server):
    evening = poker_night()
    captain = Guest.objects.get(pk=evening_state(evening).tables[1][0])
    url = f"{live_server.url}/g/{captain.key}/showdown/"
    context, wifi, page = phone_at(browser, 390)
    page.goto(url)
    for card in ["AC", "2D", "3H", "4S", "5C", "10C"]:
        page.locator(f"button.card[data-card='{card}']").tap()
    page.reload()
    assert page.locator("#hand-1").input_value() == "AC 2D 3H 4S 5C"
    assert page.locator("#hand-2").input_value() == "10C"
    assert page.locator("input[name='seat'][value='2']").is_checked()
    assert page.locator("button.card[data-card='AC']").is_disabled()  # the helper starts from what came back
    for card in ["JD", "QH", "KS", "AD"]:
        page.locator(f"button.card[data-card='{card}']").tap()
    page.locator(".sticky-actions button[value='decide']").tap()
    page.locator("#verdict").wait_for()  # the server has the hands now: its page shows them
    assert page.locator("#hand-2").input_value() == "10C JD QH KS AD"
    # The draft of the form before is forgotten once the page's script has read the new page
    # (it runs when the page has loaded: waited for, not raced).
    page.wait_for_function(f"{DRAFTS}.length === 0", timeout=5000)
    assert page.evaluate(DRAFTS) == []
    page.context.close()
