"""The season's calendar and a member's page (issue 25 items 4 and 5): the host sets each
evening's date, place and host member; every member gets a private link for the season, whose
page shows the next evening and its host and address, tonight's table (handing over to
tonight's guest page), their season tallies and place and their money; the calendar feed reads
back through icalendar's own parser. Bad input is a message with nothing changed; every wrong
key is the one 404; the member page reads in the same queries with 2 and 6 evenings."""

from __future__ import annotations

import datetime
import logging
import zoneinfo

import icalendar
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from clubs import calendar, services
from clubs.kitty import evening_settle, kitty_set
from clubs.models import ClubEvening, Member, MemberLink
from clubs.selectors import season_standings
from tables.errors import RuleError
from tests.db_snapshot import changed_tables, db_snapshot
from tests.fixtures_clubs import bunco_club, club_evening, play
from tests.test_fuzz_endpoints import FUZZ, N, T, _request, _says_what_it_did
from tournament.private_doors import NOT_FOUND_BODY
from tournament.private_logs import redact

D = datetime.date
H = datetime.time


@pytest.fixture
def spring(host):
    """A Bunco club with Ann among its members, a spring season (1 Mar to 30 Jun 2026) and a
    summer one after it, two spring evenings (5 Mar at Ann's, 2 Apr not decided) and the
    members' links."""
    club = bunco_club(host)
    services.members_add(club=club, rows=services.parse_member_list("Ann, red", club=club))
    season = services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1), ends_on=D(2026, 6, 30))
    services.season_open(club=club, name="Summer", starts_on=D(2026, 7, 1), ends_on=D(2026, 8, 31))
    first = club_evening(club, host, D(2026, 3, 5))
    second = club_evening(club, host, D(2026, 4, 2))
    ann = Member.objects.get(club=club, name="Ann")
    calendar.evening_calendar_set(
        link=first.club_evening, date=first.date, starts_at=H(19, 30), place="12 Elm Road, Leeds", host_member=ann
    )
    links = {x.member.name: x for x in calendar.member_links_issue(season=season)}
    return {"club": club, "season": season, "first": first, "second": second, "ann": ann, "links": links}


def _feed(client, link: MemberLink) -> icalendar.Calendar:
    response = client.get(reverse("member-calendar", args=[link.key]))
    assert response.status_code == 200 and response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Referrer-Policy"] == "no-referrer"
    return icalendar.Calendar.from_ical(response.content)


def test_the_feed_reads_back_with_stable_uids_a_time_zone_the_place_and_the_host(client, spring):
    cal = _feed(client, spring["links"]["Ann"])
    events = cal.walk("VEVENT")
    assert [str(e["SUMMARY"]) for e in events] == ["Bunco at Ann's", "Bunco, host to be decided"]
    first = events[0]
    assert str(first["LOCATION"]) == "12 Elm Road, Leeds"
    start = first.decoded("DTSTART")
    assert start == datetime.datetime(2026, 3, 5, 19, 30, tzinfo=zoneinfo.ZoneInfo("Europe/London"))
    assert first["DTSTART"].params["TZID"] == "Europe/London" and cal.walk("VTIMEZONE")
    assert first.decoded("DTEND") - start == datetime.timedelta(hours=3)
    assert "LOCATION" not in events[1]
    uids = [str(e["UID"]) for e in events]
    assert len(set(uids)) == 2
    # Another member's feed, and the same after the evening moves and changes host: the same UIDs.
    bea = spring["links"]["Member B"]
    calendar.evening_calendar_set(
        link=spring["second"].club_evening, date=D(2026, 4, 9), starts_at=H(20, 0), place="Bea's", host_member=None
    )
    again = _feed(client, bea).walk("VEVENT")
    assert [str(e["UID"]) for e in again] == uids
    assert again[1].decoded("DTSTART").date() == D(2026, 4, 9)


@pytest.mark.parametrize(
    ("date", "words"),
    [
        (D(2026, 7, 9), "9 Jul 2026 is outside Spring (1 Mar 2026 to 30 Jun 2026): that day is in Summer"),
        (D(2026, 2, 20), "20 Feb 2026 is outside Spring (1 Mar 2026 to 30 Jun 2026). An evening stays in its season"),
    ],
)
def test_a_date_outside_the_evenings_season_is_refused_and_nothing_changes(spring, date, words):
    before = db_snapshot()
    with pytest.raises(RuleError, match=words.replace("(", r"\(").replace(")", r"\)")):
        calendar.evening_calendar_set(
            link=spring["first"].club_evening, date=date, starts_at=H(18, 0), place="Elsewhere", host_member=None
        )
    assert changed_tables(before, db_snapshot()) == []


def test_a_host_member_who_left_is_refused_on_the_page_and_nothing_changes(client, host, spring):
    bea = Member.objects.get(club=spring["club"], name="Member B")
    services.member_mark_left(member=bea, on=D(2026, 3, 20))
    client.force_login(host)
    url = reverse("club-calendar-evening", args=[spring["club"].pk, spring["season"].pk, spring["second"].pk])
    before = db_snapshot()
    data = {"date": "2026-04-02", "starts_at": "19:00", "place": "Bea's house", "host_member": str(bea.pk)}
    response = client.post(url, data)
    assert response.status_code == 200
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        "Member B left the club on 20 Mar 2026: the evening's host is a member of the club. Choose another, "
        "or mark them back in the club first."
    ]
    assert changed_tables(before, db_snapshot()) == []
    # A date in the summer through the page: the same, a message and nothing changed.
    response = client.post(url, data | {"host_member": "", "date": "2026-07-02"})
    assert "is outside Spring" in str(list(response.context["messages"])[0])
    assert changed_tables(before, db_snapshot()) == []
    # A good change saves and the calendar page says it.
    response = client.post(url, data | {"host_member": str(spring["ann"].pk)}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["“Thursday Bunco 2026-04-02” is saved in the calendar."]
    assert "Bunco at Ann&#x27;s" in response.content.decode()
    assert ClubEvening.objects.get(evening=spring["second"]).place == "Bea's house"


@pytest.mark.parametrize("garbage", ["not-a-date", "2026-13-40", "x" * 300])
def test_garbage_on_the_calendar_form_is_a_form_error(client, host, spring, garbage):
    client.force_login(host)
    url = reverse("club-calendar-evening", args=[spring["club"].pk, spring["season"].pk, spring["first"].pk])
    before = db_snapshot()
    response = client.post(url, {"date": garbage, "starts_at": garbage, "place": garbage + "\x00", "host_member": "9x"})
    assert response.status_code == 200 and response.context["form"].errors
    assert changed_tables(before, db_snapshot()) == []


def test_links_are_given_once_and_a_new_one_kills_the_old(client, host, spring):
    assert calendar.member_links_issue(season=spring["season"]) == []
    link = spring["links"]["Ann"]
    assert len(link.key) >= 22  # 128 bits or more in URL-safe base64 (this one: 192)
    old = link.key
    client.force_login(host)
    url = reverse("club-member-links", args=[spring["club"].pk, spring["season"].pk])
    response = client.post(url, {"pk": link.pk}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Ann has a new link: the old one no longer opens."]
    client.logout()
    assert client.get(f"/m/{old}/").status_code == 404
    assert client.get(f"/m/{MemberLink.objects.get(pk=link.pk).key}/").status_code == 200


@pytest.mark.parametrize("key", ["nope", "A" * 32, "A" * 65, "%00abc"])
def test_every_wrong_key_is_the_one_404(client, spring, key):
    for path in (f"/m/{key}/", f"/m/{key}/calendar.ics"):
        response = client.get(path)
        assert response.status_code == 404 and response.content == NOT_FOUND_BODY
        assert response["Referrer-Policy"] == "no-referrer" and "noindex" in response["X-Robots-Tag"]


def test_a_members_key_never_reaches_the_log(client, spring, caplog):
    key = spring["links"]["Ann"].key
    assert redact(f"GET /m/{key}/calendar.ics") == "GET /m/<key>/calendar.ics"
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(f"/m/{key}x/")
    assert caplog.records and key not in caplog.text


def test_the_member_page_the_next_evening_the_season_and_the_money(client, host, spring, monkeypatch):
    monkeypatch.setattr("clubs.member_page.today", lambda: D(2026, 3, 1))
    page = client.get(f"/m/{spring['links']['Ann'].key}/").content.decode()
    assert "Thursday 5 March 2026, 19:30" in page and "At Ann's" in page and "12 Elm Road, Leeds" in page
    assert "No night played yet this season." in page and "Nothing settled with you yet" in page
    feed = f"//testserver/m/{spring['links']['Ann'].key}/calendar.ics"
    assert f'href="webcal:{feed}"' in page and f'href="http:{feed}"' in page
    play(spring["first"], host, rounds=3)
    kitty_set(evening=spring["first"], fee=500, payouts=[])
    evening_settle(evening=spring["first"])
    monkeypatch.setattr("clubs.member_page.today", lambda: D(2026, 3, 6))
    page = client.get(f"/m/{spring['links']['Ann'].key}/").content.decode()
    assert "Thursday 2 April 2026, 19:00" in page and "Host to be decided" in page
    standings = season_standings(spring["season"])
    ann = next(r for r in standings.rows if r.line.person == f"m{spring['ann'].pk}")
    assert f"Rank {ann.line.place} of {len(standings.rows)}</p>" in page and "1 night played" in page
    assert f"<dt>Wins</dt><dd>{ann.totals[0]}</dd>" in page
    assert "<dt>Paid</dt><dd>USD 5.00</dd>" in page


def test_tonight_hands_over_to_tonights_guest_page(client, host, spring, monkeypatch):
    monkeypatch.setattr("clubs.member_page.today", lambda: D(2026, 3, 5))
    link = spring["links"]["Ann"]
    page = client.get(f"/m/{link.key}/").content.decode()
    assert "Tonight: Thursday Bunco 2026-03-05" in page and "Not seated yet" in page
    play(spring["first"], host, rounds=1)
    guest = spring["first"].guests.get(club_guest__member=spring["ann"])
    page = client.get(f"/m/{link.key}/").content.decode()
    assert "You are at table " in page and f'href="/g/{guest.key}/"' in page


def _queries(client, key: str) -> int:
    with CaptureQueriesContext(connection) as seen:
        assert client.get(f"/m/{key}/").status_code == 200
    return len(seen)


def test_the_member_page_reads_in_the_same_queries_with_2_and_6_evenings(client, host, spring, monkeypatch):
    monkeypatch.setattr("clubs.member_page.today", lambda: D(2026, 3, 1))
    club = spring["club"]
    play(spring["first"], host, rounds=1)
    play(spring["second"], host, rounds=1)
    key = spring["links"]["Ann"].key
    with_two = _queries(client, key)
    for day in (D(2026, 5, 7), D(2026, 5, 21), D(2026, 6, 4), D(2026, 6, 18)):
        play(club_evening(club, host, day), host, rounds=1)
    assert ClubEvening.objects.filter(club=club).count() == 6
    assert _queries(client, key) == with_two
    print(f"member page: {with_two} queries with 2 and with 6 evenings")
    assert with_two <= 14, with_two


def test_the_season_json_says_each_evenings_calendar_and_no_key(client, host, spring):
    client.force_login(host)
    response = client.get(reverse("club-season-json", args=[spring["club"].pk, spring["season"].pk]))
    data = response.json()
    assert [e["calendar"] for e in data["evenings"]] == [
        {"starts_at": "19:30", "place": "12 Elm Road, Leeds", "host_member": spring["ann"].pk},
        {"starts_at": "19:00", "place": "", "host_member": None},
    ]
    assert spring["links"]["Ann"].key not in response.content.decode()


POSTS = [
    ("club-calendar-evening", {"date": N, "starts_at": N, "place": T, "host_member": N}),
    ("club-member-links", {"pk": N}),
]
GETS = [
    (name, {"anything": N}) for name in ("club-calendar", "club-calendar-evening", "member-page", "member-calendar")
]


def _path(w, name: str) -> str:
    if name.startswith("member-"):
        return reverse(name, args=[w["links"]["Ann"].key])
    if name == "club-calendar-evening":
        return reverse(name, args=[w["club"].pk, w["season"].pk, w["first"].pk])
    return reverse(name, args=[w["club"].pk, w["season"].pk])


def _check(client, w, name: str, method: str, data: dict) -> None:
    client.cookies.pop("messages", None)  # an earlier example's message, never shown (no redirect followed)
    before = db_snapshot()
    send = client.post if method == "POST" else client.get
    response = send(_path(w, name), data)
    assert response.status_code < 500, (name, {k: str(v)[:40] for k, v in data.items()})
    changed = changed_tables(before, db_snapshot())
    if method == "GET":
        assert changed == [], (name, changed)
    elif changed:
        assert _says_what_it_did(response), (name, changed)


@pytest.mark.parametrize("name, fields", POSTS, ids=[p[0] for p in POSTS])
@FUZZ
@given(data=st.data())
def test_calendar_posts_refuse_bad_values_without_a_server_error(client, host, spring, name, fields, data):
    client.force_login(host)
    _check(client, spring, name, "POST", data.draw(_request(fields)))


@pytest.mark.parametrize("name, fields", GETS, ids=[g[0] for g in GETS])
@FUZZ
@given(data=st.data())
def test_calendar_and_member_pages_refuse_bad_query_values(client, host, spring, name, fields, data):
    client.force_login(host)
    _check(client, spring, name, "GET", data.draw(_request(fields)))


def test_another_seasons_evening_is_not_on_this_seasons_calendar(client, host, spring):
    summer = spring["club"].seasons.get(name="Summer")
    client.force_login(host)
    url = reverse("club-calendar-evening", args=[spring["club"].pk, summer.pk, spring["first"].pk])
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("pk", ["\u0663", "\u00b2", "3.0", "-1"])
def test_a_link_id_not_in_the_digits_0_to_9_changes_nothing(client, host, spring, pk):
    client.force_login(host)
    before = db_snapshot()
    url = reverse("club-member-links", args=[spring["club"].pk, spring["season"].pk])
    response = client.post(url, {"pk": pk}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["That link is gone; the page is reloaded."]
    assert changed_tables(before, db_snapshot()) == []
