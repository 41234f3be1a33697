"""``python -m tests.burst_publisher COUNT PAUSE ROUND_ID...``: queue COUNT stale timed bells, one
round after another, PAUSE seconds apart, through the broker the settings name (the test's own
filesystem broker folder, inherited through ``HEADTABLE_VAR_DIR``); prints each task's id on
its own line. A stale bell (clock version 0, never a running round's) does nothing when it runs
and logs ``bell task: round N clock 0 rang=False``; tests/test_worker_burst.py counts them."""

from __future__ import annotations

import sys
import time

from tournament.celery import app


def main(count: int, pause: float, round_ids: list[int]) -> None:
    """Queue ``count`` stale bells over ``round_ids`` in turn, ``pause`` seconds apart, and print
    their task ids."""
    with app.producer_or_acquire() as producer:
        for i in range(count):
            result = app.send_task(
                "tournament.tasks.ring_bell_when_due", args=(round_ids[i % len(round_ids)], 0), producer=producer
            )
            print(result.id, flush=True)
            time.sleep(pause)


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]), [int(arg) for arg in sys.argv[3:]])
