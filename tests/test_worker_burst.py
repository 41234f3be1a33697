"""The zero-set-up broker under a burst (issue 24 item 6): a real Celery worker with its beat on
the default broker (no ``CELERY_BROKER_URL``: the filesystem broker in this run's own folder)
while four timed rounds run out and three other processes queue 900 timed bells, 20 a second
in all, so the queue is mostly empty and the worker, looking every 2 ms
(tests/worker_burst_settings.py), often lists a message as it is being written. The worker
stays up, every task runs exactly once and every round's bell rings once.

Kombu's own filesystem transport wrote a message file in place (create, then write) and the
worker read whatever a file held when it listed it: with it this test failed, the worker dead
of ``JSONDecodeError: Expecting value: line 1 column 1 (char 0)`` within the burst (kombu
#1551, #398; tournament/filesystem_broker.py writes each message whole). Skipped on Redis
(CI's ``CELERY_BROKER_URL``), which has no files.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.fixtures_clock import ROOT, uses_redis, wait_for
from tests.test_worker import bells, ready_round
from tournament.models import Bell
from tournament.services.clock import round_set_time_left

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PUBLISHERS = 3  # processes queueing at once, besides this one and the worker's beat
EACH = 300  # stale bells each of them queues
PAUSE = 0.15  # seconds between two of one process's: 20 a second in all, which the worker keeps up with
ROUNDS = 4  # timed rounds that run out during the burst


def test_a_burst_of_timed_bells_never_crashes_the_worker_and_runs_each_once(start_worker, make_evening):
    if uses_redis():
        pytest.skip("The burst is for the default filesystem broker: unset CELERY_BROKER_URL.")
    worker = start_worker(beat=True, DJANGO_SETTINGS_MODULE="tests.worker_burst_settings")
    rounds = [ready_round(make_evening) for _ in range(ROUNDS)]
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="tournament.settings_test")
    ids = [str(rnd.pk) for rnd in rounds]
    publishers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.burst_publisher", str(EACH), str(PAUSE), *ids],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(PUBLISHERS)
    ]
    timed = [round_set_time_left(round=rnd, seconds=2 + i) for i, rnd in enumerate(rounds)]  # queued meanwhile
    sent = []
    for publisher in publishers:
        out, _ = publisher.communicate(timeout=120)
        assert publisher.returncode == 0
        sent += out.split()
    assert len(sent) == len(set(sent)) == PUBLISHERS * EACH

    def ran() -> int:
        return worker.count(" rang=False")

    finished = wait_for(lambda: ran() >= len(sent) or worker.proc.poll() is not None, timeout=240, step=0.5)
    log = worker.log.read_text()
    assert worker.proc.poll() is None, f"the worker died:\n{log[-3000:]}"
    assert finished and "JSONDecodeError" not in log and "Unrecoverable error" not in log, log[-3000:]
    for rnd in timed:
        assert wait_for(lambda rnd=rnd: Bell.objects.filter(round=rnd).exists(), timeout=20), "a bell never rang"
        worker.wait_for_log(f"bell task: round {rnd.pk} clock {rnd.clock_version} rang=True")
    worker.wait_for_next_sweep()  # a sweep after the bells: nothing rings twice
    log = worker.log.read_text()
    succeeded = re.findall(r"Task tournament\.tasks\.ring_bell_when_due\[([-0-9a-f]+)\] succeeded", log)
    runs = {task: succeeded.count(task) for task in sent}
    assert sorted(set(runs.values())) == [1], {task: n for task, n in runs.items() if n != 1}
    assert all(bells(rnd) == (1, 1) for rnd in timed)
    assert worker.proc.poll() is None
