"""The room display names every guest seated since the last bell (an arrival, a seat change,
a move to a ghost's seat) with their table on "where to go", in every registered format
(``docs/board-and-room.md``, "Seated since the bell")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import GuestFactory
from tests.test_capabilities import _evening, _play, formats
from tournament.models import Guest
from tournament.registry import format_for
from tournament.services.draws import draw_digital
from tournament.services.seat_changes import seats_change


def _groups(html: str) -> dict[int, str]:
    """The moves slide's groups: destination table -> the group's HTML."""
    parts = html.split('<li class="item move-group')[1:]
    return {int(m.group(1)): part for part in parts if (m := re.search(r'data-table="(\d+)"', part))}


def _table_of(evening, guest_id: int) -> tuple[int, int]:
    """(table number, seat index) where a guest sits now."""
    for number, table in enumerate(format_for(evening).state(evening).tables, 1):
        if guest_id in table:
            return number, list(table).index(guest_id)
    raise AssertionError("not seated")


@pytest.mark.parametrize("key", formats("the room display names guests seated since the bell"))
def test_room_names_guests_seated_since_the_bell(db, host, client, key):
    """After round 1's bell: a late guest's arrival (where the format takes one), then a guest
    moved to a ghost's seat (where there are ghosts) or two guests swapped; the moves slide
    lists each at the table they sit at now, and a guest who left since is not listed."""
    evening = _evening(host, key, guests=13)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    fmt = format_for(evening)
    seated: list[int] = []
    if fmt.joins_after_the_draw:
        late = GuestFactory(evening=evening, name="Renée Late", pack="red", status=Guest.Status.HERE)
        fmt.seat_change(evening=evening, guest=late, leaving=False, user=host, device="")
        seated.append(late.pk)
    tables = [list(t) for t in fmt.state(evening).tables]
    ghost = next(((n, i) for n, t in enumerate(tables, 1) for i, p in enumerate(t) if p <= 0), None)
    if ghost is not None:
        mover = next(p for n, t in enumerate(tables, 1) if n != ghost[0] for p in t if p > 0 and p not in seated)
        seats_change(evening=evening, guest_id=mover, table=ghost[0], seat=ghost[1], user=host)
        seated.append(mover)
    else:
        a = next(p for p in tables[0] if p > 0 and p not in seated)
        b = next(p for p in tables[-1] if p > 0 and p not in seated)
        seats_change(evening=evening, guest_id=a, other_id=b, user=host)
        seated += [a, b]
    html = client.get(reverse("room", args=[evening.public_key]) + "?mode=moves").content.decode()
    groups = _groups(html)
    for pk in seated:
        guest = Guest.objects.get(pk=pk)
        table, _ = _table_of(evening, pk)
        assert table in groups, f"table {table} is not on where to go"
        assert guest.name in groups[table], f"{guest.name} is not listed at table {table}"
        assert "seated since the bell" in groups[table]
        assert sum(guest.name in part for part in groups.values()) == 1


def test_guests_seated_since_the_bell_cost_no_query_each(db, host, client):
    """Where to go costs the same queries for one guest seated since the bell or four
    (``seated_since_bell``: two queries, whatever their number)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.kept import kept_forget

    evening = _evening(host, "poker", guests=12)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    fmt = format_for(evening)
    counts = []
    for late in range(4):
        guest = GuestFactory(evening=evening, name=f"Late {late}", pack="red", status=Guest.Status.HERE)
        fmt.seat_change(evening=evening, guest=guest, leaving=False, user=host, device="")
        if late in (0, 3):
            kept_forget()  # each drawn as by a process just started (the bells' records read once per process)
            with CaptureQueriesContext(connection) as queries:
                page = client.get(reverse("room", args=[evening.public_key]) + "?mode=moves").content.decode()
            assert guest.name in page
            counts.append(len(queries))
    assert counts[0] == counts[1], counts
