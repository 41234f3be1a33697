"""A stored seat change made again (``tables.seats.change_again``): a correction of an earlier
round replays every later step, a seat change among them (issue 22 items 3 and 5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.seats import SeatChange, TableLimits, change_again, change_seats

FOURS = TableLimits(smallest=4, largest=4, fixed_seats=True)
POKER = TableLimits(smallest=3, largest=7)


def test_a_swap_at_tables_of_four_is_made_again_on_other_seats():
    before = ((1, 2, 3, 4), (5, 6, 7, 8))
    after = ((1, 2, 7, 4), (5, 6, 3, 8))  # 3 and 7 swapped
    change = change_again(before, after, fixed_seats=True)
    assert change == SeatChange(3, other=7) or change == SeatChange(7, other=3)
    corrected = ((3, 2, 1, 4), (7, 6, 5, 8))  # a correction seated them elsewhere
    assert change_seats(corrected, change, limits=FOURS) == ((7, 2, 1, 4), (3, 6, 5, 8))


def test_a_move_to_a_ghosts_seat_is_made_again_to_the_same_seat():
    before = ((1, 2, 3, 4), (5, -1, 7, 8))
    after = ((1, 2, -1, 4), (5, 3, 7, 8))  # 3 to table 2, East (the ghost's seat); the ghost to 3's
    assert change_again(before, after, fixed_seats=True) == SeatChange(3, table=2, seat=1)


def test_a_move_at_poker_is_made_again_to_the_same_table():
    before = ((1, 2, 3, 4), (5, 6, 7))
    after = ((1, 2, 4), (5, 6, 7, 3))
    assert change_again(before, after, fixed_seats=False) == SeatChange(3, table=2)
    assert change_again(before, before, fixed_seats=False) is None


def test_tables_that_are_not_one_change_are_refused():
    before = ((1, 2, 3, 4), (5, 6, 7, 8))
    after = ((5, 6, 3, 4), (1, 2, 7, 8))
    with pytest.raises(RuleError, match="moved 4 guests"):
        change_again(before, after, fixed_seats=True)


@given(st.permutations(range(1, 9)), st.integers(0, 7), st.integers(0, 7))
def test_any_swap_made_again_on_the_same_tables_gives_the_same_tables(order, i, j):
    tables = (tuple(order[:4]), tuple(order[4:]))
    a, b = order[i], order[j]
    if a == b:
        return
    after = change_seats(tables, SeatChange(a, other=b), limits=FOURS)
    change = change_again(tables, after, fixed_seats=True)
    assert change is not None and change_seats(tables, change, limits=FOURS) == after
