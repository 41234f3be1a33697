"""A table's pool result for the round in play, reported by a captain or entered by the host,
for a format that plays for counters (Progressive Poker): checked, its counts compared with what
the table held, stored, and the bell rung when it is due.

What the result is and what makes it one a table could report are the format's
(``FormatPlugin.pool_result``, ``result_check``, ``count_off``; Progressive Poker's
``tables.formats.poker.bell`` through ``tournament.formats.poker``); the tables of four report
through their own pages (``tournament.formats.partnership.reports``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, cast

from django.db import transaction
from django.db.models.functions import Now

from tables.errors import RuleError
from tournament.models import Bell, Evening, Guest, Result, Round
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.bell import bell_apply
from tournament.services.locks import lock_round
from tournament.services.state import OPEN_STATES, evening_state, poker_only
from tournament.services.versions import evening_touch

if TYPE_CHECKING:  # the pool result, for the type checker only: the plug-in makes it
    from tables.formats.poker.bell import EveningState, TableResult
    from tournament.plugin import FormatPlugin


class CountersDoNotAddUp(RuleError):
    """Counters reported for a table do not sum to what its players held before the deal.

    ``before`` and ``after`` are counter totals; ``difference`` is ``after - before`` (counters;
    negative when short). The message names the difference ("The counters add up to 1,190,
    10 short of the 1,200 the players at table 2 held before the deal.") followed by
    ``next_step``, what the reader can do about it.
    """

    def __init__(self, *, table: int, before: int, after: int, next_step: str = ""):
        self.table, self.before, self.after, self.difference = table, before, after, after - before
        side = "short of" if after < before else "more than"
        super().__init__(
            "The counters add up to {after:,}, {off:,} {side} the {before:,} the players at table {table} held "
            "before the deal.{next_step}",
            tables=(table,),
            after=after,
            off=abs(after - before),
            side=side,
            before=before,
            next_step=f" {next_step}" if next_step else "",
        )


def count_difference(fmt: FormatPlugin, state, table: int, counters: Mapping[int, int]) -> int:
    """How far a table's counts are off (the format's ``count_off``: Progressive Poker's
    ``tables.formats.poker.bell.checks.count_off``, the rule's one home): what ``counters`` give
    the players at ``table`` minus what they held before the deal (``state``, the format's state
    before the bell), in counters; 0 when no counts are given or they add up. Raises
    ``RuleError`` for a partial count (everyone's or no one's)."""
    if not counters:
        return 0
    off = fmt.count_off(state, table, counters)
    if off is None:
        raise RuleError("Give the counters of everyone at the table, or of no one (except at the head table).")
    return off


def counters_add_up(evening: Evening, state, table: int, counters: Mapping[int, int], next_step: str = "") -> None:
    """Check a table's counts (a captain's, a scorer's or the host's) at ``evening``: everyone's
    or no one's, and, when given, summing to what those players held before the deal
    (``state``). Raises ``RuleError`` for a partial count and ``CountersDoNotAddUp`` (with the
    difference and ``next_step``) for a wrong sum; returns None otherwise."""
    off = count_difference(format_for(evening), state, table, counters)
    if off:
        after = sum(counters.values())
        raise CountersDoNotAddUp(table=table, before=after - off, after=after, next_step=next_step)


FOURSOME_RESULTS = (
    "where a table's result is its report (each side's points or tricks; at Bunco each team's points and "
    "each player's buncos), not a pool winner and counters: enter it on the table's result page, or a "
    "captain sends it from a phone."
)
"""Why Progressive Poker's result is refused at tables of four (``state.poker_only``)."""

HOST_NEXT_STEP = "Count again; if the table agrees the count is off, tick “the table agrees” below and save again."


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
    count_check: bool = False,
    agreed_off: int | None = None,
    state: EveningState | None = None,
) -> Result:
    """Record (or replace) a table's result for a round in play; returns the live ``Result``
    (``helper``: the scorer's ``HelperLink`` it was sent from: its sender and the audit's). ``pool_winner``
    and ``in_call`` are guest ids at that table; ``tied`` the others who split the pool with the winner (a
    tie: ``BellOptions.pool_tie`` says who moves); ``counters`` maps guest id to counters after the deal
    (required at the head table). An earlier result for the same table is kept, marked superseded. When the evening ends rounds at the head table's pool (the
    rules' way) a head-table result rings the bell in the same transaction.

    Raises ``RuleError`` (the format's: Progressive Poker's ``ResultError``) for a round not in
    play or of an evening at tables of four, a winner or caller not at that table, a caller who
    is the winner, negative counters, or counters for someone not there. Nothing is saved then.

    ``request_id`` (a captain's form's one-time id, issue 6) makes a report idempotent: when a
    result of this round and table already carries it, that result is returned and nothing new
    is saved (a double tap or a retry saves once).

    ``count_check`` (the host's and the scorers' forms) checks the counts as the captains' form
    does (``counters_add_up``): everyone's or no one's, adding up to what the table held before
    the deal. Counts that do not add up are recorded only when ``agreed_off`` equals the
    difference (counters, after minus before: the host ticked "the table agrees the count is
    off by N"); the result then keeps it in ``Result.count_off``. Otherwise ``CountersDoNotAddUp``
    names the difference and nothing is saved. House rule, issue 11 deliver 2. A round whose bell
    was undone (``Round.reopened``) is never rung by a result, except the head table's when the
    host chose "head_pool" for it (issue 11 deliver 3). ``state``: the caller's state, passed on to the bell.
    """
    counters = dict(counters or {})
    with transaction.atomic():
        rnd, done = _round_to_report(round.pk, table, request_id)
        if done is not None:
            return done
        evening = rnd.evening
        state = state if state is not None else evening_state(evening)
        pool = format_for(evening).pool_result(
            table=table, pool_winner=pool_winner, in_call=in_call, tied=tied, counters=counters
        )
        result = cast("TableResult", pool)
        off = _count_off(
            evening, state, result, counters, reporter=reporter, count_check=count_check, agreed_off=agreed_off
        )
        row = _save_result(
            rnd, result, off=off, user=user, reporter=reporter, device=device, request_id=request_id, helper=helper
        )
        _ring_if_due(rnd, evening, table, user=user, device=device, state=state)
    return row


def _round_to_report(round_id: int, table: int, request_id: str) -> tuple[Round, Result | None]:
    """Lock round ``round_id`` for a result of ``table``: returns (the round, the result already
    saved under ``request_id``, or None). Raises ``RuleError`` for a round that does not exist,
    a round of an evening at tables of four (``FOURSOME_RESULTS``), or (with nothing saved under
    ``request_id``) one not in play. Inside ``result_record``'s
    transaction."""
    rnd = lock_round(round_id)
    if rnd is None:
        raise RuleError("That round does not exist: reload the page.")
    poker_only(rnd.evening, FOURSOME_RESULTS)
    if (done := _already_recorded(rnd, table, request_id)) is not None:
        return rnd, done
    if rnd.state not in OPEN_STATES:
        raise RuleError("Round {round} is closed: its bell has rung. Ask the host to correct it.", rounds=(rnd.number,))
    return rnd, None


def _save_result(
    rnd: Round, result: TableResult, *, off: int, user, reporter: Guest | None, device: str, request_id: str, helper
) -> Result:
    """Save ``result`` as the table's live result (an earlier one is marked superseded), log it
    and touch the evening's version; ``off`` is the agreed count difference in counters.
    Returns the new ``Result``. Runs inside the caller's transaction; raises nothing itself."""
    counters = result.counters
    evening, table, pool_winner = rnd.evening, result.table, result.pool_winner
    Result.objects.filter(round=rnd, table=table, superseded_at__isnull=True).update(superseded_at=Now())
    row = Result.objects.create(
        round=rnd,
        table=table,
        pool_winner_id=pool_winner,
        in_call=sorted(result.in_call),
        tied=sorted(result.tied),
        counters={str(g): c for g, c in counters.items()},
        reported_by_user=user if user and user.is_authenticated else None,
        reported_by_guest=reporter,
        reported_by_helper=helper,
        request_id=request_id[:64],
        count_off=off,
    )
    audit_log(
        evening=evening,
        action="result.record",
        user=user,
        guest=reporter,
        device=device,
        helper=helper,
        round=rnd.number,
        table=table,
        pool_winner=pool_winner,
        count_off=off,
    )
    evening_touch(evening=evening)
    return row


def _already_recorded(rnd: Round, table: int, request_id: str) -> Result | None:
    """The result of this round and table already saved under ``request_id`` (a captain's
    form's one-time id), or None; a blank id never matches. House rule, issue 6."""
    if not request_id:
        return None
    return Result.objects.filter(round=rnd, table=table, request_id=request_id).first()


def _count_off(
    evening: Evening,
    state,
    result: TableResult,
    counters: dict[int, int],
    *,
    reporter: Guest | None,
    count_check: bool,
    agreed_off: int | None,
) -> int:
    """Check ``result`` against ``state`` (the evening before the bell) and return how far its
    ``counters`` (guest id to counters after the deal) are off, in counters (0 without ``count_check``). Raises ``RuleError`` (guests in ``subjects``)
    for a result the rules refuse or a reporter not at the table, and ``CountersDoNotAddUp``
    when the counts are off by other than ``agreed_off``. House rule, issue 11 deliver 2.
    """
    table = result.table
    format_for(evening).result_check(state, result)
    if reporter is not None and reporter.pk not in state.tables[table - 1]:
        raise RuleError(f"{reporter.name} is not at table {table} this round, so cannot report its result.")
    off = count_difference(format_for(evening), state, table, counters) if count_check else 0
    if off and agreed_off != off:
        after = sum(counters.values())
        raise CountersDoNotAddUp(table=table, before=after - off, after=after, next_step=HOST_NEXT_STEP)
    return off


def _ring_if_due(rnd: Round, evening: Evening, table: int, *, user, device: str, state: EveningState) -> None:
    """Ring the round's bell after a result when it is due: the clock already rang (and the
    bell was never undone), or the head table's result when the evening ends rounds at the
    head table's pool. A round reopened by the host waits for the host's bell. Issue 11
    deliver 3; the rules' way of ending a round at the head table's pool.
    """
    if rnd.reopened == Round.Reopened.HOST:
        return  # after an undo the round waits for the host's bell
    if rnd.state == Round.State.RUNG and not rnd.reopened:
        bell_apply(rnd=rnd, evening=evening, cause=Bell.Cause.CLOCK, user=user, device=device, state=state)
    elif table == 1 and evening.round_end == Evening.RoundEnd.HEAD_POOL:
        bell_apply(rnd=rnd, evening=evening, cause=Bell.Cause.HEAD_POOL, user=user, device=device, state=state)
