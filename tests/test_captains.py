"""Table captains (issue 6 item 4): reports from phones, idempotent; the first report stands;
confirm / dispute; disputes shown to the host; every kind of bad input refused, nothing saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tournament.models import AuditEntry, Guest, Result, ResultVote, Round
from tournament.services.bell import bell_ring
from tournament.services.captains import CountersDoNotAddUp, captain_report, captain_vote
from tournament.services.results import result_record
from tournament.services.state import current_round, evening_state

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture


def report(guest, winner, *, table=None, round_number=1, counters=None, request_id="", in_call=()):
    return captain_report(
        guest=guest,
        round_number=round_number,
        table=table or guest.seat.table,
        pool_winner=winner.pk,
        in_call=[g.pk for g in in_call],
        counters=counters,
        request_id=request_id,
    )


def post_report(client, guest, winner, *, table, round_number=1, request_id="rid", **extra):
    data = {"round": round_number, "table": table, "request_id": request_id, "pool_winner": str(winner.pk), **extra}
    return client.post(reverse("guest-report", args=[guest.key]), data)


def test_a_captain_reports_their_table_and_it_carries_who_sent_it(playing):
    captain, winner, caller = at_table(playing, 2)[:3]
    result = report(captain, winner, in_call=[caller], request_id="abc")
    assert result.reported_by_guest == captain and result.request_id == "abc"
    assert result.pool_winner == winner and result.in_call == [caller.pk]
    assert AuditEntry.objects.filter(action="result.record", guest=captain).exists()


def test_a_double_tap_or_a_retry_saves_once(playing, client):
    captain, winner = at_table(playing, 2)[:2]
    first = post_report(client, captain, winner, table=2, request_id="tap-1")
    second = post_report(client, captain, winner, table=2, request_id="tap-1")
    assert first.status_code == second.status_code == 302
    assert Result.objects.count() == 1
    again = report(captain, winner, request_id="tap-1")
    assert again.pk == Result.objects.get().pk and Result.objects.count() == 1


def test_the_first_report_stands_a_second_captain_is_sent_to_confirm_or_dispute(playing):
    one, two, three = at_table(playing, 3)[:3]
    report(one, two, request_id="a")
    with pytest.raises(RuleError, match="already in, sent by .*The first report stands"):
        report(two, three, request_id="b")
    assert Result.objects.get().reported_by_guest == one


def test_a_captain_cannot_report_for_another_table(playing, client):
    captain = at_table(playing, 2)[0]
    elsewhere = at_table(playing, 3)
    with pytest.raises(RuleError, match="not at table 3"):
        report(captain, elsewhere[0], table=3)
    response = post_report(client, captain, elsewhere[0], table=3)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "you can report only your own table" in page and not Result.objects.exists()


def test_a_captain_cannot_report_for_another_round(playing, client):
    captain, winner = at_table(playing, 2)[:2]
    with pytest.raises(RuleError, match="does not exist"):
        report(captain, winner, round_number=2)
    response = post_report(client, captain, winner, table=2, round_number=7)
    assert "does not exist" in client.get(response["Location"]).content.decode()
    assert not Result.objects.exists()


def test_a_form_sent_after_the_round_closed_gets_a_clear_message(playing, client):
    captain, winner = at_table(playing, 2)[:2]
    form = client.get(reverse("guest-report", args=[captain.key]))
    assert form.status_code == 200 and 'name="request_id"' in form.content.decode()
    head = at_table(playing, 1)
    state = evening_state(playing)
    result_record(
        round=current_round(playing),
        table=1,
        pool_winner=head[0].pk,
        counters={g.pk: state.counters[g.pk] for g in head},
    )
    bell_ring(round_id=current_round(playing).pk, cause="host")
    assert Round.objects.get(number=1).state == Round.State.CLOSED
    response = post_report(client, captain, winner, table=2)
    page = client.get(response["Location"]).content.decode()
    assert "Round 1 is closed" in page and Result.objects.filter(table=2).count() == 0


def test_a_report_for_a_table_the_guest_has_left(playing):
    """After a bell moves a guest, their old table's form is refused."""
    rnd = current_round(playing)
    second = at_table(playing, 2)
    head = at_table(playing, 1)
    state = evening_state(playing)
    result_record(round=rnd, table=2, pool_winner=second[0].pk)  # second[0] moves up at the bell
    result_record(round=rnd, table=1, pool_winner=head[0].pk, counters={g.pk: state.counters[g.pk] for g in head})
    bell_ring(round_id=rnd.pk, cause="host")
    from tournament.services.clock import round_start

    round_start(evening=playing)
    mover = Guest.objects.get(pk=second[0].pk)
    with pytest.raises(RuleError, match="You sit at table 1 now, not at table 2"):
        report(mover, second[1], table=2, round_number=2)
    assert not Result.objects.filter(round__number=2).exists()


def test_counters_that_do_not_add_up_are_refused_with_the_difference(playing, client):
    table = at_table(playing, 2)
    captain = table[0]
    counters = {g.pk: 50 for g in table}
    counters[table[1].pk] = 46
    with pytest.raises(CountersDoNotAddUp) as caught:
        report(captain, table[0], counters=counters)
    assert caught.value.difference == -4 and str(caught.value) == (
        "The counters add up to 196, 4 short of the 200 the players at table 2 held before the deal. Count again "
        "(counters only change hands at the table) and send the result again."
    )
    data = {f"counters_{g.pk}": counters[g.pk] for g in table}
    page = post_report(client, captain, table[0], table=2, **data)
    assert page.status_code == 200 and "add up to" in page.content.decode()
    assert not Result.objects.exists()


def test_counters_for_some_but_not_all_are_refused(playing):
    table = at_table(playing, 2)
    with pytest.raises(RuleError, match="everyone at the table, or of no one"):
        report(table[0], table[0], counters={table[0].pk: 60})
    assert not Result.objects.exists()


def test_counters_that_add_up_are_saved(playing):
    table = at_table(playing, 2)
    counters = {g.pk: 50 for g in table}
    counters[table[0].pk] += 7
    counters[table[1].pk] -= 7
    result = report(table[2], table[0], counters=counters)
    assert result.counters[str(table[0].pk)] == 57


def test_confirm_and_dispute_and_the_host_sees_the_dispute(playing, client, host):
    one, two, three = at_table(playing, 2)[:3]
    result = report(one, two)
    captain_vote(guest=two, result_id=result.pk, verdict="confirm")
    assert Result.objects.get(pk=result.pk).status == Result.Status.CONFIRMED
    captain_vote(guest=three, result_id=result.pk, verdict="dispute", note="It was me")
    assert Result.objects.get(pk=result.pk).status == Result.Status.DISPUTED
    captain_vote(guest=three, result_id=result.pk, verdict="dispute")  # a double tap: still one vote
    assert ResultVote.objects.filter(result=result).count() == 2
    client.force_login(host)
    board = client.get(reverse("host-evening", args=[playing.pk])).content.decode()
    assert "Disputed" in board and "you decide" in board and one.name in board


def test_votes_that_are_refused(playing):
    one, two = at_table(playing, 2)[:2]
    stranger = at_table(playing, 3)[0]
    result = report(one, two)
    with pytest.raises(RuleError, match="sent this result yourself"):
        captain_vote(guest=one, result_id=result.pk, verdict="dispute")
    with pytest.raises(RuleError, match="not at table 2"):
        captain_vote(guest=stranger, result_id=result.pk, verdict="dispute")
    with pytest.raises(RuleError, match="confirm or dispute"):
        captain_vote(guest=two, result_id=result.pk, verdict="maybe")
    result_record(round=current_round(playing), table=2, pool_winner=one.pk)  # the host corrects it
    with pytest.raises(RuleError, match="replaced"):
        captain_vote(guest=two, result_id=result.pk, verdict="confirm")
    assert not ResultVote.objects.exists()


def test_the_guest_page_shows_the_report_and_the_vote_buttons(playing, client):
    one, two = at_table(playing, 2)[:2]
    report(one, two)
    mine = client.get(reverse("guest-page", args=[one.key])).content.decode()
    theirs = client.get(reverse("guest-page", args=[two.key])).content.decode()
    assert f"Sent by <bdi>{one.name}</bdi>" in theirs and "Confirm: that is right" in theirs
    assert "Confirm: that is right" not in mine
    response = client.post(
        reverse("guest-vote", args=[two.key]), {"result": Result.objects.get().pk, "verdict": "dispute"}
    )
    assert response.status_code == 302
    assert "the host will decide" in client.get(response["Location"]).content.decode()


def test_a_damaged_form_never_gives_a_server_error(playing, client):
    captain = at_table(playing, 2)[0]
    for data in (
        {"round": "x", "table": "2"},
        {"round": "1", "table": "99"},
        {"round": "1", "table": "2"},
        {"round": "1", "table": "2", "pool_winner": "abc"},
    ):
        response = client.post(reverse("guest-report", args=[captain.key]), data)
        assert response.status_code in (200, 302)
    response = client.post(reverse("guest-vote", args=[captain.key]), {"result": "nope", "verdict": "confirm"})
    assert response.status_code == 302
    assert not Result.objects.exists()


def test_a_winner_ticked_in_the_call_is_told_not_dropped_silently(playing, client):
    captain, winner, caller = at_table(playing, 2)[:3]
    ticked = {"in_call": [str(winner.pk), str(caller.pk)]}
    response = post_report(client, captain, winner, table=2, request_id="call-1", **ticked)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert (
        f"{winner.name} won the pool, so is in the call anyway: only the others ticked are listed in the call." in page
    )
    assert Result.objects.get().in_call == [caller.pk]
