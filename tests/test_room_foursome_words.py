"""The room display and the evening page at tables of four say what poker's say (issue 24 item
8): after the draw and before round 1 the room tells everyone to find their table, not that the
draw is next; the host's evening page links to the room display, as the host's guide says."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.fixtures_room import guest_names
from tournament.formats.partnership.state import foursome_draw
from tournament.models import Evening, Guest

FORMATS = ("euchre", "whist", "bunco", "euchre_tournament")


def checked_in(host, fmt: str, size: int = 8) -> Evening:
    """An evening of ``fmt`` with ``size`` guests checked in and no draw yet."""
    evening = Evening.objects.create(
        host=host, name=f"The {fmt} party", date="2026-11-30", format=fmt, rounds_planned=3
    )
    Guest.objects.bulk_create(
        [
            Guest(evening=evening, name=name, name_key=Guest.fold_name(name), pack="red", status=Guest.Status.HERE)
            for name in guest_names(size)
        ]
    )
    return evening


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_after_the_draw_the_room_says_find_your_table(client, host, fmt):
    evening = checked_in(host, fmt)
    room = reverse("room", args=[evening.public_key])
    before = client.get(room).content.decode()
    assert "Welcome" in before and "The draw is next." in before
    foursome_draw(evening=evening)
    after = client.get(room).content.decode()
    assert "Find your table" in after and "Round 1 starts soon." in after
    assert "The draw is next." not in after and "Welcome" not in after


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_evening_page_links_to_the_room_display(client, host, fmt):
    evening = checked_in(host, fmt)
    client.force_login(host)
    link = f'<a href="{reverse("room", args=[evening.public_key])}" target="_blank" rel="noopener">Room display</a>'
    assert link in client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    foursome_draw(evening=evening)
    assert link in client.get(reverse("host-evening", args=[evening.pk])).content.decode()
