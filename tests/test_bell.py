"""The bell's four rules, worked out by hand on small evenings (docs/rules/progressive-poker.md, 'The bell').

Evenings: 8 guests at 2 tables, 12 at 3, 16 at 4; the stake is 50 counters. Every test writes
the expected seats and entries out in full.
"""

import json
import random

import pytest

from tables.cuts import CardsCut, ties_cut
from tables.errors import RuleError
from tables.formats.poker.bell import (
    SEEDS_RULE,
    BellOptions,
    BellRecord,
    EveningState,
    ResultError,
    TableResult,
    check_results,
    ring_bell,
)

EIGHT = [[1, 2, 3, 4], [5, 6, 7, 8]]
TWELVE = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
SIXTEEN = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]


def result(table, winner, call=(), counts=None, tied=()):
    """``TableResult`` in one line: result(1, 4, {1}, {1: 10, 2: 50, 3: 60, 4: 80})."""
    return TableResult(table, winner, frozenset(call), counts or {}, frozenset(tied))


def moves(record: BellRecord, *kinds: str) -> list[tuple[str, int, int | None, int | None]]:
    """(kind, guest, from, to) for each entry, leaving out cut entries unless asked for."""
    kinds = kinds or ("yellow", "up", "down", "stays", "stake", "swap", "lot", "no_result")
    return [(e.kind, e.guest, e.from_table, e.to_table) for e in record.entries if e.kind in kinds]


def start(tables):
    return EveningState.start(tables, stake=50)


def test_start_gives_everyone_a_stake_and_nothing_else():
    state = start(EIGHT)
    assert dict(state.counters) == {g: 50 for g in range(1, 9)}
    assert dict(state.yellow) == {g: 0 for g in range(1, 9)}
    assert dict(state.stakes) == {g: 1 for g in range(1, 9)}
    assert state.table_of(6) == 2 and state.booby == 2
    with pytest.raises(RuleError, match="no seat"):
        state.table_of(99)


@pytest.mark.parametrize(
    "tables, message",
    [
        ([[1, 2, 3, 4]], "at least two tables"),
        ([[1, 2, 3, 4], [5, 6]], "Table 2 has 2 guests"),
        ([[1, 2, 3, 4], [5, 6, 7, 1]], "Guest 1 is seated twice"),
    ],
)
def test_start_refuses_unplayable_tables(tables, message):
    with pytest.raises(RuleError, match=message):
        start(tables)


def test_eight_guests_two_tables_one_bell():
    state = start(EIGHT)
    record = ring_bell(
        state,
        [result(1, 1, {2}, {1: 90, 2: 40, 3: 30, 4: 40}), result(2, 6)],
        stake=50,
    )
    assert moves(record) == [
        ("yellow", 1, 1, 1),
        ("up", 6, 2, 1),
        ("down", 3, 1, 2),
    ]
    assert record.after.tables == ((1, 2, 6, 4), (5, 3, 7, 8))
    assert dict(record.after.yellow)[1] == 1
    assert record.after.counters[3] == 30 and record.after.counters[6] == 50
    assert record.warnings == ()
    assert record.entries_for(6)[0].text == "You won the pool at table 2: go to the head table (table 1)."
    assert record.entries_for(3)[0].text == (
        "You had the fewest counters at the head table and were not in the call: go to the booby table (table 2)."
    )
    assert all(entry.rule == SEEDS_RULE for entry in record.entries)


def test_twelve_guests_three_tables_everyone_moves_one_step():
    record = ring_bell(
        start(TWELVE),
        [result(1, 2, (), {1: 45, 2: 70, 3: 35, 4: 50}), result(2, 7), result(3, 10)],
        stake=50,
    )
    assert moves(record) == [
        ("yellow", 2, 1, 1),
        ("up", 7, 2, 1),
        ("up", 10, 3, 2),
        ("down", 3, 1, 3),
    ]
    assert record.after.tables == ((1, 2, 7, 4), (5, 6, 10, 8), (9, 3, 11, 12))


def test_fewest_in_the_call_keeps_the_seat_and_ties_are_cut_lowest_stays():
    record = ring_bell(
        start(EIGHT),
        [result(1, 1, {2}, {1: 100, 2: 20, 3: 40, 4: 40}), result(2, 5)],
        stake=50,
        cuts={3: 4, 4: 11},
    )
    assert moves(record, "yellow", "cut", "stays", "up", "down") == [
        ("yellow", 1, 1, 1),
        ("cut", 3, 1, 1),
        ("cut", 4, 1, 1),
        ("stays", 2, 1, 1),
        ("up", 5, 2, 1),
        ("down", 4, 1, 2),
    ]
    assert [e.amount for e in record.entries if e.kind == "cut"] == [4, 11]
    assert record.after.tables == ((1, 2, 3, 5), (4, 6, 7, 8))


def test_equal_cuts_cut_again():
    record = ring_bell(
        start(EIGHT),
        [result(1, 1, (), {1: 80, 2: 40, 3: 40, 4: 40}), result(2, 5)],
        stake=50,
        cuts={2: [9, 3], 3: [9, 12], 4: 2},
    )
    assert [(e.guest, e.amount) for e in record.entries if e.kind == "cut"] == [
        (2, 9),
        (3, 9),
        (4, 2),
        (2, 3),
        (3, 12),
    ]
    assert moves(record, "down") == [("down", 3, 1, 2)]


def test_random_cuts_are_recorded_and_reproduce_the_bell():
    state = start(EIGHT)
    results = [result(1, 1, (), {1: 80, 2: 40, 3: 40, 4: 40}), result(2, 5)]
    record = ring_bell(state, results, stake=50, rng=random.Random(7))
    again = ring_bell(state, results, stake=50, cuts=record.cuts(), rng=random.Random(999))
    assert again == record


def test_a_tie_cut_at_an_earlier_bell_is_settled_by_the_same_cards_and_no_other_tie_is():
    # House rule (tables/cuts.py): a tie once cut stays cut; a card cut for one tie never
    # settles another; the host's cards come first.
    state = start(EIGHT)
    three = [result(1, 1, (), {1: 80, 2: 40, 3: 40, 4: 40}), result(2, 5)]
    first = ring_bell(state, three, stake=50, cuts={2: [9, 3], 3: [9, 12], 4: 2})
    ties = ties_cut([first.entries])
    down = "who goes down from the head table"
    assert ties == {(1, down, frozenset({2, 3, 4})): ({2: 9, 3: 9, 4: 2}, {2: 3, 3: 12})}
    assert ring_bell(state, three, stake=50, cuts=CardsCut(ties=ties), rng=random.Random(1)) == first
    # Another tie (2 and 3 only) is cut afresh, not with the 9s they cut for the tie of three.
    two = [result(1, 1, (), {1: 70, 2: 40, 3: 40, 4: 50}), result(2, 5)]
    fresh = ring_bell(state, two, stake=50, rng=random.Random(5))
    assert ring_bell(state, two, stake=50, cuts=CardsCut(ties=ties), rng=random.Random(5)) == fresh
    hosts = ring_bell(state, three, stake=50, cuts=CardsCut(given={2: 1, 3: 5, 4: 13}, ties=ties))
    assert [(e.guest, e.amount) for e in hosts.entries if e.kind == "cut"] == [(2, 1), (3, 5), (4, 13)]


@pytest.mark.parametrize("ending", ["(the highest cut is the one chosen).", "(the lowest cut stays)."])
def test_a_cut_stored_before_its_tie_was_kept_gets_it_back_from_its_text(ending):
    record = ring_bell(
        start(EIGHT), [result(1, 1, (), {1: 80, 2: 40, 3: 40, 4: 40}), result(2, 5)], stake=50, cuts={2: 9, 3: 1, 4: 5}
    )
    data = record.to_json()
    for entry in data["entries"]:
        if why := entry.pop("cut_for", None):
            entry["text"] = f"You cut a nine for {why} {ending}"
    old = BellRecord.from_json(data)
    assert [e.cut_for for e in old.entries if e.kind == "cut"] == ["who goes down from the head table"] * 3
    assert ties_cut([old.entries]) == ties_cut([record.entries]) != {}


def test_a_guests_cut_is_said_in_a_guests_words_not_as_the_rule():
    record = ring_bell(
        start(EIGHT), [result(1, 1, (), {1: 80, 2: 40, 3: 40, 4: 40}), result(2, 5)], stake=50, cuts={2: 9, 3: 1, 4: 5}
    )
    said = [e.text for e in record.entries if e.kind == "cut"]
    assert said[0] == (
        "You cut a 9 to settle who goes down from the head table: the highest card is chosen"
        " (ace low, king high; equal cards cut again)."
    )
    assert not any("highest cut" in text or "lowest cut" in text for text in said)


def test_sixteen_guests_with_a_bust_swapping_with_the_booby_tables_best():
    record = ring_bell(
        start(SIXTEEN),
        [
            result(1, 4, {1}, {1: 10, 2: 50, 3: 60, 4: 80}),
            result(2, 6),
            result(3, 9, (), {9: 110, 10: 0, 11: 40, 12: 50}),
            result(4, 15, (), {13: 60, 14: 20, 15: 70, 16: 50}),
        ],
        stake=50,
    )
    assert moves(record) == [
        ("yellow", 4, 1, 1),
        ("stays", 1, 1, 1),
        ("up", 6, 2, 1),
        ("up", 9, 3, 2),
        ("up", 15, 4, 3),
        ("down", 2, 1, 4),
        ("stake", 10, 3, 3),
        ("swap", 10, 3, 4),
        ("swap", 13, 4, 3),
    ]
    assert record.after.tables == ((1, 6, 3, 4), (5, 9, 7, 8), (15, 13, 11, 12), (10, 14, 2, 16))
    assert record.after.counters[10] == 50 and record.after.stakes[10] == 2
    assert record.after.total_counters() == 16 * 50 + 50
    stake_entry = record.entries_for(10)[0]
    assert stake_entry.amount == 50 and stake_entry.rule == SEEDS_RULE


def test_swap_with_seated_now_counts_the_guest_just_down_from_the_head_table():
    # guest 2 (65 counters) comes down from the head table, richer than guest 13 (60)
    results = [
        result(1, 4, {1}, {1: 10, 2: 65, 3: 70, 4: 55}),
        result(2, 6),
        result(3, 9, (), {9: 110, 10: 0, 11: 40, 12: 50}),
        result(4, 15, (), {13: 60, 14: 20, 15: 70, 16: 50}),
    ]
    played = ring_bell(start(SIXTEEN), results, stake=50)
    assert moves(played, "down", "swap") == [
        ("down", 2, 1, 4),
        ("swap", 10, 3, 4),
        ("swap", 13, 4, 3),
    ]
    now = ring_bell(start(SIXTEEN), results, stake=50, options=BellOptions(swap_with="seated_now"))
    assert moves(now, "down", "swap") == [
        ("down", 2, 1, 4),
        ("swap", 10, 3, 4),
        ("swap", 2, 4, 3),
    ]


def test_conservation_is_checked_where_a_table_reports_everyone():
    record = ring_bell(
        start(TWELVE),
        [
            result(1, 1, (), {1: 60, 2: 50, 3: 45, 4: 45}),
            result(2, 5, (), {5: 80, 6: 40, 7: 40, 8: 36}),
            result(3, 9, (), {9: 70}),
        ],
        stake=50,
        cuts={3: 1, 4: 2},
    )
    assert record.warnings == ("Counters at table 2 add up to 196, 4 short of 200.",)
    over = ring_bell(start(EIGHT), [result(1, 1, (), {1: 60, 2: 50, 3: 45, 4: 50})], stake=50)
    assert over.warnings == ("Counters at table 1 add up to 205, 5 more than 200.",)


def test_record_round_trips_through_json():
    record = ring_bell(
        start(SIXTEEN),
        [
            result(1, 4, {1}, {1: 10, 2: 50, 3: 60, 4: 80}),
            result(2, 6, (), {}, {5}),
            result(3, 9, (), {9: 110, 10: 0, 11: 40, 12: 50}),
            result(4, 15, (), {13: 60, 14: 20, 15: 70, 16: 50}),
        ],
        stake=50,
        rng=random.Random(3),
    )
    data = json.loads(json.dumps(record.to_json()))
    assert BellRecord.from_json(data) == record
    assert EveningState.from_json(json.loads(json.dumps(record.after.to_json()))) == record.after


def test_entries_for_a_guest_who_did_nothing_is_empty():
    record = ring_bell(start(EIGHT), [result(1, 1, (), {1: 80, 2: 40, 3: 30, 4: 50}), result(2, 5)], stake=50)
    assert record.entries_for(7) == ()
    assert [e.kind for e in record.entries_for(5)] == ["up"]


# Bad input: refused with the reason, naming the table and the guest.
GOOD_HEAD = {1: 50, 2: 50, 3: 50, 4: 50}


@pytest.mark.parametrize(
    "results, message",
    [
        ([result(1, 5, (), GOOD_HEAD)], "Guest 5 is named as the pool winner but does not sit at table 1"),
        ([result(1, 1, {1}, GOOD_HEAD)], "Guest 1 won the pool at table 1"),
        ([result(1, 1, {7}, GOOD_HEAD)], "Guest 7 is listed in the call but does not sit at table 1"),
        ([result(1, 1, (), {**GOOD_HEAD, 2: -3})], "Guest 2's counters at table 1 are -3"),
        ([result(1, 1, (), {**GOOD_HEAD, 2: 2.5})], "not a whole number"),
        ([result(1, 1, (), {**GOOD_HEAD, 6: 50})], "Counters were reported for guest 6"),
        ([result(1, 1, (), GOOD_HEAD), result(2, 5), result(2, 6)], "Table 2 has two results"),
        ([result(1, 1, (), GOOD_HEAD), result(9, 5)], "There is no table 9 this evening"),
        ([result(2, 5)], "The head table \\(table 1\\) has no pool winner"),
        ([result(1, 1, (), {1: 50, 2: 50})], "missing guests 3 and 4"),
        ([result(1, 1, (), GOOD_HEAD), result(2, None, {5})], "no pool winner"),
        ([result(1, 1, (), GOOD_HEAD, {1})], "list only the others"),
        ([result(1, 1, (), GOOD_HEAD, {8})], "splitting the pool but does not sit"),
    ],
)
def test_bad_results_are_refused_with_the_reason(results, message):
    state = start(EIGHT)
    with pytest.raises(ResultError, match=message):
        check_results(state, results)
    with pytest.raises(ResultError, match=message):
        ring_bell(state, results, stake=50)


@pytest.mark.parametrize("stake", [0, -50, 2.5, True])
def test_bad_stake_is_refused(stake):
    with pytest.raises(RuleError, match="stake"):
        ring_bell(start(EIGHT), [result(1, 1, (), GOOD_HEAD)], stake=stake)


@pytest.mark.parametrize("cut", [0, 14, "K"])
def test_bad_cut_is_refused(cut):
    with pytest.raises(RuleError, match="not a card rank"):
        ring_bell(start(EIGHT), [result(1, 1, (), GOOD_HEAD)], stake=50, cuts={2: cut})


def test_table_result_json_round_trip_turns_str_keys_back_into_ints():
    original = TableResult(2, 6, frozenset({5}), {5: 40, 6: 60}, frozenset({7}))
    back = TableResult.from_json(json.loads(json.dumps(original.to_json())))
    assert back == original and list(back.counters) == [5, 6]


def test_a_pool_winner_reported_with_no_counters_is_refused():
    from tables.formats.poker.bell import EveningState, ResultError, TableResult, check_one

    state = EveningState.start([[1, 2, 3, 4], [5, 6, 7, 8]], stake=50)
    with pytest.raises(ResultError, match="cannot have lost all counters"):
        check_one(state, TableResult(table=2, pool_winner=5, counters={5: 0, 6: 100, 7: 50, 8: 50}))
