"""The evening's settings and clock pages after the draw, in every format: what the draw fixes
(the format; at tables of four the options of play; the Euchre tournament's number of games) is
shown as text with why ("fixed once the guests have drawn"), not offered as a choice the save
would refuse; the page as the browser sends it saves; a page drawn before the draw that sends a
change is still refused. A refused save leaves the page's heading, back link and title on the
saved name, not the refused one."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tournament.forms.evening import ClockSettingsForm, EveningForm
from tournament.models import Evening
from tournament.registry import installed_formats
from tournament.services.draws import draw_digital

pytestmark = pytest.mark.django_db

FIXED = "fixed once the guests have drawn"


def _drawn(host, key: str, **fields) -> Evening:
    """A drawn evening of format ``key`` with 16 checked-in guests."""
    fields.setdefault("rounds_planned", 4)
    evening = EveningFactory(host=host, format=key, **fields)
    for i in range(16):
        GuestFactory(evening=evening, name=f"Guest {i + 1}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    return Evening.objects.get(pk=evening.pk)


def _offered(page: str) -> set[str]:
    """The names of the inputs, selects and text areas a page offers (not disabled)."""
    return {
        name
        for tag, name in re.findall(r'(<(?:input|select|textarea)[^>]*\bname="([^"]+)"[^>]*>)', page)
        if " disabled" not in tag
    }


def _as_sent(page: str, form) -> dict:
    """What a browser sends for ``page``'s form unchanged: each offered field's initial value."""
    data: dict = {}
    for name in _offered(page):
        if name == "seen":
            data[name] = re.search(r'name="seen" value="([^"]+)"', page).group(1)
        elif name in form.fields:
            value = form.get_initial_for_field(form.fields[name], name)
            if isinstance(value, bool):
                if value:
                    data[name] = "on"
            elif value is not None:
                data[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return data


@pytest.mark.parametrize("key", sorted(installed_formats()))
def test_the_settings_page_after_the_draw_shows_what_is_fixed_as_text_and_saves_as_sent(host, client, key):
    evening = _drawn(host, key)
    plugin = installed_formats()[key]
    client.force_login(host)
    url = reverse("host-evening-edit", args=[evening.pk])
    page = client.get(url).content.decode()
    form = EveningForm(instance=evening)
    fixed = [name for name in ("format", *plugin.fixed_at_draw) if name in form.fields]
    offered = _offered(page)
    for name in fixed:
        assert name not in offered, name
        label = str(form.fields[name].label)
        assert f"{label}: <strong>" in unescape(page), name
    assert unescape(page).count(FIXED) == len(fixed)
    assert f"Format: <strong>{plugin.title}</strong>" in unescape(page)
    data = _as_sent(page, form)
    data["name"] = "Renamed after the draw"
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    saved = Evening.objects.get(pk=evening.pk)
    assert (saved.name, saved.format, saved.rounds_planned) == ("Renamed after the draw", key, 4)
    assert not plugin.options_differ(evening.options or {}, (saved.options or {}).get("format", {}))


def test_a_ladder_evening_shows_its_movement_as_fixed_and_keeps_it_when_the_page_is_saved(host, client):
    evening = _drawn(host, "euchre", options={"format": {"movement": "circle", "partners_change": False}})
    client.force_login(host)
    url = reverse("host-evening-edit", args=[evening.pk])
    page = unescape(client.get(url).content.decode())
    assert "Movement at the bell: <strong>Circle: winners move one table towards the head" in page
    assert "Partners: <strong>Partners are kept: the winners move on together</strong>" in page
    assert "Tied prizes" in page and 'name="prize_ties"' in page  # the prizes' options still change
    data = _as_sent(page, EveningForm(instance=evening))
    data["prize_ties"] = "shared"
    assert client.post(url, data).status_code == 302
    stored = Evening.objects.get(pk=evening.pk).options["format"]
    assert (stored["movement"], stored["partners_change"], stored["prize_ties"]) == ("circle", False, "shared")


def test_a_page_drawn_before_the_draw_that_changes_the_movement_is_still_refused(host, client):
    evening = EveningFactory(host=host, format="euchre")
    client.force_login(host)
    url = reverse("host-evening-edit", args=[evening.pk])
    before = client.get(url).content.decode()
    assert "movement" in _offered(before)  # before the draw: offered
    data = _as_sent(before, EveningForm(instance=evening))
    for i in range(16):
        GuestFactory(evening=evening, name=f"Guest {i + 1}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    data.pop("seen")
    data["movement"] = "circle"
    response = client.post(url, data)
    assert response.status_code == 200
    assert "The options of play cannot change after the draw (the movement)" in unescape(response.content.decode())
    assert "movement" not in (Evening.objects.get(pk=evening.pk).options or {}).get("format", {})


def test_the_clock_page_of_a_drawn_euchre_tournament_shows_its_number_of_games_as_fixed(host, client):
    evening = _drawn(host, "euchre_tournament")
    client.force_login(host)
    url = reverse("host-clock-settings", args=[evening.pk])
    page = client.get(url).content.decode()
    assert "rounds_planned" not in _offered(page)
    assert f'Number of rounds: <strong>4</strong> <span class="hint">({FIXED})' in page
    data = _as_sent(page, ClockSettingsForm(instance=evening))
    data["changeover_minutes"] = 3
    assert client.post(url, data).status_code == 302
    saved = Evening.objects.get(pk=evening.pk)
    assert (saved.rounds_planned, saved.changeover_minutes) == (4, 3)


def test_the_clock_page_of_a_drawn_poker_evening_still_offers_the_number_of_rounds(host, client):
    evening = _drawn(host, "poker")
    client.force_login(host)
    page = client.get(reverse("host-clock-settings", args=[evening.pk])).content.decode()
    assert "rounds_planned" in _offered(page) and FIXED not in page


@pytest.mark.parametrize("key", ["poker", "euchre_tournament"])
def test_a_refused_save_keeps_the_saved_name_in_the_heading_back_link_and_title(host, client, key):
    evening = _drawn(host, key, name="Friday cards")
    client.force_login(host)
    url = reverse("host-evening-edit", args=[evening.pk])
    page = client.get(url).content.decode()
    data = _as_sent(page, EveningForm(instance=evening))
    data["name"] = "Refused name"
    data["format"] = "bunco" if key != "bunco" else "poker"  # a tab from before the draw: refused
    response = client.post(url, data)
    body = unescape(response.content.decode())
    assert response.status_code == 200 and "The format cannot change after the draw" in body
    assert "<title>Settings · Friday cards" in body
    assert "← Friday cards</a>" in body
    assert 'value="Refused name"' in body  # the field keeps what was typed, to correct it
    assert Evening.objects.get(pk=evening.pk).name == "Friday cards"
