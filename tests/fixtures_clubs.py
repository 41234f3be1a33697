"""A club for the club tests: a Bunco club of the host's with twelve members (six red, six blue),
and its evenings created through the club's service, drawn and played by the format's example
results (``FormatPlugin.example_result``)."""

from __future__ import annotations

import datetime

from clubs import services
from clubs.calendar import member_links_issue
from clubs.models import Club
from tables.packs import Pack
from tournament.models import Evening, Guest
from tournament.registry import format_for
from tournament.services.clock import round_ring, round_start
from tournament.services.draws import draw_digital
from tournament.services.state import current_round

ROSTER = "\n".join(f"Member {chr(65 + i)}, {'red' if i % 2 else 'blue'}" for i in range(12))


def bunco_club(host, *, name: str = "Thursday Bunco", format: str = "bunco") -> Club:
    """A club of ``host`` playing ``format`` with the twelve members of ``ROSTER``."""
    club = services.club_create(
        host=host, name=name, format=format, evening_settings={"minutes_per_round": 15, "rounds_planned": 3}
    )
    services.members_add(club=club, rows=services.parse_member_list(ROSTER, club=club))
    return club


def club_evening(club: Club, host, date: datetime.date, *, members=None, subs: str = "") -> Evening:
    """An evening of ``club`` on ``date`` with ``members`` (None: everyone) and ``subs``."""
    evening = Evening(
        host=host,
        name=f"{club.name} {date}",
        date=date,
        format=club.format,
        minutes_per_round=15,
        rounds_planned=3,
        round_end=Evening.RoundEnd.CLOCK,
    )
    ids = [m.pk for m in club.members.all()] if members is None else [m.pk for m in members]
    services.club_evening_create(club=club, evening=evening, member_ids=ids, subs=subs, user=host)
    return evening


def play(evening: Evening, host, rounds: int = 1) -> Evening:
    """Check everyone in, draw, and play ``rounds`` rounds (every table's example result, then the
    host's bell)."""
    evening.guests.update(status=Guest.Status.HERE)
    draw_digital(evening=evening, user=host)
    fmt = format_for(evening)
    for _ in range(rounds):
        evening.refresh_from_db()
        rnd = round_start(evening=evening, user=host)
        for table in range(1, len(fmt.state(evening).tables) + 1):
            fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
        evening.refresh_from_db()
        if current_round(evening) is not None and current_round(evening).state != "closed":
            round_ring(evening=evening, user=host)
    evening.refresh_from_db()
    return evening


def walk_club(evening: Evening) -> dict[str, str]:
    """A club of ``evening``'s host and format, its guests the roster, the evening its own and a
    season from its date: the values the page walk (``tests/test_accessibility.py``) fills the
    club pages' routes with (club, a member, the season, the member's private link ``m/key``, the season's room key)."""
    club = services.club_create(host=evening.host, name="The walk's club", format=evening.format, evening_settings={})
    rows = [services.MemberRow(g.name, Pack(g.pack), g.contact) for g in evening.guests.all()]
    members = services.members_add(club=club, rows=rows)
    services.evening_club_set(evening=evening, club=club)
    season = services.season_open(club=club, name="The walk's season", starts_on=evening.date)
    link = member_links_issue(season=season)[0]
    return {
        "club_id": str(club.pk),
        "member_id": str(members[0].pk),
        "season_id": str(season.pk),
        "m/key": link.key,
        "room_key": season.room_key,
    }
