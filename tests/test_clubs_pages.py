"""The club pages (issue 25 items 1 and 2): a host creates a club, imports its roster, creates an
evening from it, opens a season and reads its standings; bad input is a message, nothing
changed; the standings page reads in constant queries whatever its evenings and members."""

from __future__ import annotations

import datetime

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs import services
from clubs.forms import UsualEveningForm
from clubs.models import Club, ClubGuest, Member
from tests.db_snapshot import db_snapshot
from tests.factories import HostFactory
from tests.fixtures_clubs import bunco_club, club_evening, play
from tournament.models import Evening

D = datetime.date


def _form_data(form, **changes) -> dict:
    """A form's initial values as a browser would post them, with ``changes``."""
    data = {}
    for field in form:
        value = field.value()
        if value is None or value is False:
            continue
        data[field.html_name] = value
    return data | changes


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_host_creates_a_club_with_its_usual_evening(client, host):
    client.force_login(host)
    data = _form_data(
        UsualEveningForm(),
        name="Thursday Bunco",
        subs_shown="on",
        format="bunco",
        minutes_per_round="12",
    )
    response = client.post(reverse("clubs"), data)
    club = Club.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("club", args=[club.pk])
    assert (club.name, club.format, club.host, club.subs_shown) == ("Thursday Bunco", "bunco", host, True)
    assert club.evening_settings["minutes_per_round"] == 12
    page = client.get(reverse("club-evening-new", args=[club.pk]))
    assert page.status_code == 200
    assert page.context["form"]["minutes_per_round"].value() == 12


def test_the_roster_from_the_page_and_a_bad_pack(client, host):
    client.force_login(host)
    club = services.club_create(host=host, name="Bunco", format="bunco", evening_settings={})
    response = client.post(reverse("club", args=[club.pk]), {"text": "Ann Lee, red\nBea Roy, blue"}, follow=True)
    assert _messages(response) == ["2 members added."]
    before = db_snapshot()
    response = client.post(reverse("club", args=[club.pk]), {"text": "Cat Poe, red\nDan Ott, purple"}, follow=True)
    assert response.status_code == 200
    assert (
        "Row 2: “purple” is not a pack: write red or blue. A member is in one pack, red or blue."
        in _messages(response)[0]
    )
    assert db_snapshot() == before


def test_a_club_evening_from_the_page(client, host):
    client.force_login(host)
    club = bunco_club(host)
    page = client.get(reverse("club-evening-new", args=[club.pk]))
    form = page.context["form"]
    assert sorted(form["members"].value()) == sorted(club.members.values_list("pk", flat=True))  # everyone ticked
    ticked = [str(pk) for pk in club.members.values_list("pk", flat=True)[:11]]
    data = _form_data(form, members=ticked, subs="Dana Sub, red", name="March night", date="2026-03-05")
    response = client.post(reverse("club-evening-new", args=[club.pk]), data)
    evening = Evening.objects.get(name="March night")
    assert response.status_code == 302 and response["Location"] == reverse("host-guests", args=[evening.pk])
    assert (evening.format, evening.minutes_per_round, evening.guests.count()) == ("bunco", 15, 12)
    assert ClubGuest.objects.filter(guest__evening=evening, member__isnull=True).get().guest.name == "Dana Sub"


def test_a_refused_evening_changes_nothing(client, host):
    client.force_login(host)
    club = bunco_club(host)
    form = client.get(reverse("club-evening-new", args=[club.pk])).context["form"]
    before = db_snapshot()
    data = _form_data(form, subs="Member A, blue", name="X", date="2026-03-05")
    response = client.post(reverse("club-evening-new", args=[club.pk]), data)
    assert response.status_code == 200
    assert "“Member A” is already registered." in _messages(response)[0]  # ticked and typed as a sub
    assert db_snapshot() == before


def test_removing_a_member_with_history_from_the_page(client, host):
    client.force_login(host)
    club = bunco_club(host)
    club_evening(club, host, D(2026, 3, 5))
    member = Member.objects.get(club=club, name="Member A")
    response = client.post(reverse("club-member", args=[club.pk, member.pk]), {"action": "remove"}, follow=True)
    assert _messages(response) == [
        "Member A played 1 of the club's evenings: a member with history is not removed (their nights count in the "
        "seasons). Mark them as left the club instead."
    ]
    response = client.post(reverse("club-member", args=[club.pk, member.pk]), {"action": "left"}, follow=True)
    assert _messages(response) == ["Member A left the club."]
    assert "(left the club" in response.content.decode()


def test_an_overlapping_season_from_the_page(client, host):
    client.force_login(host)
    club = bunco_club(host)
    response = client.post(
        reverse("club-season-new", args=[club.pk]), {"name": "Spring", "starts_on": "2026-03-01"}, follow=True
    )
    assert _messages(response) == ["The season “Spring” is open."]
    response = client.post(
        reverse("club-season-new", args=[club.pk]), {"name": "Late", "starts_on": "2026-06-01"}, follow=True
    )
    assert "These dates overlap the season “Spring” (from 01 Mar 2026, until it is closed)" in _messages(response)[0]
    assert club.seasons.count() == 1


def test_another_hosts_club_is_not_found(client, host):
    club = bunco_club(host)
    client.force_login(HostFactory(username="someone-else"))
    assert client.get(reverse("club", args=[club.pk])).status_code == 404
    assert client.post(reverse("club-season-new", args=[club.pk]), {"starts_on": "2026-03-01"}).status_code == 404


def _season_page_queries(client, host, evenings: int) -> tuple[int, str]:
    club = bunco_club(host, name=f"Club of {evenings}")
    season = services.season_open(club=club, name="Year", starts_on=D(2026, 1, 1))
    for n in range(evenings):
        subs = "\n".join(f"Sub {evenings} {i}, red" for i in range(n % 3))
        play(club_evening(club, host, D(2026, 1, 1) + datetime.timedelta(days=7 * n), subs=subs), host)
    url = reverse("club-season", args=[club.pk, season.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_standings_page_reads_in_constant_queries(client, host, django_assert_max_num_queries):
    client.force_login(host)
    two, page = _season_page_queries(client, host, 2)
    # the session, the host, the club, the season, its evenings' versions, its evenings, their tallies, guests, roster
    assert two <= 9
    assert "Most buncos of the season" in page and "Best attendance" in page
    club = bunco_club(host, name="Six")
    season = services.season_open(club=club, name="Year", starts_on=D(2026, 1, 1))
    for n in range(6):
        play(club_evening(club, host, D(2026, 1, 1) + datetime.timedelta(days=7 * n), subs=f"Sub {n}, red"), host)
    services.members_add(
        club=club, rows=services.parse_member_list("\n".join(f"Extra {i}, blue" for i in range(20)), club=club)
    )
    with django_assert_max_num_queries(two):
        response = client.get(reverse("club-season", args=[club.pk, season.pk]))
    assert response.status_code == 200 and "Sub 5" in response.content.decode()


def test_the_roster_from_a_csv_file(client, host):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(host)
    club = services.club_create(host=host, name="Bunco", format="bunco", evening_settings={})
    text = 'name;pack;contact\r\n"Lee, Ann";R;ann@example.org\r\nZoe\u0308 Roy;b;\r\n'
    upload = SimpleUploadedFile("roster.csv", text.encode("utf-16"), content_type="text/csv")
    response = client.post(reverse("club", args=[club.pk]), {"file": upload}, follow=True)
    assert _messages(response) == ["2 members added."]
    assert list(club.members.values_list("name", "pack", "contact")) == [
        ("Lee, Ann", "red", "ann@example.org"),
        ("Zoë Roy", "blue", ""),
    ]
