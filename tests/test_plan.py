"""The table plan (tables/formats/poker/plan.py) against docs/rules/progressive-poker.md and the house rules."""

from itertools import product

import pytest

from tables.errors import InvariantBroken
from tables.formats.poker.plan import (
    LargerTables,
    OnTie,
    PlanError,
    PlanOptions,
    TableKind,
    TablePlan,
    free_seats,
    plan_tables,
    plan_with_latecomer,
    plan_without_guest,
    relaxations,
)

SEATABLE = [n for n in range(8, 501) if n not in (9, 10, 11)]


# Worked by hand: n - 8 guests sit between head and booby, in tables of 4 to 7, as near six.
HAND_CHECKED = {
    8: (4, 4),  # nobody between head and booby
    12: (4, 4, 4),  # 4 between: one table of four
    16: (4, 4, 4, 4),  # 8 between: one table cannot take 8, so 4 + 4
    23: (4, 5, 5, 5, 4),  # 15 between: two tables hold at most 14; 5+5+5
    85: (4, *[6] * 12, 5, 4),  # 77 = 12 x 6 + 5: 13 tables, the five last
    86: (4, *[6] * 13, 4),  # 78 = 13 x 6
    500: (4, *[6] * 82, 4),  # 492 = 82 x 6: 84 tables in all
}


@pytest.mark.parametrize("guests, sizes", sorted(HAND_CHECKED.items()))
def test_hand_checked_plans(guests, sizes):
    plan = plan_tables(guests)
    assert plan.sizes == sizes
    assert plan.relaxed is None
    assert plan.guests == guests


def test_nine_guests_are_offered_a_relaxed_plan_written_out():
    with pytest.raises(PlanError) as caught:
        plan_tables(9)
    assert caught.value.offer == TablePlan((4, 5), "the booby table starts with 5 players instead of 4")
    assert "9, 10 and 11" in str(caught.value)
    assert "the booby table starts with 5 players instead of 4" in str(caught.value)
    assert plan_tables(9, accept_relaxed=True) == caught.value.offer


@pytest.mark.parametrize("guests", [9, 10, 11])
def test_nine_to_eleven_need_the_host_to_accept(guests):
    with pytest.raises(PlanError) as caught:
        plan_tables(guests)
    offer = caught.value.offer
    assert offer.sizes == (4, guests - 4)
    assert offer.relaxed == f"the booby table starts with {guests - 4} players instead of 4"
    assert f"check in {12 - guests} more" in str(caught.value)
    assert plan_tables(guests, accept_relaxed=True) == offer


def test_accept_relaxed_changes_nothing_for_counts_the_rules_seat():
    assert plan_tables(20, accept_relaxed=True) == plan_tables(20)


@pytest.mark.parametrize("guests", [-1, 0, 1, 4, 7])
def test_fewer_than_eight_are_refused(guests):
    with pytest.raises(PlanError, match="at least 8"):
        plan_tables(guests, accept_relaxed=True)


def test_seven_guests_are_told_how_many_more():
    with pytest.raises(PlanError, match="Check in 1 more"):
        plan_tables(7)


def test_every_count_from_8_to_500_follows_the_rules():
    for guests in SEATABLE:
        plan = plan_tables(guests)
        middle = plan.sizes[1:-1]
        assert plan.guests == sum(plan.sizes) == guests
        assert plan.relaxed is None
        assert plan.sizes[0] == 4 and plan.sizes[-1] == 4
        assert all(4 <= size <= 7 for size in middle), plan
        # Documented order: the larger sizes nearest the head table, sizes differing by one.
        assert list(middle) == sorted(middle, reverse=True), plan
        assert not middle or max(middle) - min(middle) <= 1, plan
        assert plan.kind(1) == "head" and plan.kind(plan.tables) == "booby"
    assert plan_tables(500).tables > 13


def _cost(sizes):
    return sum((s - 6) ** 2 for s in sizes)


def _brute_force_best(between, smaller_on_tie=True):
    """All multisets of tables of 4..7 seating ``between``: the least cost, then table count."""
    best = None
    for fours, fives, sixes, sevens in product(range(between // 4 + 1), repeat=4):
        if 4 * fours + 5 * fives + 6 * sixes + 7 * sevens != between:
            continue
        sizes = [4] * fours + [5] * fives + [6] * sixes + [7] * sevens
        key = (_cost(sizes), -len(sizes) if smaller_on_tie else len(sizes))
        best = key if best is None or key < best else best
    return best


@pytest.mark.parametrize("on_tie", list(OnTie))
def test_plan_is_the_nearest_to_six_of_every_legal_plan(on_tie):
    options = PlanOptions(on_tie=on_tie)
    smaller = on_tie == OnTie.SMALLER_TABLES
    for guests in [8, *range(12, 70)]:
        middle = plan_tables(guests, options=options).sizes[1:-1]
        best = _brute_force_best(guests - 8, smaller)
        assert (_cost(middle), -len(middle) if smaller else len(middle)) == best, guests


def test_ties_go_to_smaller_tables_unless_the_host_chooses():
    # 21 between head and booby: 7+7+7 and 6+5+5+5 are both three seats from six.
    assert plan_tables(29).sizes == (4, 6, 5, 5, 5, 4)
    larger = PlanOptions(on_tie=OnTie.LARGER_TABLES)
    assert plan_tables(29, options=larger).sizes == (4, 7, 7, 7, 4)


def test_larger_tables_may_go_nearest_the_booby_table():
    options = PlanOptions(larger_tables=LargerTables.NEAREST_BOOBY)
    assert plan_tables(29, options=options).sizes == (4, 5, 5, 5, 6, 4)
    assert plan_tables(85, options=options).sizes == (4, 5, *[6] * 12, 4)


def test_options_from_mapping():
    assert PlanOptions.from_mapping({}) == PlanOptions()
    assert PlanOptions.from_mapping({"larger_tables": "nearest booby", "on_tie": "larger tables"}) == PlanOptions(
        LargerTables.NEAREST_BOOBY, OnTie.LARGER_TABLES
    )
    with pytest.raises(PlanError, match="Unknown table plan option biggest_first"):
        PlanOptions.from_mapping({"biggest_first": True})
    with pytest.raises(PlanError, match="“nearest head” or “nearest booby”"):
        PlanOptions.from_mapping({"larger_tables": "middle"})


def test_kinds_and_sizes():
    plan = plan_tables(20)
    assert plan.sizes == (4, 6, 6, 4)
    assert [plan.kind(t) for t in plan.table_numbers] == [
        TableKind.HEAD,
        TableKind.INTERMEDIATE,
        TableKind.INTERMEDIATE,
        TableKind.BOOBY,
    ]
    assert plan.kind(2) == "intermediate"
    assert plan.size(3) == 6 and plan.tables == 4
    for bad in (0, 5):
        with pytest.raises(PlanError, match="tables 1 to 4"):
            plan.kind(bad)
    assert plan.describe() == "20 guests at 4 tables: head table 4, table 2: 6, table 3: 6, booby table 4"


def test_a_plan_must_say_what_it_relaxes():
    with pytest.raises(InvariantBroken):
        TablePlan((4, 5))  # breaks a rule without saying so
    with pytest.raises(InvariantBroken):
        TablePlan((4, 4), relaxed="nothing")  # says relaxed, breaks nothing
    with pytest.raises(InvariantBroken):
        TablePlan((4,))  # one table cannot be head and booby
    with pytest.raises(InvariantBroken):
        TablePlan((4, 0, 4), relaxed="x")
    assert TablePlan([4, 8, 4], relaxed=relaxations((4, 8, 4))).sizes == (4, 8, 4)
    assert relaxations((5, 3, 6)) == (
        "the head table starts with 5 players instead of 4; "
        "table 2 starts with 3 players, outside 4 to 7; "
        "the booby table starts with 6 players instead of 4"
    )


def test_free_seats_for_a_latecomer():
    assert free_seats(plan_tables(20)) == (2, 3)
    assert free_seats(plan_tables(23)) == (2, 3, 4)
    assert free_seats(plan_tables(8)) == ()
    assert free_seats(plan_tables(29, options=PlanOptions(on_tie=OnTie.LARGER_TABLES))) == ()
    assert free_seats(plan_tables(9, accept_relaxed=True)) == (2,)
    assert free_seats(plan_tables(11, accept_relaxed=True)) == ()


def test_latecomer_takes_a_free_seat():
    assert plan_with_latecomer(plan_tables(20), 2) == TablePlan((4, 7, 6, 4))
    grown = plan_with_latecomer(plan_tables(10, accept_relaxed=True), 2)
    assert grown == TablePlan((4, 7), "the booby table starts with 7 players instead of 4")


@pytest.mark.parametrize(
    "plan, table, words",
    [
        (TablePlan((4, 6, 6, 4)), 1, "the head table must start with four; tables with a free seat: 2, 3"),
        (TablePlan((4, 6, 6, 4)), 4, "the booby table must start with four"),
        (
            TablePlan((4, 7, 4)),
            2,
            "table 2 already has 7, the most a table may have; no table has a free seat, so redraw",
        ),
        (TablePlan((4, 4)), 2, "the booby table must start with four; no table has a free seat"),
        (TablePlan((4, 7), "the booby table starts with 7 players instead of 4"), 2, "table 2 already has 7"),
    ],
)
def test_latecomer_refused_where_the_plan_has_no_room(plan, table, words):
    with pytest.raises(PlanError, match=words):
        plan_with_latecomer(plan, table)


def test_every_free_seat_keeps_the_plan_within_the_rules():
    for guests in SEATABLE:
        plan = plan_tables(guests)
        for table in free_seats(plan):
            grown = plan_with_latecomer(plan, table)
            assert grown.relaxed is None and grown.guests == guests + 1


def test_a_guest_leaves():
    assert plan_without_guest(TablePlan((4, 6, 6, 4)), 3) == TablePlan((4, 6, 5, 4))
    relaxed = plan_tables(9, accept_relaxed=True)
    assert plan_without_guest(relaxed, 2) == TablePlan((4, 4))


@pytest.mark.parametrize(
    "plan, table, words",
    [
        (
            TablePlan((4, 6, 6, 4)),
            1,
            "the head table must start with four. To fix it, redraw, or "
            "first move a guest from table 2 or 3 to table 1",
        ),
        (
            TablePlan((4, 6, 4)),
            3,
            "the booby table must start with four. To fix it, redraw, or first move a guest from table 2 to table 3",
        ),
        (TablePlan((4, 4, 4)), 2, "table 2 would fall below 4, the fewest a table may have. To fix it, redraw."),
        (TablePlan((4, 4)), 1, "To fix it, redraw."),
    ],
)
def test_a_guest_may_not_leave_a_table_at_its_limit(plan, table, words):
    with pytest.raises(PlanError) as caught:
        plan_without_guest(plan, table)
    assert words in str(caught.value)
