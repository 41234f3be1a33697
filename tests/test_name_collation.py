"""Names sort by the Unicode Collation Algorithm (``tournament.name_keys.name_order``, through
``pyuca``) in every list of names: the guests list, the door, the links, the draw's seating, the
seating cards, the guests here unseated, standings' ties, a club's roster. The stranger's find:
the door listed "Éléonore" after "Seán Ó Briain" (the names were sorted by their code points)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tournament.documents.contents import seating_cards
from tournament.models import Evening, Guest
from tournament.name_keys import name_order
from tournament.selectors.draw import seating_view
from tournament.selectors.guests import guest_list
from tournament.services.draws import draw_digital
from tournament.services.prizes import evening_standings

pytestmark = pytest.mark.django_db

SORTED = [
    "adam Smith",
    "Ægir Jónsson",
    "Ann Lee",
    "Anna Bell",
    "Éléonore Dupont",
    "Émile Zola",
    "eve Marchal",
    "Ólafur Arnalds",
    "Øyvind Berg",
    "Seán Ó Briain",
    "Zoë Martin",
    "Ἀλέξανδρος Παππάς",
    "Борис Иванов",
    "שרה כהן",
    "محمد الأحمد",
    "李明",
]
"""The right order: accents and case after the letters (É among the E's, "eve" after "Émile"),
Æ after A, Ø among the O's, a shorter word first ("Ann" before "Anna"), then each script in
Unicode's order (Latin, Greek, Cyrillic, Hebrew, Arabic, Chinese characters)."""


def test_name_order_is_the_unicode_collation_algorithms():
    shuffled = [*SORTED[::2], *SORTED[1::2][::-1]]
    assert sorted(shuffled, key=name_order) == SORTED
    assert sorted(["Anne", "anne"], key=name_order) == ["anne", "Anne"]  # case only after the letters
    assert name_order("Zoe\u0308") == name_order("Zoë")  # composed or not, one name


def _evening(host, names=SORTED, **fields) -> Evening:
    evening = EveningFactory(host=host, **fields)
    for i, name in enumerate(reversed(names)):  # registered in reverse: ids do not give the order
        GuestFactory(evening=evening, name=name, pack="red" if i % 2 else "blue")
    return evening


def _order_on(page: str, names) -> list[str]:
    """``names`` in the order ``page`` first shows them."""
    return sorted(names, key=page.index)


def test_the_door_lists_the_guests_by_the_collation(client, host):
    evening = _evening(host)
    client.force_login(host)
    page = client.get(reverse("host-door", args=[evening.pk])).content.decode()
    assert _order_on(page, SORTED) == SORTED
    assert page.index("Éléonore Dupont") < page.index("Seán Ó Briain")


def test_the_guests_list_and_the_links_list_by_the_collation(client, host):
    evening = _evening(host)
    assert [row.name for row in guest_list(evening).rows] == SORTED
    client.force_login(host)
    page = client.get(reverse("host-links", args=[evening.pk])).content.decode()
    assert _order_on(page, SORTED) == SORTED


def test_the_seating_and_the_seating_cards_list_a_tables_guests_by_the_collation(host):
    evening = _evening(host)
    draw_digital(evening=evening, user=host)
    for table in seating_view(evening).tables:
        names = [line.guest.name for line in table.lines]
        assert names == sorted(names, key=name_order), table.number
    cards = seating_cards(evening=evening).cards
    for table in {card.table for card in cards}:
        for pack in ("red", "blue"):
            names = [card.name for card in cards if card.table == table and card.pack == pack]
            assert names == sorted(names, key=name_order)


def test_guests_sharing_a_place_stand_by_the_collation(host):
    evening = _evening(host)
    draw_digital(evening=evening, user=host)

    lines = evening_standings(evening).lines
    assert {line.place for line in lines} == {1}  # before any bell everyone is level
    assert [line.guest.name for line in lines] == SORTED


def test_the_guests_here_left_unseated_are_named_by_the_collation(host):
    from tournament.selectors.board import unseated_guests

    evening = _evening(host, names=SORTED[:12])
    draw_digital(evening=evening, user=host)
    late = ["Zoé Late", "Émile Late", "Ábel Late"]
    for name in late:
        GuestFactory(evening=evening, name=name, status=Guest.Status.HERE)
    assert [g.name for g in unseated_guests(evening)] == ["Ábel Late", "Émile Late", "Zoé Late"]
