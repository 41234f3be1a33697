"""Standings, prizes and the settlement (docs/rules/progressive-poker.md, 'Prizes'), worked by hand."""

from decimal import Decimal

import pytest

from tables.errors import RuleError
from tables.formats.poker.bell import EveningState
from tables.formats.poker.prizes import PrizeOptions, Settlement, StandingRow, award_prizes, settle, standings
from tables.packs import Pack

R, B = Pack.RED, Pack.BLUE


def evening(counters, yellow, stakes):
    guests = sorted(counters)
    half = len(guests) // 2
    return EveningState(
        tables=(tuple(guests[:half]), tuple(guests[half:])),
        counters=counters,
        yellow=yellow,
        stakes=stakes,
    )


# Eight guests, stake 50: 1-4 red, 5-8 blue. 450 counters, 9 stakes: conserved.
STATE = evening(
    counters={1: 120, 2: 30, 3: 60, 4: 10, 5: 70, 6: 70, 7: 90, 8: 0},
    yellow={1: 2, 2: 0, 3: 1, 4: 0, 5: 2, 6: 0, 7: 0, 8: 0},
    stakes={1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 2, 8: 1},
)
PACKS = {1: R, 2: R, 3: R, 4: R, 5: "blue", 6: B, 7: B, 8: B}


def rows(state=STATE):
    return standings(state, PACKS, stake=50)


def test_standings_sorted_by_yellow_then_counters_with_stakes_charged():
    assert [(r.guest, r.yellow, r.counters, r.stakes, r.counters_won) for r in rows()] == [
        (1, 2, 120, 1, 70),
        (5, 2, 70, 1, 20),
        (3, 1, 60, 1, 10),
        (7, 0, 90, 2, -10),
        (6, 0, 70, 1, 20),
        (2, 0, 30, 1, -20),
        (4, 0, 10, 1, -40),
        (8, 0, 0, 1, -50),
    ]
    assert rows()[1].pack is Pack.BLUE


def test_standings_need_a_pack_for_everyone():
    with pytest.raises(RuleError, match="Guest 8 has no pack"):
        standings(STATE, {g: R for g in range(1, 8)}, stake=50)


def test_the_four_prizes():
    prizes = award_prizes(rows())
    assert [(p.key, p.winners) for p in prizes] == [
        ("head_table", (1,)),  # 2 yellow, and more counters than guest 5
        ("red_pack", (1,)),  # won 70
        ("blue_pack", (5, 6)),  # both won 20 (guest 7 holds 90 but took two stakes): shared
        ("booby", (8,)),  # won -50
    ]
    assert prizes[0].reason == "2 yellow counters won at the head table, with 120 counters."
    assert "Guests 5 and 6 tied and share it" in prizes[2].reason
    assert prizes[3].rule == "house rule: booby_rule=fewest_won"
    assert prizes[3].reason == "The most counters lost: 50, fresh stakes charged."  # not "(-50)", nor "won: 50 lost"


def test_ties_cut_the_highest_cut_takes_the_prize():
    prizes = award_prizes(rows(), options=PrizeOptions(ties="cut"), cuts={5: 3, 6: 11})
    assert prizes[2].winners == (6,)
    assert "guest 6 won the cut" in prizes[2].reason


def test_head_table_tie_on_yellow_and_counters_is_shared():
    state = evening(
        counters={1: 80, 2: 20, 3: 80, 4: 20},
        yellow={1: 1, 2: 0, 3: 1, 4: 0},
        stakes={g: 1 for g in range(1, 5)},
    )
    prizes = award_prizes(standings(state, {1: R, 2: R, 3: B, 4: B}, stake=50))
    assert prizes[0].winners == (1, 3)


def test_booby_rules():
    by = lambda rule: award_prizes(rows(), options=PrizeOptions(booby_rule=rule))  # noqa: E731
    assert by("fewest_counters")[-1].winners == (8,)
    assert by("most_stakes")[-1].winners == (7,)
    assert [p.key for p in by("none")] == ["head_table", "red_pack", "blue_pack"]
    state = evening(
        counters={1: 100, 2: 0, 3: 60, 4: 40},
        yellow={g: 0 for g in range(1, 5)},
        stakes={1: 2, 2: 1, 3: 1, 4: 1},
    )
    table = standings(state, {g: R for g in range(1, 5)}, stake=50)
    # counters won: guest 1 100-100=0, guest 2 -50, guest 3 10, guest 4 -10; no blue pack
    assert award_prizes(table)[-1].winners == (2,)
    assert [p.key for p in award_prizes(table)] == ["head_table", "red_pack", "booby"]


def test_prize_options_from_mapping():
    assert PrizeOptions.from_mapping({"ties": "cut"}) == PrizeOptions(ties="cut")
    with pytest.raises(RuleError, match="is not an option of the prizes"):
        PrizeOptions.from_mapping({"tie": "cut"})
    with pytest.raises(RuleError, match="not a booby prize rule"):
        PrizeOptions(booby_rule="last")
    assert award_prizes(()) == ()


def test_settlement_sums_to_zero_when_counters_are_conserved():
    sheet = settle(rows(), counter_value=Decimal("0.05"))
    assert sheet[0] == Settlement(1, 70, Decimal("3.50"))
    assert {s.guest: s.amount for s in sheet}[8] == Decimal("-2.50")
    assert sum(s.amount for s in sheet) == 0


@pytest.mark.parametrize("value", [Decimal("-1"), 0.05, Decimal("NaN")])
def test_settlement_refuses_a_bad_counter_value(value):
    with pytest.raises(RuleError, match="counter's value"):
        settle(rows(), counter_value=value)


def test_standing_row_is_a_frozen_value():
    row = StandingRow(1, R, 50, 0, 1, 0)
    with pytest.raises(AttributeError):
        row.counters = 3


def test_a_pack_in_which_nobody_won_a_counter_wins_no_prize():
    # House rule (docs/rules/progressive-poker.md, 'Prizes'), as at tables of four: a prize whose
    # best count is 0 goes to no one. Blue: 50, 50, 40, 60 with one stake each, the last with
    # two: counters won 0, 0, -10, -40; nobody in the blue pack won a counter.
    state = evening(
        counters={1: 120, 2: 30, 3: 60, 4: 10, 5: 50, 6: 50, 7: 40, 8: 60},
        yellow={n: 0 for n in range(1, 9)},
        stakes={1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 2},
    )
    prizes = {p.key: p for p in award_prizes(rows(state))}
    blue = prizes["blue_pack"]
    assert blue.winners == () and blue.tied == ()
    assert blue.reason == "Not awarded: nobody in the blue pack won counters over the evening (fresh stakes charged)."
    assert prizes["red_pack"].winners == (1,)  # 120 - 50 = 70
