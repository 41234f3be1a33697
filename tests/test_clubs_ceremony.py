"""The season ceremony (issue 25 item 2): once the season is closed the host reveals its prizes
one tap at a time on the season's room display, the smallest first and the biggest last, then the
final season standings; a double tap, a stale tab or an open season is refused with a message and
nothing is changed; the room display is behind its private key."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from clubs import services
from clubs.ceremony import season_ceremony, season_ceremony_next
from clubs.models import Season
from tables.errors import RuleError
from tables.seasons import PrizeAward, season_reveal_order
from tests.fixtures_clubs import bunco_club, club_evening, play

pytestmark = pytest.mark.django_db

D = datetime.date


def _played_season(host, *, closed: bool = True) -> Season:
    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring 2026", starts_on=D(2026, 3, 1))
    everyone = list(club.members.all())
    play(club_evening(club, host, D(2026, 3, 5), members=everyone[:10]), host, rounds=2)
    play(club_evening(club, host, D(2026, 4, 2)), host, rounds=2)
    if closed:
        services.season_close(season=season, on=D(2026, 6, 30))
    return Season.objects.get(pk=season.pk)


def test_the_reveal_order_is_smallest_first_biggest_last():
    awards = [PrizeAward(k, k, ("m1",), 1) for k in ("buncos", "wins", "attendance", "booby")]
    assert [a.key for a in season_reveal_order(awards)] == ["booby", "attendance", "wins", "buncos"]
    assert season_reveal_order([]) == ()


def test_the_host_reveals_each_prize_then_the_standings(host):
    season = _played_season(host)
    now = season_ceremony(season)
    assert now.step is None and now.latest is None
    keys = [p.award.key for p in now.prizes]
    assert keys[-1] == "most_buncos" and keys[:2] == ["booby", "attendance"]
    for step in range(len(now.prizes)):
        now = season_ceremony_next(season=season, seen_step=step)
        assert now.latest is not None and now.latest.award.key == keys[step]
    now = season_ceremony_next(season=season, seen_step=len(keys))
    assert now.finished and now.latest is None
    with pytest.raises(RuleError, match="nothing more to reveal"):
        season_ceremony_next(season=season, seen_step=now.shown)


def test_a_double_tap_is_refused_and_changes_nothing(host):
    season = _played_season(host)
    season_ceremony_next(season=season, seen_step=0)
    with pytest.raises(RuleError, match="out of date: 1 of"):
        season_ceremony_next(season=season, seen_step=0)
    assert Season.objects.get(pk=season.pk).ceremony_step == 1


def test_an_open_season_has_no_ceremony(host):
    season = _played_season(host, closed=False)
    with pytest.raises(RuleError, match="still open"):
        season_ceremony_next(season=season, seen_step=0)
    assert Season.objects.get(pk=season.pk).ceremony_step is None


def test_the_host_taps_on_the_season_page_and_the_room_shows_it(client, host):
    season = _played_season(host)
    client.force_login(host)
    page_url = reverse("club-season", args=[season.club_id, season.pk])
    tap = reverse("club-season-reveal", args=[season.club_id, season.pk])
    room = reverse("season-room", args=[season.room_key])
    page = client.get(page_url)
    assert "Reveal next prize" in page.content.decode() and room in page.content.decode()
    assert "Thank you for the season" in client.get(room).content.decode()
    response = client.post(tap, {"seen_step": "0"}, follow=True)
    assert "The season&#x27;s booby: on the room display now." in response.content.decode()
    first = season_ceremony(Season.objects.get(pk=season.pk)).latest
    shown = client.get(room).content.decode()
    assert "The season&#x27;s booby" in shown and all(name in shown for name in first.names)
    stale = client.post(tap, {"seen_step": "0"}, follow=True).content.decode()
    assert "That page was out of date" in stale
    for bad in ({"seen_step": "nonsense"}, {"seen_step": "-1"}, {"seen_step": "9" * 30}, {}):
        refused = client.post(tap, bad, follow=True)
        assert refused.status_code == 200 and "out of date: nothing was changed" in refused.content.decode()
    assert Season.objects.get(pk=season.pk).ceremony_step == 1


def test_the_room_is_behind_its_key_and_the_tap_is_the_hosts(client, host):
    from tests.factories import HostFactory

    season = _played_season(host)
    assert client.get(reverse("season-room", args=["x" * 43])).status_code == 404
    client.force_login(HostFactory(username="someone-else"))
    tap = reverse("club-season-reveal", args=[season.club_id, season.pk])
    assert client.post(tap, {"seen_step": "0"}).status_code == 404
    assert Season.objects.get(pk=season.pk).ceremony_step is None


def test_the_final_standings_are_written_to_fit_one_screen():
    from clubs.ceremony_views import standings_size

    assert [standings_size(n) for n in (1, 12, 13, 30, 31, 60, 61, 500)] == [
        *("few", "few", "some", "some", "many", "many", "most", "most")
    ]


def test_the_rooms_key_never_reaches_a_log(host):
    from tournament.private_logs import redact

    season = _played_season(host, closed=False)
    path = reverse("season-room", args=[season.room_key])
    assert season.room_key not in redact(f'"GET {path} HTTP/1.1" 200')


def test_an_open_seasons_page_says_to_close_it_first(client, host):
    season = _played_season(host, closed=False)
    client.force_login(host)
    page = client.get(reverse("club-season", args=[season.club_id, season.pk])).content.decode()
    assert "Close the season first" in page and "Reveal next prize" not in page
    tap = reverse("club-season-reveal", args=[season.club_id, season.pk])
    assert "The season is still open" in client.post(tap, {"seen_step": "0"}, follow=True).content.decode()
