"""Corrections without loss (issue 4 item 4): a result corrected three rounds back, worked by
hand; refusals that save nothing; the old records kept and marked."""

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tables.errors import RuleError, Subjects
from tables.formats.poker.bell import BellEntry, EveningState, StateError
from tests.fixtures_bell import play, seat_by_names, tables_by_name
from tournament.models import AuditEntry, Bell, Evening, Result, Seat
from tournament.services.corrections import correction_rounds, result_correct, seating_check
from tournament.services.naming import error_message
from tournament.services.prizes import evening_standings
from tournament.services.state import evening_state

HEAD = ["H1", "H2", "H3", "H4"]
MIDDLE = ["M1", "M2", "M3", "M4"]
BOOBY = ["B1", "B2", "B3", "B4"]


def four_rounds(evening):
    """The worked evening: three tables of four, four rounds (see the comments for the moves)."""
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    # R1: H1 wins the head pool; H4 (40, not in the call) goes down; M1 up; B1 up (booby counted).
    play(
        evening,
        ids,
        {
            1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}),
            2: ("M1", [], {}),
            3: ("B1", [], {"B1": 60, "B2": 40, "B3": 50, "B4": 50}),
        },
    )
    # R2: head is H1 H2 H3 M1; H2 wins, H3 called; M1 (40) goes down; M2 up; B3 up.
    play(
        evening,
        ids,
        {1: ("H2", ["H3"], {"H1": 55, "H2": 70, "H3": 45, "M1": 40}), 2: ("M2", [], {}), 3: ("B3", [], {})},
    )
    # R3: head is H1 H2 H3 M2; H1 wins; H3 (35) goes down; M3 up; H4 (at the booby table) up.
    play(evening, ids, {1: ("H1", [], {"H1": 75, "H2": 60, "H3": 35, "M2": 50}), 2: ("M3", [], {}), 3: ("H4", [], {})})
    # R4: head is H1 H2 M3 M2; M3 wins, M2 called; H2 (60 < H1's 65) goes down; M4 up; B4 up.
    play(
        evening,
        ids,
        {1: ("M3", ["M2"], {"H1": 65, "H2": 60, "M3": 70, "M2": 40}), 2: ("M4", [], {}), 3: ("B4", [], {})},
    )
    return ids


def seats_by_name(evening, ids):
    names = {pk: name for name, pk in ids.items()}
    tables = {}
    for guest, table in Seat.objects.filter(evening=evening).values_list("guest_id", "table"):
        tables.setdefault(table, set()).add(names[guest])
    return tables


def standing(evening, ids):
    """name -> (yellow, counters, counters won) from the standings page's data."""
    return {
        line.guest.name: (line.row.yellow, line.row.counters, line.row.counters_won)
        for line in evening_standings(evening).lines
    }


def test_the_worked_evening_before_any_correction(make_evening):
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    assert tables_by_name(evening, ids) == [
        ["H1", "M4", "M3", "M2"],
        ["B1", "B3", "H4", "B4"],
        ["H3", "B2", "M1", "H2"],
    ]
    s = standing(evening, ids)
    assert s["H1"] == (2, 65, 15) and s["M3"] == (1, 70, 20) and s["H2"] == (1, 60, 10)
    assert s["B1"] == (0, 60, 10) and s["B2"] == (0, 40, -10)


def test_a_correction_three_rounds_back_replays_every_later_bell(make_evening):
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    version = Evening.objects.get(pk=evening.pk).version
    old_bells = set(Bell.objects.filter(round__evening=evening).values_list("pk", flat=True))
    # Round 1 at the booby table: really B2 won, and the counts were B1 40, B2 60.
    done = result_correct(
        evening=evening,
        round_number=1,
        table=3,
        pool_winner=ids["B2"],
        counters={ids["B1"]: 40, ids["B2"]: 60, ids["B3"]: 50, ids["B4"]: 50},
    )
    assert done.rounds == (1, 2, 3, 4) and done.report_again == ()
    # By hand: B2 goes up to the middle table in round 1 instead of B1, and H4 takes B2's seat
    # at the booby table; rounds 2-4 then run as before, except that B1 and B2 have changed
    # places: B2 ends at the middle table's first seat, B1 at the booby table's first seat.
    assert tables_by_name(evening, ids) == [
        ["H1", "M4", "M3", "M2"],
        ["B2", "B3", "H4", "B4"],
        ["B1", "H3", "M1", "H2"],
    ]
    assert seats_by_name(evening, ids) == {
        1: {"H1", "M4", "M3", "M2"},
        2: {"B2", "B3", "H4", "B4"},
        3: {"B1", "H3", "M1", "H2"},
    }
    assert done.moved == 2
    s = standing(evening, ids)
    assert s["B1"] == (0, 40, -10) and s["B2"] == (0, 60, 10)  # swapped by the correction
    assert s["H1"] == (2, 65, 15) and s["M3"] == (1, 70, 20) and s["H2"] == (1, 60, 10)  # unchanged
    assert sum(c for _, c, _ in s.values()) == 12 * 50  # every head count was conserved
    # Nothing lost: the four old bells are kept, undone; four new live bells; the old result kept.
    assert set(Bell.objects.filter(pk__in=old_bells, undone_at__isnull=False).values_list("pk", flat=True)) == old_bells
    assert Bell.objects.filter(round__evening=evening, undone_at__isnull=True).count() == 4
    old, new = Result.objects.filter(round__number=1, round__evening=evening, table=3).order_by("id")
    assert old.superseded_at is not None and old.pool_winner_id == ids["B1"] and new.pool_winner_id == ids["B2"]
    entry = AuditEntry.objects.get(evening=evening, action="result.correct")
    assert entry.detail["replayed"] == [1, 2, 3, 4] and entry.detail["old_winner"] == ids["B1"]
    assert Evening.objects.get(pk=evening.pk).version > version  # every live page refetches
    # The new records replay to the same state.
    from tables.formats.poker.bell import rerun
    from tournament.formats.poker.bell import stored_record

    records = [
        stored_record(b)
        for b in Bell.objects.filter(round__evening=evening, undone_at__isnull=True).order_by("round__number")
    ]
    assert rerun(records)[-1].after == evening_state(evening)


def test_a_head_table_correction_moves_the_yellow_counter(make_evening):
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    # Round 1 at the head table: H2 won (not H1), with the same counts otherwise swapped.
    result_correct(
        evening=evening,
        round_number=1,
        table=1,
        pool_winner=ids["H2"],
        counters={ids["H1"]: 50, ids["H2"]: 65, ids["H3"]: 45, ids["H4"]: 40},
    )
    s = standing(evening, ids)
    # By hand: yellow counters H1 1 (round 3), H2 2 (rounds 1 and 2), M3 1 (round 4); counters
    # are those of the later head counts, so nobody's counters change.
    assert (s["H1"][0], s["H2"][0], s["M3"][0]) == (1, 2, 1)
    assert s["H1"][1:] == (65, 15) and s["H2"][1:] == (60, 10)
    lines = evening_standings(evening).lines
    assert [line.guest.name for line in lines[:3]] == ["H2", "M3", "H1"]  # most yellow, then counters


def test_a_correction_that_no_longer_fits_a_later_round_is_refused_and_saves_nothing(make_evening):
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    before = (
        list(Result.objects.values_list("pk", "superseded_at")),
        list(Bell.objects.values_list("pk", "undone_at")),
        seats_by_name(evening, ids),
        Evening.objects.get(pk=evening.pk).version,
    )
    # If H1 had had the fewest counters in round 1 H1 would have gone down, but round 2's head
    # count names H1 at the head table.
    with pytest.raises(RuleError, match=r"round 2's results do not fit: Counters were reported for H1"):
        result_correct(
            evening=evening,
            round_number=1,
            table=1,
            pool_winner=ids["H2"],
            counters={ids["H1"]: 35, ids["H2"]: 70, ids["H3"]: 55, ids["H4"]: 40},
        )
    after = (
        list(Result.objects.values_list("pk", "superseded_at")),
        list(Bell.objects.values_list("pk", "undone_at")),
        seats_by_name(evening, ids),
        Evening.objects.get(pk=evening.pk).version,
    )
    assert after == before


def test_a_refused_correction_says_the_way_that_is_open_and_that_way_works(make_evening):
    from tournament.services.bell import bell_undo

    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    play(
        evening,
        ids,
        {
            1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}),
            2: ("M1", [], {}),
            3: ("B1", [], {"B1": 60, "B2": 40, "B3": 50, "B4": 50}),
        },
    )
    play(
        evening,
        ids,
        {1: ("H2", ["H3"], {"H1": 55, "H2": 70, "H3": 45, "M1": 40}), 2: ("M2", [], {}), 3: ("B3", [], {})},
    )
    fix = {
        "round_number": 1,
        "table": 1,
        "pool_winner": ids["H2"],
        "counters": {ids["H1"]: 35, ids["H2"]: 70, ids["H3"]: 55, ids["H4"]: 40},
    }
    # Round 2 is the last bell and round 3 has not started: undoing it is open, and the message says so.
    with pytest.raises(RuleError) as refused:
        result_correct(evening=evening, **fix)
    assert error_message(refused.value, evening).endswith(
        "To make it anyway: undo the bell of round 2 on the evening page (everyone goes back to their seats "
        "before it), correct round 1 here, then enter round 2's results again for the new seats and ring its bell."
    )
    bell_undo(evening=evening)
    done = result_correct(evening=evening, **fix)  # H1 (35) went down instead of H4
    # Round 2's head count named H1 at the head table, and the booby table played round 2 with H4, who
    # now sits at the head table: both report again.
    assert done.report_again == (1, 3)
    assert "H1" in seats_by_name(evening, ids)[3] and "H4" in seats_by_name(evening, ids)[1]


def test_a_refused_correction_with_later_bells_rung_says_the_result_stays(make_evening):
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    with pytest.raises(RuleError) as refused:
        result_correct(
            evening=evening,
            round_number=1,
            table=1,
            pool_winner=ids["H2"],
            counters={ids["H1"]: 35, ids["H2"]: 70, ids["H3"]: 55, ids["H4"]: 40},
        )
    # In plain words (a stranger's report): what is refused, why, and what the host can do instead.
    assert error_message(refused.value, evening) == (
        "Nothing was changed: this result changes who moved at round 1's bell (it would have seated H4 at "
        "table 1, not table 3, and H1 at table 3, not table 1), but round 2 was played in the seats the guests "
        "really took. In the seats this result gives, round 2's results do not fit: Counters were reported for "
        "H1, who does not sit at table 1, where H2, H3, H4 and M1 sit. What you can do: correct round 1's counts "
        "while keeping who won and who moved at its bell, which the later rounds fit. A different winner cannot "
        "be saved now: the bells of rounds 3 and 4 have rung since round 2's, and only the last bell can be "
        "undone, so round 1's winner stays as recorded."
    )


def test_the_way_out_a_refusal_names_works_round_1s_counts_corrected_keeping_who_won_and_moved(make_evening):
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    # Round 1 at the head table really counted H2 45 and H3 50: H1 still won, H4 (40) still went down.
    done = result_correct(
        evening=evening,
        round_number=1,
        table=1,
        pool_winner=ids["H1"],
        counters={ids["H1"]: 65, ids["H2"]: 45, ids["H3"]: 50, ids["H4"]: 40},
    )
    assert done.rounds == (1, 2, 3, 4) and done.moves == () and done.moved == 0
    assert tables_by_name(evening, ids) == [
        ["H1", "M4", "M3", "M2"],
        ["B1", "B3", "H4", "B4"],
        ["H3", "B2", "M1", "H2"],
    ]


@pytest.mark.parametrize(
    "bad, reason",
    [
        ({"table": 2, "pool_winner": "H1"}, "H1 is named as the pool winner but does not sit at table 2"),
        ({"table": 2, "pool_winner": "M1", "in_call": ["M1"]}, "M1 won the pool at table 2"),
        ({"table": 2, "pool_winner": "M1", "counters": {"M2": -3}}, "M2's counters at table 2 are -3"),
        ({"table": 2, "pool_winner": "M1", "counters": {"M2": 2.5}}, "not a whole number"),
        ({"table": 2, "pool_winner": "M1", "counters": {"B1": 50}}, "Counters were reported for B1"),
        ({"table": 2, "pool_winner": "M1"}, "already: nothing to correct"),
        ({"table": 2, "pool_winner": "M1", "round_number": 9}, "There is no round 9"),
    ],
)
def test_bad_corrections_are_refused_with_a_reason_naming_guests(make_evening, bad, reason):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    play(evening, ids, {1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}), 2: ("M1", [], {})})
    results = Result.objects.count()
    kwargs = {"round_number": 1, "in_call": [], "counters": {}, **bad}
    with pytest.raises(RuleError) as caught:
        result_correct(
            evening=evening,
            round_number=kwargs["round_number"],
            table=kwargs["table"],
            pool_winner=ids[kwargs["pool_winner"]],
            in_call=[ids[n] for n in kwargs["in_call"]],
            counters={ids[n]: c for n, c in kwargs["counters"].items()},
        )
    assert re.search(reason, error_message(caught.value, evening))  # as the page shows it
    assert Result.objects.count() == results and not Bell.objects.filter(undone_at__isnull=False).exists()


def test_a_round_still_in_play_is_corrected_on_the_evening_page_not_here(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE])
    from tournament.services.clock import round_start

    round_start(evening=evening)
    with pytest.raises(RuleError, match="has not rung"):
        result_correct(evening=evening, round_number=1, table=2, pool_winner=ids["M2"])


def test_results_of_the_round_in_play_that_no_longer_fit_must_be_reported_again(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    play(evening, ids, {1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}), 2: ("M1", [], {}), 3: ("B1", [], {})})
    from tournament.services.clock import round_start
    from tournament.services.results import result_record

    rnd = round_start(evening=evening)
    result_record(round=rnd, table=2, pool_winner=ids["B1"])  # B1 came up in round 1
    done = result_correct(evening=evening, round_number=1, table=3, pool_winner=ids["B2"])
    assert done.report_again == (2,)
    assert not Result.objects.filter(round=rnd, superseded_at__isnull=True).exists()
    assert Result.objects.filter(round=rnd).count() == 1  # kept, superseded


def test_a_seating_that_seats_someone_twice_is_refused_with_names():
    before = EveningState.start([[1, 2, 3], [4, 5, 6]], stake=50)
    # Such a state cannot even be built (tables.formats.poker.bell.state.EveningState checks itself); the
    # error carries the guest's id for the Django side to name them.
    with pytest.raises(StateError, match=r"^Guest 1 is seated twice \(at table 1 and again at table 2\)\.$") as caught:
        EveningState(((1, 2, 3), (4, 5, 1)), before.counters, before.yellow, before.stakes)
    assert (caught.value.guest, caught.value.table) == (1, 2)
    assert caught.value.subjects == Subjects(guests=(1,), tables=(1, 2))
    assert error_message(caught.value, names={1: "Ann"}) == "Ann is seated twice (at table 1 and again at table 2)."
    lost = EveningState(
        ((1, 2, 3), (4, 5, 7)), {**before.counters, 7: 50}, {**before.yellow, 7: 0}, {**before.stakes, 7: 1}
    )
    with pytest.raises(RuleError, match="change who has a seat"):
        seating_check(before=before, after=lost, names={})


def test_a_correction_that_would_seat_someone_twice_saves_nothing(make_evening, monkeypatch):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE])
    play(evening, ids, {1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}), 2: ("M1", [], {})})
    import tables.formats.poker.rules as engine  # the corrections ring every bell again through the format engine

    real = engine.ring_bell

    def broken(*args, **kwargs):  # a bell that went wrong: it seats H1 at both tables
        after = real(*args, **kwargs).after
        return EveningState(
            (after.tables[0], (ids["H1"],) + after.tables[1][1:]), after.counters, after.yellow, after.stakes
        )

    monkeypatch.setattr(engine, "ring_bell", broken)
    results = Result.objects.count()
    with pytest.raises(RuleError, match="round 1 no longer fits: H1 is seated twice"):
        result_correct(evening=evening, round_number=1, table=2, pool_winner=ids["M2"])
    assert Result.objects.count() == results and Bell.objects.filter(undone_at__isnull=True).count() == 1


def test_the_corrections_page_data_lists_rung_rounds_with_the_tables_as_dealt(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE])
    play(evening, ids, {1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}), 2: ("M1", [], {})})
    (history,) = correction_rounds(evening)
    assert history.round.number == 1
    assert [[g.name for g in guests] for _, guests, _ in history.tables] == [HEAD, MIDDLE]
    assert history.tables[1][2].pool_winner.name == "M1"
    assert history.warnings == []


def test_the_corrections_page_shows_counts_that_do_not_add_up(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE])
    play(evening, ids, {1: ("H1", [], {"H1": 60, "H2": 50, "H3": 45, "H4": 40}), 2: ("M1", [], {})})
    (history,) = correction_rounds(evening)
    assert history.warnings == ["Counters at table 1 add up to 195, 5 short of 200."]


def test_the_correct_command_replays_and_refuses_with_names(make_evening):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    out = StringIO()
    call_command(
        "correct",
        str(evening.pk),
        "--round",
        "1",
        "--table",
        "3",
        "--winner",
        "B2",
        "--counters",
        "B1=40",
        "--counters",
        "B2=60",
        "--counters",
        "B3=50",
        "--counters",
        "B4=50",
        stdout=out,
    )
    assert "replayed rounds 1, 2, 3, 4" in out.getvalue() and "round 1\tup\tB2\t3->2" in out.getvalue()
    assert tables_by_name(evening, ids)[1][0] == "B2"
    with pytest.raises(CommandError, match="M1 won the pool at table 2"):
        call_command(
            "correct",
            str(evening.pk),
            "--round",
            "1",
            "--table",
            "2",
            "--winner",
            "M1",
            "--call",
            "M1",
            stdout=StringIO(),
        )


def cut_entries(bell):
    """A bell's cuts as (guest, rank, what for), in the order they were cut."""
    return [
        (e["guest"], e["amount"], BellEntry.from_json(e).cut_for) for e in bell.record["entries"] if e["kind"] == "cut"
    ]


def test_correcting_back_settles_each_tie_again_by_the_cards_cut_for_it(make_evening):
    # The property test's example (11 guests, one round, seed 5696), written out. The booby
    # table holds Bd, Be and Bf on 50; H1 and H2 lose all counters at the head table, so each
    # changes seats with the booby table's most counters: first a tie Bd/Be/Bf (Bf's 10 is
    # highest), then a tie Bd/Be (8 and 8, cut again: 10 and 9, Bd goes up).
    evening = make_evening(0, 0)
    head, booby = ["H1", "H2", "H3", "H4"], ["Ba", "Bb", "Bc", "Bd", "Be", "Bf", "Bg"]
    ids = seat_by_names(evening, [head, booby])
    booby_counts = {"Ba": 0, "Bb": 174, "Bc": 21, "Bd": 50, "Be": 50, "Bf": 50, "Bg": 5}
    original = play(
        evening,
        ids,
        {1: ("H3", ["H1", "H2"], {"H1": 0, "H2": 0, "H3": 190, "H4": 10}), 2: ("Bb", ["Ba", "Bf"], booby_counts)},
        cuts={"Bd": [9, 8, 10], "Be": [1, 8, 9], "Bf": [10]},
    )
    before = tables_by_name(evening, ids)
    assert before == [["Bf", "Bd", "H3", "Bb"], ["Ba", "H4", "Bc", "H2", "Be", "H1", "Bg"]]
    bd, be, bf = ids["Bd"], ids["Be"], ids["Bf"]
    h1, h2 = f"who changes seats with guest {ids['H1']}", f"who changes seats with guest {ids['H2']}"
    first = [(bd, 9, h1), (be, 1, h1), (bf, 10, h1), (bd, 8, h2), (be, 8, h2), (bd, 10, h2), (be, 9, h2)]
    assert cut_entries(original) == first
    counts = {ids[n]: c for n, c in booby_counts.items()}
    # Bf really won the pool: Bb (174) stays and changes seats with H1 (no tie); Bd and Be tie
    # again for H2's seat, the very tie cut at the first bell, so the same cards settle it (before
    # the fix, the 9 and the ace they cut for H1's tie settled it).
    result_correct(evening=evening, round_number=1, table=2, pool_winner=bf, in_call=[ids["Ba"]], counters=counts)
    corrected = Bell.objects.get(round__evening=evening, undone_at__isnull=True)
    assert cut_entries(corrected) == first[3:]
    assert tables_by_name(evening, ids)[0] == ["Bb", "Bd", "H3", "Bf"]
    # Corrected back: the first bell again, to the card (before the fix, the tie for H2's seat
    # was cut afresh at random, so Be went up instead of Bd about one time in two).
    result_correct(
        evening=evening, round_number=1, table=2, pool_winner=ids["Bb"], in_call=[ids["Ba"], bf], counters=counts
    )
    back = Bell.objects.get(round__evening=evening, undone_at__isnull=True)
    assert cut_entries(back) == first
    assert back.record == original.record and tables_by_name(evening, ids) == before


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(guests=st.integers(8, 30), rounds=st.integers(1, 4), seed=st.integers(0, 2**32))
@example(guests=11, rounds=1, seed=5696)  # a tie cut afresh when corrected back (fixed; see the test above)
def test_a_random_correction_is_refused_whole_or_undone_exactly_by_correcting_back(db, guests, rounds, seed):
    import random

    from tables.formats.poker.plan import plan_tables
    from tests.factories import EveningFactory, HostFactory
    from tests.fixtures_bell import random_rounds
    from tournament.formats.poker.state import table_result

    rng = random.Random(seed)
    evening = EveningFactory(host=HostFactory(username="prop"))
    sizes = plan_tables(guests, accept_relaxed=True).sizes
    seat_by_names(evening, [[f"G{t}-{i}" for i in range(size)] for t, size in enumerate(sizes, 1)])
    random_rounds(evening, rng, rounds)
    number = rng.randint(1, rounds)
    bell = Bell.objects.get(round__evening=evening, round__number=number, undone_at__isnull=True)
    before_round = EveningState.from_json(bell.record["before"])
    table = rng.randint(1, len(before_round.tables))
    old = Result.objects.filter(round=bell.round, table=table, superseded_at__isnull=True).first()
    original = table_result(old) if old else None
    winner = rng.choice(before_round.tables[table - 1])
    counters = dict(original.counters) if original else {}
    call = [g for g in (original.in_call if original else ()) if g != winner]
    state, seated = evening_state(evening), seats_of(evening)
    counts = (Bell.objects.count(), Result.objects.count())
    try:
        result_correct(
            evening=evening, round_number=number, table=table, pool_winner=winner, in_call=call, counters=counters
        )
    except RuleError:
        assert (evening_state(evening), seats_of(evening)) == (state, seated)
        assert (Bell.objects.count(), Result.objects.count()) == counts
        return
    assert seats_of(evening) == {n: set(ids) for n, ids in enumerate(evening_state(evening).tables, 1)}
    if original is None or original.pool_winner is None:
        return  # nothing to go back to (the table had no result)
    result_correct(
        evening=evening,
        round_number=number,
        table=table,
        pool_winner=original.pool_winner,
        in_call=original.in_call,
        counters=original.counters,
    )
    assert evening_state(evening) == state and seats_of(evening) == seated


def seats_of(evening):
    tables = {}
    for guest, table in Seat.objects.filter(evening=evening).values_list("guest_id", "table"):
        tables.setdefault(table, set()).add(guest)
    return tables


def test_every_table_of_the_round_in_play_whose_players_a_correction_changed_reports_again(make_evening):
    # The stranger's night: round 2's results are in at every table when round 1 is corrected.
    # B2 (not B1) now came up from the booby table, so tables 2 and 3 of round 2 were played
    # by other guests than they now seat: both report again, even where the recorded winner
    # still sits at that table (M2 at table 2, B3 at table 3); the head table, whose players
    # did not change, keeps its result.
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    play(evening, ids, {1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}), 2: ("M1", [], {}), 3: ("B1", [], {})})
    from tournament.services.clock import round_start
    from tournament.services.results import result_record

    rnd = round_start(evening=evening)
    result_record(round=rnd, table=2, pool_winner=ids["M2"])
    result_record(round=rnd, table=3, pool_winner=ids["B3"])
    done = result_correct(evening=evening, round_number=1, table=3, pool_winner=ids["B2"])
    assert done.report_again == (2, 3)
    assert not Result.objects.filter(round=rnd, superseded_at__isnull=True).exists()


def test_a_correction_page_for_a_bell_undone_meanwhile_says_so(client, host, monkeypatch):
    """Found by the race test on PostgreSQL: the page read the rounds' history, the bell was
    undone, and the form asked for the round's live bell: a server error. The history read
    before the undo is given to the page here, as in that race."""
    from django.urls import reverse

    from tests.test_capabilities import _evening, _play
    from tournament.services import corrections as corrections_service
    from tournament.services.bell import bell_undo
    from tournament.services.draws import draw_digital

    evening = _evening(host, "poker", guests=12)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    before = corrections_service.correction_rounds(evening)
    bell_undo(evening=evening, user=host)
    monkeypatch.setattr("tournament.views.corrections.corrections.correction_rounds", lambda evening: before)
    client.force_login(host)
    page = client.get(reverse("host-correction", args=[evening.pk, 1, 1]), follow=True)
    assert page.status_code == 200
    assert "The bell of round 1 has been undone meanwhile: there is nothing to correct." in page.content.decode()
