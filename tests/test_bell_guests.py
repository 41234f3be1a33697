"""Guests who leave mid-evening or arrive late (house rules; docs/rules/progressive-poker.md)."""

import json

import pytest

from tables.errors import RuleError
from tables.formats.poker.bell import BellOptions, BellRecord, EveningState, guest_arrives, guest_leaves, rerun

FOURTEEN = [[1, 2, 3, 4], [5, 6, 7, 8, 9, 10], [11, 12, 13, 14]]


def kinds(record):
    return [(e.kind, e.guest, e.from_table, e.to_table) for e in record.entries]


def test_a_guest_who_leaves_keeps_counters_in_the_standings_and_the_table_plays_short():
    state = EveningState.start(FOURTEEN, stake=50)
    record = guest_leaves(state, 7)
    assert kinds(record) == [("leave", 7, 2, None)]
    assert record.after.tables == ((1, 2, 3, 4), (5, 6, 8, 9, 10), (11, 12, 13, 14))
    assert record.after.counters[7] == 50 and 7 not in record.after.seated()
    head = guest_leaves(state, 1)
    assert head.after.tables[0] == (2, 3, 4)


def test_a_departure_or_arrival_on_record_names_who_moves_and_a_bell_names_no_one():
    state = EveningState.start(FOURTEEN, stake=50)
    assert guest_leaves(state, 7).mover() == 7
    assert guest_arrives(state, 15, stake=50).mover() == 15
    bell = BellRecord(before=state, after=state, entries=())
    with pytest.raises(RuleError) as refused:
        bell.mover()
    assert str(refused.value) == "This bell on record names no guest."


def test_a_table_that_would_fall_below_three_is_filled_from_the_largest_table_by_cut():
    state = EveningState.start([[1, 2, 3], [4, 5, 6, 7, 8], [9, 10, 11, 12]], stake=50)
    record = guest_leaves(state, 2, cuts={4: 1, 5: 13, 6: 2, 7: 3, 8: 4})
    assert [k for k in kinds(record) if k[0] != "cut"] == [("leave", 2, 1, None), ("fill", 5, 2, 1)]
    assert record.after.tables == ((1, 3, 5), (4, 6, 7, 8), (9, 10, 11, 12))
    assert record.entries_for(5)[-1].rule == "house rule: leave_fill=below_three"


def test_leave_fill_always_fills_from_a_table_two_bigger():
    state = EveningState.start(FOURTEEN, stake=50)
    assert kinds(guest_leaves(state, 7, options=BellOptions(leave_fill="always"))) == [("leave", 7, 2, None)]
    record = guest_leaves(
        state,
        1,
        options=BellOptions(leave_fill="always"),
        cuts={5: 1, 6: 2, 7: 3, 8: 4, 9: 12, 10: 5},
    )
    assert record.after.tables == ((2, 3, 4, 9), (5, 6, 7, 8, 10), (11, 12, 13, 14))


def test_when_no_table_can_spare_a_player_the_short_table_closes():
    state = EveningState.start([[1, 2, 3], [4, 5, 6], [7, 8, 9]], stake=50)
    record = guest_leaves(state, 5)
    assert kinds(record) == [
        ("leave", 5, 2, None),
        ("close", 4, 2, 2),
        ("close", 6, 2, 1),
        ("renumber", 7, 3, 2),
        ("renumber", 8, 3, 2),
        ("renumber", 9, 3, 2),
    ]
    assert record.after.tables == ((1, 2, 3, 6), (7, 8, 9, 4))


def test_leaving_refused_when_fewer_than_two_tables_would_remain():
    state = EveningState.start([[1, 2, 3], [4, 5, 6]], stake=50)
    with pytest.raises(RuleError, match="fewer than two tables"):
        guest_leaves(state, 1)
    with pytest.raises(RuleError, match="no seat"):
        guest_leaves(state, 99)


def test_a_late_guest_takes_a_stake_and_sits_at_the_booby_table():
    state = EveningState.start(FOURTEEN, stake=50)
    record = guest_arrives(state, 20, stake=50)
    assert kinds(record) == [("arrive", 20, None, 3)]
    assert record.entries[0].amount == 50
    assert record.after.tables[2] == (11, 12, 13, 14, 20)
    assert (record.after.counters[20], record.after.stakes[20], record.after.yellow[20]) == (50, 1, 0)
    assert record.after.total_counters() == 15 * 50


def test_a_full_booby_table_sends_the_late_guest_to_the_smallest_table_nearest_the_bottom():
    state = EveningState.start([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15]], stake=50)
    assert guest_arrives(state, 20, stake=50).after.tables[1] == (5, 6, 7, 8, 20)
    smallest = guest_arrives(state, 20, stake=50, options=BellOptions(arrive_at="smallest"))
    assert smallest.after.tables[1] == (5, 6, 7, 8, 20)
    chosen = guest_arrives(state, 20, stake=50, table=3)
    assert chosen.after.tables[2][-1] == 20
    assert chosen.warnings == ("Table 3 now has 8 players, more than 7.",)


def test_a_guest_coming_back_keeps_what_they_had():
    state = EveningState.start(FOURTEEN, stake=50)
    gone = guest_leaves(state, 7).after
    back = guest_arrives(gone, 7, stake=50)
    assert back.entries[0].amount == 0 and back.after.stakes[7] == 1
    assert back.after.total_counters() == 14 * 50


def test_bad_arrivals_are_refused():
    state = EveningState.start(FOURTEEN, stake=50)
    with pytest.raises(RuleError, match="already has a seat at table 2"):
        guest_arrives(state, 7, stake=50)
    with pytest.raises(RuleError, match="There is no table 4"):
        guest_arrives(state, 20, stake=50, table=4)


def test_leave_and_arrive_records_round_trip_and_rerun():
    state = EveningState.start([[1, 2, 3], [4, 5, 6, 7, 8], [9, 10, 11, 12]], stake=50)
    first = guest_leaves(state, 2)
    second = guest_arrives(first.after, 30, stake=50)
    records = (first, second)
    assert rerun(records) == records
    for record in records:
        assert BellRecord.from_json(json.loads(json.dumps(record.to_json()))) == record


def test_a_guest_who_leaves_is_told_of_the_yellow_counters_they_have():
    """Found by trying the product: "their 20 counters and yellow counters stay" was said of a
    guest who had no yellow counter."""
    import dataclasses

    from tables.formats.poker.bell.state import Tally

    state = EveningState.start(FOURTEEN, stake=50)
    leave = guest_leaves(state, 7).entries[0]
    assert leave.text == "You have left table 2; your 50 counters stay in the standings."
    yellow = Tally({**state.yellow, 7: 2})
    leave = guest_leaves(dataclasses.replace(state, yellow=yellow), 7).entries[0]
    assert leave.text == "You have left table 2; your 50 counters and your yellow counters stay in the standings."
