"""The small things of a real night: the date fields a browser can fill (ISO values), the
favicon, places shared by ties on every page (a 30-way tie at 0 is place 1 for all thirty, on
the phone too), and one word, "fresh stakes", on the web, in the PDF and in the export."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from tables.formats.poker.prizes import StandingRow, places
from tables.packs import Pack
from tests.factories import EveningFactory, GuestFactory
from tests.fixtures_printing import printing_evening
from tests.test_printing_documents import all_text
from tournament.exchange.export import evening_export
from tournament.models import Evening, Guest
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


# Date fields.


def test_create_an_evening_offers_todays_date_as_an_iso_value(logged_in):
    page = logged_in.get(reverse("host-evenings")).content.decode()
    field = re.search(r'<input type="date" name="date"[^>]*>', page).group(0)
    assert f'value="{datetime.date.today():%Y-%m-%d}"' in field


def test_settings_show_the_evenings_date_and_save_without_retyping_it(logged_in, host):
    evening = EveningFactory(host=host, name="Harvest", date=datetime.date(2026, 11, 30))
    page = logged_in.get(reverse("host-evening-edit", args=[evening.pk])).content.decode()
    field = re.search(r'<input type="date" name="date"[^>]*>', page).group(0)
    assert 'value="2026-11-30"' in field
    form = {
        "name": "Harvest night",
        "date": "2026-11-30",
        "game": evening.game,
        "counters_per_stake": 50,
        "minutes_per_round": 10,
        "round_end": evening.round_end,
        "red_label": "Ladies",
        "blue_label": "Gentlemen",
    }
    response = logged_in.post(reverse("host-evening-edit", args=[evening.pk]), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    evening.refresh_from_db()
    assert (evening.name, evening.date) == ("Harvest night", datetime.date(2026, 11, 30))


def test_a_date_that_is_not_a_date_is_refused_and_nothing_changes(logged_in, host):
    evening = EveningFactory(host=host, name="Harvest", date=datetime.date(2026, 11, 30))
    form = {
        "name": "Changed",
        "date": "30/13/2026",
        "game": evening.game,
        "counters_per_stake": 50,
        "minutes_per_round": 10,
        "round_end": evening.round_end,
        "red_label": "Ladies",
        "blue_label": "Gentlemen",
    }
    response = logged_in.post(reverse("host-evening-edit", args=[evening.pk]), form)
    assert response.status_code == 200 and "Enter a valid date" in response.content.decode()
    evening.refresh_from_db()
    assert evening.name == "Harvest"


# The favicon.


def test_every_page_links_the_favicon_and_it_is_served(client):
    page = client.get(reverse("home")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    assert '<link rel="icon" href="/static/favicon.ico"' in page
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"] == "/static/favicon.ico"


# Places shared by ties.


def row(guest, yellow, counters):
    return StandingRow(guest=guest, pack=Pack.RED, counters=counters, yellow=yellow, stakes=1, counters_won=0)


def test_places_are_shared_by_guests_level_on_yellow_counters_and_counters():
    rows = [row(1, 2, 60), row(2, 2, 60), row(3, 1, 80), row(4, 0, 50), row(5, 0, 50), row(6, 0, 50), row(7, 0, 10)]
    assert places(rows) == (1, 1, 3, 4, 4, 4, 7)
    assert places([row(g, 0, 0) for g in range(30)]) == (1,) * 30
    assert places([]) == ()


@pytest.fixture
def thirty_level(host):
    """30 guests drawn and round 1 running, nobody with a yellow counter: all level."""
    evening = EveningFactory(host=host)
    for i in range(30):
        GuestFactory(
            evening=evening, name=f"Guest number {i + 1:02d}", pack="red" if i % 2 else "blue", status=Guest.Status.HERE
        )
    draw_digital(evening=evening)
    round_start(evening=evening)
    return Evening.objects.get(pk=evening.pk)


def test_a_30_way_tie_is_place_1_for_everyone_on_the_phone_the_board_the_room_and_the_export(
    client, logged_in, thirty_level
):
    evening = thirty_level
    last = evening.guests.order_by("-name").first()
    phone = client.get(reverse("guest-page", args=[last.key])).content.decode()
    assert "place 1 of 30" in phone
    items = re.findall(r"<li value=\"(\d+)\"", phone)
    assert items and set(items) == {"1"}  # the list is numbered by place, not 1, 2, 3 ...
    assert "You: place 1," in phone
    # The host's standings are a tab of the board of their own (issue 11: the board at 84 tables).
    board = logged_in.get(reverse("host-standings", args=[evening.pk])).content.decode()
    standings = board[board.index('id="standings-h"') :]
    assert set(re.findall(r"<tr><td>(\d+)</td>", standings)) == {"1"}
    room = client.get(reverse("room", args=[evening.public_key]) + "?mode=full").content.decode()
    assert set(re.findall(r'<span class="place">(\d+)</span>', room)) == {"1"}
    assert {r["place"] for r in evening_export(evening)["standings"]} == {1}


# One word for fresh stakes.


def test_fresh_stakes_are_counted_and_named_alike_on_the_web_in_the_pdf_and_in_the_export(logged_in, host):
    evening = printing_evening(host, guests=12, in_play=False)
    rows = evening_export(evening)["standings"]
    assert all(r["fresh_stakes"] == r["stakes"] - 1 for r in rows)
    page = logged_in.get(reverse("host-standings", args=[evening.pk])).content.decode()
    assert "<th>Fresh stakes</th>" in page and "<th>Stakes</th>" not in page
    cells = re.findall(r"<td>(\d+)</td><td>(-?\d+)</td></tr>", page)  # fresh stakes, counters won
    assert sorted(int(fresh) for fresh, _ in cells) == sorted(r["fresh_stakes"] for r in rows)
    response = logged_in.get(reverse("host-print-results", args=[evening.pk]))
    assert response["Content-Type"] == "application/pdf", response.content.decode()[:500]
    assert "Fresh stakes" in all_text(response.content)


@pytest.mark.django_db
def test_a_refused_count_names_whose_count_to_fix(make_evening):
    from tournament.forms.evening import ResultForm

    evening = make_evening(2, 2)
    guests = list(evening.guests.order_by("pk"))
    data = {
        "pool_winner": str(guests[0].pk),
        f"counters_{guests[0].pk}": "-80",
        f"counters_{guests[1].pk}": "1000001",
        f"counters_{guests[2].pk}": "٣",
        f"counters_{guests[3].pk}": "5",
    }
    form = ResultForm(data, guests=guests, counters_required=True)
    assert not form.is_valid()
    assert form.errors[f"counters_{guests[0].pk}"] == [f"{guests[0].name}'s counters cannot be below 0."]
    assert form.errors[f"counters_{guests[1].pk}"] == [f"{guests[1].name}'s counters: at most 1,000,000."]
    assert form.errors[f"counters_{guests[2].pk}"] == [
        f"{guests[2].name}'s counters: a whole number in the digits 0 to 9."
    ]


@pytest.mark.django_db
def test_opening_a_buttons_address_shows_a_page_not_a_blank(client, host, make_evening):
    evening = make_evening(2, 2)
    client.force_login(host)
    response = client.get(reverse("host-helpers", args=[evening.pk]))
    assert response.status_code == 405 and "POST" in response["Allow"]
    assert "This address is not a page" in response.content.decode()
    assert client.post(reverse("host-helpers", args=[evening.pk]), {}).status_code != 405  # the form still works
