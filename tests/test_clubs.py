"""A club and its members, its evenings and seasons (issue 25 items 1 and 2): the services, each
bad input refused with a clear message and nothing changed (``docs/clubs.md``)."""

from __future__ import annotations

import datetime

import pytest

from clubs import services
from clubs.models import ClubEvening, ClubGuest, Member, Season
from clubs.selectors import season_standings
from tables.errors import RuleError
from tables.packs import Pack
from tests.db_snapshot import db_snapshot as snapshot
from tests.factories import EveningFactory, GuestFactory
from tests.fixtures_clubs import bunco_club, club_evening, play
from tournament.models import Evening, Guest
from tournament.registry import format_for

D = datetime.date


def test_roster_rows_and_nfc_names(db, host):
    club = services.club_create(host=host, name="Bunco", format="bunco", evening_settings={})
    rows = services.parse_member_list("name,pack,contact\nZoe\u0308 Martin,R,zoe@example.org\nAnn Lee,blue", club=club)
    added = services.members_add(club=club, rows=rows)
    assert [(m.name, m.pack, m.contact) for m in added] == [
        ("Zoë Martin", "red", "zoe@example.org"),
        ("Ann Lee", "blue", ""),
    ]
    assert Member.objects.get(name="Zoë Martin").name_key == "zoë martin"


@pytest.mark.parametrize(
    "text, words",
    [
        (
            "Ann, red\nBea, green",
            "Row 2: “green” is not a pack: write red or blue. A member is in one pack, red or blue.",
        ),
        ("Ann, red\nBea, blue\nann, blue", "Row 3: “ann” is also on row 1 in the red pack: a member is in one pack."),
        ("Member A, red", "Row 1: “Member A” is already a member, in the blue pack: a member is in one pack"),
    ],
)
def test_a_member_in_two_packs_is_refused(db, host, text, words):
    club = bunco_club(host)
    before = snapshot()
    with pytest.raises(RuleError) as refused:
        services.members_add(club=club, rows=services.parse_member_list(text, club=club))
    assert words in str(refused.value)
    assert snapshot() == before


def test_a_club_evening_takes_ticked_members_and_subs(db, host):
    club = bunco_club(host)
    ticked = list(club.members.all()[:10])
    evening = club_evening(club, host, D(2026, 3, 5), members=ticked, subs="Dana Sub, red\nEli Sub, blue")
    links = {
        link.guest.name: link.member
        for link in ClubGuest.objects.filter(guest__evening=evening).select_related("guest", "member")
    }
    assert len(links) == 12
    assert links["Dana Sub"] is None and links["Eli Sub"] is None  # subs
    assert links["Member A"] == Member.objects.get(club=club, name="Member A")
    assert ClubEvening.objects.get(evening=evening).club == club
    assert evening.guests.get(name="Member A").pack == "blue"


def test_a_sub_who_is_a_member_is_refused(db, host):
    club = bunco_club(host)
    members = list(club.members.all()[1:])  # Member A not ticked, then typed as a sub
    before = snapshot()
    with pytest.raises(RuleError, match="“Member A” is a member of Thursday Bunco: tick their name on the roster"):
        club_evening(club, host, D(2026, 3, 5), members=members, subs="member a, blue")
    assert snapshot() == before


def test_a_member_who_left_or_is_gone_is_refused_from_a_stale_tab(db, host):
    club = bunco_club(host)
    gone = Member.objects.get(club=club, name="Member B")
    services.member_mark_left(member=gone, on=D(2026, 2, 1))
    before = snapshot()
    with pytest.raises(RuleError, match="Member B left the club: mark them back in the club first"):
        club_evening(club, host, D(2026, 3, 5))
    ids = [m.pk for m in club.members.filter(left_on__isnull=True)] + [999_999]
    with pytest.raises(RuleError, match="no longer on Thursday Bunco's roster"):
        services.club_evening_create(
            club=club, evening=Evening(host=host, name="X", date=D(2026, 3, 5), format="bunco"), member_ids=ids
        )
    assert snapshot() == before


def test_an_evening_of_another_format_is_not_the_clubs(db, host):
    club = bunco_club(host)
    with pytest.raises(
        RuleError, match="Thursday Bunco plays Bunco: an evening of Drive Whist is not one of its evenings"
    ):
        services.club_evening_create(
            club=club, evening=Evening(host=host, name="X", date=D(2026, 3, 5), format="whist"), member_ids=[]
        )


def test_a_member_with_history_is_not_removed(db, host):
    club = bunco_club(host)
    club_evening(club, host, D(2026, 3, 5))
    member = Member.objects.get(club=club, name="Member C")
    before = snapshot()
    with pytest.raises(RuleError) as refused:
        services.member_remove(member=member)
    assert str(refused.value) == (
        "Member C played 1 of the club's evenings: a member with history is not removed (their nights count in "
        "the seasons). Mark them as left the club instead."
    )
    assert snapshot() == before
    services.member_mark_left(member=member, on=D(2026, 4, 1))
    assert Member.objects.get(pk=member.pk).left_on == D(2026, 4, 1)
    fresh = services.members_add(club=club, rows=services.parse_member_list("New One, red", club=club))[0]
    services.member_remove(member=fresh)  # no history: removed
    assert not Member.objects.filter(pk=fresh.pk).exists()


def test_seasons_that_overlap_are_refused(db, host):
    club = bunco_club(host)
    services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1), ends_on=D(2026, 5, 31))
    services.season_open(club=club, name="Autumn", starts_on=D(2026, 9, 1))
    before = snapshot()
    with pytest.raises(RuleError, match="overlap the season “Spring” \\(01 Mar 2026 to 31 May 2026\\)"):
        services.season_open(club=club, name="Summer", starts_on=D(2026, 5, 31), ends_on=D(2026, 8, 31))
    with pytest.raises(RuleError, match="overlap the season “Autumn” \\(from 01 Sep 2026, until it is closed\\)"):
        services.season_open(club=club, name="Winter", starts_on=D(2027, 1, 1))
    autumn = Season.objects.get(name="Autumn")
    with pytest.raises(RuleError, match="before it starts"):
        services.season_close(season=autumn, on=D(2026, 8, 1))
    assert snapshot() == before
    services.season_close(season=autumn, on=D(2026, 12, 31))
    assert services.season_open(club=club, name="Winter", starts_on=D(2027, 1, 1)).ends_on is None


def test_an_evening_moved_between_clubs_after_its_draw_is_refused(db, host):
    bunco = bunco_club(host)
    other = bunco_club(host, name="Friday Bunco")
    evening = play(club_evening(bunco, host, D(2026, 3, 5)), host, rounds=1)
    before = snapshot()
    with pytest.raises(RuleError) as refused:
        services.evening_club_set(evening=evening, club=other)
    assert str(refused.value) == (
        f"“{evening.name}” has had its draw as an evening of Thursday Bunco: its guests' nights count in that "
        "club's season, so it cannot move to Friday Bunco."
    )
    with pytest.raises(RuleError, match="cannot move out of it"):
        services.evening_club_set(evening=evening, club=None)
    assert snapshot() == before


def test_an_evening_before_its_draw_moves_and_its_guests_follow_by_name(db, host):
    bunco = bunco_club(host)
    other = bunco_club(host, name="Friday Bunco")
    evening = club_evening(bunco, host, D(2026, 3, 5))
    services.evening_club_set(evening=evening, club=other)
    assert ClubEvening.objects.get(evening=evening).club == other
    assert {link.member.club for link in ClubGuest.objects.filter(guest__evening=evening)} == {other}
    outside = EveningFactory(host=host, format="bunco", name="Outside")
    GuestFactory(evening=outside, name="Member D", pack="red")
    GuestFactory(evening=outside, name="Walk In", pack="red")
    services.evening_club_set(evening=outside, club=bunco)
    links = {link.guest.name: link.member for link in ClubGuest.objects.filter(guest__evening=outside)}
    assert links["Member D"].name == "Member D" and links["Walk In"] is None


def test_a_sub_promoted_mid_season_keeps_their_earlier_nights(db, host):
    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1))
    members = list(club.members.all()[:11])
    first = play(club_evening(club, host, D(2026, 3, 5), members=members, subs="Dana Sub, red"), host)
    second = play(club_evening(club, host, D(2026, 4, 2), members=members, subs="Dana Sub, red"), host)
    before = {r.person.name: (r.person.sub, r.line.nights) for r in season_standings(season).rows}
    assert before["Dana Sub"] == (True, 2)
    member = services.sub_promote(club=club, guest=second.guests.get(name="Dana Sub"))
    assert member.pack == "red"
    after = {r.person.name: (r.person.sub, r.line.nights) for r in season_standings(season).rows}
    assert after["Dana Sub"] == (False, 2)  # one person: both nights as a sub are the member's
    assert set(ClubGuest.objects.filter(member=member).values_list("guest__evening", flat=True)) == {
        first.pk,
        second.pk,
    }
    with pytest.raises(RuleError, match="Dana Sub is a member already"):
        services.sub_promote(club=club, guest=first.guests.get(name="Dana Sub"))


def test_a_bunco_season_adds_up_each_evenings_standings(db, host):
    """Two played evenings and one not played: each member's season totals are the sums of the
    evenings' own standings (``FormatPlugin.standings``), ranked wins, then buncos, then points."""
    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1), ends_on=D(2026, 5, 31))
    everyone = list(club.members.all())
    nights = [
        play(club_evening(club, host, D(2026, 3, 5), members=everyone[:11], subs="Dana Sub, red"), host, rounds=2),
        play(club_evening(club, host, D(2026, 4, 2)), host, rounds=1),
    ]
    club_evening(club, host, D(2026, 5, 7))  # not played yet: counts nothing
    club_evening(club, host, D(2026, 6, 4))  # after the season
    expected: dict[str, list[int]] = {}
    attended: dict[str, int] = {}
    for evening in nights:
        for line in format_for(evening).standings(evening).lines:
            if line.guest is None:
                continue
            sums = expected.setdefault(line.guest.name, [0, 0, 0])
            for i, name in enumerate(("wins", "buncos", "points")):
                sums[i] += line.tallies.get(name, 0)
            attended[line.guest.name] = attended.get(line.guest.name, 0) + 1
    s = season_standings(season)
    assert len(s.evenings) == 3 and len(s.played) == 2
    assert {r.person.name: list(r.totals) for r in s.rows} == expected
    assert {r.person.name: r.line.nights for r in s.rows} == attended
    assert [r.totals for r in s.rows] == sorted((r.totals for r in s.rows), reverse=True)
    last = next(r for r in s.rows if r.person.name == "Member L")
    assert last.nights[0] is None and last.nights[1] is not None and last.nights[2] is None
    dana = next(r for r in s.rows if r.person.name == "Dana Sub")
    assert dana.person.sub
    prize_names = {p.award.key: p.names for p in s.prizes}
    assert "Dana Sub" not in sum(prize_names.values(), ())  # a sub wins no season prize
    most = max(r.totals[1] for r in s.rows if not r.person.sub)
    assert set(prize_names["most_buncos"]) == {
        r.person.name for r in s.rows if not r.person.sub and r.totals[1] == most
    }
    assert set(prize_names["attendance"]) == {r.person.name for r in s.rows if not r.person.sub and r.line.nights == 2}
    club.subs_shown = False
    club.save()
    season.refresh_from_db()
    assert "Dana Sub" not in {r.person.name for r in season_standings(season).rows}


def test_evenings_outside_a_club_are_in_no_season(db, host):
    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1))
    outside = EveningFactory(host=host, format="bunco", date=D(2026, 3, 12), rounds_planned=3)
    for i in range(8):
        GuestFactory(evening=outside, name=f"Member {chr(65 + i)}", pack="red" if i % 2 else "blue")
    play(outside, host)
    assert season_standings(season).rows == ()
    assert not Guest.objects.filter(club_guest__isnull=False).exists()


def test_a_euchre_club_ranks_by_stars_or_points_as_it_chose(db, host):
    club = bunco_club(host, name="Euchre Club", format="euchre")
    season = services.season_open(club=club, name="Winter", starts_on=D(2026, 1, 1))
    play(club_evening(club, host, D(2026, 1, 8)), host, rounds=2)
    by_stars = season_standings(season)
    assert by_stars.order_words == "Stars, then points"
    assert [r.totals[:2] for r in by_stars.rows] == sorted((r.totals[:2] for r in by_stars.rows), reverse=True)
    services.club_settings_change(club=club, season_order="points", subs_shown=True)
    season.refresh_from_db()
    by_points = season_standings(season)
    assert by_points.order_words == "Points, then stars"
    keys = [(r.totals[1], r.totals[0]) for r in by_points.rows]
    assert keys == sorted(keys, reverse=True)
    with pytest.raises(RuleError, match="“tricks” is not a way this format ranks a season: it ranks by Stars"):
        services.club_settings_change(club=club, season_order="tricks", subs_shown=True)


@pytest.mark.parametrize("key", ["poker", "whist", "euchre_tournament"])
def test_every_format_keeps_a_season(db, host, key):
    club = services.club_create(host=host, name=f"{key} club", format=key, evening_settings={})
    roster = "\n".join(f"Player {chr(65 + i)}, {'red' if i % 2 else 'blue'}" for i in range(12))
    services.members_add(club=club, rows=services.parse_member_list(roster, club=club))
    season = services.season_open(club=club, name="Year", starts_on=D(2026, 1, 1))
    evenings = [play(club_evening(club, host, D(2026, 1, 1 + 7 * n)), host) for n in range(2)]
    s = season_standings(season)
    rules = format_for(evenings[0]).season_rules
    assert s.columns == tuple(words for _, words in rules.columns)
    assert len(s.rows) == 12 and all(r.line.nights == 2 for r in s.rows)
    order = [i for i, (name, _) in enumerate(rules.columns) if name in rules.orders[0].tallies]
    ranked = [tuple(r.totals[i] for i in order) for r in s.rows]
    assert ranked == sorted(ranked, reverse=True)
    tallies = format_for(evenings[0]).season_tallies(evenings)
    first = s.rows[0]
    assert (
        sum(tallies[e.pk][g.pk][rules.columns[0][0]] for e in evenings for g in e.guests.filter(name=first.person.name))
        == first.totals[0]
    )


def test_a_member_added_at_the_door_is_the_member_by_name(db, host):
    """A member who was not ticked and is added on the guests page ("member l", as typed) is the
    member in the season, by the name rule; a stranger added there is a sub."""
    from tournament.services.guests import GuestRow, guests_register

    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1))
    evening = club_evening(club, host, D(2026, 3, 5), members=list(club.members.all()[:10]))
    guests_register(evening=evening, rows=[GuestRow("member l", Pack.RED), GuestRow("Walk In", Pack.BLUE)], user=host)
    play(evening, host)
    rows = {r.person.name: r.person.sub for r in season_standings(season).rows}
    assert rows["Member L"] is False and "member l" not in rows
    assert rows["Walk In"] is True
