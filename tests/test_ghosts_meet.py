"""Issue 22 (b): after a bell two ghosts may sit at one table, by the rule (docs/rules/
tables-of-four.md, "Two ghosts at one table after a bell"): a ghost moves like a player and the
bell never swaps a guest to spread the ghosts again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.formats.foursome import Movement, Side, is_ghost, move


def test_the_worked_example_two_ghosts_meet_at_table_3():
    # Ghost 1 North at table 3, Ghost 2 North at the foot table; North-South lose at table 3 and
    # win at table 4 (ladder, partners change): both ghosts sit at table 3, table 4 has none.
    tables = ((1, 2, 3, 4), (5, 6, 7, 8), (-1, 9, 10, 11), (-2, 12, 13, 14))
    winners = [Side.NORTH_SOUTH, Side.NORTH_SOUTH, Side.EAST_WEST, Side.NORTH_SOUTH]
    after = move(tables, winners, movement=Movement.LADDER, partners_change=True)
    assert sorted(p for p in after[2] if is_ghost(p)) == [-2, -1]
    assert not any(is_ghost(p) for p in after[3])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(list(Side)), min_size=4, max_size=4),
    st.sampled_from(list(Movement)),
    st.booleans(),
)
def test_every_ghost_goes_where_its_side_sends_it_as_a_guest_would(winners, movement, partners_change):
    # Put guests in the ghosts' seats: the movement is the same, id for id (no respreading).
    ghosts = ((1, 2, 3, 4), (5, 6, 7, 8), (-1, 9, 10, 11), (-2, 12, 13, 14))
    guests = tuple(tuple(100 - p if p < 0 else p for p in t) for t in ghosts)
    with_ghosts = move(ghosts, winners, movement=movement, partners_change=partners_change)
    with_guests = move(guests, winners, movement=movement, partners_change=partners_change)
    assert tuple(tuple(100 - p if p < 0 else p for p in t) for t in with_ghosts) == with_guests
