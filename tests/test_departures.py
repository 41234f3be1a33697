"""Guests leaving and arriving after round 1, stored as bells of kind leave/arrive (issue 4)."""

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tests.test_round_services import play_round, seated
from tournament.formats.poker.departures import guest_arrive, guest_depart
from tournament.models import Bell, Guest
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import round_start
from tournament.services.corrections import result_correct
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state


@pytest.fixture
def after_one_bell(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    rnd = play_round(evening)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    return evening


@pytest.mark.django_db
def test_a_guest_leaves_between_rounds_and_their_seat_is_given_up(after_one_bell):
    evening = after_one_bell
    before = evening_state(evening)
    leaver = Guest.objects.get(pk=before.tables[1][0])
    bell = guest_depart(evening=evening, guest=leaver)
    assert bell.kind == "leave"
    after = evening_state(evening)
    assert leaver.pk not in after.seated() and leaver.pk in after.counters  # still in the standings
    assert sum(len(t) for t in after.tables) == 15 and min(len(t) for t in after.tables) >= 3
    assert leaver.pk not in {g for ids in seated(evening).values() for g in ids}
    leaver.refresh_from_db()
    assert leaver.status == "left"
    # The next round plays with the new seating.
    rnd = play_round(evening)
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None
    assert leaver.pk not in evening_state(evening).seated()


@pytest.mark.django_db
def test_leaving_during_a_round_or_before_round_one_is_refused(make_evening, after_one_bell):
    evening = after_one_bell
    round_start(evening=evening)
    guest = evening.guests.first()
    with pytest.raises(RuleError, match="ring its bell first"):
        guest_depart(evening=evening, guest=guest)
    fresh = make_evening(6, 6, name="Fresh")
    draw_digital(evening=fresh)
    with pytest.raises(RuleError, match="draw page"):
        guest_depart(evening=fresh, guest=fresh.guests.first())


@pytest.mark.django_db
def test_a_late_guest_sits_at_the_booby_table_with_a_stake(after_one_bell):
    evening = after_one_bell
    late = Guest.objects.create(evening=evening, name="Late Lottie", pack="red")
    guest_arrive(evening=evening, guest=late)
    state = evening_state(evening)
    assert state.table_of(late.pk) == len(state.tables)
    assert state.counters[late.pk] == evening.counters_per_stake
    late.refresh_from_db()
    assert late.status == "here"
    with pytest.raises(RuleError, match="already sits"):
        guest_arrive(evening=evening, guest=late)


@pytest.mark.django_db
def test_undoing_a_departure_gives_the_seat_back(after_one_bell):
    evening = after_one_bell
    before = seated(evening)
    leaver = Guest.objects.get(pk=evening_state(evening).tables[0][1])
    guest_depart(evening=evening, guest=leaver)
    bell_undo(evening=evening)
    assert seated(evening) == before
    leaver.refresh_from_db()
    assert leaver.status == "here"


@pytest.mark.django_db
def test_a_correction_before_a_departure_replays_through_it(after_one_bell):
    evening = after_one_bell
    first = evening.rounds.get(number=1)
    leaver = Guest.objects.get(pk=evening_state(evening).tables[-1][0])
    guest_depart(evening=evening, guest=leaver)
    table2 = first.results.get(table=2, superseded_at__isnull=True)
    candidates = [
        c
        for c in first.bells.get(undone_at__isnull=True, kind="bell").record["before"]["tables"][1]
        if c != table2.pool_winner_id
    ]
    result_correct(evening=evening, round_number=1, table=2, pool_winner=candidates[0])
    state = evening_state(evening)
    assert leaver.pk not in state.seated() and candidates[0] in state.tables[0]
    assert Bell.objects.filter(round__evening=evening, undone_at__isnull=True, kind="leave").count() == 1


@pytest.mark.django_db
def test_the_guests_page_marks_a_seated_guest_left_after_round_one(client, host, after_one_bell):
    evening = after_one_bell
    client.force_login(host)
    guest = Guest.objects.get(pk=evening_state(evening).tables[1][0])
    response = client.post(reverse("host-guest-status", args=[evening.pk, guest.pk]), {"action": "left"}, follow=True)
    assert response.status_code == 200
    assert guest.pk not in evening_state(evening).seated()
    response = client.post(reverse("host-guest-status", args=[evening.pk, guest.pk]), {"action": "here"}, follow=True)
    assert guest.pk in evening_state(evening).seated()
