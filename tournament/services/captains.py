"""Table captains: any guest seated at a table reports its result from their phone; the others
at the table confirm or dispute it.

Rules (issue 6 item 4, "Table captain results"; house rules where the seeds are
silent):

* a captain reports only their own table (where they sit now) for the round in play;
* the first report stands: a second report for the same table is refused and pointed at the
  confirm / dispute buttons (two captains tapping at once: the round row is locked, one wins);
* a report is idempotent: the form carries a one-time ``request_id``; a double tap or a
  retry returns the saved result and saves nothing new;
* counters must add up: when a captain gives counters, they give everyone's at the table, and
  their sum must equal what those players held before the deal (counters only change hands at
  the table during a deal; fresh stakes are taken at the bell) — otherwise the report is
  refused with the difference;
* any dispute marks the result disputed and the host's board shows it; the host decides by
  entering the result (which replaces the disputed one). A disputed result still counts at
  the bell unless the host replaces it first (house rule: the bell never waits on a quarrel).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db import transaction

from tables.errors import RuleError
from tournament.models import Guest, Result, ResultVote, Round
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.locks import lock_evening, lock_result, lock_round_number
from tournament.services.results import CountersDoNotAddUp, counters_add_up, result_record  # noqa: F401
from tournament.services.state import OPEN_STATES, evening_state
from tournament.services.versions import evening_touch

CAPTAIN_NEXT_STEP = "Count again (counters only change hands at the table) and send the result again."


def _closed(rnd: Round) -> RuleError:
    return RuleError(
        f"Round {rnd.number} is closed: its bell has rung, so its result can no longer be sent from a phone. "
        "If it was wrong, tell the host."
    )


def _guest_table(guest: Guest) -> int | None:
    """The table ``guest`` sits at now (None before the draw or when not seated), by the
    evening's format (``FormatPlugin.table_of``)."""
    return format_for(guest.evening).table_of(guest.evening, guest.pk)


def _check_reporter(*, guest: Guest, rnd: Round, table: int):
    """The evening's state, after checking that ``guest`` may report ``table`` in ``rnd``."""
    if rnd.state not in OPEN_STATES:
        raise _closed(rnd)
    guest = Guest.objects.select_related("evening").get(pk=guest.pk)
    if guest.key_revoked or guest.status == Guest.Status.LEFT:
        raise RuleError("You are no longer playing this evening, so you cannot report a result.")
    state = evening_state(guest.evening)
    where = next((n for n, ids in enumerate(state.tables, 1) if guest.pk in ids), None)
    if where != table:
        here = "You sit at table {tables[1]} now" if where else "You have no seat now"
        raise RuleError(
            here + ", not at table {table}: you can report only your own table's result.",
            tables=(table, where) if where else (table,),
        )
    return state


def captain_may_report(*, guest: Guest, round_number: int, table: int) -> None:
    """Check, without saving, that ``guest`` may report ``table``'s result for round
    ``round_number`` (the round is in play and they sit there now); ``RuleError`` if not."""
    rnd = Round.objects.filter(evening_id=guest.evening_id, number=round_number).first()
    if rnd is None:
        raise RuleError("That round does not exist: reload your page.")
    _check_reporter(guest=guest, rnd=rnd, table=table)


def captain_report_saved(*, guest: Guest, round_number: int, request_id: str) -> bool:
    """True when the captain's form with one-time id ``request_id`` was saved already for round
    ``round_number`` of ``guest``'s evening (a retry after the bell it rang); a blank id never
    matches. Rule: a report is idempotent (module docstring)."""
    return (
        bool(request_id)
        and Result.objects.filter(
            round__evening_id=guest.evening_id, round__number=round_number, request_id=request_id
        ).exists()
    )


def captain_report(
    *,
    guest: Guest,
    round_number: int,
    table: int,
    pool_winner: int | None,
    in_call: Iterable[int] = (),
    counters: Mapping[int, int] | None = None,
    request_id: str = "",
    device: str = "",
) -> Result:
    """A captain's report of their table's result for the round in play; returns the ``Result``.

    ``round_number`` and ``table`` are what the captain's form showed (so a form sent after
    the bell or after a move is refused, not applied to another round or table); ``pool_winner``
    and ``in_call`` are guest ids; ``counters`` maps guest id to counters after the deal (all
    or none at the table). Raises ``RuleError`` (``CountersDoNotAddUp`` for a wrong sum) with a
    message for the captain; nothing is saved then.
    """
    counters = dict(counters or {})
    with transaction.atomic():
        rnd = lock_round_number(lock_evening(guest.evening_id), round_number)
        if rnd is None:
            raise RuleError("That round does not exist: reload your page.")
        if request_id:
            done = Result.objects.filter(round=rnd, table=table, request_id=request_id).first()
            if done is not None:
                return done
        state = _check_reporter(guest=guest, rnd=rnd, table=table)
        live = (
            Result.objects.filter(round=rnd, table=table, superseded_at__isnull=True)
            .select_related("reported_by_guest", "reported_by_helper")
            .first()
        )
        if live is not None:
            by = live.sender_words()  # a captain, a scorer (issue 23) or the host
            raise RuleError(
                "Table {table}'s result is already in, sent by {by}. The first report stands: confirm it "
                "or dispute it on your page.",
                tables=(table,),
                by=by,
            )
        counters_add_up(guest.evening, state, table, counters, CAPTAIN_NEXT_STEP)
        return result_record(
            round=rnd,
            table=table,
            pool_winner=pool_winner,
            in_call=in_call,
            counters=counters,
            reporter=guest,
            device=device,
            request_id=request_id,
            state=state,
        )


def captain_vote(*, guest: Guest, result_id: int, verdict: str, note: str = "", device: str = "") -> ResultVote:
    """Another guest at the table confirms or disputes a reported result; returns the vote.

    ``verdict`` is "confirm" or "dispute"; a guest may change their vote (one vote per guest).
    The result's status follows: any dispute makes it disputed (the host decides), otherwise a
    confirmation makes it confirmed. Raises ``RuleError`` for a result that was replaced, a
    closed round, a guest not at that table, or the reporter voting on their own report.
    """
    if verdict not in ResultVote.Verdict.values:
        raise RuleError("Choose confirm or dispute.")
    with transaction.atomic():
        result = lock_result(result_id, evening_id=guest.evening_id)
        if result is None or result.superseded_at is not None:
            raise RuleError("That result was replaced by a newer one: look at your page again.")
        if result.round.state not in OPEN_STATES:
            raise _closed(result.round)
        where = _guest_table(guest)
        if where != result.table:
            raise RuleError(
                "You are not at table {table} now, so you cannot confirm or dispute its result.", tables=(result.table,)
            )
        if result.reported_by_guest_id == guest.pk:
            raise RuleError("You sent this result yourself: the others at the table confirm or dispute it.")
        vote, _ = ResultVote.objects.update_or_create(
            result=result, guest=guest, defaults={"verdict": verdict, "note": " ".join((note or "").split())[:300]}
        )
        verdicts = set(result.votes.values_list("verdict", flat=True))
        status = Result.Status.DISPUTED if ResultVote.Verdict.DISPUTE in verdicts else Result.Status.CONFIRMED
        Result.objects.filter(pk=result.pk).update(status=status)
        audit_log(
            evening=guest.evening,
            action=f"result.{verdict}",
            guest=guest,
            device=device,
            round=result.round.number,
            table=result.table,
            note=vote.note,
        )
        evening_touch(evening=guest.evening)
    return vote
