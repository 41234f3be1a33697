"""Queueing the clock's timed tasks: the bell at a round's deadline, the next round at the end of
the change-over. The services call these (after their transaction commits); the tasks
themselves live in ``tournament.tasks``, the outer layer, which calls the services. The tasks
are sent by name (a Celery signature: the registered task's ``apply_async`` where this process
has imported it, else ``send_task``), so this module does not import ``tournament.tasks``
(which imports the services: no import cycle).

A broker that cannot be reached is logged, not raised: the change is committed already and the
sweeper (``ring_overdue_bells``, every 5 s) rings the round or starts the next one anyway.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app

from tournament.models import Round

log = logging.getLogger(__name__)
RING_BELL = "tournament.tasks.ring_bell_when_due"
START_NEXT_ROUND = "tournament.tasks.start_next_round"


def schedule_bell(rnd: Round) -> None:
    """Queue the timed bell of a running round at its deadline (``rnd.deadline``, with the clock
    version it was set for); does nothing for a round not running or without a deadline."""
    if rnd.state == Round.State.RUNNING and rnd.deadline is not None:
        try:
            current_app.signature(RING_BELL).apply_async((rnd.pk, rnd.clock_version), eta=rnd.deadline)
        except Exception:
            log.exception("Could not queue the timed bell of round %s; the sweeper will ring it", rnd.pk)


def schedule_next_round(*, evening_id: int, after_round: int, at: datetime) -> None:
    """Queue the start of the round after ``after_round`` of an evening at ``at`` (auto-advance:
    the bell's time plus the change-over; see ``tournament.services.clock.next_round_due_at``)."""
    try:
        current_app.signature(START_NEXT_ROUND).apply_async((evening_id, after_round), eta=at)
    except Exception:
        log.exception("Could not queue the next round of evening %s; the sweeper will start it", evening_id)
