"""The kitty's pages and the season's exports (issue 25 items 3 and 6): a host sets an evening's
fee and payouts, reads the settlement sheet, settles, reads the season's ledger, downloads the
standings and the ledger as CSV and PDF and the season as JSON; bad input is a message with
nothing changed, never a 500; another host's club is a 404."""

from __future__ import annotations

import csv
import datetime
import io
import json

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from clubs import services
from clubs.models import ClubEvening, KittyEntry
from tests.db_snapshot import changed_tables, db_snapshot
from tests.factories import HostFactory
from tests.fixtures_clubs import bunco_club, club_evening, play
from tests.pdf_reading import pdf_text
from tests.test_fuzz_endpoints import FUZZ, N, T, _request, _says_what_it_did

D = datetime.date


@pytest.fixture
def season_world(client, host):
    """A Bunco club, a season with 20.00 dues, an evening of eleven members and a sub played to
    its end, and a second evening not ended; the host logged in."""
    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1))
    members = list(club.members.all()[:11])
    ended = play(club_evening(club, host, D(2026, 3, 5), members=members, subs="Dana Sub, red"), host, rounds=3)
    open_evening = play(club_evening(club, host, D(2026, 4, 2)), host, rounds=1)
    client.force_login(host)
    return {"client": client, "club": club, "season": season, "ended": ended, "open": open_evening}


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def _kitty_url(w, evening=None) -> str:
    return reverse("club-kitty", args=[w["club"].pk, (evening or w["ended"]).pk])


def test_set_the_kitty_settle_and_read_the_ledger(season_world):
    w, client = season_world, season_world["client"]
    url = reverse("club-ledger", args=[w["club"].pk, w["season"].pk])
    response = client.post(url, {"currency": "eur", "dues": "20"}, follow=True)
    assert _messages(response) == ["The currency and the season dues are saved."]
    data = {"action": "kitty", "fee": "5", "payouts": "Most buncos, 40 %\nMost wins, 30 %\nBooby, 10.00"}
    response = client.post(_kitty_url(w), data, follow=True)
    assert _messages(response) == ["The kitty is saved."]
    page = response.content.decode()
    assert "Not settled yet" in page and "EUR 5.00" in page and "the rest of the pot, to the season pot" in page
    response = client.post(_kitty_url(w), {"action": "settle"}, follow=True)
    # 12 x 5.00 fees and 11 members' 20.00 dues: 280.00 collected.
    assert _messages(response) == ["“Thursday Bunco 2026-03-05” is settled: EUR 280.00 collected."]
    assert "Settle the evening" not in response.content.decode()
    ledger = client.get(url)
    assert ledger.status_code == 200
    text = ledger.content.decode()
    assert "collected EUR 280.00" in text and "Dana Sub" in text and "(not settled)" in text
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("club-ledger-csv", args=[w["club"].pk, w["season"].pk])).content.decode())
        )
    )
    assert rows[0][0] == "Line" and rows[-1][:2] == ["season", "Spring"] and rows[-1][3] == "280.00"
    assert next(r for r in rows if r[1] == "Dana Sub (sub)")[:4] == ["person", "Dana Sub (sub)", "1", "5.00"]
    pdf = client.get(reverse("club-ledger-pdf", args=[w["club"].pk, w["season"].pk]))
    assert pdf["Content-Type"] == "application/pdf" and "Season ledger" in pdf_text(pdf.content)
    sheet = client.get(reverse("club-kitty-pdf", args=[w["club"].pk, w["ended"].pk]) + "?paper=letter")
    assert "Settlement" in pdf_text(sheet.content) and "Dana Sub" in pdf_text(sheet.content)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"fee": "-5", "payouts": ""}, "The entry fee cannot be negative (got -5)."),
        ({"fee": "5", "payouts": "Most buncos, 60 %\nMost wins, 50 %"}, "The shares add up to 110 % of the pot"),
        (
            {"fee": "5", "payouts": "Most buncos, 50.00\nMost wins, 20.00"},
            "The payouts add up to 70.00, more than the pot of 60.00",
        ),
        ({"fee": "5", "payouts": "The raffle, 10 %"}, "“The raffle” is not one of tonight's prizes"),
    ],
)
def test_a_bad_kitty_is_refused_on_the_page_and_nothing_changes(season_world, data, words):
    w = season_world
    before = db_snapshot()
    response = w["client"].post(_kitty_url(w), {"action": "kitty", **data})
    assert response.status_code == 200
    assert words in response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')
    assert changed_tables(before, db_snapshot()) == []


def test_an_evening_not_ended_is_not_settled_from_the_page(season_world):
    w = season_world
    before = db_snapshot()
    response = w["client"].post(_kitty_url(w, w["open"]), {"action": "settle"})
    assert (
        response.status_code == 200 and "has not ended: settle it once its prizes are final." in _messages(response)[0]
    )
    assert changed_tables(before, db_snapshot()) == []


def test_the_standings_as_csv_and_pdf_and_the_season_as_json(season_world):
    w, client = season_world, season_world["client"]
    args = [w["club"].pk, w["season"].pk]
    rows = list(csv.reader(io.StringIO(client.get(reverse("club-standings-csv", args=args)).content.decode())))
    assert rows[0][:5] == ["Place", "Name", "Member or sub", "Nights played", "Wins"]
    assert len(rows) == 1 + 13 and {r[2] for r in rows[1:]} == {"member", "sub"}
    assert all(len(r) == len(rows[0]) for r in rows)
    pdf = client.get(reverse("club-standings-pdf", args=args))
    assert "Season standings" in pdf_text(pdf.content) and "Member A" in pdf_text(pdf.content)
    client.post(_kitty_url(w), {"action": "kitty", "fee": "2.50", "payouts": "Booby, 50 %"})
    client.post(_kitty_url(w), {"action": "settle"})
    data = json.loads(client.get(reverse("club-season-json", args=args)).content)
    assert data["schema"] == "head-table/club-season/1"
    assert data["season"]["name"] == "Spring" and len(data["members"]) == 12
    assert [e["evening"]["schema"] for e in data["evenings"]] == ["head-table/evening/1"] * 2
    first = data["evenings"][0]
    assert first["kitty"]["fee_cents"] == 250 and first["kitty"]["settled_at"]
    assert (
        sum(x["cents"] for x in first["kitty"]["entries"] if x["paid_in"]) == data["ledger"]["collected_cents"] == 3000
    )
    assert len(first["kitty"]["members"]) == 11  # Dana is a sub
    assert "key" not in json.dumps(first["evening"]["guests"])


def test_another_hosts_club_is_a_404(season_world, client):
    w = season_world
    client.force_login(HostFactory())
    for url in (
        _kitty_url(w),
        reverse("club-kitty-pdf", args=[w["club"].pk, w["ended"].pk]),
        reverse("club-ledger", args=[w["club"].pk, w["season"].pk]),
        reverse("club-season-json", args=[w["club"].pk, w["season"].pk]),
    ):
        assert client.get(url).status_code == 404


def test_the_ledger_page_reads_in_constant_queries(season_world, django_assert_max_num_queries):
    w = season_world
    w["client"].post(_kitty_url(w), {"action": "kitty", "fee": "1", "payouts": ""})
    w["client"].post(_kitty_url(w), {"action": "settle"})
    with django_assert_max_num_queries(12):
        assert w["client"].get(reverse("club-ledger", args=[w["club"].pk, w["season"].pk])).status_code == 200
    assert (
        KittyEntry.objects.filter(club_evening=ClubEvening.objects.get(evening=w["ended"])).count() == 13
    )  # 12 fees, the rest carried


POSTS = [
    ("club-kitty", {"action": N, "fee": T, "payouts": T}),
    ("club-ledger", {"currency": T, "dues": T}),
]
GETS = [
    (name, {"paper": N, "anything": N})
    for name in (
        "club-kitty",
        "club-kitty-pdf",
        "club-ledger",
        "club-standings-csv",
        "club-standings-pdf",
        "club-ledger-csv",
        "club-ledger-pdf",
        "club-season-json",
    )
]


def _path(w, name: str) -> str:
    if name in ("club-kitty", "club-kitty-pdf"):
        return reverse(name, args=[w["club"].pk, w["ended"].pk])
    return reverse(name, args=[w["club"].pk, w["season"].pk])


def _check(w, name: str, method: str, data: dict) -> None:
    before = db_snapshot()
    send = w["client"].post if method == "POST" else w["client"].get
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
def test_kitty_posts_refuse_bad_values_without_a_server_error(season_world, name, fields, data):
    _check(season_world, name, "POST", data.draw(_request(fields)))


@pytest.mark.parametrize("name, fields", GETS, ids=[g[0] for g in GETS])
@FUZZ
@given(data=st.data())
def test_kitty_pages_refuse_bad_query_values(season_world, name, fields, data):
    _check(season_world, name, "GET", data.draw(_request(fields)))
