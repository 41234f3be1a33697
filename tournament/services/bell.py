"""The bell: apply ``tables.bell.ring_bell`` to the round in play and store what it did; undo it.

The bell goes through one conditional update of its round (running/paused/waiting -> closed)
and the database allows one live bell per round, so a second ring, a late timer or a duplicate
task does nothing. Rules: ``seeds/README.md`` (Progressive Poker) via ``tables.bell``.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Now
from django.utils import timezone

from tables.bell import EveningState, ResultError, ring_bell
from tables.errors import RuleError
from tournament.models import Bell, BellEntry, Evening, Round, Seat
from tournament.services.audit import audit_log, evening_touch
from tournament.services.draws import seats_replace
from tournament.services.state import OPEN_STATES, bell_options, evening_state, table_result


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
        return bell_apply(rnd=rnd, evening=rnd.evening, cause=cause, user=user, device=device)


def bell_apply(*, rnd: Round, evening: Evening, cause: str, user, device: str) -> Bell | None:
    """Apply the bell inside the caller's transaction (the round row is locked).

    When the rules cannot apply the bell yet (house rule: the head table's pool must be decided,
    and under the "hold" option every table's), the round is marked rung and waiting, with the
    reason in ``Round.waiting_for``; the next result recorded for it tries again. Returns the
    bell, or None when it waits or another process rang it first.
    """
    state = evening_state(evening)
    results = [table_result(r) for r in rnd.results.filter(superseded_at__isnull=True)]
    last = bool(evening.rounds_planned and rnd.number >= evening.rounds_planned)
    try:
        record = ring_bell(state, results, stake=evening.counters_per_stake, options=bell_options(evening),
                           last_round=last)
    except ResultError as error:
        waiting = Round.objects.filter(pk=rnd.pk, state__in=OPEN_STATES).update(
            state=Round.State.RUNG, waiting_for=str(error)[:300], deadline=None, clock_version=F("clock_version") + 1
        )
        if waiting:
            audit_log(evening=evening, action="bell.wait", user=user, device=device, round=rnd.number,
                      cause=cause, reason=str(error))
            evening_touch(evening=evening)
        rnd.state, rnd.waiting_for = Round.State.RUNG, str(error)[:300]
        return None
    claimed = Round.objects.filter(pk=rnd.pk, state__in=OPEN_STATES).update(state=Round.State.CLOSED, waiting_for="")
    if not claimed:
        return None
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
