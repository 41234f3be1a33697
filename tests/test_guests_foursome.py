"""The host's guests page at tables of four, between rounds: "Left" gives the guest's seat to a
ghost (they keep their tallies), "Check in" seats a late guest in the ghost seat nearest the foot
table (``docs/rules/tables-of-four.md``, 'Guests who leave or arrive late'; house rule for the late guest)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tests.test_foursome_services import _play
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest, Seat

pytestmark = pytest.mark.django_db


def test_a_bunco_guest_leaves_after_round_1_and_a_late_guest_takes_the_ghost_seat(client, host):
    evening = EveningFactory(host=host, format="bunco", round_end=Evening.RoundEnd.CLOCK)
    for n in range(12):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    late = GuestFactory(evening=evening, name="Late Lou", pack="red", status=Guest.Status.REGISTERED)
    foursome_draw(evening=evening)
    (n1, e1, s1, w1), (n2, e2, s2, w2), _ = foursome_state(evening).tables
    _play(
        evening,
        {
            1: {"points": {"NS": 21, "EW": 8}, "buncos": {str(n1): 1}},
            2: {"points": {"NS": 4, "EW": 12}},
            3: {"points": {"NS": 9, "EW": 7}},
        },
    )
    # after the bell the head table is (n1, s1, e2, w2): n1 won with a bunco and stays at North
    client.force_login(host)
    leaver = Guest.objects.get(pk=n1)
    response = client.post(reverse("host-guest-status", args=[evening.pk, n1]), {"action": "left"}, follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert f"{leaver.name} has left; Ghost 1 takes their seat at table 1. {leaver.name} keeps their tallies." in text
    state = foursome_state(evening)
    assert state.tables[0] == (-1, s1, e2, w2)
    assert state.tally(n1, "buncos") == 1 and state.tally(n1, "wins") == 1 and state.tally(n1, "points") == 21
    assert not Seat.objects.filter(guest_id=n1).exists()
    assert Guest.objects.get(pk=n1).status == Guest.Status.LEFT
    assert Bell.objects.filter(round__evening=evening, kind=Bell.Kind.LEAVE).count() == 1

    response = client.post(reverse("host-guest-status", args=[evening.pk, late.pk]), {"action": "here"}, follow=True)
    assert "Late Lou takes Ghost 1&#x27;s seat at table 1." in response.content.decode()
    state = foursome_state(evening)
    assert state.tables[0] == (late.pk, s1, e2, w2)
    assert state.tally(n1, "buncos") == 1  # the leaver keeps their tallies
    seat = Seat.objects.get(guest=late)
    assert (seat.table, seat.position) == (1, 0)
    assert Guest.objects.get(pk=late.pk).status == Guest.Status.HERE

    later = GuestFactory(evening=evening, name="Later Liz", pack="blue", status=Guest.Status.REGISTERED)
    response = client.post(reverse("host-guest-status", args=[evening.pk, later.pk]), {"action": "here"}, follow=True)
    assert "Later Liz opens a new foot table, table 4, with three ghosts." in response.content.decode()
    assert foursome_state(evening).tables[3] == (later.pk, -2, -3, -4)


def test_a_guest_who_left_is_told_so_on_their_phone_not_that_a_seat_is_coming(client, host):
    evening = EveningFactory(host=host, format="bunco", round_end=Evening.RoundEnd.CLOCK)
    for n in range(8):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    (n1, *_), _ = foursome_state(evening).tables
    _play(evening, {1: {"points": {"NS": 21, "EW": 8}}, 2: {"points": {"NS": 4, "EW": 12}}})
    client.force_login(host)
    client.post(reverse("host-guest-status", args=[evening.pk, n1]), {"action": "left"})
    client.logout()
    page = client.get(reverse("guest-page", args=[Guest.objects.get(pk=n1).key])).content.decode()
    assert "You have left the evening" in page
    assert "Your tallies so far stay in the standings" in page
    assert "Not seated yet" not in page and "shows your table as soon as you have one" not in page
