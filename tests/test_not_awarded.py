"""A prize nobody won says "Not awarded" wherever prizes are listed (issue 24 item 8: the prize
summary showed a blank name for "Most mini buncos, Blue pack" while its slide said "Not
awarded"): a Bunco night of one round with no bunco and no mini bunco rolled, on the room
display's summary of the prizes and the host's standings."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.fixtures_ending import reveal
from tests.fixtures_room import guest_names
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Evening, Guest
from tournament.services import ending
from tournament.services.clock import round_start


def quiet_bunco_night(host) -> Evening:
    """Eight guests, one round, every table won 30 to 8 by North–South with no bunco and no mini
    bunco: the prizes for buncos and mini buncos have nobody to go to."""
    evening = Evening.objects.create(
        host=host,
        name="The quiet Bunco night",
        date="2026-11-30",
        format="bunco",
        minutes_per_round=20,
        rounds_planned=1,
        round_end=Evening.RoundEnd.HEAD_POOL,
    )
    Guest.objects.bulk_create(
        [
            Guest(
                evening=evening,
                name=name,
                name_key=Guest.fold_name(name),
                pack="red" if i % 2 else "blue",
                status=Guest.Status.HERE,
            )
            for i, name in enumerate(guest_names(8))
        ]
    )
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    for number in range(len(foursome_state(evening).tables), 0, -1):  # the head table's report ends it
        report = {"points": {"NS": 30, "EW": 8}, "buncos": {}, "minis": {}}
        foursome_report(round=rnd, table=number, report=report, user=host)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    return evening


@pytest.mark.django_db
def test_a_prize_nobody_won_says_not_awarded_everywhere(client, host):
    evening = quiet_bunco_night(host)
    client.force_login(host)
    standings = client.get(reverse("host-standings", args=[evening.pk])).content.decode()
    unawarded = re.findall(r"<strong>(Most (?:mini )?buncos[^<]*)</strong>: Not awarded", standings)
    assert len(unawarded) == 4, unawarded  # buncos and mini buncos, each pack
    evening = reveal(evening, ending.ceremony(evening).steps)
    room = client.get(reverse("room", args=[evening.public_key])).content.decode()
    summary = re.findall(r'<span class="prize-name">([^<]*)</span> <span class="prize-who">([^<]*)</span>', room)
    assert summary and all(who for _, who in summary), summary  # no blank name
    assert {title for title, who in summary if who == "Not awarded"} >= {"Most mini buncos, Blue pack"}, summary
