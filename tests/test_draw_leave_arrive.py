"""Issue 22 item 6: leaving and arriving after the draw and before round 1, and the board's
*Needs you* for guests without a seat or seated though gone, in every state of the evening.

At tables of four a guest marked as left after the draw gives their seat to a ghost (so they
play no round and no side's result counts for them) and a late guest takes a ghost's seat if
there is one; at Progressive Poker the host is shown the re-plan and confirms it on the draw
page. The guests page's *Left* and *Check in* buttons go through ``FormatPlugin.seat_change``.
Every registered format is tried where the case applies (``settings.HEAD_TABLE_FORMATS``)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.module_loading import import_string

from tests.factories import EveningFactory, GuestFactory
from tests.test_capabilities import KEYS, _evening, _play, _seated
from tournament.models import Evening, Guest
from tournament.registry import format_for
from tournament.services import guests as guest_services
from tournament.services.bell import bell_undo
from tournament.services.draw_changes import draw_release_guest, draw_swap_guest
from tournament.services.draws import draw_digital

from django.conf import settings  # isort: skip

AT_FOURS = [key for path, key in zip(settings.HEAD_TABLE_FORMATS, KEYS, strict=True) if import_string(path).seats_named]


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def _eight(host, key: str) -> Evening:
    """Eight guests checked in, A1 to A4 in the red pack and B1 to B4 in the blue, drawn."""
    evening = EveningFactory(host=host, format=key, rounds_planned=3, round_end=Evening.RoundEnd.CLOCK)
    for pack, letter in (("red", "A"), ("blue", "B")):
        for n in range(1, 5):
            GuestFactory(evening=evening, name=f"{letter}{n}", pack=pack)
    draw_digital(evening=evening, user=host)
    return evening


def _board(client, evening: Evening) -> str:
    return client.get(reverse("host-evening", args=[evening.pk])).content.decode()


def _status(client, evening: Evening, guest: Guest, action: str) -> str:
    """The guests page's row button ``action`` ("left", "here") for ``guest``; the page after."""
    url = reverse("host-guest-status", args=[evening.pk, guest.pk])
    return client.post(url, {"action": action}, follow=True).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("key", AT_FOURS)
def test_a_guest_who_leaves_before_round_1_gives_the_seat_to_a_ghost_and_plays_nothing(logged_in, host, key):
    """Euchre, 8 guests drawn; mark B4 as left; start round 1: B4 sits nowhere, the board does
    not say "Nothing right now", and round 1's results never count for B4 (issue 22: B4 played
    on at table 2 and shared a prize)."""
    evening = _eight(host, key)
    b4 = evening.guests.get(name="B4")
    assert b4.pk in _seated(evening)
    table = next(n for n, ids in enumerate(format_for(evening).state(evening).tables, 1) if b4.pk in ids)
    page = _status(logged_in, evening, b4, "left")
    assert "B4 has left; Ghost 1 takes their seat" in page and f"at table {table} before round 1" in page
    b4.refresh_from_db()
    assert b4.status == Guest.Status.LEFT
    state = format_for(evening).state(evening)
    assert all(b4.pk not in ids for ids in state.tables)
    assert -1 in state.tables[table - 1]
    assert not evening.seats.filter(guest=b4).exists()
    logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "start"})
    evening.refresh_from_db()
    assert evening.rounds.count() == 1
    board = _board(logged_in, evening)
    assert "Nothing right now" not in board
    rnd = evening.rounds.get()
    fmt = format_for(evening)
    for number in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=number, user=host)
    evening.refresh_from_db()
    if evening.rounds.get().state != "closed":
        from tournament.services.clock import round_ring

        round_ring(evening=evening, user=host)
    after = fmt.state(evening)
    assert all(b4.pk not in ids for ids in after.tables)
    assert not any(after.tallies.get(b4.pk, {}).values()), after.tallies.get(b4.pk)
    winners = {w for prize in fmt.standings(evening).prizes for w in getattr(prize, "winners", ())}
    assert b4.pk not in {getattr(w, "pk", w) for w in winners}


@pytest.mark.django_db
@pytest.mark.parametrize("key", AT_FOURS)
def test_a_late_guest_checked_in_after_the_draw_takes_a_ghosts_seat(logged_in, host, key):
    """Nine guests drawn at tables of four (ghosts in the empty seats): a late guest checked in
    from the guests page takes the ghost's seat nearest the foot table before round 1, and is
    checked in."""
    evening = _evening(host, key, guests=9)
    draw_digital(evening=evening, user=host)
    state = format_for(evening).state(evening)
    ghosts = [(n, i) for n, ids in enumerate(state.tables, 1) for i, p in enumerate(ids) if p < 0]
    late = GuestFactory(evening=evening, name="Yara Young", pack="red", status=Guest.Status.REGISTERED)
    page = _status(logged_in, evening, late, "here")
    late.refresh_from_db()
    assert late.status == Guest.Status.HERE
    tables = format_for(evening).state(evening).tables
    assert ghosts or not format_for(evening).joins_after_the_draw
    if not ghosts:  # a schedule's sit-outs instead of ghosts: checked in, listed for the host
        assert late.pk not in {p for t in tables for p in t}
        assert "Checked in but not seated: <bdi>Yara Young</bdi>" in _board(logged_in, evening)
        return
    number, index = max(n for n, _ in ghosts), min(i for n, i in ghosts if n == max(g for g, _ in ghosts))
    assert tables[number - 1][index] == late.pk
    assert f"Yara Young is checked in and takes Ghost {-state.tables[number - 1][index]}&#x27;s seat" in page
    assert "Checked in but not seated" not in _board(logged_in, evening)


@pytest.mark.django_db
def test_poker_before_round_1_shows_the_re_plan_and_waits_for_the_hosts_confirmation(logged_in, host):
    """Poker, 13 guests drawn: marking a seated guest as left says the re-plan and changes no
    seat; the board's *Needs you* names them with their table and links to the draw page; once
    the host takes them out of the draw there, nothing is left to do."""
    evening = _evening(host, "poker", guests=13)
    draw_digital(evening=evening, user=host)
    sizes = [len(t) for t in format_for(evening).state(evening).tables]
    middle = next(n for n, size in enumerate(sizes, 1) if 1 < n < len(sizes) and size > 4)
    leaver = Guest.objects.get(pk=format_for(evening).state(evening).tables[middle - 1][0])
    page = _status(logged_in, evening, leaver, "left")
    assert (
        f"{leaver.name} is marked as left, but the draw still seats {leaver.name} at table {middle}. "
        f"The re-plan: taking {leaver.name} out leaves table {middle} with {sizes[middle - 1] - 1}. "
        "Confirm it on the draw page before round 1."
    ) in page
    assert leaver.pk in _seated(evening)  # nothing moved without the host's confirmation
    board = _board(logged_in, evening)
    assert f"Marked as left but still seated: <bdi>{leaver.name}</bdi> (table {middle})" in board
    assert f'<a href="{reverse("host-draw", args=[evening.pk])}">Take them out of the draw' in board
    assert "Nothing right now" not in board
    page = logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "start"}, follow=True).content.decode()
    assert (
        f"Round 1 has not started: {leaver.name} at table {middle} has left but still holds a seat. "
        "Give it up first (the guests page&#x27;s Left says how), then start round 1."
    ) in page
    assert not evening.rounds.exists()
    draw_release_guest(evening=evening, guest_id=leaver.pk, user=host)
    board = _board(logged_in, evening)
    assert "Marked as left but still seated" not in board and "Nothing right now" in board


@pytest.mark.django_db
@pytest.mark.parametrize("key", KEYS)
def test_needs_you_lists_a_checked_in_guest_without_a_seat_before_round_1_and_after(logged_in, host, key):
    """A door helper checks in a late guest after the draw (only the host seats): the board's
    *Needs you* names them before round 1 and, after an undone arrival, between rounds, in
    every format, with a link to the page that seats them."""
    evening = _evening(host, key, guests=12)
    draw_digital(evening=evening, user=host)
    late = GuestFactory(evening=evening, name="Yara Young", pack="red", status=Guest.Status.REGISTERED)
    guest_services.guest_set_status(guest=late, status=Guest.Status.HERE, user=host)
    board = _board(logged_in, evening)
    assert "Checked in but not seated: <bdi>Yara Young</bdi>." in board
    assert "Nothing right now" not in board
    # before round 1: the draw page's re-plan at poker tables, a ghost's seat from the guests page at tables of four
    fix = reverse("host-guests" if format_for(evening).seats_named else "host-draw", args=[evening.pk])
    assert f'<a href="{fix}">' in board.split("Checked in but not seated")[1].split("</p>")[0]
    _play(evening, host)
    fmt = format_for(evening)
    if fmt.joins_after_the_draw:
        fmt.seat_change(evening=evening, guest=late, leaving=False, user=host, device="")
        assert "Checked in but not seated" not in _board(logged_in, evening)
        bell_undo(evening=evening, user=host)
        late.refresh_from_db()
        assert late.status == Guest.Status.HERE
    board = _board(logged_in, evening)
    if not fmt.joins_after_the_draw:  # nothing seats them once the schedule is played: no nag (house rule)
        assert "Checked in but not seated" not in board
        return
    assert "Checked in but not seated: <bdi>Yara Young</bdi>." in board
    said = board.split("Checked in but not seated")[1].split("</p>")[0]
    assert f'<a href="{reverse("host-guests", args=[evening.pk])}">' in said


@pytest.mark.django_db
@pytest.mark.parametrize("key", KEYS)
def test_round_1_never_starts_with_a_seated_guest_who_left(logged_in, host, key):
    """A guest marked as left after the draw by another way than the guests page's *Left*
    (their seat still theirs): *Start round 1* is refused, naming them and their table, and
    starts nothing; once *Left* gives the seat up (a ghost's at tables of four; at poker tables
    the draw page's re-plan, or a redraw), round 1 starts without them."""
    evening = _evening(host, key, guests=12)
    draw_digital(evening=evening, user=host)
    gone = Guest.objects.get(pk=_seated(evening)[0])
    table = next(n for n, ids in enumerate(format_for(evening).state(evening).tables, 1) if gone.pk in ids)
    guest_services.guest_set_status(guest=gone, status=Guest.Status.LEFT, user=host)
    page = logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "start"}, follow=True).content.decode()
    assert f"Round 1 has not started: {gone.name} at table {table} has left but still holds a seat." in page
    assert not evening.rounds.exists()
    _status(logged_in, evening, gone, "left")
    if gone.pk in _seated(evening):  # poker tables: the host confirms the re-plan, here a latecomer takes the seat
        late = GuestFactory(evening=evening, name="Late Guest", pack=gone.pack)
        draw_swap_guest(evening=evening, leaving_id=gone.pk, arriving_id=late.pk, user=host)
    logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "start"})
    assert evening.rounds.count() == 1 and gone.pk not in _seated(evening)


@pytest.mark.django_db
def test_a_euchre_tournaments_sit_out_who_leaves_before_round_1_is_only_marked(logged_in, host):
    """13 players drawn for a Euchre tournament: the one who sits game 1 out leaves before it;
    they hold no seat, so no seat changes hands; the host is told what follows."""
    evening = _evening(host, "euchre_tournament", guests=13)
    draw_digital(evening=evening, user=host)
    state = format_for(evening).state(evening)
    seated = {p for t in state.tables for p in t}
    (out,) = [Guest.objects.get(pk=p) for p in state.tallies if p > 0 and p not in seated]
    page = _status(logged_in, evening, out, "left")
    assert f"{out.name} is marked as left; they hold no seat at round 1&#x27;s tables." in page
    assert format_for(evening).state(evening).tables == state.tables
    assert Guest.objects.get(pk=out.pk).status == Guest.Status.LEFT
