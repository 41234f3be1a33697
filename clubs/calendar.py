"""What a host does to a season's calendar, each in one transaction: set an evening's date,
start time, place and host member; give each member their private link for the season, or a new
one in place of a link given to the wrong person.

Every refusal is a ``tables.errors.RuleError`` in the host's words, and nothing is saved then.
House rules: ``docs/clubs.md``, "The calendar" and "A member's page".
"""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction

from clubs.models import ClubEvening, Member, MemberLink, Season, club_touch
from tables.errors import RuleError
from tournament.models import Evening, new_private_key


def _day(day: datetime.date) -> str:
    return f"{day.day} {day:%b %Y}"


def _season_words(season: Season) -> str:
    """ "Spring 2026 (1 Mar 2026 to 30 Jun 2026)", an open season "(from 1 Mar 2026)"."""
    if season.ends_on is None:
        return f"{season.name} (from {_day(season.starts_on)})"
    return f"{season.name} ({_day(season.starts_on)} to {_day(season.ends_on)})"


def _in_season(season: Season, day: datetime.date) -> bool:
    return season.starts_on <= day and (season.ends_on is None or day <= season.ends_on)


def _date_refused(link: ClubEvening, date: datetime.date) -> str:
    """Why ``link``'s evening may not move to ``date``, or "": house rule, an evening stays in the
    season it is in (its nights count there; moving it to another season's days would move them),
    and an evening in no season stays out of every season's days."""
    seasons = list(Season.objects.filter(club_id=link.club_id))
    now = next((s for s in seasons if _in_season(s, link.evening.date)), None)
    then = next((s for s in seasons if _in_season(s, date)), None)
    if now is not None and then is not now:
        other = f": that day is in {_season_words(then)}" if then is not None else ""
        return (
            f"{_day(date)} is outside {_season_words(now)}{other}. An evening stays in its season: "
            "choose a day within it."
        )
    if now is None and then is not None:
        return f"{_day(date)} is in {_season_words(then)}; this evening is in no season. Choose a day outside it."
    return ""


def evening_calendar_set(
    *,
    link: ClubEvening,
    date: datetime.date,
    starts_at: datetime.time,
    place: str,
    host_member: Member | None,
) -> ClubEvening:
    """Set where and when the club evening ``link`` is: its ``date`` (the evening's own), its start
    time ``starts_at`` (the site's time zone), its ``place`` (an address, up to 200 characters;
    spaces collapsed) and the member who hosts it (``host_member``; None: not decided yet).
    Returns the link, saved. Raises ``RuleError``, nothing saved: a host member of another club or
    one who left the club, a date outside the evening's season (or, for an evening in no season,
    inside one)."""
    place = " ".join((place or "").split())
    if len(place) > 200:
        raise RuleError("The place is over 200 characters: shorten it.")
    with transaction.atomic():
        Evening.objects.select_for_update().filter(pk=link.evening_id).first()  # the lock order: the evening first
        link = ClubEvening.objects.select_related("club", "evening").get(pk=link.pk)
        if host_member is not None:
            member = Member.objects.filter(pk=host_member.pk, club_id=link.club_id).first()
            if member is None:
                raise RuleError(f"{host_member.name} is not a member of {link.club.name}: choose one of its members.")
            if member.left_on is not None:
                raise RuleError(
                    f"{member.name} left the club on {_day(member.left_on)}: the evening's host is a member of "
                    "the club. Choose another, or mark them back in the club first."
                )
        if date != link.evening.date:
            refused = _date_refused(link, date)
            if refused:
                raise RuleError(refused)
            Evening.objects.filter(pk=link.evening_id).update(date=date)
            link.evening.date = date
        link.place, link.starts_at, link.host_member = place, starts_at, host_member
        link.save(update_fields=["place", "starts_at", "host_member"])
        club_touch(link.club_id)
    return link


def member_links_issue(*, season: Season) -> list[MemberLink]:
    """Give every member of the season's club who has none their private link for ``season``
    (members who left too: they may look back at their season). Running it twice gives nothing
    new the second time. Returns the links made."""
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        have = set(MemberLink.objects.filter(season=season).values_list("member_id", flat=True))
        fresh = [
            MemberLink(member=m, season=season)
            for m in Member.objects.filter(club_id=season.club_id)
            if m.pk not in have
        ]
        try:
            return MemberLink.objects.bulk_create(fresh)
        except IntegrityError:  # a key drawn twice (1 in 2**96) or a link made meanwhile: refused whole
            raise RuleError("Making the links clashed with another change; try again.") from None


def member_link_reissue(*, link: MemberLink) -> MemberLink:
    """A new key for ``link`` (a link sent to the wrong person): the old link answers the one
    404 from now on. Returns the link with its new key."""
    link.key = new_private_key()
    MemberLink.objects.filter(pk=link.pk).update(key=link.key)
    return link
