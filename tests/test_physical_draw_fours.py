"""The physical draw at tables of four (``tables.formats.physical``, ``services.draw_physical``):
seat cards ("3 N") from the two packs give the digital draw's seating with those cards."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.formats.engine import rules_for
from tables.formats.physical import SeatDraw, parse_seat_card
from tables.packs import Pack
from tables.table_cards import DrawError
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership.physical_draw import seat_draw_state
from tournament.models import Evening
from tournament.registry import format_for
from tournament.services import draw_physical


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("3 N", (3, 0, None)),
        ("3n", (3, 0, None)),
        ("N3", (3, 0, None)),
        ("table 1, West", (1, 3, None)),
        ("trey south", (3, 2, None)),
        ("2 east red", (2, 1, Pack.RED)),
        ("2 E blue", (2, 1, Pack.BLUE)),
    ],
)
def test_a_seat_card_as_the_host_types_it(text, card):
    assert parse_seat_card(text) == card


@pytest.mark.parametrize("text", ["3", "North", "", "3 up"])
def test_a_text_without_table_or_seat_is_refused(text):
    with pytest.raises(DrawError, match="not a seat card"):
        parse_seat_card(text)


# Five red and four blue guests: three tables, three ghosts (the house rule's seats, foot table up).
ROSTER = [(g, Pack.RED) for g in range(1, 6)] + [(g, Pack.BLUE) for g in range(6, 10)]


def _start(roster=ROSTER, key="euchre") -> SeatDraw:
    reference = rules_for(key).draw(roster, rng=random.Random(0))
    return SeatDraw.start(reference, roster, packs_matter=True)


def test_the_packs_hold_every_seat_but_the_ghosts():
    value = _start()
    assert len(value.cards) == 9
    assert all(c.pack is (Pack.RED if c.seat in (0, 1) else Pack.BLUE) for c in value.cards)
    ghosts = {(n, s) for n, t in enumerate(value.reference.tables, 1) for s, p in enumerate(t) if p < 0}
    assert len(ghosts) == 3 and not ghosts & {(c.table, c.seat) for c in value.cards}


def test_the_rulebooks_worked_example_nine_guests():
    """docs/rules/tables-of-four.md, "The physical draw": five red and four blue guests."""
    value = _start()
    words = sorted(f"{c.table} {'NESW'[c.seat]} {c.pack.value}" for c in value.cards)
    assert words == sorted(
        ["1 N red", "1 E red", "2 N red", "3 N red", "3 E red", "1 S blue", "2 S blue", "2 W blue", "3 S blue"]
    )
    with pytest.raises(DrawError, match="no card 2 East"):
        value.take(1, 2, 1)
    value = value.take(1, 2, 0).take(6, 2, 2)
    tables = {g: (c.table, c.seat) for g, c in value.taken}
    assert tables == {1: (2, 0), 6: (2, 2)}  # North and South: partners


def test_a_ghosts_seat_a_card_drawn_twice_and_a_wrong_pack_are_refused():
    value = _start()
    ghost = next((n, s) for n, t in enumerate(value.reference.tables, 1) for s, p in enumerate(t) if p < 0)
    with pytest.raises(DrawError, match="a ghost's seat"):
        value.take(1, *ghost)
    first = value.cards[0]
    taken = value.take(1 if first.pack is Pack.RED else 6, first.table, first.seat)
    with pytest.raises(DrawError, match="has drawn .* already") as caught:
        taken.take(2 if first.pack is Pack.RED else 7, first.table, first.seat)
    assert len(caught.value.subjects.guests) == 2
    with pytest.raises(DrawError, match="is in the red pack"):
        value.take(1, 1, 0, Pack.BLUE)
    with pytest.raises(DrawError, match="has already drawn"):
        taken.take(taken.taken[0][0], *(lambda c: (c.table, c.seat))(taken.remaining()[0]))


def test_only_as_many_draw_from_the_other_pack_as_their_pack_is_short():
    # Eight blue guests, no red: two tables, every red card drawn by a blue guest.
    roster = [(g, Pack.BLUE) for g in range(1, 9)]
    value = _start(roster)
    for guest, card in zip(range(1, 9), value.cards, strict=True):
        value = value.take(guest, card.table, card.seat)
    assert sum(c.represents_other for c in value.seating().cards) == 4
    # Four red and four blue: a red guest may not take a blue card.
    even = _start([(1, Pack.RED), (2, Pack.RED), (3, Pack.BLUE), (4, Pack.BLUE)])
    with pytest.raises(DrawError, match="own pack"):
        even.take(1, 1, 2)


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 30), st.integers(0, 2**31), st.sampled_from(["euchre", "whist", "bunco"]))
def test_property_the_digital_draws_cards_recorded_give_its_seating(count, seed, key):
    roster = [(g, Pack.RED if g % 3 else Pack.BLUE) for g in range(1, count + 1)]
    dealt = rules_for(key).draw(roster, rng=random.Random(seed))
    value = _start(roster, key)
    for card in random.Random(seed).sample(dealt.cards, len(dealt.cards)):
        value = value.take(card.guest, card.table, card.seat or 0)
    assert value.seating().tables == dealt.tables
    assert sorted(p for t in value.seating().tables for p in t if p > 0) == list(range(1, count + 1))


def _evening(host, key: str, guests: int) -> Evening:
    evening = EveningFactory(host=host, format=key, rounds_planned=3)
    for i in range(guests):
        GuestFactory(evening=evening, name=f"Guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    return evening


def test_a_euchre_tournament_with_a_sit_out_drawn_by_hand(db, host):
    evening = _evening(host, "euchre_tournament", 13)
    fmt = format_for(evening)
    dealt = fmt.rules_of(evening).draw([(g.pk, Pack(g.pack)) for g in evening.guests.order_by("id")])
    draw_physical.draw_physical_start(evening=evening, user=host)
    for card in dealt.cards:
        draw_physical.draw_physical_record(
            evening=evening, guest_id=card.guest, card=f"{card.table} {'NESW'[card.seat]}", user=host
        )
    draw_physical.draw_physical_finish(evening=evening, user=host)
    assert [list(t) for t in fmt.state(evening).tables] == [list(t) for t in dealt.tables]
    out = next(c.guest for c in dealt.cards if c.table == len(dealt.tables) + 1)
    assert fmt.sitting_out(evening) == {out}


def test_a_refused_card_at_bunco_names_the_guest_and_saves_nothing(db, host):
    evening = _evening(host, "bunco", 9)
    draw_physical.draw_physical_start(evening=evening, user=host)
    first = evening.guests.order_by("id").first()
    draw_physical.draw_physical_record(evening=evening, guest_id=first.pk, card="1 N" if first.pack == "red" else "1 S")
    second = evening.guests.filter(pack=first.pack).order_by("id")[1]
    with pytest.raises(RuleError, match="has drawn .* already"):
        draw_physical.draw_physical_record(
            evening=evening, guest_id=second.pk, card="1 N" if first.pack == "red" else "1 S"
        )
    with pytest.raises(RuleError, match="have not drawn a card yet") as caught:
        draw_physical.draw_physical_finish(evening=evening, user=host)
    assert len(caught.value.subjects.guests) == 8 and first.pk not in caught.value.subjects.guests
    assert draw_physical.open_physical_draw(evening).cards.count() == 1
    assert not evening.seats.exists()


@pytest.mark.parametrize("key", ["euchre", "whist", "bunco", "euchre_tournament"])
def test_the_host_records_seat_cards_on_the_page(db, host, client, key):
    """Through the host's pages: start from the draw page, type each guest's name and card, a
    wrong card refused with the guest named, finish: everyone sits where the cards say."""
    evening = _evening(host, key, 9 if key != "euchre_tournament" else 12)
    client.force_login(host)
    client.post(reverse("host-draw", args=[evening.pk]), {"action": "physical"})
    draw = draw_physical.open_physical_draw(evening)
    value, guests = seat_draw_state(draw)
    url = reverse("host-draw-physical", args=[evening.pk])
    first = next(iter(guests.values()))
    taken = next(c for c in value.cards if c.pack.value == first.pack or key == "euchre_tournament")
    done = client.post(url, {"guest": first.name, "card": f"{taken.table} {'NESW'[taken.seat]}"}, follow=True)
    assert f"{first.name}: {taken.table} {'NESW'[taken.seat]} →" in done.content.decode()
    other = list(guests.values())[1]
    again = client.post(url, {"guest": other.name, "card": f"{taken.table} {'NESW'[taken.seat]}"})
    assert f"{first.name} has drawn" in again.content.decode()
    value, _ = seat_draw_state(draw)
    own = {g.pk: g.pack for g in guests.values()}
    for guest in list(guests.values())[1:]:
        left = value.remaining()
        card = next((c for c in left if c.pack.value == own[guest.pk]), left[0])
        client.post(url, {"guest": guest.name, "card": f"{card.table} {'NESW'[card.seat]}"})
        value, _ = seat_draw_state(draw)
    finish = client.post(reverse("host-draw-physical-action", args=[evening.pk]), {"action": "finish"}, follow=True)
    assert finish.status_code == 200
    tables = format_for(evening).state(evening).tables
    assert tables[taken.table - 1][taken.seat] == first.pk
    assert evening.seats.get(guest_id=first.pk).position == taken.seat
