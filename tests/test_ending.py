"""The end of the evening on the database (issue 11 deliver 4): *End the evening*, the last
round, the final count table by table (pre-filled from the last count, adding up or agreed
off), the prize ceremony step by step, and every bad input refused with nothing changed."""

from __future__ import annotations

import pytest

from tables.errors import RuleError
from tests.fixtures_bell import play, seat_by_names
from tests.test_import import by_name
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, evening_import
from tournament.models import AuditEntry, Evening, FinalCount
from tournament.services import ending
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import round_start
from tournament.services.prizes import evening_standings
from tournament.services.results import result_record
from tournament.services.state import evening_state

TABLES = [["Ann", "Bob", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jon", "Kim", "Leo"]]


def first_round(evening):
    """Round 1 with real counts: Ann takes 20 from Bob at the head table, Eve and Ivy win."""
    ids = seat_by_names(evening, TABLES)
    play(
        evening,
        ids,
        {1: ("Ann", [], {"Ann": 70, "Bob": 30, "Cat": 50, "Dan": 50}), 2: ("Eve", [], {}), 3: ("Ivy", [], {})},
    )
    return ids


def last_round(evening, ids):
    """Round 2 made the last by *End the evening*, then its results (counters at the head
    table only, as in any round) and its bell. Returns the tables by guest id before the bell."""
    rnd = round_start(evening=evening)
    assert ending.evening_end(evening=evening, seen_round=2) == "last round"
    evening.refresh_from_db()
    assert evening.rounds_planned == 2 and evening.stage == Evening.Stage.PLAYING
    state = evening_state(evening)
    head = state.tables[0]
    counters = {g: state.counters[g] for g in head}
    counters[head[0]] += 5
    counters[head[1]] -= 5
    result_record(round=rnd, table=1, pool_winner=head[0], counters=counters)
    for number, guests in enumerate(state.tables[1:], 2):
        result_record(round=rnd, table=number, pool_winner=guests[0])
    tables = state.tables
    assert bell_ring(round_id=rnd.pk, cause="host") is not None  # no counts needed at tables 2 and 3
    evening.refresh_from_db()
    return tables


@pytest.fixture
def ended(make_evening):
    """An evening of 12 after its last bell: (evening, name -> id, tables before the last bell)."""
    evening = make_evening(0, 0, name="The Ending", counters_per_stake=50)
    ids = first_round(evening)
    tables = last_round(evening, ids)
    return evening, ids, tables


def test_the_last_round_moves_nobody_and_ends_play(ended):
    evening, ids, tables = ended
    assert evening.stage == Evening.Stage.ENDED and evening.ended_at is not None
    assert evening_state(evening).tables == tables
    assert AuditEntry.objects.filter(evening=evening, action="evening.last_round").count() == 1


def test_the_final_count_is_prefilled_from_the_last_count_and_must_add_up(ended):
    evening, ids, _ = ended
    tables = ending.final_count_tables(evening)
    assert [t.number for t in tables] == [1, 2, 3] and all(t.count is None for t in tables)
    last = evening_state(evening, final=False)
    second = tables[1]
    assert second.prefill == {g: last.counters[g] for g in second.guests}
    a, b, c, d = second.guests
    counts = dict(second.prefill)
    counts[a] += 15
    counts[b] -= 15
    saved = ending.final_count_record(evening=evening, table=2, counters=counts)
    assert saved.off_by == 0 and saved.counters == {str(g): counts[g] for g in second.guests}
    # The standings read the final count: a holds 15 more than at the last count.
    line = next(x for x in evening_standings(evening).lines if x.guest.pk == a)
    assert line.row.counters == last.counters[a] + 15
    # Counted again: the new count replaces the old one, which is kept.
    again = ending.final_count_tables(evening)[1]
    assert again.prefill == counts
    ending.final_count_record(evening=evening, table=2, counters=dict(second.prefill))
    assert FinalCount.objects.filter(evening=evening, table=2).count() == 2
    assert FinalCount.objects.filter(evening=evening, table=2, superseded_at__isnull=True).count() == 1


def test_a_count_that_is_off_is_refused_with_the_difference_unless_the_table_agrees(ended):
    evening, ids, _ = ended
    third = ending.final_count_tables(evening)[2]
    counts = dict(third.prefill)
    counts[third.guests[0]] -= 10
    before = sum(third.prefill.values())
    version = Evening.objects.get(pk=evening.pk).version
    with pytest.raises(ending.CountOff) as error:
        ending.final_count_record(evening=evening, table=3, counters=counts)
    assert error.value.difference == -10
    assert f"add up to {before - 10}, 10 short of the {before}" in str(error.value)
    with pytest.raises(ending.CountOff):  # agreeing to another difference is no agreement
        ending.final_count_record(evening=evening, table=3, counters=counts, agreed_off=10)
    assert not FinalCount.objects.filter(evening=evening).exists()
    assert Evening.objects.get(pk=evening.pk).version == version
    saved = ending.final_count_record(evening=evening, table=3, counters=counts, agreed_off=-10)
    assert saved.off_by == -10 and saved.off_words == "10 short"


def test_a_count_for_a_table_or_guest_that_is_not_there_is_refused(ended):
    evening, ids, _ = ended
    first = ending.final_count_tables(evening)[0]
    with pytest.raises(RuleError, match="There is no table 9: the tables are 1 to 3"):
        ending.final_count_record(evening=evening, table=9, counters=dict(first.prefill))
    stranger = ending.final_count_tables(evening)[2].guests[0]
    name = next(n for n, pk in ids.items() if pk == stranger)
    with pytest.raises(RuleError, match=f"{name} is not at table 1"):
        ending.final_count_record(evening=evening, table=1, counters={**first.prefill, stranger: 50})
    missing = dict(first.prefill)
    gone = missing.pop(first.guests[-1])
    assert gone >= 0
    with pytest.raises(RuleError, match="Give the counters of everyone at table 1"):
        ending.final_count_record(evening=evening, table=1, counters=missing)
    with pytest.raises(RuleError, match="whole number from 0"):
        ending.final_count_record(evening=evening, table=1, counters={**first.prefill, first.guests[0]: -1})
    assert not FinalCount.objects.filter(evening=evening).exists()


def test_ending_twice_or_from_a_stale_page_is_refused(make_evening):
    evening = make_evening(0, 0)
    with pytest.raises(RuleError, match="No round has been played yet"):
        ending.evening_end(evening=evening, seen_round=0)
    ids = first_round(evening)
    round_start(evening=evening)
    with pytest.raises(RuleError, match="out of date: round 2"):
        ending.evening_end(evening=evening, seen_round=1)
    evening.refresh_from_db()
    assert evening.rounds_planned is None
    ending.evening_end(evening=evening, seen_round=2)
    with pytest.raises(RuleError, match="Round 2 is the last round already"):
        ending.evening_end(evening=evening, seen_round=2)
    assert ids


def test_ending_between_rounds_ends_play_at_once(make_evening):
    evening = make_evening(0, 0)
    first_round(evening)
    assert ending.evening_end(evening=evening, seen_round=1) == "ended"
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED and evening.ended_at is not None
    with pytest.raises(RuleError, match="has ended already"):
        ending.evening_end(evening=evening, seen_round=1)
    with pytest.raises(RuleError, match="has ended"):
        round_start(evening=evening)


def count_every_table(evening):
    """Save every table's form as it is pre-filled (a count already off stays agreed)."""
    for table in ending.final_count_tables(evening):
        ending.final_count_record(
            evening=evening,
            table=table.number,
            counters=table.prefill,
            agreed_off=sum(table.prefill.values()) - sum(table.last.values()),
        )


def test_the_ceremony_reveals_each_prize_then_the_standings(ended):
    evening, ids, _ = ended
    with pytest.raises(RuleError, match="tables 1, 2, 3 still to count"):
        ending.ceremony_next(evening=evening, seen_step=0)
    count_every_table(evening)
    evening.refresh_from_db()
    now = ending.ceremony(evening)
    assert [p.prize.key for p in now.prizes] == ["booby", "red_pack", "head_table"]
    # nobody in the blue pack won counters: that prize has no reveal of its own (house rule)
    assert [p.prize.key for p in now.not_awarded] == ["blue_pack"]
    assert now.steps == 4 and now.step is None and not now.revealed
    # Ann won the only yellow counter of round 1 and stayed at the head table.
    head = now.prizes[-1]
    winner = evening_standings(evening).lines[0]
    assert head.winners == (winner.guest,) and winner.row.yellow >= 1
    for step in range(1, 4):
        now = ending.ceremony_next(evening=evening, seen_step=step - 1)
        assert now.step == step and len(now.revealed) == step and not now.finished
    with pytest.raises(RuleError, match="out of date"):  # a stale tab taps again
        ending.ceremony_next(evening=evening, seen_step=2)
    now = ending.ceremony_next(evening=evening, seen_step=3)
    assert now.finished and now.step == 4
    with pytest.raises(RuleError, match="nothing more to reveal"):
        ending.ceremony_next(evening=evening, seen_step=4)
    assert Evening.objects.get(pk=evening.pk).ceremony_step == 4
    assert AuditEntry.objects.filter(evening=evening, action="ceremony.reveal").count() == 4


def test_once_the_ceremony_began_the_count_and_the_last_bell_stay(ended):
    evening, ids, _ = ended
    count_every_table(evening)
    ending.ceremony_next(evening=evening, seen_step=0)
    first = ending.final_count_tables(evening)[0]
    with pytest.raises(RuleError, match="final count is closed"):
        ending.final_count_record(evening=evening, table=1, counters=first.prefill)
    with pytest.raises(RuleError, match="can no longer be undone"):
        bell_undo(evening=evening)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED and evening.ceremony_step == 1


def test_undoing_the_last_bell_before_the_ceremony_drops_the_final_count(ended):
    evening, ids, _ = ended
    count_every_table(evening)
    bell_undo(evening=evening)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.PLAYING and evening.ended_at is None
    assert not FinalCount.objects.filter(evening=evening, superseded_at__isnull=True).exists()
    with pytest.raises(RuleError, match="has not ended yet"):
        ending.ceremony_next(evening=evening, seen_step=0)


def test_the_ceremony_waits_for_no_table_under_the_optional_house_rule(ended):
    evening, ids, _ = ended
    Evening.objects.filter(pk=evening.pk).update(options={"bell": {"last_round_counts": "optional"}})
    evening.refresh_from_db()
    assert ending.ceremony_next(evening=evening, seen_step=0).step == 1


def test_the_end_round_trips_through_the_export(ended, host):
    evening, ids, _ = ended
    third = ending.final_count_tables(evening)[2]
    counts = dict(third.prefill)
    counts[third.guests[1]] += 7
    ending.final_count_record(evening=evening, table=3, counters=counts, agreed_off=7)
    count_every_table(evening)  # counts table 3 again, unchanged from its final count
    ending.ceremony_next(evening=evening, seen_step=0)
    ending.ceremony_next(evening=evening, seen_step=1)
    evening.refresh_from_db()
    data = evening_export(evening)
    assert data["evening"]["ceremony_step"] == 2 and data["evening"]["ended_at"]
    assert len(data["final_counts"]) == 4 and sum(1 for c in data["final_counts"] if c["superseded_at"] is None) == 3
    copy = evening_import(data=data, host=host)
    assert (copy.stage, copy.ceremony_step, copy.ended_at) == ("ended", 2, evening.ended_at)
    again = evening_export(copy)
    assert by_name(again) == by_name(data)
    assert [(c["table"], c["off_by"], sorted(c["counters"].values())) for c in again["final_counts"]] == [
        (c["table"], c["off_by"], sorted(c["counters"].values())) for c in data["final_counts"]
    ]
    assert any(c["off_by"] == 7 for c in again["final_counts"])


def test_an_export_with_a_final_count_for_a_guest_not_at_the_table_is_refused(ended, host):
    evening, ids, _ = ended
    count_every_table(evening)
    data = evening_export(evening)
    row = data["final_counts"][0]
    stranger = str(ending.final_count_tables(evening)[1].guests[0])
    row["counters"][stranger] = 50
    with pytest.raises(
        EveningImportError, match=r"Final count 1 in the file, its counters: the guests counted are not"
    ):
        evening_import(data=data, host=host)
    data["final_counts"][0]["counters"].pop(stranger)
    data["final_counts"][0]["table"] = 7
    with pytest.raises(EveningImportError, match=r"Final count 1 in the file, its table: there is no table 7"):
        evening_import(data=data, host=host)
    assert Evening.objects.filter(host=host).count() == 1
