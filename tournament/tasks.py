"""Celery tasks: the timed bell and the sweeper that rings overdue bells.

Tasks are thin (HackSoft style): they take ids, re-fetch, check that the state they were
scheduled for still holds, and call ``tournament.services.rounds.bell_ring``. Running one twice,
late, or after a pause or a change of minutes does nothing the second time: the bell goes
through one conditional update of its round, and a task carries the clock version it was
scheduled for.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db.models.functions import Now

from tournament.models import Bell, Round

log = logging.getLogger(__name__)


def schedule_bell(rnd: Round) -> None:
    """Queue ``ring_bell_when_due`` for a running round at its deadline (call after commit)."""
    if rnd.state == Round.State.RUNNING and rnd.deadline is not None:
        ring_bell_when_due.apply_async((rnd.pk, rnd.clock_version), eta=rnd.deadline)


@shared_task(ignore_result=True)
def ring_bell_when_due(round_id: int, clock_version: int) -> bool:
    """Ring a round's bell because its clock ran out. Takes the round's id and the clock
    version it was scheduled for; returns True when this run rang the bell, False when there
    was nothing to do (already rung, paused, extended, or not yet due by the database's clock)."""
    from tournament.services.bell import bell_ring

    try:
        bell = bell_ring(round_id=round_id, cause=Bell.Cause.CLOCK, expected_clock_version=clock_version,
                         only_if_due=True)
    except Exception:  # the rules refused (e.g. results held): the host settles it on the host page
        log.exception("Timed bell for round %s could not ring", round_id)
        return False
    return bell is not None


@shared_task(ignore_result=True)
def ring_overdue_bells() -> int:
    """The sweeper (Celery beat, every few seconds): ring every running round whose deadline
    has passed by the database's clock, in case its timed task was lost. Safe with several beat
    processes: each bell is one conditional update. Returns how many bells this run rang."""
    from tournament.services.bell import bell_ring

    rung = 0
    for round_id in Round.objects.filter(state=Round.State.RUNNING, deadline__lte=Now()).values_list("pk", flat=True):
        try:
            if bell_ring(round_id=round_id, cause=Bell.Cause.CLOCK, only_if_due=True) is not None:
                rung += 1
        except Exception:
            log.exception("Overdue bell for round %s could not ring", round_id)
    return rung
