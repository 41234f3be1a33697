"""The audit log and the end of an evening at tables of four: sentences with names, the prizes with no final count."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tests.test_no_developer_text import visible_text
from tournament.formats.partnership.bell import foursome_guest_leaves
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db


def test_the_audit_log_of_a_bunco_evening_reads_in_sentences(client):
    evening = EveningFactory(format="bunco", round_end=Evening.RoundEnd.CLOCK)
    for n in range(8):
        GuestFactory(evening=evening, name=f"Player {n + 1}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    north = foursome_state(evening).tables[0][0]
    foursome_report(round=rnd, table=1, report={"points": {"NS": 21, "EW": 4}, "buncos": {north: 1}})
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    bell_undo(evening=evening, bell_id=bell.pk)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    foursome_guest_leaves(evening=evening, guest=Guest.objects.get(pk=north))
    client.force_login(evening.host)
    text = visible_text(client.get(reverse("host-audit", args=[evening.pk])).content.decode())
    name = Guest.objects.get(pk=north).name
    assert "{" not in text and "None" not in text and "bell ring" not in text
    assert "The host recorded table 1's result in round 1: North–South won, 21 points to 4." in text
    assert "rang the bell for round 1: 4 guests moved; table 2 had no report or a tie:" in text
    assert f"The host marked {name} as left." in text


def test_a_bunco_evening_ends_with_its_prizes_and_no_final_count(client):
    evening = EveningFactory(format="bunco", round_end=Evening.RoundEnd.CLOCK, rounds_planned=1)
    for n in range(8):
        GuestFactory(evening=evening, name=f"Player {n + 1}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    north = foursome_state(evening).tables[0][0]
    foursome_report(round=rnd, table=1, report={"points": {"NS": 21, "EW": 4}, "buncos": {north: 1}})
    foursome_report(round=rnd, table=2, report={"points": {"NS": 3, "EW": 9}})
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    client.force_login(evening.host)
    page = client.get(reverse("host-finish", args=[evening.pk]))
    text = visible_text(page.content.decode())
    assert page.status_code == 200 and "there is nothing to count" in text and "final count" not in text
    assert "1. The prize ceremony" in text and "Reveal next prize" in text
    room = visible_text(client.get(reverse("room", args=[evening.public_key])).content.decode())
    assert "The prizes are next." in room and "final count" not in room
    response = client.post(reverse("host-reveal", args=[evening.pk]), {"step": 0}, follow=True)
    assert response.status_code == 200 and Evening.objects.get(pk=evening.pk).ceremony_step == 1
