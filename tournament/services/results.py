"""A table's result for the round in play, reported by a captain or entered by the host."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db import transaction
from django.db.models.functions import Now

from tables.bell import TableResult, check_one
from tables.errors import RuleError
from tournament.models import Bell, Evening, Guest, Result, Round
from tournament.services.audit import audit_log, evening_touch
from tournament.services.bell import bell_apply
from tournament.services.locks import lock_round
from tournament.services.naming import guest_names, named_error
from tournament.services.state import OPEN_STATES, evening_state


def result_record(
    *,
    round: Round,
    table: int,
    pool_winner: int | None,
    in_call: Iterable[int] = (),
    counters: Mapping[int, int] | None = None,
    tied: Iterable[int] = (),
    user=None,
    reporter: Guest | None = None,
    device: str = "",
    request_id: str = "",
    helper=None,
) -> Result:
    """Record (or replace) a table's result for a round in play; returns the live ``Result``.
    ``helper`` is the scorer's ``HelperLink`` when a scorer entered it (for the audit log).

    ``pool_winner`` and ``in_call`` are guest ids at that table; ``tied`` the others who split
    the pool with the winner (a tie: ``BellOptions.pool_tie`` says who moves); ``counters`` maps
    guest id to counters after the deal (required at the head table). An earlier result for the same table
    is kept, marked superseded. When the evening ends rounds at the head table's pool (the
    rules' way) a head-table result rings the bell in the same transaction.

    Raises ``RuleError`` (``tables.bell.ResultError``) for a round not in play, a winner or caller
    not at that table, a caller who is the winner, negative counters, or counters for someone
    not there. Nothing is saved then.

    ``request_id`` (a captain's form's one-time id, issue 6) makes a report idempotent: when a
    result of this round and table already carries it, that result is returned and nothing new
    is saved (a double tap or a retry saves once).
    """
    counters = dict(counters or {})
    with transaction.atomic():
        rnd = lock_round(round.pk)
        if rnd is None:
            raise RuleError("That round does not exist: reload the page.")
        evening = rnd.evening
        if request_id:
            done = Result.objects.filter(round=rnd, table=table, request_id=request_id).first()
            if done is not None:
                return done
        if rnd.state not in OPEN_STATES:
            raise RuleError(f"Round {rnd.number} is closed: its bell has rung. Ask the host to correct it.")
        state = evening_state(evening)
        result = TableResult(table=table, pool_winner=pool_winner, in_call=frozenset(in_call),
                             tied=frozenset(tied), counters=counters)
        try:
            check_one(state, result)
        except RuleError as error:
            raise named_error(error, guest_names(evening)) from error
        if reporter is not None and reporter.pk not in state.tables[table - 1]:
            raise RuleError(f"{reporter.name} is not at table {table} this round, so cannot report its result.")
        Result.objects.filter(round=rnd, table=table, superseded_at__isnull=True).update(superseded_at=Now())
        row = Result.objects.create(
            round=rnd, table=table, pool_winner_id=pool_winner, in_call=sorted(result.in_call), tied=sorted(result.tied),
            counters={str(g): c for g, c in counters.items()}, reported_by_user=user if user and user.is_authenticated else None,
            reported_by_guest=reporter, request_id=request_id[:64],
        )
        audit_log(evening=evening, action="result.record", user=user, guest=reporter, device=device, helper=helper,
                  round=rnd.number, table=table, pool_winner=pool_winner)
        evening_touch(evening=evening)
        if rnd.state == Round.State.RUNG:
            bell_apply(rnd=rnd, evening=evening, cause=Bell.Cause.CLOCK, user=user, device=device)
        elif table == 1 and evening.round_end == Evening.RoundEnd.HEAD_POOL:
            bell_apply(rnd=rnd, evening=evening, cause=Bell.Cause.HEAD_POOL, user=user, device=device)
    return row
