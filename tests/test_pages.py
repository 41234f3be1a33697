"""The host's and the guests' pages over HTTP: access, forms, bad input, headers."""

import pytest
from django.urls import reverse

from tests.factories import HostFactory
from tournament.models import Bell, Guest, Result, Round
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def test_host_pages_need_a_login(client, make_evening):
    evening = make_evening(4, 4)
    response = client.get(reverse("host-evening", args=[evening.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_host_cannot_see_another_hosts_evening(client, make_evening):
    evening = make_evening(4, 4)
    client.force_login(HostFactory(username="someone-else"))
    for name in ("host-evening", "host-guests", "host-draw", "host-export", "host-print-seating"):
        assert client.get(reverse(name, args=[evening.pk])).status_code == 404


def test_create_an_evening_register_draw_and_start(logged_in, host):
    response = logged_in.post(
        reverse("host-evenings"),
        {
            "name": "Friday poker",
            "date": "2026-12-04",
            "game": "draw_poker",
            "counters_per_stake": 50,
            "minutes_per_round": 12,
            "round_end": "clock",
            "red_label": "Ladies",
            "blue_label": "Gentlemen",
        },
    )
    evening = host.evenings.get()
    assert response.status_code == 302 and evening.red_label == "Ladies"
    guests_url = reverse("host-guests", args=[evening.pk])
    text = "\n".join([f"Lady {i}, Ladies" for i in range(6)] + [f"Gent {i}, Gentlemen" for i in range(6)])
    response = logged_in.post(guests_url, {"many-text": text, "many-check_in": "on"})
    assert response.status_code == 302 and evening.guests.filter(status="here").count() == 12
    response = logged_in.post(guests_url, {"one-name": "Late Comer", "one-pack": "red", "one-check_in": "on"})
    assert response.status_code == 302 and evening.guests.count() == 13
    assert logged_in.get(reverse("host-draw", args=[evening.pk])).status_code == 200
    response = logged_in.post(reverse("host-draw", args=[evening.pk]))
    assert response.status_code == 302 and evening.seats.count() == 13
    response = logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "start"})
    assert Round.objects.filter(evening=evening, state="running").count() == 1
    page = logged_in.get(reverse("host-evening", args=[evening.pk]))
    assert page.status_code == 200 and b"Round 1" in page.content and b"Enter the result" in page.content


def test_a_bad_list_shows_every_reason_and_saves_nothing(logged_in, make_evening):
    evening = make_evening(0, 0)
    response = logged_in.post(reverse("host-guests", args=[evening.pk]), {"many-text": "Anne, red\n, blue\nBob, green"})
    assert response.status_code == 200
    assert "Row 2: The name is empty" in response.content.decode()
    assert "Row 3: “green” is not a pack" in response.content.decode()
    assert not evening.guests.exists()


def test_a_duplicate_guest_at_the_door_is_refused(logged_in, make_evening):
    evening = make_evening(1, 0)
    response = logged_in.post(reverse("host-guests", args=[evening.pk]), {"one-name": "red 1", "one-pack": "blue"})
    assert response.status_code == 200 and "already registered" in response.content.decode()
    assert evening.guests.count() == 1


def test_result_entry_refuses_a_guest_from_another_table(logged_in, make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    round_start(evening=evening)
    state = evening_state(evening)
    url = reverse("host-result", args=[evening.pk, 2])
    page = logged_in.get(url)
    assert page.status_code == 200
    response = logged_in.post(url, {"pool_winner": str(state.tables[0][0])})
    assert response.status_code == 200 and not Result.objects.exists()
    response = logged_in.post(url, {"pool_winner": str(state.tables[1][0])})
    assert response.status_code == 302 and Result.objects.count() == 1


def test_ringing_from_the_page_twice_applies_once(logged_in, make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    head = evening_state(evening).tables[0]
    logged_in.post(
        reverse("host-result", args=[evening.pk, 1]),
        {"pool_winner": str(head[0]), **{f"counters_{g}": 50 for g in head}},
    )
    ring = {"action": "ring", "round": 1, "confirmed": "True"}  # the confirmation page's button, tapped twice
    assert logged_in.post(reverse("host-round", args=[evening.pk]), ring).status_code == 302
    second = logged_in.post(reverse("host-round", args=[evening.pk]), ring, follow=True)
    assert Bell.objects.filter(round=rnd).count() == 1
    assert "The bell of round 1 has rung already: nothing more was rung." in second.content.decode()


def test_the_guest_page_shows_the_table_and_sends_private_headers(client, make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    guest = evening.guests.first()
    table = guest.seat.table
    response = client.get(reverse("guest-page", args=[guest.key]))
    assert response.status_code == 200
    assert f"Table {table}" in response.content.decode()
    assert response["Referrer-Policy"] == "no-referrer" and "noindex" in response["X-Robots-Tag"]
    etag = response["ETag"]
    again = client.get(reverse("guest-page", args=[guest.key]), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    round_start(evening=evening)  # the evening changed: a new page
    assert client.get(reverse("guest-page", args=[guest.key]), HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_wrong_revoked_and_reissued_keys_all_get_the_same_404(client, make_evening):
    from tournament.services.guests import guest_reissue_key

    evening = make_evening(4, 4)
    guest = evening.guests.first()
    old = guest.key
    guest_reissue_key(guest=guest)
    revoked = evening.guests.last()
    Guest.objects.filter(pk=revoked.pk).update(key_revoked=True)
    bodies = {
        client.get(reverse("guest-page", args=[key])).content for key in (old, revoked.key, "x" * 32, str(guest.pk))
    }
    assert len(bodies) == 1
    assert client.get(reverse("guest-page", args=[old])).status_code == 404
    assert client.get(reverse("guest-page", args=[guest.key])).status_code == 200


def test_the_rules_page_renders(client):
    response = client.get(reverse("rules"))
    assert response.status_code == 200 and "Progressive Poker" in response.content.decode()


def test_the_admin_lists_every_model(admin_client):
    from django.apps import apps

    for model in apps.get_app_config("tournament").get_models():
        url = reverse(f"admin:tournament_{model._meta.model_name}_changelist")
        assert admin_client.get(url).status_code == 200, model


def test_the_admin_names_each_row_in_words(admin_client, make_evening):
    from django.apps import apps

    from tournament.models import AuditEntry, BellEntry, Draw, DrawnCard, Seat
    from tournament.services.bell import bell_ring
    from tournament.services.results import result_record

    evening = make_evening(6, 6, name="The Smiths' party")
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    head = evening_state(evening).tables[0]
    result_record(round=rnd, table=1, pool_winner=head[0], counters={g: 50 for g in head})
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    first = Guest.objects.get(pk=head[0])
    seat, card = Seat.objects.get(guest=first), DrawnCard.objects.get(guest=first)
    entry = BellEntry.objects.filter(bell=bell).first()
    assert str(Draw.objects.get()) == "The digital draw of The Smiths' party"
    assert str(card) == f"{first.name} drew table 1's card of the {card.get_pack_display().lower()}"
    assert str(seat) == f"{first.name} sits at table {seat.table}"
    assert str(Result.objects.get()) == "Table 1's result in round 1 of The Smiths' party"
    assert str(bell) == "The bell in round 1 of The Smiths' party"
    assert entry is not None and str(entry) == entry.about and entry.about
    assert str(AuditEntry.objects.filter(evening=evening).first()) == "An entry in the audit log of The Smiths' party"
    for row in (Draw.objects.get(), card, seat, Result.objects.get(), bell, entry):
        url = reverse(f"admin:tournament_{row._meta.model_name}_change", args=[row.pk])
        assert str(row) in admin_client.get(url).content.decode().replace("&#x27;", "'"), row
    for model in apps.get_app_config("tournament").get_models():  # no "Result object (1)" anywhere
        for row in model.objects.all():
            assert "object (" not in str(row), model


def test_counters_that_do_not_add_up_are_refused_until_the_table_agrees(logged_in, make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    round_start(evening=evening)
    head = evening_state(evening).tables[0]
    counts = {f"counters_{g}": 50 for g in head}
    counts[f"counters_{head[0]}"] = 46
    url = reverse("host-result", args=[evening.pk, 1])
    response = logged_in.post(url, {"round": 1, "pool_winner": str(head[1]), **counts})
    text = response.content.decode()
    assert response.status_code == 200 and not Result.objects.exists()
    assert "The counters add up to 196, 4 short of the 200 the players at table 1 held before the deal." in text
    assert "The table agrees the count is off by 4 (short)" in text and 'name="count-off_by" value="-4"' in text
    # Ticked for another difference (the counts changed meanwhile): refused again, nothing saved.
    counts[f"counters_{head[0]}"] = 40
    again = logged_in.post(
        url, {"round": 1, "pool_winner": str(head[1]), "count-agree": "on", "count-off_by": -4, **counts}
    )
    assert "10 short of the 200" in again.content.decode() and not Result.objects.exists()
    saved = logged_in.post(
        url, {"round": 1, "pool_winner": str(head[1]), "count-agree": "on", "count-off_by": -10, **counts}, follow=True
    )
    assert Result.objects.get().count_off == -10
    board = saved.content.decode()
    assert "Table 1: count off by 10 (short), agreed by the table." in board
    assert "with the count 10 short as the table agrees" in board


def test_a_stale_result_form_from_an_earlier_round_saves_nothing(logged_in, make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    table2 = evening_state(evening).tables[1]
    rnd.state = "closed"
    rnd.save(update_fields=["state"])
    round_start(evening=evening)  # round 2 is in play now
    response = logged_in.post(
        reverse("host-result", args=[evening.pk, 2]), {"round": "1", "pool_winner": str(table2[0])}, follow=True
    )
    assert "That form was for round 1, but round 2 is in play" in response.content.decode()
    assert not Result.objects.exists()


def test_the_evening_form_refuses_one_label_for_both_packs_and_a_negative_value(logged_in, host):
    fields = {
        "name": "E",
        "date": "2026-12-04",
        "game": "draw_poker",
        "counters_per_stake": 50,
        "minutes_per_round": 10,
        "round_end": "clock",
        "red_label": "Ladies",
        "blue_label": "ladies",
        "counter_value": "-1",
    }
    response = logged_in.post(reverse("host-evenings"), fields)
    text = response.content.decode()
    assert response.status_code == 200 and "need different labels" in text and "cannot be negative" in text
    assert not host.evenings.exists()


def test_guests_level_on_yellow_and_counters_share_a_place(make_evening):
    from tournament.selectors.board import evening_board

    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    places = [place for place, _, _ in evening_board(evening).standing_lines()]
    assert places == [1] * 12  # everyone holds one stake and no yellow counter yet
