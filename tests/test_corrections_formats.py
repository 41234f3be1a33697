"""Corrections at tables of four (issue 22 item 3): a forgotten bunco, a wrong euchre score, a
mistaken trick count, corrected in an earlier round through the host's pages; every later step
(bells, departures) played again through the format's engine; refused whole, naming the round,
when a later step no longer fits. Rules: ``docs/rules/tables-of-four.md``, "Correcting an
earlier round" (house rule)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.formats.records import report_score, state_from_json
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_rules, foursome_state
from tournament.models import AuditEntry, Bell, Evening, Guest, Result
from tournament.registry import format_for
from tournament.selectors.audit_sentences import audit_sentence
from tournament.services.clock import round_ring, round_start
from tournament.services.corrections import correction_rounds, correction_save
from tournament.services.naming import error_message

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def drawn(make_evening, key: str, red: int, blue: int) -> Evening:
    evening = make_evening(red, blue, format=key, round_end=Evening.RoundEnd.CLOCK, rounds_planned=4)
    foursome_draw(evening=evening)
    return Evening.objects.get(pk=evening.pk)


def report_all(evening: Evening, reports) -> None:
    """Start the next round, report every table (``reports(seats)`` gives a table's report), ring."""
    rnd = round_start(evening=evening)
    for table, seats in enumerate(foursome_state(evening).tables, 1):
        foursome_report(round=rnd, table=table, report=reports(seats))
    round_ring(evening=evening)


def snapshot(evening: Evening) -> tuple:
    return (
        sorted(Result.objects.filter(round__evening=evening).values_list("pk", "superseded_at")),
        sorted(Bell.objects.of_evening(evening.pk).values_list("pk", "undone_at")),
        sorted(evening.seats.values_list("guest_id", "table", "position")),
        AuditEntry.objects.filter(evening=evening).count(),
    )


def bunco(seats, ns=21, ew=9, **extra):
    """North–South win with ``ns`` points to ``ew``; no buncos unless given by player."""
    return {"points": {"NS": ns, "EW": ew}, **extra}


def form_data(page: str) -> dict[str, str]:
    """The values a form on ``page`` was pre-filled with (inputs and selected options)."""
    data = {m[1]: m[0] for m in re.findall(r'<input[^>]*value="([^"]*)"[^>]*name="([^"]+)"', page)}
    data |= {m[0]: m[1] for m in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page)}
    data.pop("csrfmiddlewaretoken", None)
    return data


def test_a_forgotten_bunco_is_added_to_round_1_while_round_2_is_in_play(make_evening, logged_in):
    """Bunco, 14 guests (four tables, two ghosts): round 1 rung, round 2 started; the host adds
    the North player's forgotten bunco to round 1's table 3 (21 points more to North–South)."""
    evening = drawn(make_evening, "bunco", 7, 7)
    report_all(evening, bunco)
    round_start(evening=evening)
    bell = Bell.objects.live().bells().of_evening(evening.pk).get()
    north = bell.record["before"][2][0]
    assert north > 0  # a guest (the ghosts sit at the foot table)
    url = reverse("host-correction", args=[evening.pk, 1, 3])
    page = logged_in.get(url).content.decode()
    data = form_data(page)
    assert data["points_NS"] == "21" and data["points_EW"] == "9"  # pre-filled with what was reported
    name = Guest.objects.get(pk=north).name
    assert name in page
    data |= {"points_NS": "42", "buncos_0": "1"}
    response = logged_in.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    live = Result.objects.get(round__number=1, round__evening=evening, table=3, superseded_at__isnull=True)
    assert live.report["buncos"] == {str(north): 1} and live.report["points"] == {"NS": 42, "EW": 9}
    assert foursome_state(evening).tallies[north]["buncos"] == 1
    assert Result.objects.filter(round__evening=evening, table=3, round__number=1).count() == 2  # the old one kept
    standings = format_for(evening).standings(evening)
    most = next(p for p in standings.prizes if "bunco" in p.prize.key and "last" not in p.prize.key)
    assert most.prize.winners == (north,)


def test_a_wrong_euchre_score_two_rounds_back_replays_a_departure_and_the_next_bell(make_evening, logged_in):
    """Progressive Euchre, 12 guests: round 1, then a guest leaves, then round 2; round 1's
    table 2 was really won by East–West: the bell of round 1 is rung again with that, keeping
    the seats round 2 was played in (``docs/rules/tables-of-four.md``, "Corrections"), the
    departure taken again, round 2's bell rung again, each through the format's engine."""
    evening = drawn(make_evening, "euchre", 6, 6)
    report_all(evening, lambda seats: {"points": {"NS": 7, "EW": 3}})
    leaver = Guest.objects.get(pk=foursome_state(evening).tables[2][1])
    format_for(evening).seat_change(evening=evening, guest=leaver, leaving=True, user=None, device="")
    report_all(evening, lambda seats: {"points": {"NS": 5, "EW": 7}})
    steps = list(Bell.objects.live().of_evening(evening.pk).in_order())
    assert [s.kind for s in steps] == ["bell", "leave", "bell"]
    page = logged_in.get(reverse("host-corrections", args=[evening.pk])).content.decode()
    assert page.count("Round 1 <small>") == 1 and page.count("Round 2 <small>") == 1
    url = reverse("host-correction", args=[evening.pk, 1, 2])
    data = form_data(logged_in.get(url).content.decode()) | {"points_NS": "3", "points_EW": "7"}
    response = logged_in.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    new = list(Bell.objects.live().of_evening(evening.pk).in_order())
    assert [s.kind for s in new] == ["bell", "leave", "bell"] and not {s.pk for s in new} & {s.pk for s in steps}
    assert new[0].record["winners"][1] == "EW" and steps[0].record["winners"][1] == "NS"
    assert new[0].record["as_played"] and new[0].record["after"] == steps[0].record["after"]
    # The same evening worked through the engine from the draw, with the corrected score and
    # round 1's seats after its bell as the guests took them (round 2 was played in them).
    plugin, (fmt, options) = format_for(evening), foursome_rules(evening)
    state = plugin.state_at_draw(evening.draws.get(superseded_at__isnull=True))
    for step in steps:
        if step.kind == "leave":
            state = plugin.leave_state(state, leaver.pk)
            continue
        scores = {}
        for row in Result.objects.filter(round=step.round, superseded_at__isnull=True):
            scores[row.table] = report_score(fmt, state.tables[row.table - 1], row.report, ties=options.ties)
        state = plugin.rules_of(evening).ring(state, scores, options=options).after
        if step.round.number == 1:
            state = replace(state, tables=state_from_json(step.state_after).tables)
    assert foursome_state(evening) == state
    assert state.tables == state_from_json(steps[-1].state_after).tables  # nobody moved
    assert state_from_json(new[-1].state_after) == state
    seats = {(g, t, p) for g, t, p in evening.seats.values_list("guest_id", "table", "position")}
    assert seats == {(g, n, s) for n, ids in enumerate(state.tables, 1) for s, g in enumerate(ids) if g > 0}


def test_a_mistaken_trick_count_is_corrected_and_the_tallies_follow(make_evening, logged_in):
    evening = drawn(make_evening, "whist", 4, 4)
    report_all(evening, lambda seats: {"tricks": {"NS": 8, "EW": 5}})
    players = foursome_state(evening).tallies
    url = reverse("host-correction", args=[evening.pk, 1, 1])
    data = form_data(logged_in.get(url).content.decode())
    assert (data["tricks_NS"], data["tricks_EW"]) == ("8", "5")
    head = Bell.objects.live().bells().of_evening(evening.pk).get().record["before"][0]
    response = logged_in.post(url, data | {"tricks_NS": "9", "tricks_EW": "4"})
    assert response.status_code == 302
    tallies = foursome_state(evening).tallies
    assert tallies[head[0]]["tricks"] == players[head[0]]["tricks"] + 1
    assert tallies[head[1]]["tricks"] == players[head[1]]["tricks"] - 1


WINS = {
    "euchre": ({"points": {"NS": 5, "EW": 2}}, {"points": {"NS": 2, "EW": 5}}, "stars"),
    "whist": ({"tricks": {"NS": 8, "EW": 5}}, {"tricks": {"NS": 5, "EW": 8}}, "wins"),
    "bunco": ({"points": {"NS": 21, "EW": 9}}, {"points": {"NS": 9, "EW": 21}}, "wins"),
}


@pytest.mark.parametrize("key", ["euchre", "whist", "bunco"])
def test_an_old_rounds_winner_corrected_after_later_bells_keeps_the_seats_played_and_corrects_the_scores(
    make_evening, logged_in, key
):
    """A stranger's report: correcting round 1's winner once round 2 had been rung was refused
    (Bunco, a later bunco named a player the correction would have seated elsewhere), or, in
    Euchre and Drive Whist, saved by replaying round 2 in seats nobody sat in, its scores given
    to guests who did not play them. The rule (``docs/rules/tables-of-four.md``, "Corrections"):
    round 2 was played in the seats the guests took, so they stay; round 1's scores are
    corrected, and every later round scores for those who really played it."""
    won, lost, tally = WINS[key]
    evening = drawn(make_evening, key, 6, 6)
    report_all(evening, lambda seats: won)
    played = foursome_state(evening).tables  # round 2 is played in these seats
    head = played[0]
    roller = next(p for p in head if p > 0)
    later = dict(won, buncos={str(roller): 1}) if key == "bunco" else won
    report_all(evening, lambda seats: later if roller in seats else won)
    before = foursome_state(evening)
    first = Bell.objects.live().bells().of_evening(evening.pk).get(round__number=1)
    four = first.record["before"][1]  # who sat at table 2 in round 1, North first
    url = reverse("host-correction", args=[evening.pk, 1, 2])
    form_page = logged_in.get(url).content.decode()
    assert "it was played in the seats the guests really took: nobody moves" in form_page
    data = form_data(form_page)
    data |= {f"points_{s}": str(n) for s, n in lost.get("points", {}).items()}
    data |= {f"tricks_{s}": str(n) for s, n in lost.get("tricks", {}).items()}
    response = logged_in.post(url, data, follow=True)
    page = response.content.decode()
    assert "Round 2 was played in the seats the guests took after round 1&#x27;s bell, so nobody moves" in page
    after = foursome_state(evening)
    assert after.tables == before.tables  # nobody moves
    assert sorted(evening.seats.values_list("guest_id", "table", "position")) == sorted(
        (g, n, s) for n, ids in enumerate(before.tables, 1) for s, g in enumerate(ids) if g > 0
    )
    # Round 1 at table 2: North–South's win goes to East–West, for those four only.
    north_south, east_west = four[0::2], four[1::2]
    for player in (p for p in north_south if p > 0):
        assert after.tally(player, tally) == before.tally(player, tally) - 1
    for player in (p for p in east_west if p > 0):
        assert after.tally(player, tally) == before.tally(player, tally) + 1
    others = {p for t in before.tables for p in t if p > 0} - set(four)
    assert all(after.tallies.get(p) == before.tallies.get(p) for p in others)
    if key == "bunco":
        assert after.tally(roller, "buncos") == 1  # round 2's bunco stays with who rolled it
    new = Bell.objects.live().bells().of_evening(evening.pk).get(round__number=2)
    assert new.record["before"] == [list(t) for t in played]  # round 2 as it was played
    entry = AuditEntry.objects.get(evening=evening, action="result.correct")
    assert audit_sentence(entry, {}).endswith("Nobody moved: the seats played since were kept.")


def test_at_a_euchre_tournament_an_old_games_winner_is_corrected_and_the_schedule_seats_everyone_as_before(
    make_evening,
):
    """The schedule seats every game whoever won (``docs/rules/euchre-tournament.md``): the
    correction of game 1 after game 2 changes game 1's points and wins only."""
    evening = drawn(make_evening, "euchre_tournament", 6, 6)
    report_all(evening, lambda seats: {"points": {"NS": 5, "EW": 2}})
    report_all(evening, lambda seats: {"points": {"NS": 5, "EW": 2}})
    before = foursome_state(evening)
    four = Bell.objects.live().bells().of_evening(evening.pk).get(round__number=1).record["before"][1]
    done = correction_save(evening=evening, round_number=1, table=2, result={"points": {"NS": 2, "EW": 5}})
    after = foursome_state(evening)
    assert after.tables == before.tables and not done.seats_kept and done.moves == ()
    for player in four[0::2]:
        assert after.tally(player, "points") == before.tally(player, "points") - 3
    for player in four[1::2]:
        assert after.tally(player, "points") == before.tally(player, "points") + 3


def test_a_report_naming_a_player_who_sat_elsewhere_that_round_is_refused(make_evening):
    evening = drawn(make_evening, "bunco", 4, 4)
    report_all(evening, bunco)
    bell = Bell.objects.live().bells().of_evening(evening.pk).get()
    stranger = next(p for p in bell.record["before"][1] if p > 0)
    before = snapshot(evening)
    with pytest.raises(RuleError) as caught:
        correction_save(evening=evening, round_number=1, table=1, result=bunco((), 42, 9, buncos={str(stranger): 1}))
    assert Guest.objects.get(pk=stranger).name in error_message(caught.value, evening)
    assert snapshot(evening) == before


def test_the_corrections_page_lists_each_round_once_with_its_reports_in_words(make_evening, logged_in):
    evening = drawn(make_evening, "euchre", 4, 4)
    report_all(evening, lambda seats: {"points": {"NS": 7, "EW": 3}})
    (history,) = correction_rounds(evening)
    assert history.words == ["North–South 7, East–West 3 points"] * 2
    page = logged_in.get(reverse("host-corrections", args=[evening.pk])).content.decode()
    assert "North–South 7, East–West 3 points" in page
    assert reverse("host-correction", args=[evening.pk, 1, 2]) in page


def random_report(key: str, seats, rng) -> dict:
    """A report the format allows for a table seated ``seats``, at random: Euchre points (a tie
    played off), Drive Whist's 13 tricks, Bunco points with now and then a bunco by a guest."""
    if key == "whist":
        ns = rng.randint(0, 13)
        return {"tricks": {"NS": ns, "EW": 13 - ns}}
    most = 10 if key == "euchre" else 40
    least = 0 if key == "euchre" else 21
    ns, ew = rng.randint(least, most), rng.randint(least, most)
    report: dict = {"points": {"NS": ns, "EW": ew}}
    if ns == ew:
        report["playoff" if key == "euchre" else "rolloff"] = rng.choice(["NS", "EW"])
    guests = [p for p in seats if p > 0]
    if key == "bunco" and guests and rng.random() < 0.5:
        report["buncos"] = {str(rng.choice(guests)): 1}
    return report


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    key=st.sampled_from(["euchre", "whist", "bunco"]),
    guests=st.integers(8, 17),
    rounds=st.integers(1, 3),
    seed=st.integers(0, 2**32),
)
def test_a_random_correction_at_tables_of_four_is_refused_whole_or_undone_exactly_by_correcting_back(
    make_evening, key, guests, rounds, seed
):
    """Any correction of any earlier round, after random rounds (now and then a table with no
    report, cut for at the bell) and a departure: either refused with nothing changed, or saved
    so that every seat follows the state (the seats unchanged when a later round was rung:
    it was played in them); and correcting it back gives back exactly the evening (house
    rule: a card once cut stays cut)."""
    import random

    rng = random.Random(seed)
    evening = drawn(make_evening, key, guests // 2, guests - guests // 2)
    for number in range(1, rounds + 1):
        rnd = round_start(evening=evening)
        for table, seats in enumerate(foursome_state(evening).tables, 1):
            if rng.random() < 0.85:
                foursome_report(round=rnd, table=table, report=random_report(key, seats, rng))
        round_ring(evening=evening)
        if number == 1 and rng.random() < 0.5:
            leaver = rng.choice([p for t in foursome_state(evening).tables for p in t if p > 0])
            format_for(evening).seat_change(
                evening=evening, guest=Guest.objects.get(pk=leaver), leaving=True, user=None, device=""
            )
    number = rng.randint(1, rounds)
    bell = Bell.objects.live().bells().of_evening(evening.pk).get(round__number=number)
    seats = format_for(evening).played_seats(bell)
    table = rng.randint(1, len(seats))
    old = Result.objects.filter(round=bell.round, table=table, superseded_at__isnull=True).first()
    state, before = foursome_state(evening), snapshot(evening)
    try:
        correction_save(
            evening=evening, round_number=number, table=table, result=random_report(key, seats[table - 1], rng)
        )
    except RuleError:
        assert snapshot(evening) == before and foursome_state(evening) == state
        return
    now = foursome_state(evening)
    assert sorted(evening.seats.values_list("guest_id", "table", "position")) == sorted(
        (g, n, s) for n, ids in enumerate(now.tables, 1) for s, g in enumerate(ids) if g > 0
    )
    if number < rounds:  # a later round was played in the seats taken: they stay
        assert now.tables == state.tables
    if old is None:
        return  # nothing to go back to: the table had no report
    correction_save(evening=evening, round_number=number, table=table, result=dict(old.report))
    assert foursome_state(evening) == state
    assert sorted(evening.seats.values_list("guest_id", "table", "position")) == before[2]


def test_at_tables_of_four_the_same_report_again_and_a_round_in_play_are_refused_on_the_page(make_evening, logged_in):
    evening = drawn(make_evening, "bunco", 4, 4)
    report_all(evening, bunco)
    round_start(evening=evening)
    before = snapshot(evening)
    url = reverse("host-correction", args=[evening.pk, 1, 2])
    page = logged_in.post(url, form_data(logged_in.get(url).content.decode())).content.decode()
    assert "result in round 1 already: nothing to correct" in page
    page = logged_in.get(reverse("host-correction", args=[evening.pk, 2, 1]), follow=True).content.decode()
    assert "Round 2 is still in play: enter or change its results on the evening page." in page
    assert snapshot(evening) == before


def test_after_the_later_bell_is_undone_the_phones_say_the_corrected_bell_kept_the_seats_played(make_evening, client):
    """The corrected bell that kept the seats played since is the last bell again once round 2's
    bell is undone: a winner of round 1 who stayed is told why (``boards.AS_PLAYED``)."""
    from tournament.formats.partnership.boards import AS_PLAYED
    from tournament.services.bell import bell_undo

    won, lost, _ = WINS["bunco"]
    evening = drawn(make_evening, "bunco", 6, 6)
    report_all(evening, lambda seats: won)
    report_all(evening, lambda seats: won)
    four = Bell.objects.live().bells().of_evening(evening.pk).get(round__number=1).record["before"][1]
    done = correction_save(evening=evening, round_number=1, table=2, result=lost)
    assert done.seats_kept
    bell_undo(evening=evening)
    winner = Guest.objects.get(pk=four[1])  # East–West won round 1's table 2, as corrected
    page = " ".join(client.get(reverse("guest-page", args=[winner.key])).content.decode().split())
    assert "You won at table 2" in page and AS_PLAYED.replace("'", "&#x27;") in page
