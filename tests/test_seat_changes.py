"""The host changes seats (``services.seat_changes``), in every registered format: before round 1
(the draw changes), between rounds (a "seat" step), during a round while the tables touched have
no result; refusals that name the guests and change nothing."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.module_loading import import_string

from tables.errors import RuleError
from tests.factories import EveningFactory, GuestFactory
from tournament.models import Bell, Evening, Guest, Round
from tournament.registry import format_for
from tournament.services.bell import bell_undo
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital, live_draw
from tournament.services.naming import error_message
from tournament.services.seat_changes import seats_change
from tournament.services.state import current_round

KEYS = [import_string(path).key for path in settings.HEAD_TABLE_FORMATS]


def _evening(host, key: str, guests: int = 13) -> Evening:
    evening = EveningFactory(host=host, format=key, rounds_planned=3, round_end=Evening.RoundEnd.CLOCK)
    for i in range(guests):
        GuestFactory(evening=evening, name=f"Guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    return evening


def _tables(evening: Evening) -> list[list[int]]:
    return [list(t) for t in format_for(evening).state(evening).tables]


def _ring_round_1(evening: Evening, host) -> None:
    from tournament.services.clock import round_ring

    fmt = format_for(evening)
    rnd = round_start(evening=evening, user=host)
    for table in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
    evening.refresh_from_db()
    if current_round(evening) is not None:
        round_ring(evening=evening, user=host)
    evening.refresh_from_db()


def _unchanged(evening: Evening, tables, steps: int) -> None:
    assert _tables(evening) == tables
    assert Bell.objects.of_evening(evening.pk).count() == steps
    assert not evening.audit.filter(action="seats.change").exists()


@pytest.mark.parametrize("key", KEYS)
def test_before_round_1_a_swap_changes_the_draw(db, host, key):
    evening = _evening(host, key)
    first = live_draw(evening)
    before = _tables(evening)
    a, b = before[0][0], before[-1][-1]
    if b <= 0:
        b = next(p for p in before[-1] if p > 0)
    seats_change(evening=evening, guest_id=a, other_id=b, user=host)
    swapped = [[b if p == a else a if p == b else p for p in t] for t in before]
    if format_for(evening).seats_named:
        assert _tables(evening) == swapped
    else:  # any chair at the table
        assert [sorted(t) for t in _tables(evening)] == [sorted(t) for t in swapped]
    assert live_draw(evening).pk != first.pk  # a new draw; the old one kept, superseded
    first.refresh_from_db()
    assert first.superseded_at is not None
    assert not Bell.objects.of_evening(evening.pk).exists()
    assert evening.seats.get(guest_id=a).table == len(before)


@pytest.mark.parametrize("key", KEYS)
def test_a_move_to_a_ghosts_seat_or_a_table_with_room(db, host, key):
    """13 guests: at tables of four three ghosts (the foot table first); at poker tables of 4, 5, 4."""
    evening = _evening(host, key)
    fmt = format_for(evening)
    _ring_round_1(evening, host)
    before = _tables(evening)
    if fmt.seats_named:
        ghost = next(((n, s) for n, t in enumerate(before, 1) for s, p in enumerate(t) if p < 0), None)
        if ghost is None:  # a Euchre tournament of 13: twelve at three tables, one sits out
            pytest.skip("no ghost at the tables")
        table, seat = ghost
        mover = next(p for n, t in enumerate(before, 1) if n != table for p in t if p > 0)
        words = seats_change(evening=evening, guest_id=mover, table=table, seat=seat, user=host)
        after = _tables(evening)
        assert after[table - 1][seat] == mover
        assert Guest.objects.get(pk=mover).name in words and "Ghost" in words
        assert evening.seats.get(guest_id=mover).position == seat
    else:
        big = next(n for n, t in enumerate(before, 1) if len(t) > 4)
        mover = before[big - 1][0]
        seats_change(evening=evening, guest_id=mover, table=1, user=host)
        after = _tables(evening)
        assert mover in after[0] and len(after[0]) == len(before[0]) + 1
    assert sorted(p for t in after for p in t) == sorted(p for t in before for p in t)
    step = Bell.objects.of_evening(evening.pk).live().newest_first().first()
    assert step.kind == Bell.Kind.SEAT
    assert step.entries.filter(guest_id=mover, kind="seat").exists()
    bell_undo(evening=evening, bell_id=step.pk, user=host)
    assert _tables(evening) == before


@pytest.mark.parametrize("key", KEYS)
def test_refused_with_the_guests_named_and_nothing_changed(db, host, key):
    evening = _evening(host, key)
    _ring_round_1(evening, host)
    tables = _tables(evening)
    steps = Bell.objects.of_evening(evening.pk).count()
    a, b = tables[0][0], tables[1][0]
    names = dict(evening.guests.values_list("pk", "name"))
    with pytest.raises(RuleError) as caught:
        seats_change(evening=evening, guest_id=a, other_id=a, user=host)
    assert f"Choose two different guests to swap: {names[a]} was chosen twice" in error_message(caught.value, evening)
    Guest.objects.filter(pk=b).update(status=Guest.Status.LEFT)
    with pytest.raises(RuleError) as caught:
        seats_change(evening=evening, guest_id=a, other_id=b, user=host)
    assert f"{names[b]} has left" in error_message(caught.value, evening)
    Guest.objects.filter(pk=b).update(status=Guest.Status.HERE)
    with pytest.raises(RuleError, match="There is no table 9"):
        seats_change(evening=evening, guest_id=a, table=9, seat=0, user=host)
    if format_for(evening).seats_named:
        with pytest.raises(RuleError, match="has no such seat"):
            seats_change(evening=evening, guest_id=a, table=2, seat=7, user=host)
    _unchanged(evening, tables, steps)


@pytest.mark.parametrize("key", KEYS)
def test_during_a_round_until_a_touched_tables_result_is_in(db, host, key, client):
    evening = _evening(host, key)
    fmt = format_for(evening)
    rnd = round_start(evening=evening, user=host)
    tables = _tables(evening)
    a, b, c = tables[0][0], tables[1][0], tables[2][0]
    fmt.example_result(evening=evening, rnd=rnd, table=1, user=host)
    with pytest.raises(RuleError) as caught:
        seats_change(evening=evening, guest_id=a, other_id=b, user=host)
    assert "Table 1's result for round 1 is in" in error_message(caught.value, evening)
    _unchanged(evening, tables, 0)
    seats_change(evening=evening, guest_id=b, other_id=c, user=host)  # tables 2 and 3: no result yet
    step = Bell.objects.of_evening(evening.pk).get()
    assert step.kind == Bell.Kind.SEAT and step.round.number == 1
    client.force_login(host)
    page = client.get(reverse("host-seats", args=[evening.pk])).content.decode()
    assert "The last change (during round 1):" in page
    assert _tables(evening)[1][0] == c and _tables(evening)[2][0] == b


@pytest.mark.parametrize("key", KEYS)
def test_refused_while_a_bell_waits_for_its_tables(db, host, key):
    from tournament.services.bell import bell_ring

    evening = _evening(host, key)
    rnd = round_start(evening=evening, user=host)
    format_for(evening).example_result(evening=evening, rnd=rnd, table=1, user=host)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK)
    rnd.refresh_from_db()
    if rnd.state != Round.State.RUNG:  # this format's clock bell waits for nobody: a bell that waits all the same
        Round.objects.filter(pk=rnd.pk).update(state=Round.State.RUNG, waiting_for="the head table")
    tables = _tables(evening)
    with pytest.raises(RuleError, match="bell has rung and waits"):
        seats_change(evening=evening, guest_id=tables[1][0], other_id=tables[2][0], user=host)
    _unchanged(evening, tables, Bell.objects.of_evening(evening.pk).count())


@pytest.mark.parametrize("key", KEYS)
def test_the_phone_and_the_room_show_the_new_seat(db, host, key, client):
    evening = _evening(host, key)
    _ring_round_1(evening, host)
    tables = _tables(evening)
    a, b = tables[0][0], tables[-1][0]
    if b <= 0:
        b = next(p for p in tables[-1] if p > 0)
    seats_change(evening=evening, guest_id=a, other_id=b, user=host)
    guest = Guest.objects.get(pk=a)
    page = client.get(reverse("guest-page", args=[guest.key])).content.decode()
    assert f"Table {len(tables)}" in page or f"table {len(tables)}" in page
    if format_for(evening).seats_named:  # the seat too: the one b held
        seat = ["North", "East", "South", "West"][tables[-1].index(b)]
        assert f"sit {seat}" in page
    room = client.get(reverse("room", args=[evening.public_key]))
    assert room.status_code == 200


# -- the host's page, through the Django test client ---------------------------------------------


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.mark.parametrize("key", KEYS)
def test_the_change_seats_page_swaps_and_moves(db, host, key, client):
    evening = _evening(host, key)
    _ring_round_1(evening, host)
    client.force_login(host)
    url = reverse("host-seats", args=[evening.pk])
    page = client.get(url)
    assert page.status_code == 200 and "Change seats" in page.content.decode()
    board = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert url in board  # linked from the board
    tables = _tables(evening)
    a, b = tables[0][0], tables[1][0]
    names = dict(evening.guests.values_list("pk", "name"))
    done = client.post(url, {"action": "swap", "guest": a, "other": b}, follow=True)
    said = " ".join(_messages(done))
    assert names[a] in said and names[b] in said
    assert _tables(evening)[0][0] == b
    step = Bell.objects.of_evening(evening.pk).live().newest_first().first()
    assert step.kind == Bell.Kind.SEAT
    audit = client.get(reverse("host-audit", args=[evening.pk])).content.decode()
    assert "changed seats in round 1" in audit


@pytest.mark.parametrize("key", KEYS)
def test_the_page_refuses_with_a_message_and_changes_nothing(db, host, key, client):
    evening = _evening(host, key)
    _ring_round_1(evening, host)
    client.force_login(host)
    url = reverse("host-seats", args=[evening.pk])
    tables = _tables(evening)
    a = tables[0][0]
    names = dict(evening.guests.values_list("pk", "name"))
    for data, words in [
        (
            {"action": "swap", "guest": a, "other": a},
            f"Choose two different guests to swap: {names[a]} was chosen twice",
        ),
        ({"action": "swap", "guest": a}, "Pick the guest to swap seats with."),
        ({"action": "move", "guest": a}, "Pick the table or seat to move to."),
        ({"action": "move", "guest": a, "place": "99-0"}, "There is no table 99"),
        ({"action": "jump", "guest": a}, "That button was not understood"),
        ({"action": "swap", "guest": "x", "other": a}, "Pick the guest whose seat changes."),
    ]:
        response = client.post(url, data, follow=True)
        assert response.status_code == 200
        assert any(words in m for m in _messages(response)), (data, _messages(response))
    _unchanged(evening, tables, Bell.objects.of_evening(evening.pk).count())


def test_another_hosts_evening_is_not_found(db, host, client):
    from tests.factories import HostFactory

    evening = _evening(host, KEYS[0])
    client.force_login(HostFactory())
    assert client.get(reverse("host-seats", args=[evening.pk])).status_code == 404


@pytest.mark.parametrize("key", KEYS)
def test_the_page_before_round_1_is_linked_from_the_seating(db, host, key, client):
    evening = _evening(host, key)
    client.force_login(host)
    seating = client.get(reverse("host-draw-seating", args=[evening.pk])).content.decode()
    assert reverse("host-seats", args=[evening.pk]) in seating
    page = client.get(reverse("host-seats", args=[evening.pk])).content.decode()
    for name in evening.guests.filter(seat__isnull=False).values_list("name", flat=True):
        assert name in page


def test_a_poker_correction_replays_the_seat_change_after_it(db, host):
    """Round 1 rung, two guests swapped after it, then round 1's table 2 corrected: the bell is
    rung again from the corrected result and the swap made again on its seats."""
    from tournament.services.corrections import result_correct

    evening = _evening(host, "poker")
    _ring_round_1(evening, host)
    tables = _tables(evening)
    a, b = tables[0][0], tables[2][0]
    seats_change(evening=evening, guest_id=a, other_id=b, user=host)
    bell = Bell.objects.of_evening(evening.pk).live().bells().get()
    first = bell.round.results.get(table=2, superseded_at__isnull=True)
    winner = next(g for g in bell.record["before"]["tables"][1] if g != first.pool_winner_id)
    result_correct(evening=evening, round_number=1, table=2, pool_winner=winner, user=host)
    live = list(Bell.objects.of_evening(evening.pk).live().in_order())
    assert [s.kind for s in live] == [Bell.Kind.BELL, Bell.Kind.SEAT]
    corrected = [list(t) for t in live[0].state_after["tables"]]
    assert winner in corrected[0]  # the corrected winner moved up to the head table
    at = {p: n for n, t in enumerate(corrected, 1) for p in t}
    now = {p: n for n, t in enumerate(_tables(evening), 1) for p in t}
    assert now[a] == at[b] and now[b] == at[a]  # the swap, made again on the corrected seats


@pytest.mark.parametrize("key", KEYS)
def test_an_evening_with_a_seat_change_exports_and_imports_the_same(db, host, key):
    import json

    from tests.test_capabilities import _named
    from tournament.exchange.export import evening_export
    from tournament.exchange.importer import evening_import

    evening = _evening(host, key)
    _ring_round_1(evening, host)
    tables = _tables(evening)
    seats_change(evening=evening, guest_id=tables[0][0], other_id=tables[1][1], user=host)
    _ring_round_1(evening, host)  # round 2, from the new seats
    data = json.loads(json.dumps(evening_export(evening)))
    assert [b.get("kind") for r in data["rounds"] for b in r.get("bells", ())].count("seat") == 1
    copy = evening_import(data=data, host=host)
    again = json.loads(json.dumps(evening_export(copy)))
    assert _named(again) == _named(data)
    assert Bell.objects.of_evening(copy.pk).live().filter(kind=Bell.Kind.SEAT).count() == 1


@pytest.mark.parametrize("key", KEYS)
def test_the_page_undoes_its_last_seat_change_once(db, host, key, client):
    evening = _evening(host, key)
    _ring_round_1(evening, host)
    client.force_login(host)
    url = reverse("host-seats", args=[evening.pk])
    tables = _tables(evening)
    a, b = tables[0][0], tables[1][0]
    client.post(url, {"action": "swap", "guest": a, "other": b})
    step = Bell.objects.of_evening(evening.pk).live().newest_first().first()
    page = client.get(url).content.decode()
    assert "Undo this seat change" in page and "changes seats" in page
    assert "The last change (before round 2):" in page and "(round 1)" not in page
    done = client.post(url, {"action": "undo", "step": step.pk}, follow=True)
    assert any("The seat change is undone" in m for m in _messages(done))
    assert _tables(evening) == tables
    twice = client.post(url, {"action": "undo", "step": step.pk}, follow=True)  # a double tap
    assert any("is undone already" in m for m in _messages(twice))
    assert _tables(evening) == tables
    assert Bell.objects.of_evening(evening.pk).live().count() == 1  # round 1's bell stands


def test_before_round_1_a_poker_move_gives_the_draw_new_table_sizes(db, host, client):
    """13 guests: tables of 4, 5 and 4; a guest of table 2 moves to table 1 before round 1: the
    draw in force has tables of 5, 4 and 4, and round 1 starts from it."""
    evening = _evening(host, "poker")
    before = _tables(evening)
    assert [len(t) for t in before] == [4, 5, 4]
    mover = before[1][0]
    seats_change(evening=evening, guest_id=mover, table=1, user=host)
    assert live_draw(evening).sizes == [5, 4, 4]
    assert "head table starts with 5 players" in live_draw(evening).relaxed  # said, not hidden
    assert mover in _tables(evening)[0]
    assert live_draw(evening).cards.get(guest_id=mover).rank == 1
    round_start(evening=evening, user=host)
    assert [len(t) for t in _tables(evening)] == [5, 4, 4]
    client.force_login(host)
    assert client.get(reverse("host-draw", args=[evening.pk])).status_code == 200


def test_after_a_poker_move_the_next_bell_keeps_the_new_sizes(db, host):
    evening = _evening(host, "poker")
    _ring_round_1(evening, host)
    before = _tables(evening)
    big = next(n for n, t in enumerate(before, 1) if len(t) == 5)
    seats_change(evening=evening, guest_id=before[big - 1][-1], table=1 if big != 1 else 2, user=host)
    sizes = [len(t) for t in _tables(evening)]
    _ring_round_1(evening, host)  # round 2's bell, from the new seats
    assert [len(t) for t in _tables(evening)] == sizes
    assert Bell.objects.of_evening(evening.pk).live().bells().count() == 2


@pytest.mark.parametrize("key", KEYS)
def test_a_seat_change_from_a_stale_page_changes_nothing_and_says_why(db, host, key, client):
    """Two tabs of *Change seats*: a swap in the first, then a swap from the second (drawn
    before it) is refused naming what changed, and the seats stay as the first left them; a
    result reported meanwhile does not refuse it (issue 22 item 7)."""
    import re

    evening = _evening(host, key)
    _ring_round_1(evening, host)
    client.force_login(host)
    url = reverse("host-seats", args=[evening.pk])
    seen = re.compile(r'name="seen" value="([0-9.]+)"')
    first_tab = seen.search(client.get(url).content.decode()).group(1)
    second_tab = first_tab
    tables = _tables(evening)
    a, b = tables[0][0], tables[1][0]
    c = next(p for p in tables[1] if p > 0 and p != b)
    client.post(url, {"action": "swap", "guest": a, "other": b, "seen": first_tab}, follow=True)
    after = _tables(evening)
    refused = client.post(url, {"action": "swap", "guest": a, "other": c, "seen": second_tab}, follow=True)
    said = " ".join(_messages(refused))
    assert said.startswith("Nothing was changed: since this page was drawn, the host changed seats in round 1")
    assert _tables(evening) == after
    fresh = seen.search(client.get(url).content.decode()).group(1)
    done = client.post(url, {"action": "swap", "guest": a, "other": c, "seen": fresh}, follow=True)
    assert not any(m.startswith("Nothing was changed") for m in _messages(done))
    assert _tables(evening) != after


@pytest.mark.parametrize("key", KEYS)
def test_the_board_names_both_guests_of_a_swap_it_offers_to_undo(db, host, key, client):
    """A swap moves two guests: the board's undo names them both ("Undo the swap of Guest A
    and Guest B"), and the message after the undo says the same."""
    evening = _evening(host, key)
    _ring_round_1(evening, host)
    tables = _tables(evening)
    a, b = tables[0][0], tables[1][0]
    seats_change(evening=evening, guest_id=a, other_id=b, user=host)
    names = dict(evening.guests.values_list("pk", "name"))
    client.force_login(host)
    board = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert f"Undo the swap of {names[a]} and {names[b]}" in board
