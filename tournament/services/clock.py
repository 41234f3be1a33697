"""The round clock: start a round, pause, resume, add or take minutes.

Deadlines are computed by the database's clock (``Now()``) and stored in UTC; every change of
the clock bumps ``Round.clock_version`` so that a timed bell scheduled for the old clock does
nothing. Timed bells are queued only after the transaction commits.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, Value
from django.db.models.functions import Now
from django.utils import timezone

from tables.errors import RuleError
from tournament.models import Evening, Round
from tournament.services.audit import audit_log, evening_touch
from tournament.services.draws import live_draw
from tournament.services.state import current_round

MAX_MINUTES = 180


def _deadline_in(seconds: float) -> ExpressionWrapper:
    """The database's clock plus ``seconds``: deadlines never depend on a worker's clock."""
    return ExpressionWrapper(Now() + Value(timedelta(seconds=seconds)), output_field=DateTimeField())


def round_start(*, evening: Evening, user=None, device: str = "") -> Round:
    """Start the next round: one deal at every table, with the clock set to the evening's
    minutes per round. Queues the timed bell after commit. Returns the new ``Round``.

    Raises ``RuleError`` before the draw, while another round is in play, or after the last round.
    """
    from tournament.tasks import schedule_bell

    with transaction.atomic():
        evening = Evening.objects.select_for_update().get(pk=evening.pk)
        if evening.stage == Evening.Stage.ENDED:
            raise RuleError("This evening has ended; no more rounds.")
        if live_draw(evening) is None:
            raise RuleError("There is no draw yet: run the draw before starting round 1.")
        if current_round(evening) is not None:
            raise RuleError("A round is already in play: ring its bell before starting the next one.")
        number = (evening.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        if evening.rounds_planned and number > evening.rounds_planned:
            raise RuleError(f"All {evening.rounds_planned} rounds have been played.")
        rnd = Round.objects.create(
            evening=evening,
            number=number,
            started_at=Now(),
            deadline=_deadline_in(evening.minutes_per_round * 60),
        )
        rnd.refresh_from_db()
        if evening.stage != Evening.Stage.PLAYING:
            evening.stage = Evening.Stage.PLAYING
            evening.save(update_fields=["stage"])
        audit_log(evening=evening, action="round.start", user=user, device=device, round=number)
        evening_touch(evening=evening)
        transaction.on_commit(lambda: schedule_bell(rnd))
    return rnd


def round_pause(*, round: Round, user=None, device: str = "") -> Round:
    """Stop the clock of a running round (the timed bell then does nothing). Returns the round.
    Raises ``RuleError`` when the round is not running."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if rnd.state != Round.State.RUNNING:
            raise RuleError(f"Round {rnd.number} is not running, so it cannot be paused.")
        left = _seconds_left(rnd)
        Round.objects.filter(pk=rnd.pk).update(
            state=Round.State.PAUSED, paused_seconds_left=left, deadline=None, clock_version=F("clock_version") + 1
        )
        audit_log(evening=rnd.evening, action="round.pause", user=user, device=device, round=rnd.number)
        evening_touch(evening=rnd.evening)
    rnd.refresh_from_db()
    return rnd


def _seconds_left(rnd: Round) -> float:
    if rnd.deadline is None:
        return max(0.0, rnd.paused_seconds_left or 0.0)
    return max(0.0, (rnd.deadline - timezone.now()).total_seconds())


def round_resume(*, round: Round, user=None, device: str = "", add_minutes: int = 0) -> Round:
    """Restart a paused round's clock with the time it had left (plus ``add_minutes``, which
    may be negative). Queues the new timed bell after commit. Raises ``RuleError`` when the
    round is not paused or the minutes are absurd."""
    from tournament.tasks import schedule_bell

    if abs(add_minutes) > MAX_MINUTES:
        raise RuleError(f"Add or take at most {MAX_MINUTES} minutes.")
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if rnd.state != Round.State.PAUSED:
            raise RuleError(f"Round {rnd.number} is not paused.")
        left = max(0.0, (rnd.paused_seconds_left or 0.0) + add_minutes * 60)
        Round.objects.filter(pk=rnd.pk).update(
            state=Round.State.RUNNING, paused_seconds_left=None, deadline=_deadline_in(left),
            clock_version=F("clock_version") + 1,
        )
        rnd.refresh_from_db()
        audit_log(evening=rnd.evening, action="round.resume", user=user, device=device, round=rnd.number)
        evening_touch(evening=rnd.evening)
        transaction.on_commit(lambda: schedule_bell(rnd))
    return rnd


def round_extend(*, round: Round, minutes: int, user=None, device: str = "") -> Round:
    """Add (or, negative, take) minutes on a running round's clock; the old timed bell becomes
    stale and a new one is queued after commit. Raises ``RuleError`` for a round not running or
    more than 180 minutes either way."""
    from tournament.tasks import schedule_bell

    if not isinstance(minutes, int) or abs(minutes) > MAX_MINUTES or minutes == 0:
        raise RuleError(f"Give a whole number of minutes between -{MAX_MINUTES} and {MAX_MINUTES}, not 0.")
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if rnd.state != Round.State.RUNNING:
            raise RuleError(f"Round {rnd.number} is not running.")
        left = max(0.0, _seconds_left(rnd) + minutes * 60)
        Round.objects.filter(pk=rnd.pk).update(deadline=_deadline_in(left), clock_version=F("clock_version") + 1)
        rnd.refresh_from_db()
        audit_log(evening=rnd.evening, action="round.extend", user=user, device=device, round=rnd.number,
                  minutes=minutes)
        evening_touch(evening=rnd.evening)
        transaction.on_commit(lambda: schedule_bell(rnd))
    return rnd
