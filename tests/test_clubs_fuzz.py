"""Every club page fuzzed with bad values, as ``tests/test_fuzz_endpoints.py`` fuzzes an
evening's (issue 12 item 1, for issue 25's pages): no 5xx, and a request that changed the
database says what it did (a message, none an error). The club has a roster, a played evening
with a sub, another club's evening drawn (which may not move), and an open season."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from clubs import services
from clubs.models import Member
from tests.db_snapshot import changed_tables, db_snapshot
from tests.fixtures_clubs import bunco_club, club_evening, play
from tests.test_fuzz_endpoints import FUZZ, N, T, _request, _says_what_it_did
from tournament.models import Evening

D = datetime.date
USUAL = {name: N for name in ("format", "minutes_per_round", "rounds_planned", "round_end", "movement", "ties")}
POSTS = [
    ("clubs", {"name": T, "season_order": N, "subs_shown": N, **USUAL}),
    ("club", {"text": T}),
    ("club-settings", {"name": T, "season_order": N, "subs_shown": N}),
    ("club-member", {"action": N}),
    ("club-evening-new", {"members": N, "subs": T, "name": T, "date": N, "format": N, "minutes_per_round": N}),
    ("club-evening-bring", {"pk": N}),
    ("club-sub-promote", {"pk": N}),
    ("club-season-new", {"name": T, "starts_on": N, "ends_on": N}),
    ("club-season-close", {"on": N}),
]
GETS = [("club-season", {"anything": N}), ("club", {"anything": N}), ("club-evening-new", {"anything": N})]


@pytest.fixture
def club_world(client, host):
    club = bunco_club(host)
    other = bunco_club(host, name="Friday Bunco")
    members = list(club.members.all()[:11])
    evening = play(club_evening(club, host, D(2026, 3, 5), members=members, subs="Dana Sub, red"), host)
    play(club_evening(other, host, D(2026, 3, 6)), host)
    season = services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1))
    client.force_login(host)
    args = {
        "club-member": [club.pk, Member.objects.get(club=club, name="Member A").pk],
        "club-season": [club.pk, season.pk],
        "club-season-close": [club.pk, season.pk],
    }
    return {"client": client, "club": club, "evening": evening, "args": args}


def _path(world, name: str) -> str:
    if name == "clubs":
        return reverse(name)
    return reverse(name, args=world["args"].get(name, [world["club"].pk]))


def _check(world, name: str, method: str, data: dict) -> None:
    before = db_snapshot()
    send = world["client"].post if method == "POST" else world["client"].get
    response = send(_path(world, name), data)
    assert response.status_code < 500, (name, {k: str(v)[:40] for k, v in data.items()})
    changed = changed_tables(before, db_snapshot())
    if method == "GET":
        assert changed == [], (name, changed)
    elif changed:
        assert _says_what_it_did(response), (name, changed, {k: str(v)[:40] for k, v in data.items()})


@pytest.mark.parametrize("name, fields", POSTS, ids=[p[0] for p in POSTS])
@FUZZ
@given(data=st.data())
def test_club_posts_refuse_bad_values_without_a_server_error(club_world, name, fields, data):
    _check(club_world, name, "POST", data.draw(_request(fields)))


@pytest.mark.parametrize("name, fields", GETS, ids=[g[0] for g in GETS])
@FUZZ
@given(data=st.data())
def test_club_pages_refuse_bad_query_values(club_world, name, fields, data):
    _check(club_world, name, "GET", data.draw(_request(fields)))


@pytest.mark.parametrize("name", [p[0] for p in POSTS])
def test_an_empty_post_is_answered_without_a_server_error(club_world, name):
    _check(club_world, name, "POST", {})


def test_bringing_in_another_clubs_drawn_evening_changes_nothing(club_world):
    drawn = Evening.objects.get(club_evening__club__name="Friday Bunco")
    before = db_snapshot()
    response = club_world["client"].post(reverse("club-evening-bring", args=[club_world["club"].pk]), {"pk": drawn.pk})
    assert response.status_code == 302
    assert changed_tables(before, db_snapshot()) == []
