"""Celery tasks: the timed bell, the sweeper that rings overdue bells, and auto-advance.

Tasks are thin (HackSoft style): they take ids, re-fetch, check that the state they were
scheduled for still holds, and call a service (``tournament.services.bell.bell_ring``,
``tournament.services.clock``). Running one twice, late, or after a pause or a change of
minutes does nothing the second time: the bell goes through one conditional update of its
round, a timed task carries the clock version it was scheduled for, and the next round starts
only if the evening's last round is still the one the task was queued after.

Never missed: a task lost with a worker or a broker restart is made good by
``ring_overdue_bells`` (Celery beat, every 5 s), which rings every overdue round by the
database's clock and starts every round whose change-over is over; two beats running at once
do no harm, for the same reasons.

On time after a broker restart: every time a worker's consumer (re)connects to the broker,
``requeue_timed_tasks`` (a consumer bootstep in ``tournament.celery``) queues the timed bell of
every running round and the next round of every evening waiting for its change-over again, so
a bell held by a worker when Redis restarted (with or without its data) rings at its deadline,
not at the next sweep. Copies of a task are harmless, as above.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db.models import DurationField, ExpressionWrapper, F
from django.db.models.functions import Now

from tournament.models import Bell, Evening, Round
from tournament.services.bell import bell_ring
from tournament.services.clock import (
    next_round_wait,
    round_advance,
    round_mark_last_if_past_end,
    schedule_advance,
)
from tournament.services.scheduling import schedule_bell

log = logging.getLogger(__name__)


def _ring(round_id: int, clock_version: int | None) -> bool:
    round_mark_last_if_past_end(round_id=round_id)
    bell = bell_ring(round_id=round_id, cause=Bell.Cause.CLOCK, expected_clock_version=clock_version, only_if_due=True)
    return bell is not None


@shared_task(ignore_result=True)
def ring_bell_when_due(round_id: int, clock_version: int) -> bool:
    """Ring a round's bell because its clock ran out. Takes the round's id and the clock
    version it was scheduled for; returns True when this run rang the bell, False when there
    was nothing to do (already rung, paused, extended) or the bell now waits for a result.
    A worker whose clock runs ahead of the database's queues itself again for the moment the
    database says the round is due."""
    early = (
        Round.objects.filter(pk=round_id, state=Round.State.RUNNING, clock_version=clock_version, deadline__gt=Now())
        .values_list(ExpressionWrapper(F("deadline") - Now(), output_field=DurationField()), flat=True)
        .first()
    )
    if early is not None:
        log.info(
            "bell task: round %s clock %s is early; again in %.2f s", round_id, clock_version, early.total_seconds()
        )
        ring_bell_when_due.apply_async((round_id, clock_version), countdown=early.total_seconds() + 0.05)
        return False
    try:
        rang = _ring(round_id, clock_version)
    except Exception:  # the rules refused: the round waits, the host settles it on the host page
        log.exception("Timed bell for round %s could not ring", round_id)
        return False
    log.info("bell task: round %s clock %s rang=%s", round_id, clock_version, rang)
    return rang


@shared_task(ignore_result=True)
def start_next_round(evening_id: int, after_round: int) -> bool:
    """Auto-advance: start the round after ``after_round`` when its change-over is over.
    Returns True when this run started it (see ``tournament.services.clock.round_advance``).
    A worker whose clock runs ahead of the database's queues itself again for the moment the
    database says the change-over ends."""
    wait = next_round_wait(evening_id=evening_id, after_round=after_round)
    if wait is not None and wait > 0:
        log.info("next round task: evening %s after round %s is early; again in %.2f s", evening_id, after_round, wait)
        start_next_round.apply_async((evening_id, after_round), countdown=wait + 0.05)
        return False
    return round_advance(evening_id=evening_id, after_round=after_round) is not None


@shared_task(ignore_result=True)
def ring_overdue_bells() -> int:
    """The sweeper (Celery beat, every 5 s): make the end time's round the last, ring every
    running round whose deadline has passed by the database's clock, and start every next round
    whose change-over is over, in case a task was lost. Returns how many bells this run rang."""
    for round_id in Round.objects.filter(
        state__in=(Round.State.RUNNING, Round.State.PAUSED),
        evening__ends_at__lte=Now(),
        evening__stage=Evening.Stage.PLAYING,
    ).values_list("pk", flat=True):
        round_mark_last_if_past_end(round_id=round_id)
    rung = 0
    for round_id in Round.objects.filter(state=Round.State.RUNNING, deadline__lte=Now()).values_list("pk", flat=True):
        try:
            rung += _ring(round_id, None)
        except Exception:
            log.exception("Overdue bell for round %s could not ring", round_id)
    waiting = Evening.objects.filter(auto_advance=True, stage=Evening.Stage.PLAYING).exclude(
        rounds__state__in=(Round.State.RUNNING, Round.State.PAUSED, Round.State.RUNG)
    )
    for evening_id in waiting.values_list("pk", flat=True).distinct():
        last = Round.objects.filter(evening_id=evening_id).order_by("-number").values_list("number", flat=True).first()
        if last is not None:
            try:
                round_advance(evening_id=evening_id, after_round=last)
            except Exception:
                log.exception("The next round of evening %s could not start", evening_id)
    return rung


def requeue_timed_tasks() -> int:
    """Queue again the timed bell of every running round (at its deadline) and the start of
    every next round after its change-over (auto-advance). Called each time a worker connects
    to the broker, since tasks a worker held when the connection broke are dropped from its
    memory and, after a Redis restart without persistence, from Redis too. Returns how many
    bells it queued. Duplicates of tasks still queued do nothing (see the module docstring);
    a broker that cannot be reached is logged by ``schedule_bell``, and the sweeper covers it."""
    queued = 0
    for rnd in (
        Round.objects.filter(state=Round.State.RUNNING, deadline__isnull=False)
        .order_by()
        .only("pk", "state", "deadline", "clock_version")
    ):
        schedule_bell(rnd)
        queued += 1
    waiting = Evening.objects.filter(auto_advance=True, stage=Evening.Stage.PLAYING).exclude(
        rounds__state__in=(Round.State.RUNNING, Round.State.PAUSED, Round.State.RUNG)
    )
    for evening_id in waiting.order_by().values_list("pk", flat=True).distinct():
        schedule_advance(evening_id)
    log.info("requeued the timed bells of %s running rounds", queued)
    return queued
