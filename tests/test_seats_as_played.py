"""``tables.formats.bell.seats_as_played``: a bell rung again by a correction keeps the seats
the guests took after it once a later round was played in them (``docs/rules/tables-of-four.md``,
"Corrections"), with the corrected bell's tallies."""

from __future__ import annotations

import pytest

from tables.errors import InvariantBroken
from tables.formats.bell import FoursomeState, ring_foursome_bell, seats_as_played
from tables.formats.foursome import Movement, Side


def _ring(winners: tuple[Side, Side]) -> tuple:
    state = FoursomeState.start(((1, 2, 3, 4), (5, 6, 7, 8)))
    cuts = {1: winners[0], 2: winners[1]}  # no reports: each table cut for, as the bell cuts
    return ring_foursome_bell(state, {}, movement=Movement.LADDER, partners_change=True, cuts=cuts)


def test_the_worked_example_the_corrected_bell_keeps_the_seats_played_and_its_own_tallies():
    # Really played: North–South won both tables, so 5 and 7 came up, 2 and 4 went down.
    played, _ = _ring((Side.NORTH_SOUTH, Side.NORTH_SOUTH))
    # Corrected: table 2 was won by East–West (6 and 8 would have come up instead).
    corrected, state = _ring((Side.NORTH_SOUTH, Side.EAST_WEST))
    kept, after = seats_as_played(corrected, state, played.after)
    assert kept.as_played and kept.after == played.after == after.tables
    assert kept.winners == corrected.winners and after.tallies == state.tallies
    assert kept.moves == played.moves  # who changed table is who really did
    same, unchanged = seats_as_played(played, FoursomeState(played.after), played.after)
    assert same is played and not same.as_played and unchanged.tables == played.after


def test_seats_as_played_that_seat_other_players_are_refused_as_a_bug():
    record, state = _ring((Side.NORTH_SOUTH, Side.NORTH_SOUTH))
    with pytest.raises(InvariantBroken):
        seats_as_played(record, state, ((1, 2, 3, 4), (5, 6, 7, 9)))
