"""The seat change rule (``tables.seats``): worked examples and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.seats import SeatChange, TableLimits, change_seats, seat_moves

FOURS = TableLimits(4, 4, fixed_seats=True)
POKER = TableLimits(3, 7)

# Two tables of four: table 1 North 1, East 2, South 3, West 4; table 2 with a ghost at West.
AT_FOURS = ((1, 2, 3, 4), (5, 6, 7, -1))
# Progressive Poker: a head table of four, a table of five, a booby table of four.
AT_POKER = ((1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 13))


def test_two_guests_who_sat_in_each_others_seats_swap():
    assert change_seats(AT_FOURS, SeatChange(2, other=7), limits=FOURS) == ((1, 7, 3, 4), (5, 6, 2, -1))


def test_a_guest_moves_to_a_ghosts_seat_and_the_ghost_takes_theirs():
    # Guest 3 (table 1, South) moves to table 2, West, where Ghost 1 sits.
    assert change_seats(AT_FOURS, SeatChange(3, table=2, seat=3), limits=FOURS) == ((1, 2, -1, 4), (5, 6, 7, 3))


def test_a_move_to_a_guests_seat_is_a_swap():
    assert change_seats(AT_FOURS, SeatChange(1, table=2, seat=0), limits=FOURS) == ((5, 2, 3, 4), (1, 6, 7, -1))


def test_partners_change_with_a_swap_inside_a_table():
    # North and East swap: 2 now partners 3 (seats 0 and 2).
    assert change_seats(AT_FOURS, SeatChange(1, other=2), limits=FOURS) == ((2, 1, 3, 4), (5, 6, 7, -1))


def test_poker_a_guest_moves_to_a_table_with_room():
    after = change_seats(AT_POKER, SeatChange(9, table=1), limits=POKER)
    assert after == ((1, 2, 3, 4, 9), (5, 6, 7, 8), (10, 11, 12, 13))


def test_poker_a_swap_keeps_every_size():
    after = change_seats(AT_POKER, SeatChange(1, other=13), limits=POKER)
    assert after == ((13, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 1))


@pytest.mark.parametrize(
    ("tables", "change", "limits", "left", "words"),
    [
        (AT_FOURS, SeatChange(2, other=2), FOURS, (), "guest 2 was chosen twice"),
        (AT_FOURS, SeatChange(2, other=6), FOURS, (6,), "guest 6 has left"),
        (AT_FOURS, SeatChange(2, other=6), FOURS, (2,), "guest 2 has left"),
        (AT_FOURS, SeatChange(2, other=99), FOURS, (), "guest 99 has no seat"),
        (AT_FOURS, SeatChange(2, table=3, seat=0), FOURS, (), "there is no table 3"),
        (AT_FOURS, SeatChange(2, table=2, seat=4), FOURS, (), "table 2 has no such seat"),
        (AT_FOURS, SeatChange(2, table=2), FOURS, (), "table 2 has no such seat"),
        (AT_FOURS, SeatChange(2, table=1, seat=1), FOURS, (), "sits in that seat already"),
        (((1, 2, 3), (4, 5, 6, 7)), SeatChange(1, table=2), POKER, (), "table 1 would be left with fewer than 3"),
        (((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11)), SeatChange(8, table=1), POKER, (), "table 1 is full (7 players)"),
        (AT_POKER, SeatChange(9, table=2), POKER, (), "sits at table 2 already"),
        (AT_POKER, SeatChange(9), POKER, (), "one of the two"),
    ],
)
def test_refused_with_the_guests_named(tables, change, limits, left, words):
    with pytest.raises(RuleError) as caught:
        change_seats(tables, change, limits=limits, left=left)
    assert words in str(caught.value).lower()


def test_a_refused_change_names_the_guests_for_the_page():
    with pytest.raises(RuleError) as caught:
        change_seats(AT_FOURS, SeatChange(2, other=6), limits=FOURS, left={6})
    assert caught.value.subjects.guests == (6,)


def test_seat_moves_names_who_sits_elsewhere():
    after = change_seats(AT_FOURS, SeatChange(3, table=2, seat=3), limits=FOURS)
    assert seat_moves(AT_FOURS, after, fixed_seats=True) == ((-1, 2, 1), (3, 1, 2))
    after = change_seats(AT_POKER, SeatChange(9, table=1), limits=POKER)
    assert seat_moves(AT_POKER, after, fixed_seats=False) == ((9, 2, 1),)


@st.composite
def _foursomes(draw):
    count = draw(st.integers(1, 5))
    players = draw(st.permutations(list(range(1, 4 * count + 1))))
    ghosts = draw(st.integers(0, min(3, 4 * count - 1)))
    ids = [(-n if n <= ghosts else p) for n, p in enumerate(players, 1)]
    tables = tuple(tuple(ids[i : i + 4]) for i in range(0, 4 * count, 4))
    guests = [p for p in ids if p > 0]
    change = draw(
        st.one_of(
            st.builds(lambda a, b: SeatChange(a, other=b), st.sampled_from(guests), st.sampled_from(guests)),
            st.builds(
                lambda a, t, s: SeatChange(a, table=t, seat=s),
                st.sampled_from(guests),
                st.integers(1, count),
                st.integers(0, 3),
            ),
        )
    )
    return tables, change


def _players(tables):
    return sorted(p for t in tables for p in t)


@given(_foursomes())
def test_property_tables_of_four_nobody_twice_counts_kept(case):
    tables, change = case
    try:
        after = change_seats(tables, change, limits=FOURS)
    except RuleError:
        return
    assert _players(after) == _players(tables)  # nobody seated twice, nobody lost
    assert [len(t) for t in after] == [len(t) for t in tables]
    assert len(seat_moves(tables, after, fixed_seats=True)) == 2


@given(_foursomes())
def test_property_a_swap_twice_is_the_identity(case):
    tables, change = case
    if change.other is None:
        return
    try:
        once = change_seats(tables, change, limits=FOURS)
    except RuleError:
        return
    assert change_seats(once, change, limits=FOURS) == tables


@st.composite
def _poker(draw):
    sizes = draw(st.lists(st.integers(3, 7), min_size=2, max_size=6))
    ids = list(range(1, sum(sizes) + 1))
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(ids[start : start + size]))
        start += size
    guest = draw(st.sampled_from(ids))
    if draw(st.booleans()):
        return tuple(tables), SeatChange(guest, other=draw(st.sampled_from(ids)))
    return tuple(tables), SeatChange(guest, table=draw(st.integers(1, len(sizes) + 1)))


@given(_poker())
def test_property_poker_sizes_in_limits_and_counts_kept(case):
    tables, change = case
    try:
        after = change_seats(tables, change, limits=POKER)
    except RuleError:
        return
    assert _players(after) == _players(tables)
    assert all(3 <= len(t) <= 7 for t in after)
    assert sum(map(len, after)) == sum(map(len, tables))
    if change.other is not None:
        assert change_seats(after, change, limits=POKER) == tables
