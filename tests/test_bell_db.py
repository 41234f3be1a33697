"""The bell on the database (issue 4): constant queries, host's cuts, undo then redo, names in
messages, random evenings replayed from the stored records, and two bells rung at once."""

import random
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.formats.poker.bell import rerun
from tables.formats.poker.plan import plan_tables
from tables.formats.poker.prizes import standings
from tables.packs import Pack
from tests.factories import EveningFactory, HostFactory
from tests.fixtures_bell import play, seat_by_names, tables_by_name
from tournament.formats.poker.bell import stored_record
from tournament.models import Bell, BellEntry, Evening, Guest, Result, Round, Seat
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.naming import error_message
from tournament.services.prizes import evening_standings
from tournament.services.results import result_record
from tournament.services.state import evening_state

HEAD = ["Ann", "Bob", "Cy", "Di"]
BOOBY = ["Eve", "Fay", "Gus", "Hal"]


def seats(evening):
    tables = {}
    for guest, table in Seat.objects.filter(evening=evening).values_list("guest_id", "table"):
        tables.setdefault(table, set()).add(guest)
    return tables


def state_seats(state):
    return {n: set(ids) for n, ids in enumerate(state.tables, 1)}


def report_everywhere(rnd, state):
    """Store a result at every table straight away: the first guest wins; at the head table the
    winner takes 10 counters from the last guest."""
    rows = []
    for number, ids in enumerate(state.tables, 1):
        counters = {}
        if number == 1:
            counters = {str(g): state.counters[g] for g in ids}
            counters[str(ids[0])] += 10
            counters[str(ids[-1])] -= 10
        rows.append(Result(round=rnd, table=number, pool_winner_id=ids[0], counters=counters))
    Result.objects.bulk_create(rows)


def test_a_bells_queries_do_not_grow_with_the_number_of_tables(make_evening):
    counts = {}
    for half in (30, 250):
        evening = make_evening(half, half, name=f"E{half}")
        draw_digital(evening=evening)
        rnd = round_start(evening=evening)
        state = evening_state(evening)
        report_everywhere(rnd, state)
        with CaptureQueriesContext(connection) as queries:
            bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
        assert bell is not None
        assert state_seats(evening_state(evening)) == seats(evening)
        counts[half] = (len(state.tables), len(queries))
    assert counts[30][0] < counts[250][0] and counts[30][1] == counts[250][1], counts


def test_the_host_enters_the_cards_cut_for_a_tie_and_they_decide(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, BOOBY])
    # Cy and Di tie on 45 at the head table, neither in the call: they cut. The lowest cut stays.
    play(
        evening,
        ids,
        {1: ("Ann", [], {"Ann": 60, "Bob": 50, "Cy": 45, "Di": 45}), 2: ("Eve", [], {})},
        cuts={"Cy": 3, "Di": 11},
    )
    assert tables_by_name(evening, ids) == [["Ann", "Bob", "Cy", "Eve"], ["Di", "Fay", "Gus", "Hal"]]
    cuts = {e.guest.name: e.amount for e in BellEntry.objects.filter(kind="cut").select_related("guest")}
    assert cuts == {"Cy": 3, "Di": 11}


def test_a_cut_that_is_not_a_card_is_refused_and_nothing_is_saved(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, BOOBY])
    rnd = round_start(evening=evening)
    result_record(
        round=rnd,
        table=1,
        pool_winner=ids["Ann"],
        counters={ids["Ann"]: 60, ids["Bob"]: 50, ids["Cy"]: 45, ids["Di"]: 45},
    )
    with pytest.raises(RuleError) as caught:
        bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST, cuts={ids["Cy"]: 14})
    assert error_message(caught.value, evening).startswith("Cy's cut 14 is not a card rank")  # as pages say it
    assert not Bell.objects.exists()
    assert Round.objects.get(pk=rnd.pk).state == Round.State.RUNNING


def test_undo_then_ring_again_gives_the_same_state_even_after_a_cut(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, BOOBY])
    first = play(evening, ids, {1: ("Ann", [], {"Ann": 60, "Bob": 50, "Cy": 45, "Di": 45}), 2: ("Eve", [], {})})
    assert BellEntry.objects.filter(bell=first, kind="cut").exists()  # cut at random
    bell_undo(evening=evening)
    assert (
        state_seats(evening_state(evening)) == seats(evening) == {1: {ids[n] for n in HEAD}, 2: {ids[n] for n in BOOBY}}
    )
    again = bell_ring(round_id=first.round_id, cause=Bell.Cause.HOST)
    assert again.state_after == first.state_after and again.record["entries"] == first.record["entries"]
    assert state_seats(evening_state(evening)) == seats(evening)


def test_a_waiting_bell_and_the_entries_name_guests(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, BOOBY])
    rnd = round_start(evening=evening)
    result_record(round=rnd, table=1, pool_winner=ids["Ann"], counters={ids["Ann"]: 50, ids["Bob"]: 50})
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is None
    rnd.refresh_from_db()
    assert rnd.state == "rung" and "missing Cy and Di." in rnd.waiting_for
    # Di busts at the head table and goes down; Bob busts too and changes seats with the booby
    # table's best player: the entry names that player.
    result_record(
        round=rnd,
        table=1,
        pool_winner=ids["Ann"],
        counters={ids["Ann"]: 150, ids["Bob"]: 0, ids["Cy"]: 50, ids["Di"]: 0},
    )
    result_record(
        round=rnd,
        table=2,
        pool_winner=ids["Eve"],
        counters={ids["Eve"]: 50, ids["Fay"]: 70, ids["Gus"]: 30, ids["Hal"]: 50},
    )
    rnd.refresh_from_db()
    assert rnd.state == "closed"
    texts = " ".join(BellEntry.objects.values_list("text", flat=True))
    assert "Change seats with Fay" in texts and "guest " not in texts.lower().replace("guests", "")


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(guests=st.integers(8, 40), rounds=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_random_evenings_on_the_database_replay_to_the_same_standings(db, guests, rounds, seed):
    rng = random.Random(seed)
    evening = EveningFactory(host=HostFactory(username="prop"))
    sizes = plan_tables(guests, accept_relaxed=True).sizes
    names = [[f"G{t}-{i}" for i in range(size)] for t, size in enumerate(sizes, 1)]
    seat_by_names(evening, names)
    for _ in range(rounds):
        state = evening_state(evening)
        rnd = round_start(evening=evening)
        rows = []
        for number, ids in enumerate(state.tables, 1):
            if number not in (1, len(state.tables)) and rng.random() < 0.15:
                continue  # no result: the table sits out (house rule no_result=stay)
            winner = rng.choice(ids)
            counters, pot = {}, 0
            for g in ids:
                if g != winner:
                    lost = rng.choice([0, state.counters[g], rng.randint(0, state.counters[g])])
                    counters[str(g)] = state.counters[g] - lost
                    pot += lost
            counters[str(winner)] = state.counters[winner] + pot
            others = [g for g in ids if g != winner]
            call = rng.sample(others, rng.randint(0, len(others) - 1))
            rows.append(
                Result(
                    round=rnd,
                    table=number,
                    pool_winner_id=winner,
                    in_call=call,
                    counters=counters if number in (1, len(state.tables)) or rng.random() < 0.5 else {},
                )
            )
        Result.objects.bulk_create(rows)
        assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None, Round.objects.get(pk=rnd.pk).waiting_for
        after = evening_state(evening)
        assert [len(t) for t in after.tables] == [len(t) for t in state.tables]
        assert state_seats(after) == seats(evening)
        assert after.total_counters() == evening.counters_per_stake * sum(after.stakes.values())
    # Replaying the stored records reproduces the state and the standings page.
    records = [
        stored_record(b)
        for b in Bell.objects.filter(round__evening=evening, undone_at__isnull=True).order_by("round__number")
    ]
    final = rerun(records)[-1].after
    assert final == evening_state(evening)
    packs = {g.pk: Pack(g.pack) for g in Guest.objects.filter(evening=evening)}
    assert standings(final, packs, stake=evening.counters_per_stake) == tuple(
        line.row for line in evening_standings(evening).lines
    )
    # Undo then ring again: the same state.
    last = Bell.objects.filter(round__evening=evening, undone_at__isnull=True).order_by("-round__number").first()
    bell_undo(evening=evening)
    again = bell_ring(round_id=last.round_id, cause=Bell.Cause.HOST)
    assert again.state_after == last.state_after and state_seats(evening_state(evening)) == seats(evening)


@pytest.mark.django_db(transaction=True)
def test_two_bells_rung_at_once_apply_once():
    if connection.vendor != "postgresql":
        pytest.skip(
            "Needs PostgreSQL (row locks across connections); CI sets DATABASE_URL to PostgreSQL. "
            "SQLite serialises every writer on one file lock, so there is no race to test."
        )
    evening = EveningFactory(host=HostFactory(username="race"))
    seat_by_names(evening, [HEAD, ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kit", "Lu"]])
    rnd = round_start(evening=evening)
    report_everywhere(rnd, evening_state(evening))
    barrier = threading.Barrier(2)
    outcome = []

    def ring():
        try:
            barrier.wait(timeout=10)
            outcome.append(bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST))
        finally:
            connection.close()

    threads = [threading.Thread(target=ring) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(outcome) == 2 and sum(bell is not None for bell in outcome) == 1
    assert Bell.objects.filter(round=rnd).count() == 1
    assert Evening.objects.get(pk=evening.pk).stage == Evening.Stage.PLAYING
    assert state_seats(evening_state(evening)) == seats(evening)


def test_a_result_for_a_closed_round_is_refused_outside_the_correction_page(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, BOOBY])
    bell = play(evening, ids, {1: ("Ann", [], {"Ann": 60, "Bob": 50, "Cy": 50, "Di": 40}), 2: ("Eve", [], {})})
    results = Result.objects.count()
    with pytest.raises(RuleError, match="Round 1 is closed"):
        result_record(round=bell.round, table=2, pool_winner=ids["Fay"])
    assert Result.objects.count() == results
