"""The worker survives a Redis restart mid-round: a real Celery worker (with its beat) on a
private ``redis-server`` that the test restarts, with and without a flush, while the worker
holds the round's timed bell. The worker stays up, and the bell rings once, within 5 s of the
round's deadline.

Runs on the suite's database (SQLite locally, PostgreSQL in CI); skipped, with the reason,
where there is no redis-server.
"""

from __future__ import annotations

import re

import pytest

from tests.fixtures_clock import wait_for
from tests.test_worker import bells, ready_round
from tournament.models import Bell
from tournament.services.clock import round_set_time_left

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("flush", [False, True], ids=["restart", "flushall-and-restart"])
def test_the_worker_survives_a_redis_restart_mid_round(own_redis, start_worker, make_evening, flush):
    worker = start_worker(beat=True, CELERY_BROKER_URL=own_redis.url)
    rnd = round_set_time_left(round=ready_round(make_evening), seconds=10)
    held = re.compile(r"Task tournament\.tasks\.ring_bell_when_due\[[-0-9a-f]+\] received")
    assert wait_for(lambda: held.search(worker.log.read_text()), timeout=8), (
        f"the worker never received the timed bell:\n{worker.log.read_text()[-3000:]}"
    )
    own_redis.restart(flush=flush)
    assert wait_for(lambda: worker.log.read_text().count("Connected to redis://") >= 2, timeout=15), (
        f"the worker did not reconnect:\n{worker.log.read_text()[-3000:]}"
    )
    bell = wait_for(lambda: Bell.objects.filter(round=rnd).first(), timeout=25)
    assert bell is not None, f"the bell never rang:\n{worker.log.read_text()[-3000:]}"
    late = (bell.rung_at - rnd.deadline).total_seconds()
    assert -0.05 <= late < 5.0, f"the bell rang {late:.2f} s after its deadline"
    worker.wait_for_next_sweep()  # one more sweep and any copy of the task: it must not ring again
    assert bells(rnd) == (1, 1)
    assert worker.proc.poll() is None, f"the worker exited:\n{worker.log.read_text()[-3000:]}"
    assert "Unrecoverable error" not in worker.log.read_text()
