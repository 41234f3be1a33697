"""Deleting what history refers to is refused, on every path (issue 12 item 3).

The issue's examples: a guest who arrived late, played and left was *removed*, and then the
evening page and the export answered 500 ("Guest 17 has no pack") and the results PDF 400;
when they had won a deal the removal itself answered 500 (ProtectedError). Here each is
refused with "mark them as left instead" (or, for a guest already left, says so), nothing
changes, and every page still answers.
"""

import pytest
from django.contrib import admin
from django.db.models import RestrictedError
from django.urls import reverse

from tests.test_round_services import play_round
from tournament.formats.poker.departures import guest_arrive, guest_depart
from tournament.models import AuditEntry, Bell, BellEntry, DrawnCard, Evening, Guest, Result, Round, Seat
from tournament.services.bell import bell_ring
from tournament.services.draws import draw_digital
from tournament.services.guests import guest_remove
from tournament.services.history import GuestHasHistory, guest_history, guests_with_history
from tournament.services.state import evening_state


@pytest.fixture
def late_player(make_evening):
    """16 guests play round 1; Late Lottie arrives, wins the booby table's pool in round 2 and
    leaves after its bell. Returns (evening, Lottie)."""
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    late = Guest.objects.create(evening=evening, name="Late Lottie", pack="red", status="here")
    guest_arrive(evening=evening, guest=late)
    booby = len(evening_state(evening).tables)
    assert late.pk in evening_state(evening).tables[booby - 1]
    bell_ring(round_id=play_round(evening, winners={booby: late.pk}).pk, cause=Bell.Cause.HOST)
    guest_depart(evening=evening, guest=late)
    late.refresh_from_db()
    assert late.status == "left" and not Seat.objects.filter(guest=late).exists()
    assert not DrawnCard.objects.filter(guest=late).exists()  # the old check looked only here
    return evening, late


def _remove(client, evening, guest):
    """The guests page's *Remove*, confirmed."""
    return client.post(reverse("host-guest-remove", args=[evening.pk, guest.pk]), {"confirm": "yes"}, follow=True)


def _pages_answer(client, evening):
    assert client.get(reverse("host-evening", args=[evening.pk])).status_code == 200
    export = client.get(reverse("host-export", args=[evening.pk]))
    assert export.status_code == 200
    assert client.get(reverse("host-print-results", args=[evening.pk])).status_code == 200
    return export.json()


@pytest.mark.django_db
def test_a_late_guest_who_played_and_left_cannot_be_removed(client, late_player):
    evening, late = late_player
    client.force_login(evening.host)
    rows = (Guest.objects.count(), Bell.objects.count(), BellEntry.objects.count(), Result.objects.count())
    version = Evening.objects.get(pk=evening.pk).version
    response = _remove(client, evening, late)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Late Lottie cannot be removed: they won a pool in round 2" in text
    assert "They are already marked as left" in text
    assert (Guest.objects.count(), Bell.objects.count(), BellEntry.objects.count(), Result.objects.count()) == rows
    assert Evening.objects.get(pk=evening.pk).version == version
    assert not AuditEntry.objects.filter(action="guest.remove").exists()
    exported = _pages_answer(client, evening)
    assert "Late Lottie" in {g["name"] for g in exported["guests"]}


@pytest.mark.django_db
def test_a_seated_pool_winner_is_refused_with_mark_them_as_left_instead(client, make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    rnd = play_round(evening)
    winner = Result.objects.filter(round=rnd, table=2).get().pool_winner
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    table = Seat.objects.get(guest=winner).table
    client.force_login(evening.host)
    text = _remove(client, evening, winner).content.decode()
    assert (
        f"{winner.name} cannot be removed: they drew a card, have a seat at table {table}, won a pool in round 1"
        in text
    )
    assert "Mark them as left instead" in text
    assert Guest.objects.filter(pk=winner.pk).exists()
    _pages_answer(client, evening)


@pytest.mark.django_db
def test_a_guest_who_only_drew_a_card_is_refused(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    guest = evening.guests.first()
    with pytest.raises(GuestHasHistory, match="they drew a card, have a seat at table"):
        guest_remove(guest=guest)
    assert Guest.objects.filter(pk=guest.pk).exists()


@pytest.mark.django_db
def test_a_guest_without_history_is_removed(client, make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    no_show = Guest.objects.create(evening=evening, name="No Show", pack="blue", status="registered")
    assert guest_history(no_show) == []
    client.force_login(evening.host)
    assert "No Show is removed." in _remove(client, evening, no_show).content.decode()
    assert not Guest.objects.filter(pk=no_show.pk).exists()
    assert AuditEntry.objects.filter(action="guest.remove", detail__name="No Show").count() == 1


@pytest.mark.django_db
def test_the_database_relations_refuse_a_guest_delete_but_not_an_evening_delete(late_player):
    evening, late = late_player
    with pytest.raises(RestrictedError):
        Guest.objects.filter(pk=late.pk).delete()
    assert Guest.objects.filter(pk=late.pk).exists()
    Evening.objects.filter(pk=evening.pk).delete()  # the whole evening goes, every row with it
    assert not (
        Guest.objects.exists()
        or Bell.objects.exists()
        or Result.objects.exists()
        or BellEntry.objects.exists()
        or Round.objects.exists()
    )


@pytest.mark.django_db
def test_every_guest_in_a_bell_record_is_listed_as_having_history(late_player):
    evening, late = late_player
    ids = guests_with_history(evening.pk)
    every = set(evening.guests.values_list("pk", flat=True))
    assert ids == every  # all 17 played
    assert guest_history(late) == [
        "won a pool in round 2",  # at the booby table: no counts reported, so named nowhere else in a result
        "are in a bell's record (a move, a yellow counter or a stake)",
        "hold counters in the standings",
    ]


@pytest.mark.django_db
def test_the_admin_refuses_to_delete_a_guest_with_history(admin_client, late_player):
    evening, late = late_player
    url = reverse("admin:tournament_guest_delete", args=[late.pk])
    page = admin_client.get(url).content.decode()
    assert "Late Lottie: they won a pool in round 2" in page and "Mark them as left instead." in page
    admin_client.post(url, {"post": "yes"})
    assert Guest.objects.filter(pk=late.pk).exists()
    bulk = admin_client.post(
        reverse("admin:tournament_guest_changelist"),
        {"action": "delete_selected", "_selected_action": [late.pk], "post": "yes"},
    )
    assert bulk.status_code == 200 and Guest.objects.filter(pk=late.pk).exists()


@pytest.mark.django_db
def test_the_admin_offers_no_delete_for_rounds_results_and_bells(admin_client, late_player):
    evening, _ = late_player
    for model in (Round, Result, Bell, BellEntry, DrawnCard, Seat, AuditEntry):
        row = model.objects.filter(pk__isnull=False).first()
        url = reverse(f"admin:tournament_{model._meta.model_name}_delete", args=[row.pk])
        assert admin_client.post(url, {"post": "yes"}).status_code == 403, model
        assert model.objects.filter(pk=row.pk).exists()
        assert not admin.site._registry[model].has_delete_permission(None, row)
