"""Every page of a demo evening at 320 px in Debian's Chromium: nothing is wider than the phone
(``document.documentElement.scrollWidth <= 320``), the favicon loads (no 404 on any page), and
the showdown helper is usable at 320 px: full seat names, and its sticky bar never covers the
card grid. Screenshots of the narrowest pages go to /tmp/host-party/."""

from __future__ import annotations

import os

import pytest

from tests.fixtures_pages import crawl_evening, every_page
from tournament.services.state import evening_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/host-party"
WIDEST = """[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 320.5)
    .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > 320.5)).slice(0, 5)
    .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + ' '
         + e.textContent.trim().slice(0, 40))"""


def phone(browser, live_server, host=None, width=320):
    """A phone-sized page (logged in as ``host`` when given)."""
    context = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=True, has_touch=True)
    if host is not None:
        from django.conf import settings
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore

        session = SessionStore()
        # Django's model backend (django-axes, first in the list, checks logins but loads no user).
        session[SESSION_KEY], session[BACKEND_SESSION_KEY] = str(host.pk), "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = host.get_session_auth_hash()
        session.save()
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_server.url}]
        )
    return context.new_page()


def test_no_page_is_wider_than_a_320px_phone_and_every_page_has_its_favicon(browser, live_server, host):
    evening = crawl_evening(host)
    pages = {"host": phone(browser, live_server, host), "other": phone(browser, live_server)}
    missing, wide = [], {}
    for page in pages.values():
        page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    os.makedirs(SHOTS, exist_ok=True)
    for item in every_page(evening):
        page = pages["host" if item.audience == "host" else "other"]
        response = page.goto(live_server.url + item.url)
        assert response.status == 200, item.url
        page.wait_for_load_state("load")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 320:
            wide[item.url] = (width, page.evaluate(WIDEST))
            page.screenshot(path=f"{SHOTS}/wide-{len(wide)}.png", full_page=True)
        assert page.evaluate("[...document.querySelectorAll('link[rel=icon]')].length") == 2
    assert wide == {}
    assert missing == []
    icon = pages["other"].goto(live_server.url + "/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"] in ("image/x-icon", "image/vnd.microsoft.icon")


def test_the_showdown_helper_at_320px_shows_full_seat_names_and_its_bar_covers_no_card(browser, live_server, host):
    evening = crawl_evening(host)
    table = evening_state(evening).tables[1]
    guest = evening.guests.get(pk=table[0])
    page = phone(browser, live_server)
    page.goto(f"{live_server.url}/g/{guest.key}/showdown/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    names = {g.pk: g.name for g in evening.guests.filter(pk__in=table)}
    labels = page.locator("input[name='seat'] + *, label:has(input[name='seat'])").all_inner_texts()
    text = " ".join(labels)
    for pk in table:
        assert names[pk] in text, names[pk]
    truncated = page.evaluate("""[...document.querySelectorAll('label:has(input[name=seat]), label:has(input[name=seat]) *')]
        .filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible').length""")
    assert truncated == 0
    bar = page.locator(".sticky-actions")
    cards = page.locator("button.card")
    for i in range(0, cards.count(), 13):
        card = cards.nth(i)
        card.scroll_into_view_if_needed()
        box, cover = card.bounding_box(), bar.bounding_box()
        assert box["y"] + box["height"] <= cover["y"] or box["y"] >= cover["y"] + cover["height"], i
        card.tap(timeout=5000)  # a card scrolled into view can be tapped, not the bar over it
    page.screenshot(path=f"{SHOTS}/showdown-320.png", full_page=False)
