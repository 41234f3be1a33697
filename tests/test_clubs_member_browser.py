"""A member's page on a phone in Debian's Chromium (issue 25 item 5), at 390 and 320 px: tonight's
table with the button to tonight's guest page, the next evening's host and address, the season's
tallies and place, the money paid and won; it fits the screen (no sideways scroll) and passes
axe-core. The host's calendar pages at 1280 and 390 px too. Screenshots go to /tmp/member-*.png."""

from __future__ import annotations

import datetime

import pytest

from clubs import calendar, services
from clubs.kitty import evening_settle, kitty_set
from clubs.models import Member
from tests.fixtures_clubs import bunco_club, club_evening, play
from tests.test_accessibility import axe_violations
from tests.test_draw_browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = {"390": {"width": 390, "height": 844}, "320": {"width": 320, "height": 640}}


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _season(host):
    """A Bunco club whose season holds a settled evening a week ago, one on tonight (a round
    played) and one in a fortnight at Zoë Ångström-Łukasiewicz's (a long name and address)."""
    today = datetime.date.today()
    club = bunco_club(host)
    services.members_add(
        club=club, rows=services.parse_member_list("Zoë Ångström-Łukasiewicz, red\nAnn, blue", club=club)
    )
    season = services.season_open(club=club, name="This season", starts_on=today - datetime.timedelta(days=30))
    past = play(club_evening(club, host, today - datetime.timedelta(days=7)), host, rounds=3)
    kitty_set(evening=past, fee=500, payouts=[])
    evening_settle(evening=past)
    tonight = play(club_evening(club, host, today), host, rounds=1)
    later = club_evening(club, host, today + datetime.timedelta(days=14))
    zoe = Member.objects.get(club=club, name__startswith="Zoë")
    ann = Member.objects.get(club=club, name="Ann")
    calendar.evening_calendar_set(
        link=tonight.club_evening, date=today, starts_at=datetime.time(19, 0), place="4 Mill Lane", host_member=ann
    )
    calendar.evening_calendar_set(
        link=later.club_evening,
        date=later.date,
        starts_at=datetime.time(19, 30),
        place="Flat 12, Kristiansandsveien 118, 0187 Oslo, behind the blue door",
        host_member=zoe,
    )
    links = {x.member.name: x for x in calendar.member_links_issue(season=season)}
    return club, season, links["Ann"], tonight


def test_the_member_page_on_phones_at_390_and_320_px(browser, live_server, host):
    club, season, link, tonight = _season(host)
    context = browser.new_context(viewport=PHONES["390"], is_mobile=True, has_touch=True)
    page = context.new_page()
    for width, size in PHONES.items():
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/m/{link.key}/")
        assert page.get_by_role("heading", name=f"Tonight: {tonight.name}").is_visible()
        assert page.get_by_text("You are at table").is_visible()
        assert page.get_by_role("heading", name="Your season").is_visible()
        assert page.get_by_text("USD 5.00").first.is_visible()
        page.screenshot(path=f"/tmp/member-page-{width}.png", full_page=True)
        assert _fits(page), width
        assert axe_violations(page) == [], width
    page.get_by_role("link", name="Open tonight's page").click()
    assert f"/g/{tonight.guests.get(club_guest__member=link.member).key}/" in page.url
    context.close()


def test_the_hosts_calendar_pages_fit_and_pass_axe(browser, live_server, host):
    club, season, link, tonight = _season(host)
    page = login(browser, live_server.url, host)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        for name, path in (
            ("calendar", f"/host/clubs/{club.pk}/seasons/{season.pk}/calendar/"),
            ("evening", f"/host/clubs/{club.pk}/seasons/{season.pk}/calendar/{tonight.pk}/"),
        ):
            page.goto(live_server.url + path)
            page.screenshot(path=f"/tmp/member-host-{name}-{width}.png", full_page=True)
            assert _fits(page), (name, width)
            assert axe_violations(page) == [], (name, width)
    page.get_by_label("Place").fill("5 Mill Lane")
    page.get_by_role("button", name="Save in the calendar").click()
    assert page.get_by_text(f"“{tonight.name}” is saved in the calendar.").is_visible()
    assert page.get_by_text("5 Mill Lane").is_visible()
