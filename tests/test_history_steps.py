"""Issue 22 items 1 and 2: the evening's history read by what a reader means, and an undo that
says what it undoes.

An arrival and a departure are steps of the history (``Bell`` rows of kind "arrive" and
"leave"), never a bell: the room's "where to go", the phones' "At the last bell..." and the
board's last-bell panel read the last *bell*; undo takes back the last *step*, by name, newest
first, one at a time. Every format registered in ``settings.HEAD_TABLE_FORMATS`` is tried where
the step applies (a Euchre tournament takes no late guest: its schedule is fixed)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tests.factories import GuestFactory
from tests.test_capabilities import KEYS, _evening, _play, _seated
from tournament.models import Bell, BellEntry, Evening, Guest
from tournament.registry import format_for
from tournament.selectors.board import last_step
from tournament.services.bell import bell_undo, step_words
from tournament.services.draws import draw_digital


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def _rung(host, key: str, guests: int = 12) -> Evening:
    """An evening of ``key`` with ``guests`` checked in, drawn, round 1 played and rung."""
    evening = _evening(host, key, guests=guests)
    draw_digital(evening=evening, user=host)
    _play(evening, host)
    evening.refresh_from_db()
    return evening


def _movers(evening: Evening) -> set[str]:
    """The names of the guests round 1's bell sent to another table (its stored entries)."""
    bell = Bell.objects.of_evening(evening.pk).live().bells().get()
    moved = BellEntry.objects.filter(bell=bell, to_table__isnull=False).exclude(from_table=None)
    return {e.guest.name for e in moved.select_related("guest") if e.from_table != e.to_table}


def _stayer(evening: Evening, movers: set[str]) -> Guest:
    """A seated guest the bell did not move (so that the movers the room lists are all still seated)."""
    return Guest.objects.filter(pk__in=_seated(evening)).exclude(name__in=movers).order_by("pk").first()


def _where_to_go(client, evening: Evening) -> str:
    """The room display's "where to go" slide (forced with ``?mode=moves``), its HTML."""
    page = client.get(reverse("room", args=[evening.public_key]), {"mode": "moves"}).content.decode()
    found = re.search(r'data-slide="moves".*?</section>', page, re.S)
    return found.group(0) if found else ""


def _late(evening: Evening) -> Guest:
    return GuestFactory(evening=evening, name="Yara Young", pack="red", status=Guest.Status.HERE)


@pytest.mark.django_db
@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("step", ["leave", "arrive"])
def test_a_guest_step_after_the_bell_keeps_the_moves_on_the_room_and_the_phones(client, logged_in, host, key, step):
    """Euchre, 12 guests: ring round 1, mark a guest as left: the room's "where to go" still
    lists every guest the bell moved, and each mover's phone still says "At the last bell
    (round 1)"; the same for an arrival (issue 22: they vanished, the step read as the bell)."""
    evening = _rung(host, key)
    movers = _movers(evening)
    assert movers, "round 1's bell moved nobody"
    before = _where_to_go(client, evening)
    assert all(name in before for name in movers)
    if step == "leave":
        guest = _stayer(evening, movers)
        url = reverse("host-guest-status", args=[evening.pk, guest.pk])
        logged_in.post(url, {"action": "left"})
    else:
        if not format_for(evening).joins_after_the_draw:
            pytest.skip("a Euchre tournament's schedule takes no late guest")
        guest = _late(evening)
        format_for(evening).seat_change(evening=evening, guest=guest, leaving=False, user=host, device="")
    assert Bell.objects.of_evening(evening.pk).live().guest_steps().filter(kind=step).count() == 1
    slide = _where_to_go(client, evening)
    assert "Round 1: where to go" in slide
    missing = {name for name in movers if name not in slide}
    assert not missing, f"the room lost {missing} after {guest.name}'s {step}"
    for mover in Guest.objects.filter(evening=evening, name__in=movers):
        phone = client.get(reverse("guest-page", args=[mover.key])).content.decode()
        assert "At the last bell (round 1)" in phone, mover.name


def test_step_words_name_what_undo_takes_back():
    assert step_words(kind="bell", round_number=2) == "round 2's bell"
    assert step_words(kind="arrive", round_number=1, movers=("Yara Young",)) == "Yara Young's arrival"
    assert step_words(kind="leave", round_number=3, movers=("Ann",)) == "Ann's departure"
    assert step_words(kind="seat", round_number=3, movers=("Ann",)) == "Ann's seat change"
    assert step_words(kind="seat", round_number=3, movers=("Ann", "Gus")) == "the swap of Ann and Gus"
    assert step_words(kind="seat", round_number=2) == "the seat change during round 2"
    assert step_words(kind="seat", round_number=2, after_bell=True) == "the seat change before round 3"
    assert step_words(kind="arrive", round_number=3) == "a guest's arrival"


@pytest.mark.django_db
def test_poker_undo_of_a_late_guest_names_her_keeps_her_check_in_then_offers_the_bell(logged_in, host):
    """Poker: ring round 1, seat late guest Yara from the guests page, Undo: the board said
    "Undo Yara Young's arrival", she is unseated but still checked in, round 1's bell still
    stands; the next undo offers "Undo round 1's bell" (issue 22: she went back to Registered
    and the bell stood, with "Undo the last bell" on the button)."""
    evening = _rung(host, "poker", guests=13)
    yara = GuestFactory(evening=evening, name="Yara Young", pack="red", status=Guest.Status.REGISTERED)
    logged_in.post(reverse("host-guest-status", args=[evening.pk, yara.pk]), {"action": "here"})
    assert yara.pk in _seated(evening)
    board = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "Undo Yara Young&#x27;s arrival" in board and "Undo the last bell" not in board
    arrival = Bell.objects.of_evening(evening.pk).live().get(kind=Bell.Kind.ARRIVE)
    page = logged_in.post(
        reverse("host-round", args=[evening.pk]), {"action": "undo", "bell": arrival.pk}, follow=True
    ).content.decode()
    assert "Yara Young&#x27;s arrival is undone" in page
    yara.refresh_from_db()
    assert yara.status == Guest.Status.HERE and yara.pk not in _seated(evening)
    assert Bell.objects.of_evening(evening.pk).live().bells().filter(round__number=1).exists()
    assert "Undo round 1&#x27;s bell" in page
    assert last_step(evening).words == "round 1's bell"


@pytest.mark.django_db
@pytest.mark.parametrize("key", KEYS)
def test_undo_one_step_at_a_time_newest_first_in_every_format(logged_in, host, key):
    """A departure, then (where the format takes late guests) an arrival after round 1's bell:
    the board offers each step by name, newest first; undoing the arrival keeps the guest
    checked in without a seat, undoing the departure gives back the seat and "here", and only
    then is round 1's bell offered."""
    evening = _rung(host, key)
    fmt = format_for(evening)
    leaver = Guest.objects.get(pk=_seated(evening)[0])
    fmt.seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    steps = [f"{leaver.name}'s departure"]
    late = None
    if fmt.joins_after_the_draw:
        late = _late(evening)
        fmt.seat_change(evening=evening, guest=late, leaving=False, user=host, device="")
        steps.insert(0, "Yara Young's arrival")
    url = reverse("host-round", args=[evening.pk])
    for words in steps:
        offer = last_step(evening)
        assert offer is not None and offer.words == words
        board = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
        assert f"Undo {words}".replace("'", "&#x27;") in board
        logged_in.post(url, {"action": "undo", "bell": offer.id})
    if late is not None:
        late.refresh_from_db()
        assert late.status == Guest.Status.HERE and late.pk not in _seated(evening)
    leaver.refresh_from_db()
    assert leaver.status == Guest.Status.HERE and leaver.pk in _seated(evening)
    offer = last_step(evening)
    assert offer is not None and offer.words == "round 1's bell" and offer.kind == Bell.Kind.BELL
    assert Bell.objects.of_evening(evening.pk).live().bells().count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("key", KEYS)
def test_two_undo_taps_with_the_same_step_undo_it_once(logged_in, host, key):
    """Undo twice at once (two taps with the same step id): one step only is undone, the second
    tap is told which step it was and what the board offers now; round 1's bell stands."""
    evening = _rung(host, key)
    leaver = Guest.objects.get(pk=_seated(evening)[0])
    format_for(evening).seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    left = Bell.objects.of_evening(evening.pk).live().get(kind=Bell.Kind.LEAVE)
    url = reverse("host-round", args=[evening.pk])
    logged_in.post(url, {"action": "undo", "bell": left.pk})
    page = logged_in.post(url, {"action": "undo", "bell": left.pk}, follow=True).content.decode()
    said = f"{leaver.name}'s departure is undone already: nothing more was undone. The last step now is round 1's bell."
    assert said.replace("'", "&#x27;") in page
    assert Bell.objects.of_evening(evening.pk).live().bells().count() == 1
    with pytest.raises(RuleError, match="undone already"):
        bell_undo(evening=evening, bell_id=left.pk, user=host)
    assert Bell.objects.of_evening(evening.pk).live().count() == 1


@pytest.mark.django_db
def test_a_stale_undo_button_names_the_step_the_board_offers_now(host):
    """An undo from a page drawn before a guest left (it offered round 1's bell) undoes nothing
    and names the newest step instead."""
    evening = _rung(host, "poker", guests=13)
    bell = Bell.objects.of_evening(evening.pk).live().bells().get()
    leaver = Guest.objects.get(pk=_seated(evening)[0])
    format_for(evening).seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    with pytest.raises(RuleError) as refused:
        bell_undo(evening=evening, bell_id=bell.pk, user=host)
    assert str(refused.value) == (
        "The last step is not the one that page showed: nothing was undone. "
        f"The last step now is {leaver.name}'s departure. Look at the board again."
    )
    assert Bell.objects.of_evening(evening.pk).live().count() == 2


@pytest.mark.django_db
def test_at_poker_a_mover_who_leaves_after_the_bell_is_sent_nowhere_and_the_others_stay_listed(client, host):
    """Poker: ring round 1; a guest the bell moved leaves: the room's "where to go" still lists
    every other mover, at the table they sit at now, and no longer sends the leaver anywhere."""
    evening = _rung(host, "poker", guests=13)
    movers = _movers(evening)
    leaver = Guest.objects.filter(evening=evening, name__in=movers).order_by("pk").first()
    format_for(evening).seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    slide = _where_to_go(client, evening)
    assert "Round 1: where to go" in slide and leaver.name not in slide
    tables = {g: n for n, ids in enumerate(format_for(evening).state(evening).tables, 1) for g in ids}
    for mover in Guest.objects.filter(evening=evening, name__in=movers - {leaver.name}):
        box = re.search(rf'data-table="{tables[mover.pk]}".*?</li>\s*</ul>', slide, re.S)
        assert box is not None and mover.name in box.group(0), mover.name


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "started"), [("bunco", False), ("poker", True), ("euchre", True)], ids=["before round 1", "poker", "euchre"]
)
def test_seat_now_on_a_row_takes_the_here_but_not_seated_banner_with_it(logged_in, host, key, started):
    """The guests page: *Seat now* on the late guest's row (an htmx swap of that row) also swaps
    the page's "Here but not seated" banner and its counts out of band, so that the page no longer
    says she waits (issue 22: the banner stayed after the row swap)."""
    evening = _rung(host, key, guests=13) if started else _evening(host, key, guests=13)
    if not started:
        draw_digital(evening=evening, user=host)
    yara = GuestFactory(evening=evening, name="Yara Young", pack="red", status=Guest.Status.HERE)
    page = logged_in.get(reverse("host-guests", args=[evening.pk])).content.decode()
    assert "Here but not seated: <bdi>Yara Young</bdi>" in page and 'id="guest-unseated"' in page
    swap = logged_in.post(
        reverse("host-guest-status", args=[evening.pk, yara.pk]), {"action": "here"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    banner = re.search(r'<p id="guest-unseated"[^>]*>.*?</p>', swap, re.S)
    assert banner is not None and 'hx-swap-oob="true"' in banner.group(0)
    assert yara.pk in _seated(evening)
    assert "Here but not seated" not in banner.group(0) and " hidden" in banner.group(0)
    assert 'id="guest-counts"' in swap
    assert "Here but not seated" not in logged_in.get(reverse("host-guests", args=[evening.pk])).content.decode()
