"""Standings, prizes, the settlement sheet, the house rules, and the host's pages of issue 4
over HTTP (corrections, the bell with cuts, the audit log)."""

from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.errors import RuleError
from tests.factories import HostFactory
from tests.fixtures_bell import play, seat_by_names, tables_by_name
from tournament.formats.poker.house_rules import house_rules_set
from tournament.models import BellEntry, Evening, Result
from tournament.services.clock import round_start
from tournament.services.prizes import evening_standings
from tournament.services.results import result_record

HEAD = ["Ann", "Bob", "Cy", "Di"]
BOOBY = ["Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


@pytest.fixture
def one_bell(make_evening):
    """Two tables; round 1: Ann wins the head pool (60), Di (40) goes down, Eve comes up.
    Packs alternate red, blue in seat order: Ann, Cy, Eve, Gus red; Bob, Di, Fay, Hal blue."""
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, BOOBY])
    play(
        evening,
        ids,
        {
            1: ("Ann", [], {"Ann": 60, "Bob": 50, "Cy": 50, "Di": 40}),
            2: ("Eve", [], {"Eve": 70, "Fay": 55, "Gus": 20, "Hal": 55}),
        },
    )
    return evening, ids


def test_standings_prizes_and_settlement_by_hand(one_bell):
    evening, ids = one_bell
    Evening.objects.filter(pk=evening.pk).update(counter_value=Decimal("0.10"))
    evening.refresh_from_db()
    s = evening_standings(evening)
    assert [(line.place, line.guest.name) for line in s.lines[:2]] == [(1, "Ann"), (2, "Eve")]
    prizes = {p.prize.key: ([g.name for g in p.winners], p.reason) for p in s.prizes}
    assert prizes["head_table"][0] == ["Ann"]
    assert prizes["red_pack"][0] == ["Eve"]  # 70 - 50 = 20 won
    assert prizes["blue_pack"][0] == ["Fay", "Hal"]  # 55 - 50 = 5 won each, shared (default)
    assert prizes["booby"][0] == ["Gus"]  # 20 - 50 = -30: the fewest won
    assert "Red pack" in [p.title for p in s.prizes][1]
    amounts = {line.guest.name: line.line.amount for line in s.settlement}
    assert amounts["Eve"] == Decimal("2.00") and amounts["Gus"] == Decimal("-3.00") and s.total == 0


def test_prize_options_change_the_booby_prize_and_cut_ties_the_same_way_every_time(one_bell):
    evening, ids = one_bell
    house_rules_set(evening=evening, bell={}, prizes={"booby_rule": "fewest_counters", "ties": "cut"})
    evening.refresh_from_db()
    first = evening_standings(evening)
    blue = next(p for p in first.prizes if p.prize.key == "blue_pack")
    assert len(blue.winners) == 1 and "won the cut" in blue.reason and "Guests Fay, Hal tied" not in blue.reason
    assert [g.name for g in blue.winners] == [
        g.name for g in next(p for p in evening_standings(evening).prizes if p.prize.key == "blue_pack").winners
    ]


def test_house_rules_are_stored_as_changes_and_an_unknown_option_is_refused(one_bell):
    evening, _ = one_bell
    version = evening.version
    house_rules_set(evening=evening, bell={"no_result": "lot", "max_table": 8}, prizes={"booby_rule": "none"})
    evening.refresh_from_db()
    assert evening.options["bell"] == {"no_result": "lot", "max_table": 8}
    assert evening.options["prizes"] == {"booby_rule": "none"} and evening.version > version
    for bad in (
        {"bell": {"no_such": "x"}, "prizes": {}},
        {"bell": {"no_result": "maybe"}, "prizes": {}},
        {"bell": {}, "prizes": {"booby_rule": "tallest"}},
    ):
        with pytest.raises(RuleError):
            house_rules_set(evening=evening, **bad)
    evening.refresh_from_db()
    assert evening.options["bell"] == {"no_result": "lot", "max_table": 8}


def test_the_standings_page_shows_prizes_and_the_settlement(logged_in, one_bell):
    evening, _ = one_bell
    url = reverse("host-standings", args=[evening.pk])
    page = logged_in.get(url).content.decode()
    assert "Most yellow counters" in page and "Booby prize" in page and "Settlement sheet" not in page
    # A change of the settings bumps the evening's version, as every change does (the settings'
    # service: ``evening_touch``): the page is kept per version.
    Evening.objects.filter(pk=evening.pk).update(counter_value=Decimal("0.25"), version=F("version") + 1)
    page = logged_in.get(url).content.decode()
    assert "Settlement sheet" in page and "-7.50" in page  # Gus: -30 counters won


def test_the_standings_cost_the_same_queries_for_any_evening(make_evening):
    counts = []
    for tables in (2, 12):
        evening = make_evening(0, 0, name=f"Q{tables}")
        seat_by_names(evening, [[f"{t}-{i}" for i in range(4)] for t in range(tables)])
        with CaptureQueriesContext(connection) as queries:
            evening_standings(evening)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_house_rules_page_saves_choices_and_refuses_what_is_not_a_choice(logged_in, one_bell):
    evening, _ = one_bell
    url = reverse("host-house-rules", args=[evening.pk])
    page = logged_in.get(url).content.decode()
    assert "(our rule)" in page and "no_result" in page and "booby_rule" in page
    data = {
        "no_result": "hold",
        "pool_tie": "cut",
        "tie_yellow": "one",
        "all_in_call": "fewest",
        "head_bust": "once",
        "many_busts": "in_turn",
        "swap_with": "played_there",
        "booby_unknown": "refuse",
        "last_round_counts": "require",
        "leave_fill": "below_three",
        "arrive_at": "booby",
        "max_table": 7,
        "booby_rule": "fewest_won",
        "ties": "shared",
    }
    assert logged_in.post(url, data).status_code == 302
    evening.refresh_from_db()
    assert evening.options["bell"] == {"no_result": "hold"}
    response = logged_in.post(url, {**data, "no_result": "sometimes"})
    assert response.status_code == 200 and "not one of the available choices" in response.content.decode()
    evening.refresh_from_db()
    assert evening.options["bell"] == {"no_result": "hold"}


def test_the_correction_pages_correct_a_result_and_log_it(logged_in, one_bell):
    evening, ids = one_bell
    page = logged_in.get(reverse("host-corrections", args=[evening.pk])).content.decode()
    assert "Round 1" in page and "<bdi>Ann</bdi> won" in page
    url = reverse("host-correction", args=[evening.pk, 1, 2])
    assert "Eve" in logged_in.get(url).content.decode()
    response = logged_in.post(
        url,
        {
            "pool_winner": str(ids["Fay"]),
            f"counters_{ids['Eve']}": 50,
            f"counters_{ids['Fay']}": 70,
            f"counters_{ids['Gus']}": 30,
            f"counters_{ids['Hal']}": 50,
        },
    )
    assert response.status_code == 302
    assert tables_by_name(evening, ids) == [["Ann", "Bob", "Cy", "Fay"], ["Eve", "Di", "Gus", "Hal"]]
    # A bad correction: counters for nobody below zero -> the form says why, nothing changes.
    response = logged_in.post(
        url, {"pool_winner": str(ids["Fay"]), "in_call": [str(ids["Fay"])], f"counters_{ids['Eve']}": -1}
    )
    assert response.status_code == 200 and Result.objects.filter(table=2).count() == 2
    audit = logged_in.get(reverse("host-audit", args=[evening.pk])).content.decode()
    assert (
        "The host corrected table 2&#x27;s result in round 1: <bdi>Fay</bdi> won the pool (not <bdi>Eve</bdi>); counters: "
        "<bdi>Eve</bdi> 70 → 50, <bdi>Fay</bdi> 55 → 70, <bdi>Gus</bdi> 20 → 30, <bdi>Hal</bdi> 55 → 50; the bell of round 1 "
        "was played again. <bdi>Fay</bdi> now sits at table 1, <bdi>Eve</bdi> at table 2."
    ) in audit


def test_the_bell_page_lists_who_must_cut_and_rings_with_the_host_cards(logged_in, make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, BOOBY])
    rnd = round_start(evening=evening)
    result_record(
        round=rnd,
        table=1,
        pool_winner=ids["Ann"],
        counters={ids["Ann"]: 60, ids["Bob"]: 50, ids["Cy"]: 45, ids["Di"]: 45},
    )
    result_record(round=rnd, table=2, pool_winner=ids["Eve"])
    url = reverse("host-bell-cuts", args=[evening.pk])
    page = logged_in.get(url).content.decode()
    assert "<strong>Who goes down from the head table</strong>: Cy, Di" in page
    stale = logged_in.post(url, {"round": 2, f"cut_{ids['Cy']}": "12"}, follow=True)  # a page from another round
    assert "That page was for round 2, whose bell has rung already: nothing was rung." in stale.content.decode()
    assert not BellEntry.objects.exists()
    response = logged_in.post(url, {"round": 1, f"cut_{ids['Cy']}": "12", f"cut_{ids['Di']}": "1"})
    assert response.status_code == 302
    assert tables_by_name(evening, ids)[1][0] == "Cy"  # Cy cut the queen: Cy goes down
    assert dict(BellEntry.objects.filter(kind="cut").values_list("guest__name", "amount")) == {"Cy": 12, "Di": 1}


def test_issue_four_pages_belong_to_their_host(client, one_bell):
    evening, _ = one_bell
    client.force_login(HostFactory(username="another"))
    for name in ("host-standings", "host-house-rules", "host-corrections", "host-audit", "host-bell-cuts"):
        assert client.get(reverse(name, args=[evening.pk])).status_code == 404
    assert client.get(reverse("host-correction", args=[evening.pk, 1, 1])).status_code == 404
