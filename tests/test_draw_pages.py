"""The draw's pages over HTTP: the draw page, the physical draw's entry page (every wrong card
refused with a message, nothing saved), the pull list, the check-in changes and the seating."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import GuestFactory, HostFactory
from tests.test_draw_services import make, physical_cards
from tournament.models import Draw, DrawnCard, Evening, Seat
from tournament.services.clock import round_start
from tournament.services.draw_physical import draw_physical_start
from tournament.services.draws import draw_digital, live_draw


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def url(name: str, evening: Evening, *args) -> str:
    return reverse(name, args=[evening.pk, *args])


def test_every_draw_page_is_the_hosts_own(client, host):
    evening = make(6, 6, host=host)
    client.force_login(HostFactory(username="someone-else"))
    for name in ("host-draw", "host-draw-pull", "host-draw-physical", "host-draw-seating"):
        assert client.get(url(name, evening)).status_code == 404
    assert client.post(url("host-draw-physical-action", evening), {"action": "finish"}).status_code == 404
    client.logout()
    assert client.get(url("host-draw", evening)).status_code == 302


def test_the_draw_page_plans_deals_and_shows_the_seating(logged_in, host):
    evening = make(7, 5, host=host)
    page = logged_in.get(url("host-draw", evening)).content.decode()
    assert "3 tables" in page and "Deal the cards" in page and "Start a physical draw" in page
    assert "1 guest of the Red pack must draw from the Blue pack: choose who" in page
    assert "not checked in" not in page
    GuestFactory(evening=evening, name="Slow Sam", pack="blue", status="registered")
    page = logged_in.get(url("host-draw", evening)).content.decode()
    assert "1 registered guest is not checked in and will not be seated" in page
    response = logged_in.post(url("host-draw", evening), {"action": "digital"})
    assert response.status_code == 302 and response["Location"] == url("host-evening", evening)
    seating = logged_in.get(url("host-draw-seating", evening)).content.decode()
    assert "Table 1 · Head table" in seating and "Table 3 · Booby table" in seating and "The aces" in seating
    assert "(represents the Blue pack)" in seating  # one red guest drew a blue card


def test_a_wrong_pick_of_who_represents_is_refused_with_names(logged_in, host):
    evening = make(7, 5, host=host)
    blue = evening.guests.get(name="Blue 2")
    response = logged_in.post(url("host-draw", evening), {"action": "digital", "representing": [blue.pk]}, follow=True)
    assert "Blue 2 belongs to the blue pack" in response.content.decode() and not Draw.objects.exists()


def test_nine_guests_get_the_offer_and_accept_it(logged_in, host):
    evening = make(5, 4, host=host)
    page = logged_in.get(url("host-draw", evening)).content.decode()
    assert "cannot be seated by the rules" in page and "Accept this plan and deal" in page
    logged_in.post(url("host-draw", evening), {"action": "digital"})
    assert not Draw.objects.exists()
    logged_in.post(url("host-draw", evening), {"action": "digital", "accept_relaxed": "1"})
    assert live_draw(evening).sizes == [4, 5]


def test_the_pull_list_names_the_cards_with_the_hosts_labels(logged_in, host):
    evening = make(
        7,
        5,
        host=host,
    )
    Evening.objects.filter(pk=evening.pk).update(red_label="Ladies", blue_label="Gentlemen")
    page = logged_in.get(url("host-draw-pull", evening)).content.decode()
    assert "Ladies: 6 cards" in page and "Gentlemen: 6 cards" in page and "2 aces" in page
    assert "No physical draw is started" in page
    draw_physical_start(evening=evening)
    assert "No physical draw is started" not in logged_in.get(url("host-draw-pull", evening)).content.decode()


def record(client, evening, name, card, htmx=False):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url("host-draw-physical", evening), {"guest": name, "card": card}, **headers)


def test_the_physical_page_refuses_every_wrong_card_and_saves_nothing(logged_in, host):
    evening = make(7, 5, host=host)
    logged_in.post(url("host-draw", evening), {"action": "physical"})
    assert record(logged_in, evening, "Red 1", "ace").status_code == 302
    assert record(logged_in, evening, "red 2", "1").status_code == 302  # case ignored
    late = GuestFactory(evening=evening, name="Late Lucy", pack="red", status="registered")
    wrong = [
        ("Red 3", "ace", "already taken (all 2 of them)"),  # a duplicate beyond its count
        ("Blue 1", "2 red", "Blue 1 must draw from the Blue pack"),  # the wrong pack
        ("Red 3", "5", "There is no five of the Red pack in this draw"),  # a rank beyond the plan
        ("Red 1", "deuce", "Red 1 has already drawn the ace of the Red pack"),  # a guest twice
        ("Late Lucy", "2", "Late Lucy is not checked in"),  # not checked in
        ("Nobody", "2", "No guest left to draw is called “Nobody”"),
        ("Red 3", "joker", "is not a table card"),
    ]
    for name, card, message in wrong:
        for htmx in (False, True):
            before = DrawnCard.objects.count(), Evening.objects.get(pk=evening.pk).version
            response = record(logged_in, evening, name, card, htmx=htmx)
            text = response.content.decode()
            assert response.status_code == 200 and message in text, (name, card, text[:3000])
            assert 'role="alert"' in text and f'value="{card}"' in text  # the typing is kept to fix
            assert (DrawnCard.objects.count(), Evening.objects.get(pk=evening.pk).version) == before
    assert late.drawn_cards.count() == 0


def test_the_physical_draw_entered_start_to_finish(logged_in, host):
    evening = make(9, 7, host=host)
    logged_in.post(url("host-draw", evening), {"action": "physical"})
    cards = physical_cards(evening)
    for guest, card in cards[:-1]:
        response = record(logged_in, evening, guest.name, card, htmx=True)
        assert "Saved: " + guest.name in response.content.decode()
    page = logged_in.get(url("host-draw-physical", evening)).content.decode()
    last, card = cards[-1]
    assert "15</strong> of 16 cards recorded" in page and f'<option value="{last.name}">' in page
    early = logged_in.post(url("host-draw-physical-action", evening), {"action": "finish"}, follow=True)
    assert "The draw is not finished" in early.content.decode()
    assert not Seat.objects.exists()  # not finished: one card left
    record(logged_in, evening, last.name, card)
    page = logged_in.get(url("host-draw-physical", evening)).content.decode()
    assert "Every card is recorded" in page
    response = logged_in.post(url("host-draw-physical-action", evening), {"action": "finish"})
    assert response["Location"] == url("host-draw-seating", evening) and Seat.objects.count() == 16


def test_undo_from_the_page(logged_in, host):
    evening = make(6, 6, host=host)
    draw_physical_start(evening=evening)
    record(logged_in, evening, "Red 1", "3")
    red1 = evening.guests.get(name="Red 1")
    logged_in.post(url("host-draw-physical-action", evening), {"action": "withdraw", "guest": red1.pk})
    assert not DrawnCard.objects.exists()


def test_no_card_is_recorded_after_round_1(logged_in, host):
    evening = make(6, 6, host=host)
    draw_digital(evening=evening)
    draw_physical_start(evening=evening)
    round_start(evening=evening)
    response = record(logged_in, evening, "Red 1", "2")
    assert "Round 1 has started" in response.content.decode()
    assert not DrawnCard.objects.filter(draw__kind="physical").exists()
    page = logged_in.get(url("host-draw", evening)).content.decode()
    assert "Round 1 has started" in page and "Deal the cards" not in page and "Redraw" not in page


def test_check_in_changes_offer_the_choices(logged_in, host):
    evening = make(10, 10, host=host)  # 4, 6, 6, 4
    draw_digital(evening=evening)
    late = GuestFactory(evening=evening, name="Late Lucy", pack="red", status="here")
    head = Seat.objects.filter(evening=evening, table=1).first().guest
    head.status = "left"
    head.save()
    page = logged_in.get(url("host-draw", evening)).content.decode()
    assert "Late Lucy" in page and "is checked in but has no seat" in page
    assert f"{head.name}</bdi></strong>" in page and "the head table must start with four" in page
    assert "Give the seat to" in page
    response = logged_in.post(
        url("host-draw-change", evening), {"action": "seat", "guest": late.pk, "table": "1"}, follow=True
    )
    assert "A latecomer cannot sit at table 1" in response.content.decode()
    logged_in.post(url("host-draw-change", evening), {"action": "swap", "guest": head.pk, "latecomer": late.pk})
    assert Seat.objects.get(guest=late).table == 1 and not Seat.objects.filter(guest=head).exists()
    assert "has changed since the draw" not in logged_in.get(url("host-draw", evening)).content.decode()


def test_the_public_seating_is_read_only_and_cached_by_version(client, host):
    evening = make(6, 6, host=host)
    public = reverse("public-seating", args=[evening.public_key])
    assert "not been made yet" in client.get(public).content.decode()
    draw_digital(evening=evening)
    response = client.get(public)
    text = response.content.decode()
    assert response.status_code == 200 and "Table 1 · Head table" in text and "Red 1" in text
    assert "<form" not in text.split("<main", 1)[1]
    assert client.get(public, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    assert client.get(reverse("public-seating", args=["nope"])).status_code == 404
