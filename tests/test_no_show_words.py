"""A guest who never came is not thanked for playing (issue 24 item 8): when the evening has
ended, a registered guest who was never checked in reads "You were not checked in" on their
phone, at Progressive Poker and at tables of four, while those who played are thanked."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.fixtures_ending import ended_evening
from tests.fixtures_foursome_night import ended_night, waiting_night
from tournament.models import Evening, Guest


def no_show(evening: Evening) -> Guest:
    """A guest registered for ``evening`` who never checked in."""
    return Guest.objects.create(
        evening=evening, name="Nadia Absent", name_key=Guest.fold_name("Nadia Absent"), pack="red"
    )


def phone(client, guest: Guest) -> str:
    return client.get(reverse("guest-page", args=[guest.key])).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["poker", "euchre", "bunco"])
def test_a_no_show_is_told_they_were_not_checked_in(client, host, fmt):
    evening = ended_evening(host, 8) if fmt == "poker" else ended_night(waiting_night(host, fmt))
    assert evening.stage == Evening.Stage.ENDED
    absent = no_show(evening)
    page = phone(client, absent)
    assert "You were not checked in" in page and "Thank you for playing" not in page
    player = evening.guests.filter(status=Guest.Status.HERE).first()
    assert "You were not checked in" not in phone(client, player)
