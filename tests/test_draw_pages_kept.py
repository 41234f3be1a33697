"""The draw page and the board at 500 guests within 50 times a bare view (issue 26 item 3): at tables of four
it shows how many tables the seats make without computing the board and its standings; in
Progressive Poker, drawn again unchanged, it reads no guest again (who represents the other
pack and who came or left since the draw are found among the guests read once per process and
evening version, ``selectors.guest_boards.shared_guests``), and what it shows is unchanged."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.fixtures_room import played_evening
from tournament.kept import kept_forget
from tournament.models import Evening, Guest
from tournament.services.guests import guest_add, guest_set_status

pytestmark = pytest.mark.django_db


def _bunco(host) -> Evening:
    from tournament.formats.partnership.state import foursome_draw

    evening = Evening.objects.create(host=host, name="Bunco", date="2026-11-30", format="bunco", rounds_planned=3)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
        guest_add(evening=evening, name=name, pack="red", check_in=True)
    foursome_draw(evening=Evening.objects.get(pk=evening.pk))
    return Evening.objects.get(pk=evening.pk)


def test_the_draw_page_at_tables_of_four_computes_no_standings(client, host, monkeypatch):
    evening = _bunco(host)
    client.force_login(host)

    def no_standings(*args, **kwargs):
        raise AssertionError("the draw page computed the standings")

    monkeypatch.setattr("tournament.formats.partnership.boards.foursome_standings", no_standings)
    page = client.get(reverse("host-draw", args=[evening.pk])).content.decode()
    assert "Deal the draw again" in page and "The seating (2 tables)" in page


def test_the_draw_page_at_tables_of_four_before_the_draw_offers_the_deal(client, host):
    evening = Evening.objects.create(host=host, name="Bunco", date="2026-11-30", format="bunco", rounds_planned=3)
    for name in ("Ann", "Bo", "Cy", "Di"):
        guest_add(evening=evening, name=name, pack="red", check_in=True)
    client.force_login(host)
    page = client.get(reverse("host-draw", args=[evening.pk])).content.decode()
    assert "Deal the draw</button>" in page and "The seating (" not in page


_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


def _page(client, url: str) -> str:
    """The page, each request's CSRF token left out."""
    return _TOKEN.sub(r'\1"', client.get(url).content.decode())


def _reads_every_guest(sql: str) -> bool:
    return 'FROM "tournament_guest"' in sql and "COUNT(" not in sql


def test_the_poker_draw_page_drawn_again_reads_no_guest_and_shows_the_same(client, host):
    evening = played_evening(host, 12)
    late = guest_add(evening=evening, name="Zoë Late", pack="red")
    guest_set_status(guest=late, status=Guest.Status.HERE)
    client.force_login(host)
    url = reverse("host-draw", args=[evening.pk])
    kept_forget()
    first = _page(client, url)
    with CaptureQueriesContext(connection) as queries:
        again = _page(client, url)
    assert again == first
    assert not [q["sql"] for q in queries.captured_queries if _reads_every_guest(q["sql"])]
    kept_forget()
    assert _page(client, url) == first  # the page drawn from nothing


def test_the_board_at_tables_of_four_drawn_again_reads_no_guest_and_names_who_needs_a_seat(client, host):
    """Who is here unseated and who has left a seat are found among the guests read once per
    version, not in queries listing every seated guest's id."""
    evening = _bunco(host)
    guest_add(evening=evening, name="Ivy Late", pack="red", check_in=True)
    gone = evening.guests.filter(seat__isnull=False).order_by("pk").first()
    Guest.objects.filter(pk=gone.pk).update(status=Guest.Status.LEFT)
    Evening.objects.filter(pk=evening.pk).update(version=evening.version + 100)
    client.force_login(host)
    url = reverse("host-evening", args=[evening.pk])
    kept_forget()
    first = _page(client, url)
    assert "Checked in but not seated: <bdi>Ivy Late</bdi>" in first
    assert f"Marked as left but still seated: <bdi>{gone.name}</bdi> (table " in first
    with CaptureQueriesContext(connection) as queries:
        again = _page(client, url)
    assert again == first
    assert not [q["sql"] for q in queries.captured_queries if 'FROM "tournament_guest"' in q["sql"]]
