"""Right-to-left names on the phones, in Debian's Chromium at 390 and 320 px: the result line
"Counters: محمد الأحمد 40, שרה כהן 40, Dan Dunn 80, فاطمة الزهراء 40" shows every number on
the right of its own name (the bidirectional algorithm, left alone, puts a number beside an
Arabic or Hebrew name on the name's left: "40 שרה כהן ,40 محمد الأحمد"), and every guest's
name on a guest's page, a report form, the showdown helper and the room display sits in an
isolating element (``<bdi>``) or alone in its own block. Screenshots go to /tmp/phones-names/."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from tests import fixtures_phones
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Evening, Guest
from tournament.services.captains import captain_report
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
SHOTS = "/tmp/phones-names"
WIDTHS = [390, 320]
NAMES = [
    "محمد الأحمد",
    "שרה כהן",
    "Dan Dunn",
    "فاطمة الزهراء",
    "Ann Ek",
    "יוסף לוי",
    "Bo Berg",
    "ليلى حسن",
    "Cleo Dahl",
    "نور الهدى",
    "Gil Ros",
    "דוד מזרחי",
    "Eva Lind",
    "عمر فاروق",
    "Per Holm",
    "רבקה גולן",
]

# Each [name, number] pair's rectangles as drawn: the name's last line box and the number's
# first, found by the text's own characters (a name in a <bdi> or not), in ``selector``.
DRAWN_PAIRS = """([selector, pairs]) => {
  const root = document.querySelector(selector);
  const nodes = [], starts = [];
  let text = "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) { starts.push(text.length); nodes.push(n); text += n.data; }
  function at(offset) {
    let i = starts.length - 1;
    while (i > 0 && starts[i] > offset) i--;
    return [nodes[i], offset - starts[i]];
  }
  function rects(from, to) {
    const range = document.createRange();
    range.setStart(...at(from)); range.setEnd(...at(to));
    return [...range.getClientRects()].filter((r) => r.width > 0);
  }
  return pairs.map(([name, number]) => {
    const i = text.indexOf(name + " " + number);
    if (i < 0) return { name, missing: text };
    const named = rects(i, i + name.length), counted = rects(i + name.length + 1, i + name.length + 1 + number.length);
    const last = named[named.length - 1], first = counted[0];
    return { name, nameLeft: named[0].left, nameRight: last.right, nameTop: last.top, numberLeft: first.left, numberTop: first.top };
  });
}"""

# Every text occurrence of a guest's name that is neither the whole text of an isolating
# element (unicode-bidi: isolate or plaintext, or a dir attribute) nor alone in its block.
NAMES_NOT_ISOLATED = """(names) => {
  const bad = [];
  const isolating = (el) => /isolate|plaintext/.test(getComputedStyle(el).unicodeBidi) || el.hasAttribute("dir");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest("script, style, option, [hidden]") || !parent.checkVisibility()) continue;
    for (const name of names) {
      if (!n.data.includes(name)) continue;
      let el = parent, ok = false;
      while (el && el !== document.body) {
        if (isolating(el) && el.textContent.trim() === name) { ok = true; break; }
        if (!getComputedStyle(el).display.startsWith("inline")) { ok = el.textContent.trim() === name; break; }
        el = el.parentElement;
      }
      if (!ok) bad.push(name + " in: " + (parent.closest("p, li, h1, h2, h3, label, legend, td, th, div, button") || parent).textContent.trim());
    }
  }
  return bad;
}"""


def phone(browser, width: int):
    return browser.new_context(
        viewport={"width": width, "height": 740}, device_scale_factor=2, is_mobile=True, has_touch=True
    ).new_page()


def poker_night() -> Evening:
    evening = EveningFactory(name="Friday")
    for n in range(16):
        GuestFactory(evening=evening, name=NAMES[n], pack="red" if n % 2 else "blue")
    draw_digital(evening=evening)
    round_start(evening=evening)
    return evening


def reported_table(evening: Evening, number: int) -> list[Guest]:
    """Table ``number``'s guests, its result reported by the first: the second won the pool,
    10 counters from each of the others (counters after the deal: 40, 80, 40, ...)."""
    state = evening_state(evening)
    ids = list(state.tables[number - 1])
    winner = ids[1]
    counters = {g: state.counters[g] - 10 for g in ids if g != winner}
    counters[winner] = state.counters[winner] + 10 * (len(ids) - 1)
    captain = Guest.objects.get(pk=ids[0])
    captain_report(guest=captain, round_number=1, table=number, pool_winner=winner, in_call=[ids[2]], counters=counters)
    by_id = Guest.objects.in_bulk(ids)
    return [by_id[g] for g in ids]


@pytest.mark.parametrize("width", WIDTHS)
def test_each_counter_shows_beside_its_own_right_to_left_name(browser, live_server, width):
    os.makedirs(SHOTS, exist_ok=True)
    evening = poker_night()
    guests = reported_table(evening, 2)
    result = evening.rounds.get().results.get()
    pairs = [[g.name, str(result.counters[str(g.pk)])] for g in guests]
    page = phone(browser, width)
    page.goto(f"{live_server.url}/g/{guests[2].key}/")
    line = page.locator("section.result p.small").first
    assert line.inner_text().startswith("Counters:")
    page.screenshot(path=f"{SHOTS}/poker-result-{width}.png", full_page=True)
    drawn = page.evaluate(DRAWN_PAIRS, ["section.result p.small", pairs])
    assert all("missing" not in d for d in drawn), drawn
    same_line = [d for d in drawn if abs(d["nameTop"] - d["numberTop"]) < 2]
    assert len(same_line) >= 2, drawn  # at 320 px a pair may wrap: most share a line
    for d in same_line:  # a left-to-right line: the number after its name, on its right
        assert d["numberLeft"] >= d["nameRight"] - 0.5, d
    names = [g.name for g in Guest.objects.filter(evening=evening)]
    assert page.evaluate(NAMES_NOT_ISOLATED, names) == []
    page.context.close()


def test_every_name_on_the_poker_phones_and_the_room_is_isolated(browser, live_server):
    evening = poker_night()
    guests = reported_table(evening, 1)
    names = [g.name for g in Guest.objects.filter(evening=evening)]
    page = phone(browser, 390)
    other = evening_state(evening).tables[2][0]
    for url in (
        f"/g/{guests[1].key}/",  # the winner's page: the result, the votes
        f"/g/{Guest.objects.get(pk=other).key}/report/",  # another table's captain's form
        f"/g/{guests[1].key}/showdown/",
        reverse("room", args=[evening.public_key]),
    ):
        page.goto(live_server.url + url)
        assert page.evaluate(NAMES_NOT_ISOLATED, names) == [], url
    page.context.close()


def test_every_name_on_a_bunco_phone_is_isolated(browser, live_server):
    evening = EveningFactory(format="bunco", round_end=Evening.RoundEnd.CLOCK)
    for n, name in enumerate(NAMES[:8]):
        GuestFactory(evening=evening, name=name, pack="red" if n % 2 else "blue")
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    n1, e1, s1, w1 = foursome_state(evening).tables[0]
    north, east = Guest.objects.get(pk=n1), Guest.objects.get(pk=e1)
    names = NAMES[:8]
    page = phone(browser, 390)
    page.goto(f"{live_server.url}/g/{north.key}/report/")
    assert page.evaluate(NAMES_NOT_ISOLATED, names) == []
    foursome_report(
        round=rnd,
        table=1,
        report={"points": {"NS": 21, "EW": 5}, "buncos": {str(n1): 1}, "minis": {str(e1): 1}},
        reporter=north,
    )
    page.goto(f"{live_server.url}/g/{east.key}/")
    assert f"{north.name}: 1 bunco" in page.locator("section.result").inner_text()
    assert page.evaluate(NAMES_NOT_ISOLATED, names) == []
    page.context.close()
