"""Reads for the season's calendar and a member's page (``docs/clubs.md``, "The calendar" and
"A member's page").

``season_calendar`` is the season's evenings with where, when and at whose; ``member_page`` what
a member's private link shows: the next evening and its host and address, tonight's table when
one of the season's evenings is on today and they are its guest (the page hands over to their
guest page), their season line (tallies and place) and their money (paid and won, from the
season's ledger). Both read in a constant number of queries whatever the season's evenings and
members.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from clubs.ledger import LedgerMember, season_ledger
from clubs.models import ClubEvening, Member, MemberLink, Season
from clubs.selectors import SeasonStandings, StandingRow, season_evenings, season_standings
from clubs.versions import SeasonVersion, season_part, season_version
from tables.errors import RuleError
from tables.kitty import money_words
from tournament.kept import Kept
from tournament.models import Evening, Guest
from tournament.registry import format_for, format_named


@dataclass(frozen=True)
class CalendarEvening:
    """One evening of the season's calendar: the evening, its club link (place, start time), the
    member who hosts it (None: not decided) and the format's title ("Bunco")."""

    evening: Evening
    link: ClubEvening
    host: Member | None
    title: str

    @property
    def summary(self) -> str:
        """What a calendar shows for the evening: "Bunco at Ann Lee's" (house rule: the host
        member's whole name, unique in the club), or "Bunco, host to be decided"."""
        if self.host is None:
            return f"{self.title}, host to be decided"
        return f"{self.title} at {self.host.name}'s"


CALENDARS_KEPT = 32  # seasons whose calendar a process keeps
_CALENDARS: Kept[tuple[CalendarEvening, ...]] = Kept(CALENDARS_KEPT)


def season_calendar(season: Season, version: SeasonVersion | None = None) -> tuple[CalendarEvening, ...]:
    """The season's evenings by date (``selectors.season_evenings``), each with its place, start
    time and host member. Two queries whatever the evenings; none with the season's ``version``
    (``clubs.versions.season_version``) when this process keeps the calendar of that version."""
    if version is not None:
        return season_part(_CALENDARS, version, lambda now: season_calendar(now.season))
    evenings = season_evenings(season)
    links = {c.evening_id: c for c in ClubEvening.objects.filter(evening__in=evenings).select_related("host_member")}
    title = format_named(season.club.format).title
    return tuple(CalendarEvening(e, links[e.pk], links[e.pk].host_member, title) for e in evenings)


def today() -> datetime.date:
    """Today in the site's time zone (what "tonight" and "the next evening" mean)."""
    return timezone.localdate()


@dataclass(frozen=True)
class Tonight:
    """Tonight's evening for a member: the evening, their guest (None: not on its guest list),
    their table (None: not seated yet) and whether their guest link works (not revoked)."""

    evening: CalendarEvening
    guest: Guest | None
    table: int | None


@dataclass(frozen=True)
class MemberPage:
    """A member's page: their link (member, season, club), the next evening (today's counts),
    tonight's, their standings row and the standings (None: not played yet), their ledger line
    (None: nothing settled with them yet) and the season's calendar."""

    link: MemberLink
    upcoming: CalendarEvening | None
    tonight: Tonight | None
    standings: SeasonStandings
    row: StandingRow | None
    money: LedgerMember | None
    calendar: tuple[CalendarEvening, ...]

    def money_shown(self) -> dict[str, str]:
        """Paid, won and net in the club's currency ("USD 5.00"), {} with no ledger line."""
        if self.money is None:
            return {}
        currency = self.link.season.club.currency
        return {
            "paid": money_words(self.money.paid, currency),
            "received": money_words(self.money.received, currency),
            "net": money_words(self.money.net, currency),
        }

    def tallies(self) -> tuple[tuple[str, int], ...]:
        """The member's season totals, each with its words ("wins", 9)."""
        if self.row is None:
            return ()
        return tuple(zip(self.standings.columns, self.row.totals, strict=True))


def member_link(key: str) -> MemberLink | None:
    """The live link of ``key`` with its member, season and club, or None for any wrong key (too
    long, unknown, reissued). One query (none for a key over 64 characters)."""
    if not key or len(key) > 64:
        return None
    return MemberLink.objects.select_related("member", "season__club").filter(key=key).first()


def _tonight(upcoming: CalendarEvening | None, member: Member, day: datetime.date) -> Tonight | None:
    """Tonight's evening when the next one is today: the member's guest in it (linked to them) and
    their table now. One query, and the format's reading of the evening's state when seated."""
    if upcoming is None or upcoming.evening.date != day:
        return None
    guest = Guest.objects.filter(evening=upcoming.evening, club_guest__member=member).first()
    table = None
    if guest is not None:
        try:
            table = format_for(upcoming.evening).table_of(upcoming.evening, guest.pk)
        except RuleError:
            table = None
    return Tonight(upcoming, guest, table)


def member_page(link: MemberLink, *, fresh: bool = False) -> MemberPage:
    """What the member's page shows (``MemberPage``). A constant number of queries whatever the
    season's evenings and members: the calendar (2), the standings (``season_standings``), the
    ledger (``season_ledger``) and, when an evening is on tonight, the member's guest in it and
    its seats. ``fresh``: the link's season and club were read in this request (``member_link``),
    so the season's version need not read them again."""
    season, member = link.season, link.member
    version = season_version(season, fresh=fresh)
    calendar = season_calendar(season, version)
    day = today()
    upcoming = next((c for c in calendar if c.evening.date >= day), None)
    standings = season_standings(season, version)
    key = f"m{member.pk}"
    row = next((r for r in standings.rows if r.line.person == key), None)
    ledger = season_ledger(season, version)
    money = next((p for p in ledger.people if not p.sub and p.name == member.name), None)
    return MemberPage(
        link=link,
        upcoming=upcoming,
        tonight=_tonight(upcoming, member, day),
        standings=standings,
        row=row,
        money=money,
        calendar=calendar,
    )
