"""The draw's services on the database: digital and physical draws, their refusals (nothing
changed, guests named), changes of who is here before round 1, and constant query counts."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.formats.poker.draw import draws_from_other_pack, split_packs
from tables.formats.poker.plan import PlanError, plan_tables
from tables.packs import Pack
from tables.table_cards import DrawError, rank_name
from tests.factories import EveningFactory, GuestFactory, HostFactory
from tournament.formats.poker.physical_draw import physical_state
from tournament.models import AuditEntry, Draw, DrawnCard, Evening, Guest, Seat
from tournament.services.clock import round_start
from tournament.services.draw_changes import draw_release_guest, draw_seat_latecomer, draw_swap_guest
from tournament.services.draw_physical import (
    draw_physical_cancel,
    draw_physical_finish,
    draw_physical_record,
    draw_physical_start,
    draw_physical_withdraw,
    open_physical_draw,
)
from tournament.services.draws import draw_digital, live_draw
from tournament.services.naming import error_message
from tournament.services.state import evening_state


def make(red: int, blue: int, host=None) -> Evening:
    """An evening with ``red`` and ``blue`` checked-in guests (bulk-created: fast for 500)."""
    evening = EveningFactory(host=host or HostFactory())
    Guest.objects.bulk_create(
        [
            Guest(evening=evening, name=f"Red {i + 1}", name_key=f"red {i + 1}", pack="red", status="here")
            for i in range(red)
        ]
        + [
            Guest(evening=evening, name=f"Blue {i + 1}", name_key=f"blue {i + 1}", pack="blue", status="here")
            for i in range(blue)
        ]
    )
    return evening


def check_stored(evening: Evening, draw: Draw) -> None:
    """The invariants of a stored, complete draw: every guest here exactly one card and one seat,
    at the card's table; cards per rank = table sizes; cards per (pack, rank) = the split; the
    fewest possible guests represent the other pack, all of the pack with too many guests."""
    here = {g.pk: g for g in evening.guests.filter(status="here")}
    cards = list(draw.cards.all())
    assert sorted(c.guest_id for c in cards) == sorted(here)
    seats = dict(Seat.objects.filter(evening=evening).values_list("guest_id", "table"))
    assert seats == {c.guest_id: c.rank for c in cards}
    assert Counter(c.rank for c in cards) == Counter({t: s for t, s in enumerate(draw.sizes, 1)})
    red = sum(g.pack == "red" for g in here.values())
    splits = split_packs(plan_tables(len(here), accept_relaxed=True), red=red, blue=len(here) - red)
    by_card = Counter((c.pack, c.rank) for c in cards)
    for split in splits:
        assert by_card[("red", split.table)] == split.red and by_card[("blue", split.table)] == split.blue
    need = draws_from_other_pack(splits, red=red, blue=len(here) - red)
    others = Counter(here[c.guest_id].pack for c in cards if c.pack != here[c.guest_id].pack)
    assert others == Counter({p.value: n for p, n in need.items() if n})
    assert live_draw(evening) == draw and draw.complete


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(red=st.integers(0, 70), blue=st.integers(0, 70))
def test_every_stored_digital_draw_keeps_the_invariants(red, blue):
    total = red + blue
    if total < 8:
        with pytest.raises(PlanError):
            draw_digital(evening=make(red, blue))
        return
    evening = make(red, blue)
    draw = draw_digital(evening=evening, accept_relaxed=True)
    check_stored(evening, draw)
    assert evening_state(evening).tables  # the bell engine reads the stored draw


def physical_cards(evening: Evening) -> list[tuple[Guest, str]]:
    """A valid way for everyone here to draw, in a random order: (guest, card as typed)."""
    draw = open_physical_draw(evening)
    value = physical_state(draw).value
    deck = {pack: [rank for rank, n in cards for _ in range(n)] for pack, cards in value.remaining_cards().items()}
    out = []
    guests = list(evening.guests.filter(status="here"))
    random.Random(7).shuffle(guests)
    for guest in guests:
        pack = Pack(guest.pack)
        if not deck[pack]:
            pack = pack.other
        rank = deck[pack].pop()
        out.append((guest, f"{rank_name(rank)} {pack.value}" if pack.value != guest.pack else str(rank)))
    return out


@pytest.mark.django_db
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(red=st.integers(4, 30), blue=st.integers(4, 30))
def test_a_physical_draw_entered_card_by_card_keeps_the_invariants(red, blue):
    evening = make(red, blue)
    draw_physical_start(evening=evening, accept_relaxed=True)
    for guest, card in physical_cards(evening):
        draw_physical_record(evening=evening, guest_id=guest.pk, card=card)
    draw = draw_physical_finish(evening=evening)
    assert draw.kind == Draw.Kind.PHYSICAL
    check_stored(evening, draw)


@pytest.fixture
def physical(db):
    """A physical draw of 7 red and 5 blue guests (three tables of 4: red has 6 cards, blue 6,
    so one red guest must draw a blue card)."""
    evening = make(7, 5)
    draw_physical_start(evening=evening)
    return evening


def guest(evening: Evening, name: str) -> Guest:
    return evening.guests.get(name=name)


def refused(evening: Evening, name: str, card: str) -> str:
    """Record a card that must be refused; check that nothing changed; return the message as a
    page shows it (``error_message``: guests by name)."""
    before = (DrawnCard.objects.count(), Evening.objects.get(pk=evening.pk).version, AuditEntry.objects.count())
    with pytest.raises(RuleError) as caught:
        draw_physical_record(evening=evening, guest_id=guest(evening, name).pk, card=card)
    after = (DrawnCard.objects.count(), Evening.objects.get(pk=evening.pk).version, AuditEntry.objects.count())
    assert before == after
    return error_message(caught.value, evening)


def test_the_physical_draw_refuses_every_wrong_card(physical):
    evening = physical
    draw_physical_record(evening=evening, guest_id=guest(evening, "Red 1").pk, card="ace")
    draw_physical_record(evening=evening, guest_id=guest(evening, "Red 2").pk, card="A red")
    # all (two) red aces are taken
    assert "already taken (all 2 of them)" in refused(evening, "Red 3", "1")
    # a rank beyond the plan (3 tables)
    message = refused(evening, "Red 3", "queen")
    assert "no queen of the Red pack" in message and "up to the trey" in message
    # the same guest twice, named
    message = refused(evening, "Red 1", "deuce")
    assert message.startswith("Red 1 has already drawn the ace of the Red pack") and "Guest " not in message
    # a card that cannot be read
    assert "is not a table card" in refused(evening, "Red 3", "joker")
    # a blue guest may not take a red card: blue has cards for all its guests
    message = refused(evening, "Blue 1", "2 red")
    assert message.startswith("Blue 1 must draw from the Blue pack")
    # one red guest may draw blue, not two
    draw_physical_record(evening=evening, guest_id=guest(evening, "Red 3").pk, card="2 blue")
    assert "only one of its guests draws from the other pack, and one already has" in refused(
        evening, "Red 4", "3 blue"
    )


def test_a_guest_not_checked_in_is_refused_by_name(physical):
    evening = physical
    late = GuestFactory(evening=evening, name="Late Lucy", pack="red", status="registered")
    before = DrawnCard.objects.count()
    with pytest.raises(RuleError, match="Late Lucy is not checked in"):
        draw_physical_record(evening=evening, guest_id=late.pk, card="2")
    assert DrawnCard.objects.count() == before


def test_checking_someone_in_during_a_physical_draw_asks_for_a_restart(physical):
    evening = physical
    GuestFactory(evening=evening, name="Late Lucy", pack="red", status="here")
    with pytest.raises(RuleError, match="planned for 12 guests, but 13 are checked in"):
        draw_physical_record(evening=evening, guest_id=guest(evening, "Red 1").pk, card="2")


def test_undo_a_card_then_record_it_again(physical):
    evening = physical
    red1 = guest(evening, "Red 1")
    draw_physical_record(evening=evening, guest_id=red1.pk, card="3")
    draw_physical_withdraw(evening=evening, guest_id=red1.pk)
    assert not DrawnCard.objects.filter(guest=red1).exists()
    draw_physical_record(evening=evening, guest_id=red1.pk, card="2")
    with pytest.raises(RuleError, match="no card recorded"):
        draw_physical_withdraw(evening=evening, guest_id=guest(evening, "Red 2").pk)


def test_finishing_early_names_who_has_not_drawn(physical):
    evening = physical
    with pytest.raises(RuleError) as caught:
        draw_physical_finish(evening=evening)
    shown = error_message(caught.value, evening)
    assert "Red 1" in shown and "guest" not in shown.split(":", 1)[1]
    assert live_draw(evening) is None and not Seat.objects.exists()


def test_an_unfinished_physical_draw_leaves_the_draw_in_force_alone(db):
    evening = make(6, 6)
    digital = draw_digital(evening=evening)
    draw_physical_start(evening=evening)
    assert live_draw(evening) == digital and Seat.objects.count() == 12
    draw_physical_cancel(evening=evening)
    assert live_draw(evening) == digital and open_physical_draw(evening) is None
    draw_physical_start(evening=evening)
    for g, card in physical_cards(evening):
        draw_physical_record(evening=evening, guest_id=g.pk, card=card)
    physical = draw_physical_finish(evening=evening)
    digital.refresh_from_db()
    assert live_draw(evening) == physical and digital.superseded_at is not None


def test_nothing_is_drawn_after_round_1_has_started(db):
    evening = make(6, 6)
    draw_digital(evening=evening)
    round_start(evening=evening)
    draws = Draw.objects.count()
    for service in (lambda: draw_digital(evening=evening), lambda: draw_physical_start(evening=evening)):
        with pytest.raises(RuleError, match="Round 1 has started"):
            service()
    assert Draw.objects.count() == draws


def test_a_physical_card_after_round_1_is_refused(physical):
    evening = physical
    for g, card in physical_cards(evening):
        draw_physical_record(evening=evening, guest_id=g.pk, card=card)
    draw_physical_finish(evening=evening)
    draw_physical_start(evening=evening)  # a restart, before round 1: allowed
    round_start(evening=evening)
    with pytest.raises(RuleError, match="Round 1 has started"):
        draw_physical_record(evening=evening, guest_id=guest(evening, "Red 1").pk, card="2")


def test_the_host_picks_who_represents_the_other_pack(db):
    evening = make(8, 4)  # three tables of 4: 6 red cards, so 2 red guests draw blue cards
    picks = [guest(evening, "Red 3").pk, guest(evening, "Red 5").pk]
    draw = draw_digital(evening=evening, representing=picks)
    check_stored(evening, draw)
    assert sorted(draw.cards.filter(pack="blue", guest__pack="red").values_list("guest_id", flat=True)) == sorted(picks)
    with pytest.raises(RuleError) as caught:
        draw_digital(evening=evening, representing=[guest(evening, "Blue 1").pk, picks[0]])
    shown = error_message(caught.value, evening)
    assert shown.startswith("Blue 1 belongs to the blue pack, which has cards for all its guests") and "[" not in shown
    with pytest.raises(RuleError, match="no more, no fewer"):
        draw_digital(evening=evening, representing=picks[:1])
    assert live_draw(evening) == draw


def test_a_draw_error_names_guests_where_it_is_shown():
    error = DrawError("{guests} belong to the {other} pack.", guests=(3, 4), other="blue")
    assert str(error) == "Guests 3 and 4 belong to the blue pack."
    assert error_message(error, names={3: "Ann", 4: "Bo"}) == "Ann and Bo belong to the blue pack."
    assert error_message(error, names={3: "Ann"}) == "Ann and guest 4 belong to the blue pack."
    offer = plan_tables(9, accept_relaxed=True)
    assert PlanError("x", offer=offer).offer == offer


def test_a_latecomer_takes_a_free_seat_and_the_limits_are_explained(db):
    evening = make(10, 10)  # 4, 6, 6, 4
    first = draw_digital(evening=evening)
    late = GuestFactory(evening=evening, name="Late Lucy", pack="red", status="here")
    with pytest.raises(PlanError, match="the head table must start with four; tables with a free seat: 2, 3"):
        draw_seat_latecomer(evening=evening, guest_id=late.pk, table=1)
    draw = draw_seat_latecomer(evening=evening, guest_id=late.pk, table=3)
    assert draw.sizes == [4, 6, 7, 4] and Seat.objects.get(guest=late).table == 3
    first.refresh_from_db()
    assert first.superseded_at is not None and live_draw(evening) == draw
    assert DrawnCard.objects.get(draw=draw, guest=late).rank == 3
    with pytest.raises(RuleError, match="already has a seat"):
        draw_seat_latecomer(evening=evening, guest_id=late.pk, table=2)
    later = GuestFactory(evening=evening, name="Later Len", pack="blue", status="here")
    with pytest.raises(PlanError, match="table 3 already has 7"):
        draw_seat_latecomer(evening=evening, guest_id=later.pk, table=3)


def test_a_guest_who_leaves_is_taken_out_where_the_plan_allows(db):
    evening = make(10, 10)  # 4, 6, 6, 4
    draw_digital(evening=evening)
    at_head = Seat.objects.filter(evening=evening, table=1).first().guest
    with pytest.raises(PlanError) as caught:
        draw_release_guest(evening=evening, guest_id=at_head.pk)
    assert "the head table must start with four" in str(caught.value)
    assert "move a guest from table 2 or 3 to table 1" in str(caught.value)
    assert "latecomer take" in str(caught.value)
    at_two = Seat.objects.filter(evening=evening, table=2).first().guest
    draw = draw_release_guest(evening=evening, guest_id=at_two.pk)
    assert draw.sizes == [4, 5, 6, 4] and not Seat.objects.filter(guest=at_two).exists()
    assert Guest.objects.get(pk=at_two.pk).status == Guest.Status.LEFT
    check_stored_sizes(evening, draw)


def check_stored_sizes(evening: Evening, draw: Draw) -> None:
    cards = list(draw.cards.all())
    assert Counter(c.rank for c in cards) == Counter({t: s for t, s in enumerate(draw.sizes, 1)})
    assert {c.guest_id for c in cards} == set(evening.guests.filter(status="here").values_list("id", flat=True))


def test_a_latecomer_takes_the_seat_of_a_guest_who_left_even_at_the_head_table(db):
    evening = make(6, 6)
    draw_digital(evening=evening)
    at_head = Seat.objects.filter(evening=evening, table=1).first().guest
    late = GuestFactory(evening=evening, name="Late Lucy", pack="red", status="here")
    draw = draw_swap_guest(evening=evening, leaving_id=at_head.pk, arriving_id=late.pk)
    assert draw.sizes == [4, 4, 4] and Seat.objects.get(guest=late).table == 1
    assert Guest.objects.get(pk=at_head.pk).status == Guest.Status.LEFT
    check_stored_sizes(evening, draw)
    round_start(evening=evening)
    other = GuestFactory(evening=evening, name="Later Len", pack="red", status="here")
    with pytest.raises(RuleError, match="Round 1 has started"):
        draw_seat_latecomer(evening=evening, guest_id=other.pk, table=2)


def statements(captured: list[dict]) -> int:
    """Count statements, with one bulk insert counted once: SQLite splits a bulk insert into
    batches of at most 999 parameters (Django's ``bulk_batch_size``), so 500 seats take a few
    INSERTs there; PostgreSQL (CI) sends one, and there the raw count is also checked."""
    count, last = 0, None
    for query in captured:
        sql = query["sql"]
        head = sql.split("(", 1)[0] if sql.startswith("INSERT") else None
        if head is None or head != last:
            count += 1
        last = head
    return count


def count_queries(service, guests: int) -> tuple[int, int]:
    """(statements, raw queries) of the second call of ``service`` on an evening of ``guests``."""
    evening = make(guests // 2, guests - guests // 2)
    service(evening)  # warm up (content types, the first draw)
    with CaptureQueriesContext(connection) as ctx:
        service(evening)
    return statements(ctx.captured_queries), len(ctx.captured_queries)


def test_a_digital_draw_costs_the_same_queries_for_50_and_500_guests(db):
    small = count_queries(lambda e: draw_digital(evening=e), 50)
    large = count_queries(lambda e: draw_digital(evening=e), 500)
    assert small[0] == large[0] <= 11, (small, large)
    if connection.vendor == "postgresql":
        assert small[1] == large[1]


def test_recording_a_physical_card_costs_the_same_queries_for_50_and_500_guests(db):
    def record(evening):
        if open_physical_draw(evening) is None:
            draw_physical_start(evening=evening)
            record.plan = iter(physical_cards(evening))
        g, card = next(record.plan)
        draw_physical_record(evening=evening, guest_id=g.pk, card=card)

    small, large = count_queries(record, 50), count_queries(record, 500)
    assert small == large, (small, large)


def test_a_guest_checked_out_after_drawing_is_named(physical):
    evening = physical
    red1 = guest(evening, "Red 1")
    draw_physical_record(evening=evening, guest_id=red1.pk, card="2")
    Guest.objects.filter(pk=red1.pk).update(status="left")
    GuestFactory(evening=evening, name="Late Lucy", pack="red", status="here")  # 12 here again
    with pytest.raises(RuleError, match="Red 1 drew the deuce of the Red pack but is no longer checked in"):
        draw_physical_record(evening=evening, guest_id=guest(evening, "Red 2").pk, card="2")


def test_the_name_box_takes_part_of_a_name(db):
    from tournament.selectors.draw import guest_find

    evening = make(2, 0)
    GuestFactory(evening=evening, name="Late Lucy", pack="red")
    among = list(evening.guests.all())
    assert guest_find(evening, "  late   LUCY ", among).name == "Late Lucy"
    assert guest_find(evening, "luc", among).name == "Late Lucy"
    with pytest.raises(RuleError, match="could be Red 1, Red 2: type more"):
        guest_find(evening, "red", among)
    with pytest.raises(RuleError, match="pick a name from the list"):
        guest_find(evening, "Zed", among)
