"""A member's private pages, under ``/m/<key>/`` (``docs/clubs.md``, "A member's page"): their
page for the season and their calendar feed. The key is the member's link for the season
(``MemberLink``, 192 random bits); any wrong key gets the one 404 every private door answers
(``tournament.private_doors``, which also sets no-referrer and noindex on every answer), and no
key reaches a log (``tournament.private_logs``: ``/m/`` is among the key-bearing paths)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from clubs.feeds import season_feed
from clubs.member_page import member_link, member_page, season_calendar
from tournament.private_doors import not_found_for, private
from tournament.snapshots import read_in_one_snapshot


@read_in_one_snapshot
def member_home(request: HttpRequest, key: str) -> HttpResponse:
    """The member's page: the next evening (date, time, host, address), tonight's table when an
    evening is on (a link to their guest page for tonight), their season tallies and place, their
    money paid and won, and the season's calendar with its feed."""
    link = member_link(key)
    if link is None:
        return not_found_for(request)
    page = member_page(link, fresh=True)  # the link, its season and club as just read
    feed = request.build_absolute_uri(reverse("member-calendar", args=[key]))
    webcal = "webcal://" + feed.split("://", 1)[1]  # what a phone's calendar app subscribes to when tapped
    context = {
        "p": page,
        "club": link.season.club,
        "season": link.season,
        "member": link.member,
        "feed": feed,
        "webcal": webcal,
    }
    return private(render(request, "clubs/member.html", context))


def member_calendar(request: HttpRequest, key: str) -> HttpResponse:
    """The season's calendar as an iCalendar feed (``text/calendar``), for the member's calendar
    app to subscribe to (``webcal://`` or the https address)."""
    link = member_link(key)
    if link is None:
        return not_found_for(request)
    page_url = request.build_absolute_uri(reverse("member-page", args=[key]))
    body = season_feed(link.season, season_calendar(link.season), page_url=page_url)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="club-calendar.ics"'
    return private(response)
