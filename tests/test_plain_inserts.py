"""``tournament.plain_inserts.insert_plain`` writes what Django's ``bulk_create`` writes, and
``update_plain`` moves rows as Django's ``bulk_update`` does.

The bell's entries are written by ``insert_plain`` (one INSERT, no value prepared by the ORM,
issue 26 item 6); these rows must be the very rows ``bulk_create`` would have stored, defaults
included, on SQLite and PostgreSQL, in batches as large as the database takes.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import EveningFactory, GuestFactory
from tournament.models import Bell, BellEntry, Draw, DrawnCard, Evening, Round, Seat
from tournament.plain_inserts import insert_plain, update_plain

COLUMNS = ("bell_id", "kind", "guest_id", "from_table", "to_table", "amount", "rule", "text", "about")


def _bell(host, name: str) -> tuple[Bell, list[int]]:
    evening = EveningFactory(host=host, name=name)
    guests = [GuestFactory(evening=evening, name=f"Guest {i}").pk for i in range(3)]
    rnd = Round.objects.create(evening=evening, number=1, started_at=timezone.now())
    return Bell.objects.create(round=rnd, kind="bell", cause="host", record={}, state_after={}), guests


def _stored(bell: Bell) -> list[tuple]:
    return [tuple(row[1:]) for row in BellEntry.objects.filter(bell=bell).order_by("pk").values_list(*COLUMNS)]


@pytest.mark.parametrize("count", [1, 3, 700])
def test_the_rows_are_those_bulk_create_writes(db, host, count):
    plain, guests = _bell(host, "plain")
    orm, same_guests = _bell(host, "orm")
    rows = [
        {"kind": "move", "guest_id": guests[i % 3], "from_table": i % 7 + 1, "to_table": None, "text": f"Ann «{i}» '"}
        for i in range(count)
    ]
    assert insert_plain(BellEntry, [{**row, "bell_id": plain.pk} for row in rows]) == count
    BellEntry.objects.bulk_create(
        [BellEntry(bell=orm, **{**row, "guest_id": same_guests[guests.index(row["guest_id"])]}) for row in rows]
    )
    mapped = [(r[0], guests[same_guests.index(r[1])], *r[2:]) for r in _stored(orm)]
    assert _stored(plain) == mapped and len(mapped) == count
    assert _stored(plain)[0][4:6] == (0, "")  # the defaults: no amount, no rule


def test_bad_rows_write_nothing(db, host):
    bell, guests = _bell(host, "bad")
    with pytest.raises(KeyError):
        insert_plain(BellEntry, [{"bell_id": bell.pk, "kind": "move", "guest_id": guests[0], "colour": "red"}])
    with pytest.raises(TypeError):
        insert_plain(Evening, [{"name": "E"}])  # dates and database defaults: bulk_create's
    assert not BellEntry.objects.filter(bell=bell).exists()
    assert insert_plain(BellEntry, []) == 0


def test_a_shared_time_is_stored_as_the_orm_stores_it(db, host):
    """A draw's cards share the draw's time: given as a constant, prepared once by its field,
    it reads back the very instant ``bulk_create`` stores (SQLite keeps it as text)."""
    evening = EveningFactory(host=host)
    guests = [GuestFactory(evening=evening, name=f"Guest {i}").pk for i in range(2)]
    draw = Draw.objects.create(evening=evening, sizes=[2])
    when = timezone.now().replace(microsecond=123456)
    insert_plain(
        DrawnCard,
        [{"guest_id": guests[0], "pack": "red", "rank": 1}],
        constants={"draw_id": draw.pk, "recorded_at": when},
    )
    DrawnCard.objects.bulk_create([DrawnCard(draw=draw, guest_id=guests[1], pack="blue", rank=1, recorded_at=when)])
    stored = list(DrawnCard.objects.filter(draw=draw).order_by("guest_id").values_list("recorded_at", "seat", "pack"))
    assert stored == [(when, None, "red"), (when, None, "blue")]
    with pytest.raises(KeyError):
        insert_plain(DrawnCard, [{"guest_id": guests[0]}], constants={"recorded_at": when, "colour": 1})


def _seated(host, name: str, count: int) -> tuple[Evening, list[int]]:
    evening = EveningFactory(host=host, name=name)
    guests = [GuestFactory(evening=evening, name=f"Guest {i}").pk for i in range(count)]
    Seat.objects.bulk_create([Seat(evening=evening, guest_id=g, table=1 + i // 4) for i, g in enumerate(guests)])
    return evening, guests


def _places(evening: Evening) -> dict[int, tuple]:
    return {g: (t, p) for g, t, p in Seat.objects.filter(evening=evening).values_list("guest_id", "table", "position")}


@pytest.mark.parametrize("count", [1, 8, 600])
def test_an_update_moves_the_rows_given_as_bulk_update_does(db, host, count):
    """The bell's seats: ``update_plain`` leaves each row where ``bulk_update`` would, touches
    no row it was not given, nor another evening's seat of a guest id it names."""
    plain, guests = _seated(host, "plain", count + 2)
    orm, same_guests = _seated(host, "orm", count + 2)
    moves = [(guests[i], (i * 7) % 11 + 1, i % 4) for i in range(count)]  # the last two stay
    assert (
        update_plain(Seat, moves, key="guest_id", columns=("table", "position"), where={"evening_id": plain.pk})
        == count
    )
    seats = {s.guest_id: s for s in Seat.objects.filter(evening=orm)}
    for guest, table, position in moves:
        seat = seats[same_guests[guests.index(guest)]]
        seat.table, seat.position = table, position
    Seat.objects.bulk_update(list(seats.values()), ["table", "position"])
    expected = {guests[same_guests.index(g)]: place for g, place in _places(orm).items()}
    assert _places(plain) == expected and expected[guests[-1]] == (1 + (count + 1) // 4, None)
    other, _ = _seated(host, "other", 2)
    assert update_plain(Seat, [(guests[0], 9)], key="guest_id", columns=("table",), where={"evening_id": other.pk}) == 0
    assert _places(plain)[guests[0]] == expected[guests[0]]


def test_a_bad_update_writes_nothing(db, host):
    evening, guests = _seated(host, "bad", 2)
    before = _places(evening)
    with pytest.raises(KeyError):
        update_plain(Seat, [(guests[0], 3)], key="guest_id", columns=("colour",), where={"evening_id": evening.pk})
    with pytest.raises(TypeError):
        update_plain(Evening, [(evening.pk, None)], key="id", columns=("ended_at",), where={})
    assert update_plain(Seat, [], key="guest_id", columns=("table",), where={"evening_id": evening.pk}) == 0
    assert _places(evening) == before
