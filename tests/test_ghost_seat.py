"""``tables.formats.bell.ghost_seat_taken``: a late guest takes the ghost seat nearest the foot
table, before round 1 (issue 22 item 6) as between rounds (``guest_arrives``). Worked examples
and properties; rules: ``docs/rules/tables-of-four.md`` (ghosts fill the empty seats)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.errors import InvariantBroken, RuleError
from tables.formats.bell import FoursomeState, ghost_seat_taken, guest_arrives, guest_leaves
from tables.formats.foursome import is_ghost


def test_the_late_guest_takes_the_first_ghost_of_the_last_table_with_one():
    state = FoursomeState.start([(1, -1, 3, 4), (5, 6, -2, -3), (7, 8, 9, 10)])
    taken = ghost_seat_taken(state, 11)
    assert taken is not None
    assert taken.tables == ((1, -1, 3, 4), (5, 6, 11, -3), (7, 8, 9, 10))
    assert taken.ghosts == 3  # the ghosts counted so far are kept: the next ghost is still Ghost 4


def test_no_ghost_seat_means_none_and_the_tables_are_left_as_they_are():
    state = FoursomeState.start([(1, 2, 3, 4), (5, 6, 7, 8)])
    assert ghost_seat_taken(state, 9) is None
    assert guest_arrives(state, 9).tables[-1] == (9, -1, -2, -3)  # between rounds a new foot table opens


def test_a_leavers_seat_goes_to_a_ghost_then_a_late_guest_takes_it_back():
    state = guest_leaves(FoursomeState.start([(1, 2, 3, 4), (5, 6, 7, 8)]), 6)
    assert state.tables == ((1, 2, 3, 4), (5, -1, 7, 8))
    assert ghost_seat_taken(state, 9).tables == ((1, 2, 3, 4), (5, 9, 7, 8))


def test_a_seated_guest_or_a_ghost_cannot_take_a_ghosts_seat():
    state = FoursomeState.start([(1, -1, 3, 4), (5, 6, 7, 8)])
    with pytest.raises(RuleError, match="seated already"):
        ghost_seat_taken(state, 5)
    with pytest.raises(InvariantBroken):
        ghost_seat_taken(state, -1)


@st.composite
def states(draw) -> FoursomeState:
    """Between 1 and 6 tables of four, with guests 1.. and ghosts -1.. in random seats."""
    tables = draw(st.integers(1, 6))
    ghosts = draw(st.integers(0, tables * 4 - 1))
    players = list(range(1, tables * 4 - ghosts + 1)) + [-(g + 1) for g in range(ghosts)]
    order = draw(st.permutations(players))
    return FoursomeState.start([tuple(order[i : i + 4]) for i in range(0, len(order), 4)])


@given(states())
def test_the_late_guest_takes_exactly_one_ghost_seat_nearest_the_foot(state):
    guest = 1000
    taken = ghost_seat_taken(state, guest)
    ghosts = [(n, i) for n, t in enumerate(state.tables) for i, p in enumerate(t) if is_ghost(p)]
    if not ghosts:
        assert taken is None
        return
    assert taken is not None
    changed = [(n, i) for n, t in enumerate(state.tables) for i, p in enumerate(t) if taken.tables[n][i] != p]
    assert len(changed) == 1  # one seat changed hands, every other guest and ghost stays put
    n, i = changed[0]
    assert taken.tables[n][i] == guest and is_ghost(state.tables[n][i])
    assert n == max(t for t, _ in ghosts)  # the last table with a ghost
    assert i == min(s for t, s in ghosts if t == n)  # its first ghost in seat order
    assert taken.ghosts == state.ghosts and taken.tallies == state.tallies
