"""The clock against a real Celery worker (issue 5, item 7; issue 2, item 9): the timed bell
rings on schedule, once, whatever happens to the worker, the broker or the clock.

Locally the worker uses Celery's filesystem broker in this run's own folder; in CI, Redis
(``CELERY_BROKER_URL``) and PostgreSQL (``DATABASE_URL``). Deadlines are set a few seconds
ahead with ``round_set_time_left`` so the module runs in about a minute and a half.
"""

from __future__ import annotations

import pytest

from tests.fixtures_clock import uses_redis, wait_for
from tournament.models import AuditEntry, Bell, Evening, Round
from tournament.services.clock import round_extend, round_pause, round_resume, round_set_time_left, round_start
from tournament.services.draws import draw_digital
from tournament.services.results import result_record
from tournament.services.state import evening_state

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def ready_round(make_evening, **fields) -> Round:
    """A drawn 12-guest evening with round 1 started and the head table's result in, so the
    bell applies as soon as it rings."""
    evening = make_evening(6, 6, round_end=Evening.RoundEnd.CLOCK, **fields)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    head = evening_state(evening).tables[0]
    result_record(round=rnd, table=1, pool_winner=head[0], counters={g: 50 for g in head})
    return rnd


def bells(rnd: Round) -> tuple[int, int]:
    """(Bell rows, "bell.ring" audit entries) for a round: both must be exactly 1 after it rang."""
    return (
        Bell.objects.filter(round=rnd).count(),
        AuditEntry.objects.filter(evening_id=rnd.evening_id, action="bell.ring", detail__round=rnd.number).count(),
    )


def test_a_real_worker_rings_the_bell_on_schedule(start_worker, make_evening):
    worker = start_worker(beat=False)  # no sweeper: the timed task alone must ring it
    rnd = round_set_time_left(round=ready_round(make_evening), seconds=4)
    bell = wait_for(lambda: Bell.objects.filter(round=rnd).first(), timeout=15)
    assert bell is not None, "the timed bell never rang"
    late = (bell.rung_at - rnd.deadline).total_seconds()
    assert -0.05 <= late < 2.0, f"the bell rang {late:.2f} s after its deadline"
    rnd.refresh_from_db()
    assert rnd.state == Round.State.CLOSED and bell.cause == Bell.Cause.CLOCK
    worker.wait_for_log(f"bell task: round {rnd.pk} clock {rnd.clock_version} rang=True")  # the task is over
    assert bells(rnd) == (1, 1)


def test_a_short_visibility_timeout_still_applies_the_bell_once(start_worker, make_evening):
    if not uses_redis():
        pytest.skip("visibility_timeout is a Redis transport option: set CELERY_BROKER_URL=redis://... (CI does)")
    # With a 5 s visibility timeout Redis hands the same unacked ETA task out again and again
    # while it waits for its 20 s deadline: every copy but one must do nothing.
    worker = start_worker(beat=False, CELERY_VISIBILITY_TIMEOUT="5", DJANGO_SETTINGS_MODULE="tests.worker_settings")
    rnd = round_set_time_left(round=ready_round(make_evening), seconds=20)
    assert wait_for(lambda: Bell.objects.filter(round=rnd).exists(), timeout=30), "the bell never rang"
    # A redelivered copy runs after the one that rang (Redis hands it out again within 5 s):
    # without a second run the test would prove nothing.
    worker.wait_for_log(f"bell task: round {rnd.pk} clock {rnd.clock_version} rang=", times=2, timeout=20)
    assert bells(rnd) == (1, 1)


def test_a_worker_killed_mid_round_and_restarted_still_rings_once(start_worker, make_evening):
    first = start_worker(beat=True)
    rnd = round_set_time_left(round=ready_round(make_evening), seconds=6)
    first.wait_for_log("Task tournament.tasks.ring_bell_when_due[", timeout=6)  # it holds the timed bell now
    first.kill()
    assert not Bell.objects.filter(round=rnd).exists()
    second = start_worker(beat=True)
    # The task died with the worker (filesystem broker) or comes back after the visibility
    # timeout (Redis); either way the sweeper rings the overdue round within one beat (5 s).
    bell = wait_for(lambda: Bell.objects.filter(round=rnd).first(), timeout=20)
    assert bell is not None, "the bell was missed after the worker restart"
    assert (bell.rung_at - rnd.deadline).total_seconds() < 8
    second.wait_for_next_sweep()  # one more sweep: it must not ring again
    assert bells(rnd) == (1, 1)


def test_pausing_and_extending_leave_no_stale_bell(start_worker, make_evening):
    worker = start_worker(beat=True)
    rnd = round_set_time_left(round=ready_round(make_evening), seconds=3)
    extended = round_extend(round=rnd, minutes=1)  # the 3 s task is now stale
    worker.wait_for_log(f"bell task: round {rnd.pk} clock {rnd.clock_version} rang=False")  # it ran, did nothing
    extended.refresh_from_db()
    assert extended.state == Round.State.RUNNING and not Bell.objects.exists()
    paused = round_pause(round=extended)
    soon = round_set_time_left(round=paused, seconds=2)  # set while paused: still paused
    worker.wait_for_next_sweep()  # two sweeps: the second began at least 5 s after the first, so
    worker.wait_for_next_sweep()  # after the paused round's 2 s would have run out
    soon.refresh_from_db()
    assert soon.state == Round.State.PAUSED and not Bell.objects.exists()
    resumed = round_resume(round=soon)
    bell = wait_for(lambda: Bell.objects.filter(round=rnd).first(), timeout=10)
    assert bell is not None and (bell.rung_at - resumed.deadline).total_seconds() < 2
    worker.wait_for_next_sweep()  # the stale tasks and one sweep have had their chance
    assert bells(rnd) == (1, 1)


def test_auto_advance_starts_the_next_round_after_the_change_over(start_worker, make_evening):
    worker = start_worker(beat=True)
    rnd = ready_round(make_evening, auto_advance=True, changeover_minutes=0, rounds_planned=3)
    round_set_time_left(round=rnd, seconds=2)
    nxt = wait_for(lambda: Round.objects.filter(evening_id=rnd.evening_id, number=2).first(), timeout=15)
    assert nxt is not None and nxt.state == Round.State.RUNNING
    worker.wait_for_next_sweep()  # a sweep later there is still exactly one round 2 and one bell
    assert Round.objects.filter(evening_id=rnd.evening_id).count() == 2
    assert bells(rnd) == (1, 1)
