"""Rounds and the bell: start a round, record a table's result, ring the bell, undo it.

The bell's rules are ``tables.bell`` (``seeds/README.md``, Progressive Poker). This module loads
the evening's state, hands it with the round's results to ``ring_bell``, and stores the record,
the new seats and the state after the bell in one transaction. A bell goes through one
conditional update of its round (running/paused/waiting -> closed), so a second ring, a late
timer or a duplicate task does nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, Value
from django.db.models.functions import Now

from tables.bell import BellOptions, EveningState, TableResult, check_results, ring_bell
from tables.errors import RuleError
from tournament.models import Bell, BellEntry, Evening, Guest, Result, Round, Seat
from tournament.services.audit import audit_log, evening_touch
from tournament.services.draws import live_draw, seats_replace

OPEN_STATES = (Round.State.RUNNING, Round.State.PAUSED, Round.State.RUNG)
MAX_MINUTES = 180


def bell_options(evening: Evening) -> BellOptions:
    """The evening's bell options (house rules) from ``evening.options["bell"]``."""
    return BellOptions.from_mapping(dict((evening.options or {}).get("bell", {})))


def evening_state(evening: Evening) -> EveningState:
    """The evening as the bell rules see it now: the last live bell's state after, or the
    draw's seating with one stake each. Raises ``RuleError`` before the draw. One or two queries."""
    bell = (
        Bell.objects.filter(round__evening=evening, undone_at__isnull=True)
        .order_by("-round__number", "-id")
        .only("state_after")
        .first()
    )
    if bell is not None:
        return EveningState.from_json(bell.state_after)
    draw = live_draw(evening)
    if draw is None:
        raise RuleError("There is no draw yet: run the draw first.")
    tables: list[list[int]] = [[] for _ in draw.sizes]
    for guest, table in draw.cards.order_by("rank", "id").values_list("guest_id", "rank"):
        tables[table - 1].append(guest)
    return EveningState.start(tables, stake=evening.counters_per_stake)


def current_round(evening: Evening) -> Round | None:
    """The round in play (running, paused, or rung and waiting), or None."""
    return evening.rounds.filter(state__in=OPEN_STATES).order_by("-number").first()


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
    from django.utils import timezone

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


def table_result(row: Result) -> TableResult:
    """A stored result as the bell rules take it."""
    return TableResult(
        table=row.table,
        pool_winner=row.pool_winner_id,
        in_call=frozenset(int(g) for g in row.in_call),
        counters={int(g): int(c) for g, c in row.counters.items()},
    )


def result_record(
    *,
    round: Round,
    table: int,
    pool_winner: int | None,
    in_call: Iterable[int] = (),
    counters: Mapping[int, int] | None = None,
    user=None,
    reporter: Guest | None = None,
    device: str = "",
) -> Result:
    """Record (or replace) a table's result for a round in play; returns the live ``Result``.

    ``pool_winner`` and ``in_call`` are guest ids at that table; ``counters`` maps guest id to
    counters after the deal (required at the head table). An earlier result for the same table
    is kept, marked superseded. When the evening ends rounds at the head table's pool (the
    rules' way) a head-table result rings the bell in the same transaction.

    Raises ``RuleError`` (``tables.bell.ResultError``) for a round not in play, a winner or caller
    not at that table, a caller who is the winner, negative counters, or counters for someone
    not there. Nothing is saved then.
    """
    counters = dict(counters or {})
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("evening").get(pk=round.pk)
        evening = rnd.evening
        if rnd.state not in OPEN_STATES:
            raise RuleError(f"Round {rnd.number} is closed: its bell has rung. Ask the host to correct it.")
        state = evening_state(evening)
        result = TableResult(table=table, pool_winner=pool_winner, in_call=frozenset(in_call), counters=counters)
        check_results(state, [result], options=bell_options(evening))
        if reporter is not None and reporter.pk not in state.tables[table - 1]:
            raise RuleError(f"{reporter.name} is not at table {table} this round, so cannot report its result.")
        from django.utils import timezone

        Result.objects.filter(round=rnd, table=table, superseded_at__isnull=True).update(superseded_at=timezone.now())
        row = Result.objects.create(
            round=rnd, table=table, pool_winner_id=pool_winner, in_call=sorted(result.in_call),
            counters={str(g): c for g, c in counters.items()}, reported_by_user=user if user and user.is_authenticated else None,
            reported_by_guest=reporter,
        )
        audit_log(evening=evening, action="result.record", user=user, guest=reporter, device=device,
                  round=rnd.number, table=table, pool_winner=pool_winner)
        evening_touch(evening=evening)
        if table == 1 and evening.round_end == Evening.RoundEnd.HEAD_POOL and rnd.state != Round.State.RUNG:
            _ring(rnd=rnd, evening=evening, cause=Bell.Cause.HEAD_POOL, user=user, device=device)
    return row


def bell_ring(
    *,
    round_id: int,
    cause: str,
    expected_clock_version: int | None = None,
    only_if_due: bool = False,
    user=None,
    device: str = "",
) -> Bell | None:
    """Ring the bell for a round: apply ``tables.bell.ring_bell`` and store what it did.

    Returns the new ``Bell``, or None when there is nothing to do: the round's bell has already
    rung, its clock changed since the task was scheduled (``expected_clock_version``), or it is
    not yet due by the database's clock (``only_if_due``). Raises ``RuleError`` when the rules
    refuse (e.g. results missing under the "hold" option: the round then waits for them).
    """
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("evening").filter(pk=round_id).first()
        if rnd is None or rnd.state not in OPEN_STATES:
            return None
        if expected_clock_version is not None and rnd.clock_version != expected_clock_version:
            return None
        if only_if_due and not Round.objects.filter(pk=rnd.pk, state=Round.State.RUNNING, deadline__lte=Now()).exists():
            return None
        return _ring(rnd=rnd, evening=rnd.evening, cause=cause, user=user, device=device)


def _ring(*, rnd: Round, evening: Evening, cause: str, user, device: str) -> Bell | None:
    """Apply the bell inside the caller's transaction (the round row is locked)."""
    claimed = Round.objects.filter(pk=rnd.pk, state__in=OPEN_STATES).update(state=Round.State.CLOSED)
    if not claimed:
        return None
    state = evening_state(evening)
    results = [table_result(r) for r in rnd.results.filter(superseded_at__isnull=True)]
    last = bool(evening.rounds_planned and rnd.number >= evening.rounds_planned)
    record = ring_bell(state, results, stake=evening.counters_per_stake, options=bell_options(evening), last_round=last)
    try:
        with transaction.atomic():
            bell = Bell.objects.create(round=rnd, cause=cause, record=record.to_json(), state_after=record.after.to_json())
    except IntegrityError:
        return None  # another process rang this round's bell first
    BellEntry.objects.bulk_create(
        [
            BellEntry(bell=bell, kind=e.kind, guest_id=e.guest, from_table=e.from_table, to_table=e.to_table,
                      amount=e.amount, rule=e.rule[:200], text=e.text[:300])
            for e in record.entries
        ]
    )
    _seats_follow(evening=evening, before=record.before, after=record.after)
    if last:
        evening.stage = Evening.Stage.ENDED
        evening.save(update_fields=["stage"])
    audit_log(evening=evening, action="bell.ring", user=user, device=device, round=rnd.number, cause=cause,
              moves=sum(1 for e in record.entries if e.from_table != e.to_table and e.to_table))
    evening_touch(evening=evening)
    rnd.state = Round.State.CLOSED
    return bell


def _seats_follow(*, evening: Evening, before: EveningState, after: EveningState) -> None:
    """Update the ``Seat`` rows of guests whose table changed (one query per destination table)."""
    old = {g: n for n, ids in enumerate(before.tables, 1) for g in ids}
    new = {g: n for n, ids in enumerate(after.tables, 1) for g in ids}
    if set(old) != set(new):
        seats_replace(evening=evening, tables=after.tables)
        return
    moved: dict[int, list[int]] = {}
    for guest, table in new.items():
        if old.get(guest) != table:
            moved.setdefault(table, []).append(guest)
    for table, guests in moved.items():
        Seat.objects.filter(evening=evening, guest_id__in=guests).update(table=table)


def bell_undo(*, evening: Evening, user=None, device: str = "") -> Bell:
    """Undo the evening's last live bell: the seats go back to before it, its round waits for
    its bell again (results can be corrected, then rung again). The bell is kept, marked undone.
    Returns the undone bell; raises ``RuleError`` when there is none or a later round started."""
    from django.utils import timezone

    with transaction.atomic():
        evening = Evening.objects.select_for_update().get(pk=evening.pk)
        bell = (
            Bell.objects.filter(round__evening=evening, undone_at__isnull=True)
            .select_related("round").order_by("-round__number", "-id").first()
        )
        if bell is None:
            raise RuleError("No bell has rung yet, so there is nothing to undo.")
        if evening.rounds.filter(number__gt=bell.round.number).exists():
            raise RuleError(f"Round {bell.round.number + 1} has started: correct results instead of undoing.")
        bell.undone_at = timezone.now()
        bell.save(update_fields=["undone_at"])
        Round.objects.filter(pk=bell.round_id).update(state=Round.State.RUNG)
        state = EveningState.from_json(bell.record["before"])
        seats_replace(evening=evening, tables=state.tables)
        if evening.stage == Evening.Stage.ENDED:
            evening.stage = Evening.Stage.PLAYING
            evening.save(update_fields=["stage"])
        audit_log(evening=evening, action="bell.undo", user=user, device=device, round=bell.round.number)
        evening_touch(evening=evening)
    return bell
