"""The round clock: start a round, pause, resume, add or take minutes, ring now, auto-advance,
and the end of the evening by number of rounds or by the clock.

Deadlines are computed by the database's clock (``Now()``) and stored in UTC; every change of
the clock bumps ``Round.clock_version`` so that a timed bell scheduled for the old clock does
nothing. Timed bells and the next round's start are queued only after the transaction commits
(``tournament.tasks``); the sweeper there catches any task that was lost.

House rules (the seeds are silent on clocks): a round lasts ``Evening.minutes_per_round``;
minutes are added or taken 1 to 180 at a time; after a bell the next round starts by itself
after ``Evening.changeover_minutes`` when ``Evening.auto_advance`` is on; when
``Evening.ends_at`` passes, the round then in play is the last (``rounds_planned`` is set to its
number, so at its bell nobody moves and the final count follows: ``tournament.services.ending``),
and no round starts after that time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, F, Value
from django.db.models.functions import Now
from django.utils import timezone

from tables.errors import RuleError
from tables.words import joined
from tournament.models import Bell, Evening, Guest, Round, Seat
from tournament.name_keys import name_order
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.bell import bell_ring
from tournament.services.draws import live_draw
from tournament.services.locks import lock_evening, lock_round
from tournament.services.scheduling import schedule_bell, schedule_next_round
from tournament.services.state import OPEN_STATES, current_round
from tournament.services.versions import evening_touch

MAX_MINUTES = 180


def _lock_round(round_id: int) -> Round:
    """Lock a round (after its evening: ``tournament.services.locks``); raises ``RuleError``
    when it does not exist."""
    rnd = lock_round(round_id)
    if rnd is None:
        raise RuleError("That round does not exist: reload the page.")
    return rnd


def _deadline_in(seconds: float) -> ExpressionWrapper:
    """The database's clock plus ``seconds``: deadlines never depend on a worker's clock."""
    return ExpressionWrapper(Now() + Value(timedelta(seconds=seconds)), output_field=DateTimeField())


def _past_end_time(evening: Evening) -> bool:
    """True when the evening has an end time and the database's clock has reached it."""
    return bool(evening.ends_at) and Evening.objects.filter(pk=evening.pk, ends_at__lte=Now()).exists()


def round_start(*, evening: Evening, user=None, device: str = "", after_round: int | None = None) -> Round:
    """Start the next round: one deal at every table, with the clock set to the evening's
    minutes per round. Queues the timed bell after commit. Returns the new ``Round``.

    ``after_round`` (auto-advance) makes the start conditional: the evening's last round must
    still be that number. Raises ``RuleError`` before the draw, while another round is in play,
    after the last round, after the evening's end time, or once the evening has ended; and
    before round 1 while a guest marked as left still holds a seat of the draw (named, with
    their table: ``_no_leaver_seated``).
    """
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        if evening.stage == Evening.Stage.ENDED:
            raise RuleError("This evening has ended; no more rounds.")
        if live_draw(evening) is None:
            raise RuleError("There is no draw yet: run the draw before starting round 1.")
        if current_round(evening) is not None:
            raise RuleError("A round is already in play: ring its bell before starting the next one.")
        number = (evening.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        if after_round is not None and number != after_round + 1:
            raise RuleError("Round {round} is next, not round {rounds[1]}.", rounds=(number, after_round + 1))
        if Round.is_last_number(number - 1, evening=evening):  # the round before was the last
            raise RuleError(f"All {evening.rounds_planned} rounds have been played.")
        if number == 1:
            _no_leaver_seated(evening)
        if _past_end_time(evening):
            local = timezone.localtime(evening.ends_at)
            raise RuleError(
                f"The evening's end time ({local:%H:%M}) has passed, so no round starts now. "
                "Move or clear the end time in the clock settings to play on."
            )
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
        audit_log(
            evening=evening, action="round.start", user=user, device=device, round=number, auto=after_round is not None
        )
        evening_touch(evening=evening)
        transaction.on_commit(lambda: schedule_bell(rnd))
    return rnd


def round_pause(*, round: Round, user=None, device: str = "") -> Round:
    """Stop the clock of a running round (the timed bell then does nothing). Returns the round.
    Raises ``RuleError`` when the round is not running (paused, rung or closed)."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        if rnd.state != Round.State.RUNNING:
            raise RuleError(
                "Round {round} is {state}, not running, so it cannot be paused.",
                rounds=(rnd.number,),
                state=rnd.state_words.lower(),
            )
        left = _seconds_left(rnd)
        Round.objects.filter(pk=rnd.pk).update(
            state=Round.State.PAUSED, paused_seconds_left=left, deadline=None, clock_version=F("clock_version") + 1
        )
        audit_log(
            evening=rnd.evening,
            action="round.pause",
            user=user,
            device=device,
            round=rnd.number,
            seconds_left=int(left),
        )
        evening_touch(evening=rnd.evening)
    rnd.refresh_from_db()
    return rnd


def _seconds_left(rnd: Round) -> float:
    """Seconds left on a round's clock by the database's clock (0 when overdue)."""
    if rnd.deadline is None:
        return max(0.0, rnd.paused_seconds_left or 0.0)
    left = (
        Round.objects.filter(pk=rnd.pk)
        .values_list(ExpressionWrapper(F("deadline") - Now(), output_field=DurationField()), flat=True)
        .get()
    )
    return max(0.0, left.total_seconds())


def round_seconds_left(rnd: Round) -> float:
    """Seconds left on a running or paused round's clock, by the database's clock (0 when
    overdue; one query for a running round, none for a paused one)."""
    return _seconds_left(rnd)


def _check_minutes(minutes) -> int:
    """A signed whole number of minutes, 1 to 180 either way; raises ``RuleError`` otherwise."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 or abs(minutes) > MAX_MINUTES:
        raise RuleError(f"Give a whole number of minutes from 1 to {MAX_MINUTES} to add or take.")
    return minutes


def round_resume(*, round: Round, user=None, device: str = "", add_minutes: int = 0) -> Round:
    """Restart a paused round's clock with the time it had left (plus ``add_minutes``, which
    may be negative). Queues the new timed bell after commit. Raises ``RuleError`` when the
    round is not paused or the minutes are absurd."""
    if add_minutes:
        _check_minutes(add_minutes)
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        if rnd.state != Round.State.PAUSED:
            raise RuleError("Round {round} is not paused.", rounds=(rnd.number,))
        left = max(0.0, (rnd.paused_seconds_left or 0.0) + add_minutes * 60)
        Round.objects.filter(pk=rnd.pk).update(
            state=Round.State.RUNNING,
            paused_seconds_left=None,
            deadline=_deadline_in(left),
            clock_version=F("clock_version") + 1,
        )
        rnd.refresh_from_db()
        audit_log(evening=rnd.evening, action="round.resume", user=user, device=device, round=rnd.number)
        evening_touch(evening=rnd.evening)
        transaction.on_commit(lambda: schedule_bell(rnd))
    return rnd


def round_extend(*, round: Round, minutes: int, user=None, device: str = "") -> Round:
    """Add (positive ``minutes``) or take (negative) minutes on a running or paused round's
    clock; the time left never goes below 0 (taking more rings the bell at once). For a running
    round the old timed bell becomes stale and a new one is queued after commit.
    Raises ``RuleError`` for a round not running or paused, or for 0 or more than 180 minutes."""
    _check_minutes(minutes)
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        if rnd.state == Round.State.PAUSED:
            left = max(0.0, (rnd.paused_seconds_left or 0.0) + minutes * 60)
            Round.objects.filter(pk=rnd.pk).update(paused_seconds_left=left, clock_version=F("clock_version") + 1)
        elif rnd.state == Round.State.RUNNING:
            left = max(0.0, _seconds_left(rnd) + minutes * 60)
            Round.objects.filter(pk=rnd.pk).update(deadline=_deadline_in(left), clock_version=F("clock_version") + 1)
        else:
            raise RuleError(
                "Round {round} is {state}: its clock has stopped, so minutes cannot be added or taken.",
                rounds=(rnd.number,),
                state=rnd.state_words.lower(),
            )
        rnd.refresh_from_db()
        audit_log(
            evening=rnd.evening, action="round.extend", user=user, device=device, round=rnd.number, minutes=minutes
        )
        evening_touch(evening=rnd.evening)
        transaction.on_commit(lambda: schedule_bell(rnd))
    return rnd


def round_set_time_left(*, round: Round, seconds: int, user=None, device: str = "") -> Round:
    """Set a running or paused round's clock to ``seconds`` left (0 to 180 minutes), as a host
    sets a tournament clock. For a running round the old timed bell becomes stale and a new
    one is queued after commit. Raises ``RuleError`` for a round whose clock has stopped or a
    time below 0 or over 180 minutes."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= MAX_MINUTES * 60:
        raise RuleError(f"Set the clock to between 0 and {MAX_MINUTES} minutes.")
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        if rnd.state == Round.State.PAUSED:
            Round.objects.filter(pk=rnd.pk).update(paused_seconds_left=seconds, clock_version=F("clock_version") + 1)
        elif rnd.state == Round.State.RUNNING:
            Round.objects.filter(pk=rnd.pk).update(deadline=_deadline_in(seconds), clock_version=F("clock_version") + 1)
        else:
            raise RuleError(
                "Round {round} is {state}: its clock has stopped.",
                rounds=(rnd.number,),
                state=rnd.state_words.lower(),
            )
        rnd.refresh_from_db()
        audit_log(evening=rnd.evening, action="round.set", user=user, device=device, round=rnd.number, seconds=seconds)
        evening_touch(evening=rnd.evening)
        transaction.on_commit(lambda: schedule_bell(rnd))
    return rnd


def round_ring(*, evening: Evening, user=None, device: str = "") -> Bell | None:
    """The host rings the bell of the round in play now. Returns the ``Bell``, or None when the
    bell rang but waits for a result (``Round.waiting_for`` says which).

    Raises ``RuleError`` when the evening has ended, no round is in play, or the round's bell
    has already rung and is waiting for results (enter them, and the bell applies itself). A
    round reopened by an undo (``Round.reopened``) waits for exactly this: it rings.
    The bell itself is ``bell_ring``'s one conditional update, in its own transaction; first, if
    the end time has passed, the round is made the last (see ``round_mark_last_if_past_end``)."""
    evening = Evening.objects.get(pk=evening.pk)
    if evening.stage == Evening.Stage.ENDED:
        raise RuleError("This evening has ended: there is no round to ring the bell for.")
    rnd = current_round(evening)
    if rnd is None:
        raise RuleError("No round is in play, so there is no bell to ring. Start the next round first.")
    if rnd.state == Round.State.RUNG and not rnd.reopened:
        raise RuleError(
            "The bell of round {round} has rung already and waits: {why}",
            rounds=(rnd.number,),
            why=rnd.waiting_for or "enter the missing results.",
        )
    round_mark_last_if_past_end(round_id=rnd.pk)
    return bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST, user=user, device=device)


def round_mark_last_if_past_end(*, round_id: int) -> bool:
    """When the evening's end time has passed (database clock) while this round is in play,
    make it the last round: ``Evening.rounds_planned`` becomes its number. Everyone's page shows
    "last round" after that (the evening's version is bumped). Returns True when it marked it,
    False when there was nothing to do. House rule: "the round in play at the end time is the last";
    a round whose bell rang before that time (even one still waiting for results) was over, so
    only a running or paused round is marked."""
    with transaction.atomic():
        rnd = (
            Round.objects.select_related("evening")
            .filter(pk=round_id, state__in=(Round.State.RUNNING, Round.State.PAUSED))
            .first()
        )
        if rnd is None or rnd.evening.ends_at is None:
            return False
        evening = lock_evening(rnd.evening_id)
        if Round.is_last_number(rnd.number, evening=evening):
            return False
        if not _past_end_time(evening):
            return False
        evening.rounds_planned = rnd.number
        evening.save(update_fields=["rounds_planned"])
        audit_log(evening=evening, action="round.last", round=rnd.number, reason="end time")
        evening_touch(evening=evening)
    return True


def _no_leaver_seated(evening: Evening) -> None:
    """Raise ``RuleError`` naming every guest marked as left after the draw who still holds a
    seat, with their table, so that round 1 never starts with a guest who is gone (their side's
    results would count for them). One query. House rule (issue 22): the host gives the seat up
    first (the guests page's *Left*: a ghost's seat at tables of four, the draw page's re-plan
    at poker tables)."""
    gone = [
        (guest, table)
        for guest, table, _ in sorted(
            Seat.objects.filter(evening=evening, guest__status=Guest.Status.LEFT).values_list(
                "guest_id", "table", "guest__name"
            ),
            key=lambda row: (row[1], name_order(row[2]), row[0]),
        )
    ]
    if gone:
        where = joined(f"{{guests[{i}]}} at table {table}" for i, (_, table) in enumerate(gone))
        raise RuleError(
            "Round 1 has not started: " + where + (" have" if len(gone) > 1 else " has") + " left but still"
            f" hold{'' if len(gone) > 1 else 's'} a seat. Give it up first (the guests page's Left says how), "
            "then start round 1.",
            guests=[g for g, _ in gone],
        )


def round_advance(*, evening_id: int, after_round: int) -> Round | None:
    """Auto-advance: start the round after ``after_round`` once its bell has rung and the
    change-over (``Evening.changeover_minutes``, by the database's clock from the bell) is over.

    Idempotent and safe to call late, twice or from several processes: returns the new round,
    or None when there is nothing to do (auto-advance off, the evening ended, a later round
    already started, the bell undone or not yet rung, the change-over not over, all rounds
    played, or the end time passed)."""
    evening = Evening.objects.filter(pk=evening_id, auto_advance=True, stage=Evening.Stage.PLAYING).first()
    if evening is None:
        return None
    last = evening.rounds.order_by("-number").first()
    if last is None or last.number != after_round or last.state != Round.State.CLOSED:
        return None
    due = Now() - Value(timedelta(minutes=evening.changeover_minutes))
    if (
        not Bell.objects.filter(round=last, rung_at__lte=ExpressionWrapper(due, output_field=DateTimeField()))
        .live()
        .bells()
        .exists()
    ):
        return None
    try:
        return round_start(evening=evening, after_round=after_round)
    except RuleError:
        return None


def next_round_wait(*, evening_id: int, after_round: int) -> float | None:
    """Seconds, by the database's clock, until the change-over after round ``after_round``'s
    live bell is over (0 or less: it is over), or None when that round has no live bell or the
    evening is gone. For auto-advance tasks run by a worker whose own clock may differ."""
    minutes = Evening.objects.filter(pk=evening_id).values_list("changeover_minutes", flat=True).first()
    if minutes is None:
        return None
    wait = (
        Bell.objects.filter(
            round__evening_id=evening_id, round__number=after_round, kind=Bell.Kind.BELL, undone_at__isnull=True
        )
        .order_by("-id")
        .values_list(
            ExpressionWrapper(F("rung_at") + Value(timedelta(minutes=minutes)) - Now(), output_field=DurationField()),
            flat=True,
        )
        .first()
    )
    return None if wait is None else wait.total_seconds()


def next_round_due_at(*, evening: Evening) -> tuple[int, datetime] | None:
    """For auto-advance: (the closed round's number, when the next round starts: its bell's
    time plus the change-over), or None when no next round is coming by itself."""
    if not evening.auto_advance or evening.stage != Evening.Stage.PLAYING:
        return None
    last = evening.rounds.order_by("-number").first()
    if last is None or last.state != Round.State.CLOSED:
        return None
    if Round.is_last_number(last.number, evening=evening):
        return None
    bell = Bell.objects.filter(round=last).live().bells().order_by("-id").first()  # not a guest's step after it
    if bell is None:
        return None
    return last.number, bell.rung_at + timedelta(minutes=evening.changeover_minutes)


def schedule_advance(evening_id: int) -> None:
    """Queue the start of an evening's next round for the end of the change-over after its bell,
    when the evening advances by itself (call after commit; does nothing otherwise). Called for
    every new bell (``tournament.signals``) and when auto-advance is switched on."""
    evening = Evening.objects.filter(pk=evening_id).first()
    due = next_round_due_at(evening=evening) if evening is not None else None
    if due is not None:
        after_round, at = due
        schedule_next_round(evening_id=evening_id, after_round=after_round, at=at)


CLOCK_FIELDS = ("round_end", "auto_advance", "changeover_minutes", "warning_seconds", "rounds_planned", "ends_at")


def rounds_planned_refused(evening: Evening, planned: int | None) -> str | None:
    """Why ``evening`` may not plan ``planned`` rounds (None: no number, play until the end
    time or until the host stops), or None when it may: never fewer than the rounds played, and
    what the format refuses (``FormatPlugin.rounds_change_refused``). One query or two."""
    refused = format_for(evening).rounds_change_refused(evening, planned)
    if refused or planned is None:
        return refused
    return rounds_too_few(planned, evening.rounds.exclude(state__in=OPEN_STATES).count())


def rounds_too_few(planned: int | None, played: int) -> str | None:
    """Why ``planned`` rounds (None: no number) cannot be planned when ``played`` rounds are
    played (closed, not in ``OPEN_STATES``), or None when they can: never fewer than were played
    (house rule: the clock, the settings page, the admin's evening settings and the JSON import
    all refuse it in these words). No query."""
    if planned is None or planned >= played:
        return None
    done = "1 round has" if played == 1 else f"{played} rounds have"
    return f"{done} been played already: plan at least that many."


def evening_set_clock(*, evening: Evening, user=None, device: str = "", **fields) -> Evening:
    """Save the evening's clock settings (any of ``CLOCK_FIELDS``: how a round ends,
    auto-advance, change-over minutes, warning seconds, number of rounds, end time). Returns
    the evening. Raises ``RuleError`` for an unknown field, or for fewer rounds than already
    played. The next round's start is queued again when auto-advance is now on."""
    unknown = set(fields) - set(CLOCK_FIELDS)
    if unknown:
        raise RuleError(f"Not a clock setting: {', '.join(sorted(unknown))}.")
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        refused = rounds_planned_refused(evening, fields.get("rounds_planned"))
        if refused:
            raise RuleError(refused)
        changed = sorted(k for k, v in fields.items() if getattr(evening, k) != v)
        for name, value in fields.items():
            setattr(evening, name, value)
        evening.save(update_fields=list(fields) or None)
        audit_log(evening=evening, action="clock.settings", user=user, device=device, changed=changed)
        evening_touch(evening=evening)
        if "auto_advance" in changed and evening.auto_advance:
            transaction.on_commit(lambda: schedule_advance(evening.pk))
    return evening
