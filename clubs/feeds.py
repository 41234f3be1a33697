"""A member's calendar feed (iCalendar, RFC 5545) of the season's evenings, written with the
``icalendar`` package (``docs/clubs.md``, "The calendar").

One event per evening of the season: its UID stable for the evening's life
(``club-evening-<id>@head-table``, whatever is changed: a calendar app updates the event in
place), its start with the site's time zone (``settings.TIME_ZONE``, the VTIMEZONE included),
house rule: three hours long, its place as LOCATION and "Bunco at Ann Lee's" as SUMMARY.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from zoneinfo import ZoneInfo

import icalendar
from django.conf import settings

from clubs.member_page import CalendarEvening
from clubs.models import Season

EVENING_HOURS = 3  # house rule: a club evening is shown three hours long


def _uid(evening: CalendarEvening) -> str:
    return f"club-evening-{evening.link.pk}@head-table"


def season_feed(season: Season, evenings: Sequence[CalendarEvening], *, page_url: str = "") -> bytes:
    """The season's calendar as iCalendar bytes (UTF-8, CRLF lines): a VCALENDAR named after the
    club and season, one VEVENT per evening of ``evenings`` (``member_page.season_calendar``), and
    the time zone's VTIMEZONE. ``page_url`` (the member's page, absolute): each event's URL."""
    zone = ZoneInfo(settings.TIME_ZONE)
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Head Table//Club calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", f"{season.club.name}: {season.name}")
    for night in evenings:
        start = datetime.datetime.combine(night.evening.date, night.link.starts_at, tzinfo=zone)
        event = icalendar.Event()
        event.add("uid", _uid(night))
        event.add("dtstamp", night.evening.created_at.astimezone(datetime.UTC))
        event.add("dtstart", start)
        event.add("dtend", start + datetime.timedelta(hours=EVENING_HOURS))
        event.add("summary", night.summary)
        if night.link.place:
            event.add("location", night.link.place)
        event.add("description", f"{season.club.name}, {season.name}: {night.evening.name}")
        if page_url:
            event.add("url", page_url)
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()
