"""Times from one clock: a real Celery worker whose clock runs 30 s fast (``faketime``) against
PostgreSQL. The bell rings when the database says the round is due, ``Bell.rung_at`` is the
database's time of the bell (about the deadline, not 30 s later), and auto-advance starts the
next round at ``rung_at`` plus the change-over.

Skipped, with the reason, without ``faketime`` (Debian's package; ``.ci/run`` installs it) or
PostgreSQL: on SQLite the database's clock is the clock of whichever process writes, so there
the web server and the worker must share a machine (docs/deployment.md, "Clocks").
"""

from __future__ import annotations

import re
import shutil
from datetime import datetime

import pytest
from django.db import connection

from tests.fixtures_clock import wait_for
from tests.test_worker import bells, ready_round
from tournament.models import Bell, Round
from tournament.services.clock import round_set_time_left

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SKEW = 30  # seconds the worker's clock runs ahead


@pytest.fixture
def fast_clock() -> tuple[str, ...]:
    """The command that runs the worker with its clock ``SKEW`` seconds fast."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "The database's clock is the writer's own clock on SQLite: run with DATABASE_URL=postgres://... (CI does)."
        )
    faketime = shutil.which("faketime")
    if faketime is None:
        pytest.skip("No faketime on this machine: install Debian's faketime package (.ci/run does).")
    return (faketime, "-f", f"+{SKEW}s")


def worker_ahead(log: str) -> float:
    """How many seconds the worker's log clock (its " ready." line) is ahead of this process's."""
    stamp = re.search(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): INFO/MainProcess\] \S+ ready\.", log)
    assert stamp, log[-2000:]
    return (datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S,%f") - datetime.now()).total_seconds()


def test_a_worker_30_s_fast_rings_and_advances_by_the_database_clock(fast_clock, start_worker, make_evening):
    # No beat: under faketime Celery's beat dies at its first sleep (OSError EINVAL from the faked
    # nanosleep), so the timed tasks alone ring the bell and start round 2 here.
    worker = start_worker(beat=False, wrap=fast_clock, FAKETIME_DONT_FAKE_MONOTONIC="1")
    assert SKEW - 5 < worker_ahead(worker.log.read_text()) <= SKEW + 1, "faketime did not move the worker's clock"
    rnd = ready_round(make_evening, auto_advance=True, changeover_minutes=0, rounds_planned=3)
    rnd = round_set_time_left(round=rnd, seconds=8)
    bell = wait_for(lambda: Bell.objects.filter(round=rnd).first(), timeout=25)
    assert bell is not None, f"the bell never rang:\n{worker.log.read_text()[-3000:]}"
    skew = (bell.rung_at - rnd.deadline).total_seconds()
    assert 0 <= skew < 2.0, f"rung_at is {skew:.2f} s after the deadline"
    nxt = wait_for(lambda: Round.objects.filter(evening_id=rnd.evening_id, number=2).first(), timeout=20)
    assert nxt is not None, f"auto-advance never started round 2:\n{worker.log.read_text()[-3000:]}"
    gap = (nxt.started_at - bell.rung_at).total_seconds()
    assert 0 <= gap < 2.0, f"round 2 started {gap:.2f} s after the bell (change-over 0)"
    # The advance task has finished (a copy queued again would have to run after it, and only
    # ever finds round 2 started): one bell, one round 2.
    assert wait_for(
        lambda: re.search(r"start_next_round\[[-0-9a-f]+\] succeeded", worker.log.read_text()), timeout=20
    ), worker.log.read_text()[-3000:]
    assert bells(rnd) == (1, 1) and Round.objects.filter(evening_id=rnd.evening_id).count() == 2
