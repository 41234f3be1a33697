"""The cases the rules leave open: each house rule and each override, worked out by hand.

16 guests at 4 tables ([1-4], [5-8], [9-12], [13-16]); the stake is 50 counters.
"""

import pytest

from tables.errors import RuleError
from tables.formats.poker.bell import BellOptions, EveningState, ResultError, ring_bell
from tests.test_bell import moves, result

SIXTEEN = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
HEAD = {1: 80, 2: 50, 3: 30, 4: 40}  # winner 1, nobody in the call: guest 3 goes down


def start():
    return EveningState.start(SIXTEEN, stake=50)


def ring(results, **kwargs):
    return ring_bell(start(), results, stake=50, **kwargs)


# --- a table with no result at the bell -------------------------------------------------


def test_no_result_stay_the_table_sits_out_and_the_winner_below_moves_past_it():
    record = ring([result(1, 1, (), HEAD), result(2, 6), result(4, 15)])
    assert moves(record) == [
        ("yellow", 1, 1, 1),
        ("no_result", 9, 3, 3),
        ("no_result", 10, 3, 3),
        ("no_result", 11, 3, 3),
        ("no_result", 12, 3, 3),
        ("up", 6, 2, 1),
        ("up", 15, 4, 2),
        ("down", 3, 1, 4),
    ]
    assert record.after.tables == ((1, 2, 6, 4), (5, 15, 7, 8), (9, 10, 11, 12), (13, 14, 3, 16))
    assert record.entries_for(15)[0].text == (
        "You won the pool at table 4; table 3 sat out this bell, so go to table 2."
    )
    assert record.entries_for(15)[0].rule == "house rule: no_result=stay"


def test_no_result_at_the_booby_table_sends_the_head_tables_goer_to_the_lowest_table_that_played():
    record = ring([result(1, 1, (), HEAD), result(2, 6), result(3, 10)])
    assert moves(record, "up", "down") == [("up", 6, 2, 1), ("up", 10, 3, 2), ("down", 3, 1, 3)]
    assert record.after.tables[2] == (9, 3, 11, 12)
    assert record.after.tables[3] == (13, 14, 15, 16)


def test_no_result_anywhere_but_the_head_table_nobody_moves():
    record = ring([result(1, 1, (), HEAD)])
    assert record.after.tables == start().tables
    assert moves(record, "stays", "down") == [("stays", 3, 1, 1)]
    assert record.after.yellow[1] == 1


def test_no_result_hold_refuses_the_bell_naming_the_tables():
    with pytest.raises(ResultError, match=r"No result yet from tables 3 and 4: the bell waits"):
        ring([result(1, 1, (), HEAD), result(2, 6)], options=BellOptions(no_result="hold"))


def test_no_result_lot_the_highest_cut_moves_up():
    record = ring(
        [result(1, 1, (), HEAD), result(2, 6), result(4, 15)],
        options=BellOptions(no_result="lot"),
        cuts={9: 2, 10: 12, 11: 5, 12: 7},
    )
    assert moves(record, "cut", "lot", "up") == [
        ("cut", 9, 3, 3),
        ("cut", 10, 3, 3),
        ("cut", 11, 3, 3),
        ("cut", 12, 3, 3),
        ("lot", 10, 3, 3),
        ("up", 6, 2, 1),
        ("up", 10, 3, 2),
        ("up", 15, 4, 3),
    ]
    assert record.entries_for(10)[-1].rule == "house rule: no_result=lot"


def test_the_head_table_always_needs_a_result_whatever_the_option():
    for choice in ("stay", "hold", "lot"):
        with pytest.raises(ResultError, match="head table"):
            ring([result(2, 6)], options=BellOptions(no_result=choice))


# --- a tie for a pool -------------------------------------------------------------------


def test_split_pool_the_highest_cut_moves_up():
    record = ring(
        [result(1, 1, (), HEAD), result(2, 5, (), {}, {6}), result(3, 9), result(4, 13)],
        cuts={5: 3, 6: 9},
    )
    assert moves(record, "cut", "up") == [
        ("cut", 5, 2, 2),
        ("cut", 6, 2, 2),
        ("up", 6, 2, 1),
        ("up", 9, 3, 2),
        ("up", 13, 4, 3),
    ]
    assert record.entries_for(6)[-1].rule == "house rule: pool_tie=cut"


def test_split_pool_reported_the_reported_winner_moves_up():
    record = ring(
        [result(1, 1, (), HEAD), result(2, 5, (), {}, {6}), result(3, 9), result(4, 13)],
        options=BellOptions(pool_tie="reported"),
    )
    assert moves(record, "cut") == []
    assert ("up", 5, 2, 1) in moves(record)


def test_split_pool_at_the_head_table_one_yellow_counter_and_both_are_in_the_call():
    head = {1: 60, 2: 60, 3: 30, 4: 50}
    record = ring([result(1, 1, (), head, {2}), result(2, 5)], cuts={1: 4, 2: 10})
    assert dict(record.after.yellow) == {**{g: 0 for g in range(1, 17)}, 2: 1}
    assert moves(record, "down") == [("down", 3, 1, 2)]
    each = ring(
        [result(1, 1, (), head, {2}), result(2, 5)],
        options=BellOptions(tie_yellow="each"),
        cuts={1: 4, 2: 10},
    )
    assert each.after.yellow[1] == 1 and each.after.yellow[2] == 1


def test_a_guest_who_split_the_head_pool_does_not_go_down_though_fewest():
    record = ring([result(1, 1, (), {1: 90, 2: 20, 3: 45, 4: 45}, {2}), result(2, 5)], cuts={1: 13, 3: 1, 4: 6})
    assert moves(record, "stays", "down") == [("stays", 2, 1, 1), ("down", 4, 1, 2)]


# --- everyone at the head table in the call --------------------------------------------


def test_everyone_in_the_call_the_fewest_besides_the_winner_goes_down():
    record = ring([result(1, 1, {2, 3, 4}, {1: 80, 2: 30, 3: 50, 4: 40}), result(2, 5), result(3, 9), result(4, 13)])
    assert moves(record, "down") == [("down", 2, 1, 4)]
    assert record.entries_for(2)[-1].rule == "house rule: all_in_call=fewest"
    assert record.entries_for(2)[-1].text.startswith("Everyone at the head table was in the call")


def test_everyone_in_the_call_cut_the_highest_cut_goes_down():
    record = ring(
        [result(1, 1, {2, 3, 4}, {1: 80, 2: 30, 3: 50, 4: 40}), result(2, 5)],
        options=BellOptions(all_in_call="cut"),
        cuts={2: 5, 3: 12, 4: 1},
    )
    assert moves(record, "down") == [("down", 3, 1, 2)]


# --- busts --------------------------------------------------------------------------------

BOOBY = {13: 60, 14: 20, 15: 70, 16: 50}


def test_a_bust_at_the_booby_table_takes_a_stake_and_keeps_the_seat():
    record = ring(
        [result(1, 1, (), HEAD), result(2, 5), result(3, 9), result(4, 15, (), {13: 60, 14: 0, 15: 90, 16: 50})]
    )
    assert moves(record, "stake", "stays", "swap") == [("stake", 14, 4, 4), ("stays", 14, 4, 4)]
    assert record.after.tables[3] == (13, 14, 3, 16)
    assert record.after.counters[14] == 50 and record.after.stakes[14] == 2


def test_a_head_table_bust_who_goes_down_anyway_only_takes_a_stake():
    head = {1: 120, 2: 0, 3: 40, 4: 40}
    record = ring([result(1, 1, (), head), result(2, 5), result(3, 9), result(4, 15, (), BOOBY)])
    assert moves(record, "down", "stake", "stays", "swap") == [
        ("down", 2, 1, 4),
        ("stake", 2, 4, 4),
        ("stays", 2, 4, 4),
    ]


def test_head_bust_twice_the_bust_swaps_and_the_next_fewest_goes_down():
    head = {1: 120, 2: 0, 3: 40, 4: 40}
    record = ring(
        [result(1, 1, (), head), result(2, 5), result(3, 9), result(4, 15, (), BOOBY)],
        options=BellOptions(head_bust="twice"),
        cuts={3: 2, 4: 8},
    )
    assert moves(record, "down", "stake", "swap") == [
        ("down", 4, 1, 4),
        ("stake", 2, 1, 1),
        ("swap", 2, 1, 4),
        ("swap", 13, 4, 1),
    ]
    assert record.after.tables == ((1, 13, 3, 5), (9, 6, 7, 8), (15, 10, 11, 12), (2, 14, 4, 16))


def test_two_busts_head_table_side_first_each_with_the_best_left():
    results = [
        result(1, 1, (), HEAD),
        result(2, 5, (), {5: 100, 6: 0, 7: 50, 8: 50}),
        result(3, 9, (), {9: 150, 10: 0, 11: 0, 12: 50}),
        result(4, 15, (), BOOBY),
    ]
    record = ring(results)
    assert moves(record, "stake", "swap") == [
        ("stake", 6, 2, 2),
        ("swap", 6, 2, 4),
        ("swap", 13, 4, 2),
        ("stake", 10, 3, 3),
        ("swap", 10, 3, 4),
        ("swap", 16, 4, 3),
        ("stake", 11, 3, 3),
        ("swap", 11, 3, 4),
        ("swap", 14, 4, 3),
    ]
    assert record.after.tables == ((1, 2, 5, 4), (9, 13, 7, 8), (15, 16, 14, 12), (6, 11, 3, 10))
    first = ring(results, options=BellOptions(many_busts="first_only"))
    assert moves(first, "stake", "swap", "stays") == [
        ("stake", 6, 2, 2),
        ("swap", 6, 2, 4),
        ("swap", 13, 4, 2),
        ("stake", 10, 3, 3),
        ("stays", 10, 3, 3),
        ("stake", 11, 3, 3),
        ("stays", 11, 3, 3),
    ]


def test_a_tie_for_the_booby_tables_most_counters_is_cut_lowest_stays():
    record = ring(
        [
            result(1, 1, (), HEAD),
            result(2, 5, (), {5: 150, 6: 0, 7: 25, 8: 25}),
            result(3, 9),
            result(4, 13, (), {13: 50, 14: 70, 15: 70, 16: 10}),
        ],
        cuts={14: 3, 15: 6},
    )
    assert moves(record, "cut", "swap") == [
        ("cut", 14, 4, 4),
        ("cut", 15, 4, 4),
        ("swap", 6, 2, 4),
        ("swap", 15, 4, 2),
    ]


def test_booby_counts_unknown_refuse_names_what_is_missing():
    results = [
        result(1, 1, (), HEAD),
        result(2, 5, (), {5: 100, 6: 0, 7: 50, 8: 50}),
        result(3, 9),
        result(4, 13, (), {13: 60}),
    ]
    with pytest.raises(ResultError, match=r"booby table \(table 4\) must report .* guests 14, 15 and 16\."):
        ring(results)


def test_booby_counts_unknown_cut_the_highest_cut_changes_seats():
    results = [result(1, 1, (), HEAD), result(2, 5, (), {5: 100, 6: 0, 7: 50, 8: 50}), result(3, 9), result(4, 13)]
    record = ring(results, options=BellOptions(booby_unknown="cut"), cuts={14: 2, 15: 9, 16: 4})
    assert moves(record, "cut", "swap") == [
        ("cut", 14, 4, 4),
        ("cut", 15, 4, 4),
        ("cut", 16, 4, 4),
        ("swap", 6, 2, 4),
        ("swap", 15, 4, 2),
    ]


# --- the last round -----------------------------------------------------------------------

ALL_COUNTS = [
    result(1, 1, (), HEAD),
    result(2, 5, (), {5: 100, 6: 0, 7: 50, 8: 50}),
    result(3, 9, (), {9: 50, 10: 50, 11: 50, 12: 50}),
    result(4, None, (), {13: 60, 14: 40, 15: 50, 16: 50}),
]


def test_last_round_no_moves_no_stakes_yellow_counter_and_final_counts():
    record = ring(ALL_COUNTS, last_round=True)
    assert moves(record) == [("yellow", 1, 1, 1)]
    assert record.after.tables == start().tables
    assert record.after.counters[6] == 0 and record.after.stakes[6] == 1
    assert record.after.counters[13] == 60
    assert record.last_round


def test_last_round_needs_every_count_unless_optional():
    partial = [result(1, 1, (), HEAD), result(2, 5)]
    with pytest.raises(ResultError, match=r"table 2 has not reported guests 5, 6, 7 and 8"):
        ring(partial, last_round=True)
    record = ring(partial, last_round=True, options=BellOptions(last_round_counts="optional"))
    assert record.after.counters[5] == 50


# --- the options themselves ---------------------------------------------------------------


def test_options_from_mapping_and_their_errors():
    assert BellOptions.from_mapping({"no_result": "lot"}) == BellOptions(no_result="lot")
    assert BellOptions.from_mapping(None) == BellOptions()
    assert BellOptions.from_mapping(BellOptions().to_json()) == BellOptions()
    with pytest.raises(RuleError, match="“colour” is not an option of the bell"):
        BellOptions.from_mapping({"colour": "red"})
    with pytest.raises(RuleError, match="not a choice for the bell.s house rule “no_result”"):
        BellOptions.from_mapping({"no_result": "wait"})
    with pytest.raises(RuleError, match="max_table"):
        BellOptions(max_table=2)
