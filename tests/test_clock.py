"""The round clock on the database (issue 5): start, pause, resume, add or take minutes, set
the clock, ring now, auto-advance, the end of the evening, the sweeper; bad input refused with
a reason and nothing changed. The real worker is in tests/test_worker.py."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.db.models import F
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from tables.errors import RuleError
from tests.factories import HostFactory
from tournament import tasks
from tournament.models import AuditEntry, Bell, Evening, Round
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import (
    evening_set_clock,
    next_round_due_at,
    round_advance,
    round_extend,
    round_mark_last_if_past_end,
    round_pause,
    round_resume,
    round_ring,
    round_set_time_left,
    round_start,
)
from tournament.services.draws import draw_digital
from tournament.services.results import result_record
from tournament.services.state import evening_state

pytestmark = pytest.mark.django_db


def drawn(make_evening, **fields) -> Evening:
    evening = make_evening(6, 6, **fields)
    draw_digital(evening=evening)
    evening.refresh_from_db()
    return evening


def head_result(rnd: Round, *, all_tables: bool = False) -> None:
    """Report the head table (and with ``all_tables`` every table, with counts) for a round."""
    state = evening_state(rnd.evening)
    for number, ids in enumerate(state.tables, 1):
        if number > 1 and not all_tables:
            break
        counters = {g: 50 for g in ids}
        counters[ids[0]], counters[ids[1]] = 60, 40
        result_record(round=rnd, table=number, pool_winner=ids[0], counters=counters)


def left(rnd: Round) -> float:
    rnd.refresh_from_db()
    return (rnd.deadline - timezone.now()).total_seconds()


# --- Bad input: refused with a reason, nothing changed ---------------------------------------


def test_starting_a_round_while_another_is_running_is_refused(make_evening):
    evening = drawn(make_evening)
    round_start(evening=evening)
    with pytest.raises(RuleError, match="already in play"):
        round_start(evening=evening)
    assert Round.objects.filter(evening=evening).count() == 1


def test_pausing_a_closed_round_is_refused_with_its_state(make_evening):
    evening = drawn(make_evening)
    rnd = round_start(evening=evening)
    head_result(rnd)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    with pytest.raises(RuleError, match="Round 1 is closed, not running"):
        round_pause(round=rnd)
    with pytest.raises(RuleError, match="clock has stopped"):
        round_extend(round=rnd, minutes=2)
    with pytest.raises(RuleError, match="not paused"):
        round_resume(round=rnd)


@pytest.mark.parametrize("minutes", [0, 181, -181, 10_000, 1.5, "3", True, None])
def test_absurd_minutes_are_refused_and_the_clock_is_unchanged(make_evening, minutes):
    evening = drawn(make_evening)
    rnd = round_start(evening=evening)
    with pytest.raises(RuleError, match="1 to 180"):
        round_extend(round=rnd, minutes=minutes)
    after = Round.objects.get(pk=rnd.pk)
    assert (after.deadline, after.clock_version) == (rnd.deadline, rnd.clock_version)


@pytest.mark.parametrize("seconds", [-1, 180 * 60 + 1, 2.5])
def test_setting_the_clock_out_of_range_is_refused(make_evening, seconds):
    rnd = round_start(evening=drawn(make_evening))
    with pytest.raises(RuleError, match="between 0 and 180 minutes"):
        round_set_time_left(round=rnd, seconds=seconds)


def test_ringing_the_bell_of_an_evening_that_has_ended_is_refused(make_evening):
    evening = drawn(make_evening, rounds_planned=1)
    rnd = round_start(evening=evening)
    head_result(rnd, all_tables=True)
    assert round_ring(evening=evening) is not None
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    with pytest.raises(RuleError, match="has ended"):
        round_ring(evening=evening)
    with pytest.raises(RuleError, match="has ended"):
        round_start(evening=evening)
    assert Bell.objects.count() == 1


def test_ringing_with_no_round_in_play_or_a_waiting_bell_says_why(make_evening):
    evening = drawn(make_evening)
    with pytest.raises(RuleError, match="No round is in play"):
        round_ring(evening=evening)
    round_start(evening=evening)
    assert round_ring(evening=evening) is None  # the head table has not reported: the bell waits
    with pytest.raises(RuleError, match="has rung already and waits: The head table"):
        round_ring(evening=evening)


# --- The clock's arithmetic -------------------------------------------------------------------


def test_add_take_and_set_move_the_deadline_and_make_old_tasks_stale(make_evening):
    rnd = round_start(evening=drawn(make_evening))
    assert 595 < left(rnd) <= 600
    v = rnd.clock_version
    rnd = round_extend(round=rnd, minutes=5)
    assert 895 < left(rnd) <= 900 and rnd.clock_version == v + 1
    rnd = round_extend(round=rnd, minutes=-14)
    assert 55 < left(rnd) <= 60
    rnd = round_extend(round=rnd, minutes=-3)  # more than is left: the bell is due now
    assert -1 < left(rnd) <= 0
    rnd = round_set_time_left(round=rnd, seconds=90)
    assert 88 < left(rnd) <= 90 and rnd.clock_version == v + 4
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK, expected_clock_version=v) is None


def test_minutes_added_while_paused_count_when_it_resumes(make_evening):
    rnd = round_start(evening=drawn(make_evening))
    paused = round_pause(round=rnd)
    paused = round_extend(round=paused, minutes=2)
    assert paused.state == Round.State.PAUSED and 710 < paused.paused_seconds_left <= 720
    paused = round_set_time_left(round=paused, seconds=30)
    assert paused.paused_seconds_left == 30 and paused.deadline is None
    resumed = round_resume(round=paused)
    assert 28 < left(resumed) <= 30


@override_settings(TIME_ZONE="America/New_York")
def test_deadlines_are_utc_and_come_from_the_databases_clock(make_evening):
    evening = drawn(make_evening, minutes_per_round=7)
    rnd = round_start(evening=evening)
    assert rnd.deadline.utcoffset() == timedelta(0)
    assert rnd.deadline - rnd.started_at == timedelta(minutes=7)


# --- Timed bells are queued after commit, with their clock version -----------------------------


def queued_as(apply_async: mock.Mock) -> tuple[tuple, object]:
    """(task arguments, eta) of the last ``apply_async`` call (sent through a Celery signature,
    which passes its empty keyword arguments too)."""
    call = apply_async.call_args
    assert not (call.args[1:] and call.args[1]), call  # no keyword arguments for the task
    return tuple(call.args[0]), call.kwargs["eta"]


def test_timed_bells_are_queued_only_after_commit(make_evening, django_capture_on_commit_callbacks):
    evening = drawn(make_evening)
    with mock.patch.object(tasks.ring_bell_when_due, "apply_async") as queued:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            rnd = round_start(evening=evening)
        assert not queued.called and callbacks
        for callback in callbacks:
            callback()
        assert queued.call_count == 1 and queued_as(queued) == ((rnd.pk, rnd.clock_version), rnd.deadline)
        with django_capture_on_commit_callbacks(execute=True):
            paused = round_pause(round=rnd)
        assert queued.call_count == 1  # a paused clock queues nothing
        with django_capture_on_commit_callbacks(execute=True):
            resumed = round_resume(round=paused)
        assert queued_as(queued) == ((rnd.pk, resumed.clock_version), resumed.deadline)


def test_a_task_for_an_old_clock_does_nothing_and_an_early_one_waits(make_evening):
    evening = drawn(make_evening)
    rnd = round_start(evening=evening)
    head_result(rnd)
    stale = rnd.clock_version
    rnd = round_set_time_left(round=rnd, seconds=0)
    assert tasks.ring_bell_when_due(rnd.pk, stale) is False and not Bell.objects.exists()
    rnd = round_set_time_left(round=rnd, seconds=30)
    with mock.patch.object(tasks.ring_bell_when_due, "apply_async") as again:
        assert tasks.ring_bell_when_due(rnd.pk, rnd.clock_version) is False
    (args,), kwargs = again.call_args
    assert args == (rnd.pk, rnd.clock_version) and 28 < kwargs["countdown"] <= 30.1
    Round.objects.filter(pk=rnd.pk).update(deadline=F("deadline") - timedelta(seconds=31))
    assert tasks.ring_bell_when_due(rnd.pk, rnd.clock_version) is True
    assert tasks.ring_bell_when_due(rnd.pk, rnd.clock_version) is False
    assert Bell.objects.filter(round=rnd).count() == 1


def test_the_sweeper_rings_overdue_rounds_once_and_leaves_paused_ones(make_evening):
    one, two = drawn(make_evening), drawn(make_evening)
    late, paused = round_start(evening=one), round_start(evening=two)
    head_result(late)
    head_result(paused)
    round_set_time_left(round=late, seconds=0)
    round_pause(round=round_set_time_left(round=paused, seconds=0))
    assert tasks.ring_overdue_bells() == 1
    assert tasks.ring_overdue_bells() == 0  # a second beat: nothing more
    assert Bell.objects.filter(round=late).count() == 1 and not Bell.objects.filter(round=paused).exists()


# --- Auto-advance and the end of the evening -----------------------------------------------------


def test_auto_advance_starts_the_next_round_after_the_change_over_once(
    make_evening, django_capture_on_commit_callbacks
):
    evening = drawn(make_evening, auto_advance=True, changeover_minutes=2)
    rnd = round_start(evening=evening)
    head_result(rnd)
    with (
        mock.patch.object(tasks.start_next_round, "apply_async") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert queued.call_count == 1 and queued_as(queued) == ((evening.pk, 1), bell.rung_at + timedelta(minutes=2))
    assert next_round_due_at(evening=Evening.objects.get(pk=evening.pk)) == (1, bell.rung_at + timedelta(minutes=2))
    assert round_advance(evening_id=evening.pk, after_round=1) is None  # the change-over is not over
    Bell.objects.filter(pk=bell.pk).update(rung_at=F("rung_at") - timedelta(minutes=2, seconds=1))
    assert round_advance(evening_id=evening.pk, after_round=0) is None  # a task for another round
    second = round_advance(evening_id=evening.pk, after_round=1)
    assert second is not None and second.number == 2
    assert round_advance(evening_id=evening.pk, after_round=1) is None  # twice: once
    assert tasks.ring_overdue_bells() == 0 and Round.objects.filter(evening=evening).count() == 2
    audit = AuditEntry.objects.filter(evening=evening, action="round.start").order_by("id").last()
    assert audit.detail == {"round": 2, "auto": True}


def test_no_auto_advance_when_off_undone_or_all_rounds_played(make_evening):
    evening = drawn(make_evening, auto_advance=False, changeover_minutes=0, rounds_planned=2)
    rnd = round_start(evening=evening)
    head_result(rnd)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert round_advance(evening_id=evening.pk, after_round=1) is None  # off
    evening_set_clock(evening=evening, auto_advance=True)
    bell_undo(evening=evening)
    assert round_advance(evening_id=evening.pk, after_round=1) is None  # undone: round 1 waits again
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    second = round_advance(evening_id=evening.pk, after_round=1)
    assert second.number == 2
    head_result(second, all_tables=True)
    bell_ring(round_id=second.pk, cause=Bell.Cause.HOST)
    assert round_advance(evening_id=evening.pk, after_round=2) is None  # all rounds played
    assert next_round_due_at(evening=Evening.objects.get(pk=evening.pk)) is None


def test_the_sweeper_starts_a_due_round_when_its_task_was_lost(make_evening):
    evening = drawn(make_evening, auto_advance=True, changeover_minutes=1)
    rnd = round_start(evening=evening)
    head_result(rnd)
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    tasks.ring_overdue_bells()
    assert Round.objects.filter(evening=evening).count() == 1
    Bell.objects.filter(pk=bell.pk).update(rung_at=F("rung_at") - timedelta(minutes=1, seconds=1))
    tasks.ring_overdue_bells()
    tasks.ring_overdue_bells()
    assert list(Round.objects.filter(evening=evening).values_list("number", "state")) == [(1, "closed"), (2, "running")]


def test_no_round_starts_after_the_end_time(make_evening):
    evening = drawn(make_evening, ends_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(RuleError, match="end time .* has passed"):
        round_start(evening=evening)
    assert not Round.objects.exists()


def test_the_round_in_play_at_the_end_time_is_the_last(make_evening):
    evening = drawn(make_evening, ends_at=timezone.now() + timedelta(hours=1))
    rnd = round_start(evening=evening)
    assert round_mark_last_if_past_end(round_id=rnd.pk) is False  # not yet
    Evening.objects.filter(pk=evening.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    version = Evening.objects.get(pk=evening.pk).version
    round_set_time_left(round=rnd, seconds=0)
    head_result(rnd, all_tables=True)
    tasks.ring_overdue_bells()  # the sweeper marks it the last, then rings it
    evening.refresh_from_db()
    assert evening.rounds_planned == 1 and evening.version > version
    assert evening.stage == Evening.Stage.ENDED
    assert AuditEntry.objects.filter(evening=evening, action="round.last").count() == 1
    bell = Bell.objects.get(round=rnd)
    assert bell.record["last_round"] is True
    assert not bell.entries.exclude(from_table=F("to_table")).exclude(to_table=None).exists()  # nobody moves


def test_clock_settings_refuse_fewer_rounds_than_played_and_unknown_fields(make_evening):
    evening = drawn(make_evening)
    rnd = round_start(evening=evening)
    head_result(rnd)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    round_start(evening=evening)
    with pytest.raises(RuleError, match="1 round has been played already"):
        evening_set_clock(evening=evening, rounds_planned=0)
    with pytest.raises(RuleError, match="Not a clock setting"):
        evening_set_clock(evening=evening, name="Renamed")
    saved = evening_set_clock(evening=evening, warning_seconds=30, auto_advance=True)
    assert (saved.warning_seconds, saved.auto_advance) == (30, True)


# --- The host's clock controls over HTTP --------------------------------------------------------


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def test_the_host_adds_takes_and_sets_minutes_from_the_page(logged_in, make_evening):
    evening = drawn(make_evening)
    rnd = round_start(evening=evening)
    url = reverse("host-clock", args=[evening.pk])
    page = logged_in.post(url, {"action": "add", "minutes": "3"}, follow=True).content.decode()
    assert "3 minutes added to round 1" in page and 775 < left(rnd) <= 780
    logged_in.post(url, {"action": "take", "minutes": "10"})
    assert 175 < left(rnd) <= 180
    page = logged_in.post(url, {"action": "set", "minutes": "2"}, follow=True).content.decode()
    assert "clock is set to 2:00" in page and 115 < left(rnd) <= 120
    board = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert 'name="minutes"' in board and "Clock settings" in board and f"/e/{evening.public_key}/room/" in board
    assert f'data-warn="{evening.warning_seconds}"' in board


@pytest.mark.parametrize("action, minutes", [("set", "0"), ("take", "10"), ("take", "180")])
def test_setting_the_clock_to_0_or_taking_all_its_time_goes_to_the_bells_confirmation(
    logged_in, make_evening, action, minutes
):
    evening = drawn(make_evening)  # ten minutes a round, no result in: the bell would ring with tables missing
    rnd = round_start(evening=evening)
    response = logged_in.post(reverse("host-clock", args=[evening.pk]), {"action": action, "minutes": minutes})
    assert response.status_code == 302 and response["Location"] == reverse("host-bell-confirm", args=[evening.pk, 1])
    after = Round.objects.get(pk=rnd.pk)
    assert after.clock_version == rnd.clock_version and after.state == Round.State.RUNNING
    assert not Bell.objects.filter(round=rnd).exists()
    page = logged_in.get(response["Location"]).content.decode()
    # No result in, the head table's neither: ringing now would wait for its pool, and the page says so
    assert "would end round 1 now" in page and "Ring the bell and wait" in page
    assert "If you ring now, the bell waits:" in page


@pytest.mark.parametrize(
    "minutes, reason",
    [
        ("-3", "Minutes cannot be below 0: give 0 to 180"),
        ("181", "At most 180 minutes"),
        ("abc", "whole number"),
        ("", "Give a number of minutes"),
        ("0", "from 1 to 180"),
    ],
)
def test_bad_minutes_on_the_page_say_why_and_change_nothing(logged_in, make_evening, minutes, reason):
    evening = drawn(make_evening)
    rnd = round_start(evening=evening)
    page = logged_in.post(reverse("host-clock", args=[evening.pk]), {"action": "add", "minutes": minutes}, follow=True)
    assert page.status_code == 200 and reason in page.content.decode()
    assert Round.objects.get(pk=rnd.pk).clock_version == rnd.clock_version


def test_the_page_refuses_pausing_with_no_round_and_ringing_an_ended_evening(logged_in, make_evening):
    evening = drawn(make_evening)
    url = reverse("host-clock", args=[evening.pk])
    assert "No round is in play" in logged_in.post(url, {"action": "pause"}, follow=True).content.decode()
    Evening.objects.filter(pk=evening.pk).update(stage=Evening.Stage.ENDED)
    assert "This evening has ended" in logged_in.post(url, {"action": "ring"}, follow=True).content.decode()
    assert logged_in.get(url).status_code == 405


def test_clock_settings_page_saves_and_checks(logged_in, make_evening):
    evening = drawn(make_evening)
    url = reverse("host-clock-settings", args=[evening.pk])
    assert logged_in.get(url).status_code == 200
    bad = logged_in.post(url, {"round_end": "clock", "changeover_minutes": "90", "warning_seconds": "60"})
    assert bad.status_code == 200 and "0 to 60 minutes" in bad.content.decode()
    ok = logged_in.post(
        url,
        {
            "round_end": "head_pool",
            "auto_advance": "on",
            "changeover_minutes": "3",
            "warning_seconds": "45",
            "rounds_planned": "6",
            "ends_at": "2026-12-04T23:00",
        },
    )
    assert ok.status_code == 302
    evening.refresh_from_db()
    assert (
        evening.round_end,
        evening.auto_advance,
        evening.changeover_minutes,
        evening.warning_seconds,
        evening.rounds_planned,
    ) == ("head_pool", True, 3, 45, 6)
    assert timezone.localtime(evening.ends_at).strftime("%H:%M") == "23:00"


def test_another_hosts_clock_is_a_404(client, make_evening):
    evening = drawn(make_evening)
    client.force_login(HostFactory(username="not-the-host"))
    assert client.get(reverse("host-clock-settings", args=[evening.pk])).status_code == 404
    assert client.post(reverse("host-clock", args=[evening.pk]), {"action": "ring"}).status_code == 404


def test_everyone_is_told_when_the_end_time_makes_this_the_last_round(client, make_evening):
    evening = drawn(make_evening, ends_at=timezone.now() + timedelta(hours=1))
    rnd = round_start(evening=evening)
    guest = evening.guests.first()
    assert "the last round" not in client.get(reverse("guest-page", args=[guest.key])).content.decode()
    Evening.objects.filter(pk=evening.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert round_mark_last_if_past_end(round_id=rnd.pk) is True
    assert round_mark_last_if_past_end(round_id=rnd.pk) is False  # once
    assert "(the last round)" in client.get(reverse("guest-page", args=[guest.key])).content.decode()
    assert "the last round" in client.get(reverse("room", args=[evening.public_key])).content.decode()


def test_a_broker_that_is_down_does_not_undo_or_break_the_start(make_evening, django_capture_on_commit_callbacks):
    evening = drawn(make_evening)
    with (
        mock.patch.object(tasks.ring_bell_when_due, "apply_async", side_effect=ConnectionError("Redis is down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        rnd = round_start(evening=evening)
    assert Round.objects.get(pk=rnd.pk).state == Round.State.RUNNING  # the sweeper rings it at its deadline


@pytest.mark.django_db(transaction=True)
def test_two_beats_sweeping_at_once_ring_once(make_evening):
    import threading

    from django.db import connection

    evening = drawn(make_evening)
    rnd = round_start(evening=evening)
    head_result(rnd)
    round_set_time_left(round=rnd, seconds=0)
    counts, go = [], threading.Barrier(2)

    def beat():
        try:
            go.wait(timeout=5)
            counts.append(tasks.ring_overdue_bells())
        finally:
            connection.close()

    threads = [threading.Thread(target=beat) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(counts) == [0, 1] and Bell.objects.filter(round=rnd).count() == 1
