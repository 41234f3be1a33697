"""The host's pages drawn first after a change at 500 guests (issue 26 item 3: "the print page
checking each name once and computing standings once"): what such a draw reads, read once.
The evening's guests are read in one query with their evening set (``guest_boards.guests_read``),
the same guests the related manager gives; the print page's checks at tables of four read and
parse the seats once for the score cards and the results; the end page reads the tables to
count (and so the last state) once, for itself and for the ceremony's tables still to count; the
board reads its last bell's entries in one query, each with its bell and guest set."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.fixtures_ending import ended_evening
from tests.fixtures_room import played_evening
from tournament.kept import kept_forget
from tournament.models import Bell, Evening, Guest
from tournament.registry import format_for
from tournament.selectors.guest_boards import guests_read
from tournament.services.guests import guest_add, guest_rename
from tournament.services.results import result_record

pytestmark = pytest.mark.django_db


def _fields(guest: Guest) -> dict:
    return {f.attname: getattr(guest, f.attname) for f in Guest._meta.concrete_fields}


def test_the_guests_read_once_are_the_evenings_guests_each_with_its_evening(host):
    evening = played_evening(host, 12)
    with CaptureQueriesContext(connection) as queries:
        read = guests_read(evening)
        assert all(g.evening is evening for g in read.values())
    assert len(queries.captured_queries) == 1
    assert [_fields(g) for g in read.values()] == [_fields(g) for g in evening.guests.all()]
    assert list(read) == [g.pk for g in evening.guests.all()]  # the list's order
    assert all(not g._state.adding and g._state.db == "default" for g in read.values())
    guest = next(iter(read.values()))  # saved as one read by the ORM is
    guest.name = "Renamed"
    guest.save(update_fields=["name"])
    assert Guest.objects.get(pk=guest.pk).name == "Renamed"


def test_rows_read_as_saved_objects_are_the_objects_the_orm_makes(host):
    """``saved_rows`` makes each object without ``Model.__init__``: the same fields, saved
    already, for the guests and the bell entries; and Django's own objects for a model something
    hooks (a ``post_init`` receiver)."""
    from django.db.models import signals

    from tournament.models import BellEntry
    from tournament.selectors.saved_rows import saved_rows

    evening = played_evening(host, 12)
    for rows in (Guest.objects.filter(evening=evening), BellEntry.objects.filter(bell__round__evening=evening)):
        made, orm = list(saved_rows(rows)), list(rows)
        assert made and [type(m) for m in made] == [type(o) for o in orm]
        fields = [f.attname for f in rows.model._meta.concrete_fields]
        assert [[getattr(m, f) for f in fields] for m in made] == [[getattr(o, f) for f in fields] for o in orm]
        assert all(not m._state.adding and m._state.db == "default" for m in made)
    assert "__init__" not in vars(Guest) and not signals.post_init.has_listeners(Guest)
    seen = []

    def hook(sender, instance, **kwargs):
        seen.append(instance)

    signals.post_init.connect(hook, sender=Guest)
    try:
        made = list(saved_rows(Guest.objects.filter(evening=evening)))
    finally:
        signals.post_init.disconnect(hook, sender=Guest)
    assert seen == made and len(made) == 12  # made by Django, the receiver told of each


def test_the_print_page_at_tables_of_four_reads_the_seats_once(client, host):
    from tournament.formats.partnership.state import foursome_draw
    from tournament.registry import format_for
    from tournament.services.clock import round_ring, round_start

    evening = Evening.objects.create(host=host, name="Bunco", date="2026-11-30", format="bunco", rounds_planned=3)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
        guest_add(evening=evening, name=name, pack="red", check_in=True)
    foursome_draw(evening=Evening.objects.get(pk=evening.pk))
    rnd = round_start(evening=Evening.objects.get(pk=evening.pk), user=host)
    fmt = format_for(evening)
    for table in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=Evening.objects.get(pk=evening.pk), rnd=rnd, table=table, user=host)
    if evening.rounds.get(pk=rnd.pk).state != "closed":
        round_ring(evening=Evening.objects.get(pk=evening.pk), user=host)
    client.force_login(host)
    kept_forget()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("host-print", args=[evening.pk])).content.decode()
    assert "Results" in page and "No bell has rung yet" not in page
    assert len([q for q in queries.captured_queries if '"state_after"' in q["sql"]]) == 1


def test_the_end_page_reads_the_tables_to_count_once(client, host, monkeypatch):
    from tournament.selectors import finish_page
    from tournament.services import ending

    evening = ended_evening(host, 12)
    calls = []
    real = ending.final_count_tables

    def counted(evening):
        calls.append(evening.pk)
        return real(evening)

    monkeypatch.setattr(ending, "final_count_tables", counted)
    monkeypatch.setattr(finish_page, "final_count_tables", counted)
    client.force_login(host)
    kept_forget()
    page = client.get(reverse("host-finish", args=[evening.pk])).content.decode()
    assert calls == [evening.pk] and "Table 1" in page


def test_the_last_bells_entries_are_read_once_each_with_its_bell_and_guest(host):
    from tournament.selectors.board import board_basics

    evening = played_evening(host, 12)
    guests = guests_read(evening)
    board = board_basics(evening, guests)
    assert board.last_bell is not None and board.last_entries
    with CaptureQueriesContext(connection) as queries:
        assert all(e.bell is board.last_bell and e.guest is guests[e.guest_id] for e in board.last_entries)
    assert not queries.captured_queries
    assert [e.pk for e in board.last_entries] == [e.pk for e in board.last_bell.entries.all()]


def _report_and_ring(evening: Evening, rnd) -> None:
    """Every table's result of ``rnd`` (the first guest wins each pool; the head table's counts
    move 10 counters), then its bell, which must ring."""
    from tournament.services.bell import bell_ring
    from tournament.services.state import evening_state

    state = evening_state(evening)
    for number, ids in enumerate(state.tables, 1):
        counters = None
        if number == 1:
            counters = {g: state.counters[g] for g in ids}
            counters[ids[0]] += 10
            counters[ids[-1]] -= 10
        result_record(round=rnd, table=number, pool_winner=ids[0], counters=counters)
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None


def test_the_poker_boards_standings_are_kept_while_what_they_read_is_unchanged(host):
    """Progressive Poker's board standings (``board_standings``) are kept under what they read:
    a table's result in round 2 leaves them as they were (kept), a guest renamed or the bell
    gives the standings computed from nothing."""
    from tournament.selectors.board import evening_board
    from tournament.selectors.guest_boards import shared_board
    from tournament.services.state import evening_state

    evening = played_evening(host, 12)
    kept_forget()
    before = shared_board(Evening.objects.get(pk=evening.pk)).board.placed
    rnd = evening.rounds.order_by("-number").first()
    tables = evening_state(evening).tables
    result_record(round=rnd, table=1, pool_winner=tables[0][0])
    assert shared_board(Evening.objects.get(pk=evening.pk)).board.placed is before  # kept

    def afresh() -> tuple:
        kept_forget()
        return evening_board(Evening.objects.get(pk=evening.pk)).placed

    first = Guest.objects.get(pk=before[0][1])
    guest_rename(guest=first, name="Zed Renamed")
    renamed = shared_board(Evening.objects.get(pk=evening.pk)).board.placed
    assert renamed is not before and renamed == afresh()
    _report_and_ring(evening, rnd)
    rung = shared_board(Evening.objects.get(pk=evening.pk)).board.placed
    assert rung != renamed and rung == afresh()  # the head table's counters moved


def test_the_poker_state_built_once_per_step_follows_every_step_and_undo(host):
    """``formats.poker.state.stored_state`` builds each step's state once per process and is,
    after a result, a guest's leaving, its undo and the bell, the state the stored text gives."""
    from tables.formats.poker.bell import EveningState
    from tournament.formats.poker.state import stored_state
    from tournament.services.bell import bell_undo
    from tournament.services.state import evening_state, last_state_after

    evening = played_evening(host, 12)

    def stored() -> EveningState:
        return EveningState.from_json(last_state_after(evening))

    kept_forget()
    first = stored_state(evening)
    assert first == stored() and stored_state(evening) is first  # built once
    rnd = evening.rounds.order_by("-number").first()
    result_record(round=rnd, table=2, pool_winner=evening_state(evening).tables[1][0])
    assert stored_state(evening) is first  # a result takes no step
    _report_and_ring(evening, rnd)
    rung = stored_state(evening)
    assert rung == stored() != first
    leaver = Guest.objects.get(pk=evening_state(evening).tables[0][-1])
    format_for(evening).seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    assert stored_state(evening) == stored() != rung
    bell_undo(evening=Evening.objects.get(pk=evening.pk))  # the leaving undone
    assert stored_state(evening) is rung
    bell_undo(evening=Evening.objects.get(pk=evening.pk))  # round 2's bell undone
    assert stored_state(evening) is first
