"""A guest who never played (registered and absent, or checked in and never seated for a round
whose bell rang) holds no place and wins no prize in any format: the standings, the ceremony,
the room display's final standings and the printed results list them apart, "Did not play"
(``FormatPlugin.played_guests``). A stranger's find: they were given a final place."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tests.pdf_reading import pdf_text
from tests.test_capabilities import _play
from tournament.documents.contents import document_pdf
from tournament.models import Evening, Guest
from tournament.registry import format_for, installed_formats
from tournament.services.draws import draw_digital
from tournament.services.ending import ceremony, ceremony_next, evening_end, final_count_record, final_count_tables
from tournament.services.guests import guests_check_in

pytestmark = pytest.mark.django_db


def _ended(host, key: str) -> tuple[Evening, list[str]]:
    """An evening of ``key``: 16 guests drawn, one round played, then "Zoë Late" checked in (seated
    or not, she plays no round), "Ábel Absent" registered and never here; ended, counted."""
    evening = EveningFactory(host=host, format=key, rounds_planned=3, round_end=Evening.RoundEnd.CLOCK)
    for i in range(16):
        GuestFactory(evening=evening, name=f"Guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    GuestFactory(evening=evening, name="Ábel Absent", pack="red", status=Guest.Status.REGISTERED)
    late = GuestFactory(evening=evening, name="Zoë Late", pack="blue", status=Guest.Status.REGISTERED)
    draw_digital(evening=evening, user=host)
    _play(evening, host, 1)
    guests_check_in(evening=evening, guest_ids=[late.pk], user=host)
    evening.refresh_from_db()
    evening_end(evening=evening, seen_round=1, user=host)
    evening.refresh_from_db()
    for table in final_count_tables(evening):
        final_count_record(evening=evening, table=table.number, counters=table.last, user=host)
    return Evening.objects.get(pk=evening.pk), ["Ábel Absent", "Zoë Late"]


def _line_names(standings) -> list[str]:
    return [getattr(line, "name", None) or line.guest.name for line in standings.lines]


@pytest.mark.parametrize("key", sorted(installed_formats()))
def test_a_guest_who_never_played_has_no_place_and_is_listed_apart(host, client, key):
    evening, apart = _ended(host, key)
    standings = format_for(evening).standings(evening)
    placed = _line_names(standings)
    assert not set(apart) & set(placed)
    assert [g.name for g in standings.did_not_play] == apart
    assert sorted({line.place for line in standings.lines})[0] == 1
    assert max(line.place for line in standings.lines) <= len(placed)
    for prize in standings.prizes:
        assert not {g.name for g in prize.winners} & set(apart), prize.title
    # the host's standings page
    client.force_login(host)
    page = client.get(reverse("host-standings", args=[evening.pk])).content.decode()
    assert "Did not play" in page
    assert "<bdi>Ábel Absent</bdi> and <bdi>Zoë Late</bdi>" in page
    # the ceremony, and the room display's final standings
    now = ceremony(evening)
    assert now.did_not_play == tuple(apart)
    for step in range(now.steps):
        ceremony_next(evening=evening, seen_step=step, user=host)
    room = client.get(reverse("room", args=[evening.public_key])).content.decode()
    assert "Did not play (no place): <bdi>Ábel Absent</bdi> and <bdi>Zoë Late</bdi>" in room
    # the printed results
    text = pdf_text(document_pdf(evening=evening, slug="results", base_url="http://party.local"))
    assert "Did not play" in text and "Ábel Absent" in text and "Zoë Late" in text


def test_before_the_first_bell_nobody_is_told_apart(host):
    evening = EveningFactory(host=host, format="poker")
    for i in range(12):
        GuestFactory(evening=evening, name=f"Guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    standings = format_for(evening).standings(evening)
    assert len(standings.lines) == 12 and standings.did_not_play == ()
