"""A ghost at the bell (a stranger's report: "a ghost moves up as if it were a player who won").

The rule, as the rules pages give it (``docs/rules/tables-of-four.md``, "A ghost at the bell";
``docs/rules/bunco.md``, "A ghost"): a ghost is a seat someone plays for, and the Bunco clubs
move it from chair to chair like any player, a guest whose partner is the ghost taking it along;
Foster and Keller say nothing else. So a ghost moves up only with a side that won, and it never
takes a seat the movement gives a guest: every guest goes where their own result sends them,
whoever sits in the other seats. The pages never write a ghost as moving (it is "an empty
seat"), and no ghost has a move entry.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.formats.foursome import Movement, Seat, Side, is_ghost, move
from tests.fixtures_foursome_night import report_for
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening
from tournament.services.clock import round_ring, round_start


def test_the_worked_example_a_ghost_whose_side_wins_goes_up_with_its_partner():
    # Table 2: Eve (N) 5, Fay (E) 6, Gus (S) 7, Hal (W) 8; North–South win. Table 3: Ivy (N) 9,
    # Jo (E) 10, Kim (S) 11, Ghost 1 (W); East–West win. Ladder, partners change.
    tables = ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, -1), (12, 13, 14, -2))
    winners = [Side.NORTH_SOUTH, Side.NORTH_SOUTH, Side.EAST_WEST, Side.NORTH_SOUTH]
    after = move(tables, winners, movement=Movement.LADDER, partners_change=True)
    # Fay and Hal lost at table 2 and stay (North, East); Jo and Ghost 1 come up (South, West):
    # Ghost 1 now partners Hal, Jo partners Fay. Ivy and Kim lost at table 3 and stay there.
    assert after[1] == (6, 8, 10, -1)
    assert 9 in after[2] and 11 in after[2]
    # Eve and Gus, who won at table 2, went up to the head table: no ghost took their seats.
    assert 5 in after[0] and 7 in after[0]


@st.composite
def evenings(draw):
    """Tables of four (table 1 first) with ghosts in any seats, as bells and departures leave
    them (two at a table, or a whole side of ghosts, included), and a winner at each table."""
    count = draw(st.integers(min_value=1, max_value=6))
    seats = 4 * count
    ghosts = draw(st.sets(st.integers(min_value=0, max_value=seats - 1), max_size=seats // 2))
    ids, guest, ghost = [], 1, -1
    for seat in range(seats):
        if seat in ghosts:
            ids.append(ghost)
            ghost -= 1
        else:
            ids.append(guest)
            guest += 1
    tables = tuple(tuple(ids[i : i + 4]) for i in range(0, seats, 4))
    winners = draw(st.lists(st.sampled_from(list(Side)), min_size=count, max_size=count))
    return tables, winners


def _table_of(tables) -> dict[int, int]:
    return {p: n for n, t in enumerate(tables, start=1) for p in t}


@settings(max_examples=300, deadline=None)
@given(evenings(), st.sampled_from(list(Movement)), st.booleans())
def test_no_ghost_takes_a_seat_the_movement_gives_a_guest(evening, movement, partners_change):
    tables, winners = evening
    with_ghosts = move(tables, winners, movement=movement, partners_change=partners_change)
    # The same evening with a guest in every ghost's seat: each guest goes to the same table,
    # so where a guest goes never depends on a ghost (no ghost moves ahead of a guest).
    stand_in = {p: 1000 - p for t in tables for p in t if is_ghost(p)}
    filled = tuple(tuple(stand_in.get(p, p) for p in t) for t in tables)
    all_guests = move(filled, winners, movement=movement, partners_change=partners_change)
    ghosts_at, guests_at = _table_of(with_ghosts), _table_of(all_guests)
    for player, table in ghosts_at.items():
        assert guests_at[stand_in.get(player, player)] == table
    # A ghost goes up only with a side that won; its side decides, as for a guest.
    before = _table_of(tables)
    for number, (table, winner) in enumerate(zip(tables, winners, strict=True), start=1):
        for seat, player in enumerate(table):
            if is_ghost(player) and ghosts_at[player] < number:
                assert Side.of(Seat(seat)) is winner
    assert sorted(before) == sorted(ghosts_at)  # nobody lost, nobody doubled


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["euchre", "whist", "bunco"])
def test_no_page_writes_a_ghost_as_moving_when_its_side_won(fmt, make_evening, client, host):
    evening = make_evening(7, 7, format=fmt, round_end=Evening.RoundEnd.CLOCK, rounds_planned=4)
    foursome_draw(evening=evening)
    tables = foursome_state(evening).tables
    rnd = round_start(evening=evening)
    for number, seats in enumerate(tables, start=1):  # every ghost's side wins
        ghost_ns = any(is_ghost(p) for p in seats[0::2])
        foursome_report(round=rnd, table=number, report=report_for(fmt, seats, ns_wins=ghost_ns))
    round_ring(evening=evening)
    after = foursome_state(evening).tables
    ghosts_before = {p: n for n, t in enumerate(tables, 1) for p in t if is_ghost(p)}
    ghosts_after = {p: n for n, t in enumerate(after, 1) for p in t if is_ghost(p)}
    assert any(ghosts_after[g] < ghosts_before[g] for g in ghosts_before)  # a ghost went up, by the rule
    bell = Bell.objects.live().bells().of_evening(evening.pk).get()
    assert not bell.entries.filter(kind="move", guest_id__lt=0).exists()
    client.force_login(host)
    pages = [reverse("host-moves", args=[evening.pk]), reverse("room", args=[evening.public_key])]
    pages += [reverse("host-table", args=[evening.pk, n]) for n in range(1, len(after) + 1)]
    pages += [reverse("guest-page", args=[g.key]) for g in evening.guests.all()]
    for url in pages:
        text = " ".join(re.sub(r"<[^>]+>", " ", client.get(url).content.decode()).split())
        assert not re.search(r"Ghost \d+ (won|lost|moves|stays|goes|sits)", text), url
    rules = " ".join(
        re.sub(
            r"<[^>]+>", " ", client.get(reverse("rules-evening", args=[evening.public_key])).content.decode()
        ).split()
    )
    assert (
        "a ghost goes up a table only with a side that won, and it never takes a seat the bell gives a guest" in rules
    )
