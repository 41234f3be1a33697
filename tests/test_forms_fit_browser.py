"""No choice is cut off (Debian's Chromium): the host's forms at 1280 px and on a phone (390 px),
the guest's pages at 320 px. A stranger's find: the new evening's "Round end" select cut its
words off at 1280 px ("... the others: when th"); a select shows one line and no style sheet
wraps it, so a choice in long words is radio buttons (``forms.fields.long_choices_as_radios``);
the guest's showdown squeezed its Dealer select to two letters at 320 px."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tournament.models import Evening
from tournament.services.draws import draw_digital

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp"

CUT = """() => {
  const out = [];
  const ctx = document.createElement('canvas').getContext('2d');
  for (const sel of document.querySelectorAll('select')) {
    if (sel.getBoundingClientRect().width === 0) continue;  // a hidden group
    const cs = getComputedStyle(sel);
    ctx.font = cs.font;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;  // the arrow
    for (const o of sel.options) {
      if (ctx.measureText(o.text).width > room) out.push(sel.name + ': ' + o.text);
    }
  }
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth) out.push('the page is wider than the screen');
  return out;
}"""
"""Every select's choice wider than the select shows, and a page wider than the screen."""


def _evenings(host) -> tuple[Evening, Evening]:
    poker = EveningFactory(host=host, format="poker", round_end=Evening.RoundEnd.CLOCK)
    euchre = EveningFactory(host=host, format="euchre", round_end=Evening.RoundEnd.HEAD_POOL)
    for evening in (poker, euchre):
        for i in range(16):
            GuestFactory(evening=evening, name=f"Bartholomew Quince-{chr(65 + i)}", pack="red" if i % 2 else "blue")
    draw_digital(evening=poker, user=host)
    return poker, euchre


def test_no_host_form_cuts_a_choice_off_at_1280_px_or_on_a_phone(browser, live_server, host):
    poker, euchre = _evenings(host)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(host.username)
    page.get_by_label("Password").fill("pass-word-123")
    page.get_by_role("button", name="Log in").click()
    pages = [
        reverse("host-evenings"),
        reverse("host-evening-edit", args=[poker.pk]),
        reverse("host-evening-edit", args=[euchre.pk]),
        reverse("host-clock-settings", args=[poker.pk]),
        reverse("host-clock-settings", args=[euchre.pk]),
        reverse("host-house-rules", args=[poker.pk]),
        reverse("host-result", args=[poker.pk, 1]),
        reverse("host-seats", args=[poker.pk]),
        reverse("host-evening-import"),
        reverse("clubs"),
    ]
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for path in pages:
            page.goto(f"{live_server.url}{path}")
            assert page.evaluate(CUT) == [], (width, path)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}{reverse('host-evenings')}")
    page.screenshot(path=f"{SHOTS}/new-evening-1280.png", full_page=True)
    # the round end is offered whole, and the form still creates the evening
    choice = page.get_by_role("radio", name="When the clock runs out", exact=True)
    choice.check()
    page.get_by_label("Name:").fill("Radio night")
    page.get_by_role("button", name="Create the evening").click()
    page.wait_for_load_state()
    assert Evening.objects.get(name="Radio night").round_end == Evening.RoundEnd.CLOCK
    context.close()


def test_no_guest_page_cuts_a_choice_off_at_320_px(browser, live_server, host):
    poker, euchre = _evenings(host)
    draw_digital(evening=euchre, user=host)
    guest = poker.guests.first()
    context = browser.new_context(viewport={"width": 320, "height": 700}, is_mobile=True)
    page = context.new_page()
    for path in (
        reverse("guest-page", args=[guest.key]),
        reverse("guest-showdown", args=[guest.key]),
        reverse("guest-page", args=[euchre.guests.first().key]),
        reverse("door", args=[poker.public_key]),
        reverse("rules"),
    ):
        page.goto(f"{live_server.url}{path}")
        assert page.evaluate(CUT) == [], path
    page.goto(f"{live_server.url}{reverse('guest-showdown', args=[guest.key])}")
    page.screenshot(path=f"{SHOTS}/showdown-320.png", full_page=True)
    context.close()
