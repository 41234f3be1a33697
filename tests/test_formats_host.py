"""The host's pages for the formats at tables of four (Progressive Euchre, Drive Whist, Bunco):
the evening form's format and options, the draw, the result forms, the bell, standings.

Values are worked by hand from ``/shared/formats.md``.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EveningFactory
from tournament.models import Evening
from tournament.services.foursomes import foursome_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def _settings(**changes) -> dict:
    form = {
        "name": "Euchre night",
        "date": "2026-11-30",
        "minutes_per_round": 20,
        "round_end": "head_pool",
        "red_label": "Ladies",
        "blue_label": "Gentlemen",
    }
    return form | changes


def test_a_host_creates_a_euchre_evening_with_its_options_and_no_poker_settings(logged_in, host):
    page = logged_in.get(reverse("host-evenings")).content.decode()
    assert "Progressive Euchre" in page and "Bunco" in page and "Progressive Poker only" in page
    response = logged_in.post(
        reverse("host-evenings"),
        _settings(
            format="euchre",
            movement="ladder_down",
            partners_change="",
            ties="cut",
            prize_ties="shared",
            prize_by_points="on",
        ),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    evening = Evening.objects.get(host=host)
    assert evening.format == "euchre"
    assert evening.options["format"] == {
        "movement": "ladder_down",
        "ties": "cut",
        "prize_ties": "shared",
        "prize_by_points": True,
    }
    assert (evening.counters_per_stake, evening.counter_value) == (50, None)  # untouched defaults
    page = logged_in.get(reverse("host-evening-edit", args=[evening.pk])).content.decode()
    assert "counters_per_stake" not in page and "Progressive Poker only" not in page
    assert "When the head table&#x27;s game is over" in page or "When the head table's game is over" in page
    assert 'value="ladder_down" selected' in page


def test_a_poker_evening_is_created_as_before_and_needs_its_stake(logged_in, host):
    response = logged_in.post(
        reverse("host-evenings"), _settings(name="Poker", game="draw_poker", counters_per_stake=40)
    )
    assert response.status_code == 302
    evening = Evening.objects.get(host=host)
    assert (evening.format, evening.counters_per_stake, evening.options) == ("poker", 40, {})
    response = logged_in.post(reverse("host-evenings"), _settings(name="Poker 2", format="poker"))
    assert response.status_code == 200
    assert "Give the counters per stake" in response.content.decode()
    assert Evening.objects.filter(host=host).count() == 1


def test_bunco_keeps_the_poker_fields_out_of_its_settings_page_and_saves_its_options(logged_in, host):
    evening = EveningFactory(host=host, format="bunco", counters_per_stake=30)
    response = logged_in.post(
        reverse("host-evening-edit", args=[evening.pk]),
        _settings(name="Bunco club", counters_per_stake=9999, movement="circle", partners_change="keep"),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    evening.refresh_from_db()
    assert (evening.name, evening.format, evening.counters_per_stake) == ("Bunco club", "bunco", 30)
    assert evening.options["format"]["movement"] == "circle"
    assert evening.options["format"]["partners_change"] is False


def test_changing_the_format_after_the_draw_is_refused_and_nothing_is_saved(logged_in, make_evening):
    evening = make_evening(4, 4, format="euchre")
    foursome_draw(evening=evening)
    response = logged_in.post(
        reverse("host-evening-edit", args=[evening.pk]), _settings(name="Changed", format="bunco")
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "The format cannot change after the draw: this evening plays Progressive Euchre." in text
    before = evening.name
    evening.refresh_from_db()
    assert (evening.name, evening.format) == (before, "euchre")


def test_a_format_that_does_not_exist_or_a_movement_that_does_not_exist_is_refused(logged_in, host):
    for bad in ({"format": "canasta"}, {"format": "euchre", "movement": "spiral"}):
        response = logged_in.post(reverse("host-evenings"), _settings(**bad))
        assert response.status_code == 200
        assert "Select a valid choice" in response.content.decode()
    assert not Evening.objects.filter(host=host).exists()
