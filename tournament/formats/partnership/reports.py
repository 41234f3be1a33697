"""A table's report at tables of four (euchre points, whist tricks, bunco points and buncos):
recorded by the host, a scorer's link (``foursome_scorer_report``) or a captain's phone,
checked by the format's rules.

Rules: ``docs/rules/`` (the format's page) through ``tables.formats.records.report_score`` (a euchre hand
scores 1, 2 or 4; a whist hand has 13 tricks; a bunco roll scores at most 21; a tie names the
play-off's or roll-off's winner unless the host chose to cut ties). House rules, as for
Progressive Poker's results (``services.results``, ``services.captains``): a report is
idempotent by its form's one-time ``request_id``; from phones the first report stands (the
others confirm or dispute it); the host's report replaces an earlier one (kept, superseded);
on an evening whose rounds end at the head table's result, the head table's report rings the
bell in the same transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models.functions import Now

from tables.errors import RuleError
from tables.formats.bell import FoursomeState
from tables.formats.records import report_score
from tables.formats.scoring import TableScore
from tournament.formats.partnership.state import foursome_rules, foursome_state
from tournament.models import Bell, Evening, Guest, HelperLink, Result, Round
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.helpers import helper_require
from tournament.services.locks import lock_evening, lock_round, lock_round_number
from tournament.services.state import OPEN_STATES
from tournament.services.versions import evening_touch


def canonical_report(report: Mapping[str, Any]) -> dict[str, Any]:
    """A report as stored: player ids as strings, hands as lists, sides as "NS"/"EW"."""
    out: dict[str, Any] = {}
    for key, value in report.items():
        if key in ("buncos", "minis"):
            out[key] = {str(p): n for p, n in value.items() if n}
        elif key == "rolls":
            out[key] = {str(p): list(n) for p, n in value.items() if n}
        elif key in ("points", "tricks"):
            out[key] = {str(getattr(s, "value", s)): n for s, n in value.items()}
        elif key == "hands":
            out[key] = [[str(getattr(s, "value", s)), n] for s, n in value]
        elif value is not None:
            out[key] = str(getattr(value, "value", value))
    return out


def report_check(
    *,
    evening: Evening,
    table: int,
    report: Mapping[str, Any],
    ended_by_report: bool = True,
    state: FoursomeState | None = None,
) -> TableScore:
    """Check ``report`` for ``table`` against the evening's format and seating now; returns the
    ``TableScore`` the bell will take. Raises ``RuleError`` for a table that does not exist and
    ``ScoreError`` (a ``RuleError``) for what the format makes impossible. Saves nothing.

    On an evening whose rounds end at the head table's result, the head table's report is
    checked by the format's ``head_table_check`` where it has one (Bunco: one team at 21 or
    more, never both, ``tables.formats.table_rules``); a report
    sent after the bell rang by the clock or the host (``ended_by_report`` False: the score
    so far) need not reach 21. ``state``: the evening's state now, when the caller has it."""
    fmt, options = foursome_rules(evening)
    state = state or foursome_state(evening)
    if not 1 <= table <= len(state.tables):
        raise RuleError(
            "There is no table {table}: the tables are 1 to {count}.", tables=(table,), count=len(state.tables)
        )
    canonical = canonical_report(report)
    score = report_score(fmt, state.tables[table - 1], canonical, ties=options.ties)
    if fmt.head_table_check is not None and table == 1 and evening.round_end == Evening.RoundEnd.HEAD_POOL:
        fmt.head_table_check(canonical, ended_by_report=ended_by_report)
    return score


def foursome_report(
    *,
    round: Round,
    table: int,
    report: Mapping[str, Any],
    user=None,
    reporter: Guest | None = None,
    device: str = "",
    request_id: str = "",
    helper=None,
    state: FoursomeState | None = None,
) -> Result:
    """Record (or replace) ``table``'s report for a round in play; returns the live ``Result``.
    ``state``: the evening's state now, when the caller has built it (built once per report).

    ``report`` as ``tables.formats.records`` reads it. ``reporter``: the guest who sent it from
    their phone (must sit at that table); ``helper``: the scorer's ``HelperLink`` it was sent
    from (its sender, ``Result.reported_by_helper``, and the audit's). Raises ``RuleError`` for a round not in play, a table
    that does not exist, a reporter not at the table, or a report the format makes impossible;
    nothing is saved then. A repeated ``request_id`` returns the saved result.
    """
    with transaction.atomic():
        rnd = lock_round(round.pk)
        if rnd is None:
            raise RuleError("That round does not exist: reload the page.")
        if request_id and (done := rnd.results.filter(table=table, request_id=request_id).first()) is not None:
            return done
        if rnd.state not in OPEN_STATES:
            raise RuleError(
                "Round {round} is closed: its bell has rung. Ask the host to correct it.", rounds=(rnd.number,)
            )
        evening = rnd.evening
        rung_before = rnd.state == Round.State.RUNG and not rnd.reopened  # the clock or the host rang it
        state = state or foursome_state(evening)
        score = report_check(evening=evening, table=table, report=report, ended_by_report=not rung_before, state=state)
        if reporter is not None and reporter.pk not in state.tables[table - 1]:
            raise RuleError(f"{reporter.name} is not at table {table} this round, so cannot report its result.")
        row = _save(
            rnd,
            table,
            canonical_report(report),
            user=user,
            reporter=reporter,
            device=device,
            request_id=request_id,
            helper=helper,
            words=score.words,
        )
        _ring_if_due(rnd, evening, table, user=user, device=device, state=state)
    return row


def _save(
    rnd: Round,
    table: int,
    report: dict[str, Any],
    *,
    user,
    reporter: Guest | None,
    device: str,
    request_id: str,
    helper,
    words: str = "",
) -> Result:
    """Save the table's live report (an earlier one superseded), log it with the result in
    ``words`` ("North–South won, 21 points to 4"), touch the evening."""
    Result.objects.filter(round=rnd, table=table, superseded_at__isnull=True).update(superseded_at=Now())
    row = Result.objects.create(
        round=rnd,
        table=table,
        report=report,
        reported_by_guest=reporter,
        reported_by_helper=helper,
        request_id=request_id[:64],
        reported_by_user=user if user is not None and user.is_authenticated else None,
    )
    audit_log(
        evening=rnd.evening,
        action="result.record",
        user=user,
        guest=reporter,
        device=device,
        helper=helper,
        round=rnd.number,
        table=table,
        report=report,
        words=words,
    )
    evening_touch(evening=rnd.evening)
    return row


def _ring_if_due(rnd: Round, evening: Evening, table: int, *, user, device: str, state: FoursomeState) -> None:
    """The head table's report rings the bell on an evening whose rounds end at the head
    table's result (the books' way: the head table rings when its game is over), unless the
    round was reopened by an undo (then the host rings it). A bell that rang and waits for
    every table's score so far tries again with each report (``foursome_bell_apply``)."""
    from tournament.formats.partnership.bell import foursome_bell_apply

    if rnd.reopened == Round.Reopened.HOST:
        return
    if rnd.state == Round.State.RUNG and not rnd.reopened:  # the bell rang and waits for every table's score
        cause = Bell.Cause.HEAD_POOL if evening.round_end == Evening.RoundEnd.HEAD_POOL else Bell.Cause.CLOCK
        foursome_bell_apply(rnd=rnd, evening=evening, cause=cause, user=user, device=device, state=state)
    elif evening.round_end == Evening.RoundEnd.HEAD_POOL and (
        table == 1 if format_for(evening).ranked_tables else _every_table_in(rnd, len(state.tables))
    ):  # a format without a head table (the tournament): the last table's report ends the game
        foursome_bell_apply(rnd=rnd, evening=evening, cause=Bell.Cause.HEAD_POOL, user=user, device=device, state=state)


def _every_table_in(rnd: Round, tables: int) -> bool:
    """Whether every one of the round's ``tables`` has a live report (one query):
    ``docs/rules/euchre-tournament.md``, "A game ends when every table has reported"."""
    reported = rnd.results.filter(superseded_at__isnull=True, table__lte=tables).values("table").distinct().count()
    return reported >= tables


def foursome_captain_report(
    *,
    guest: Guest,
    round_number: int,
    table: int,
    report: Mapping[str, Any],
    request_id: str = "",
    device: str = "",
) -> Result:
    """A player's report of their own table from their phone; returns the ``Result``.

    ``round_number`` and ``table`` are what the phone's form showed (a form sent after the bell
    or a move is refused, never applied to another round or table). The first report stands:
    a second is refused and pointed at the confirm and dispute buttons. Raises ``RuleError``
    with a message for the player; nothing is saved then.
    """
    with transaction.atomic():
        rnd = lock_round_number(lock_evening(guest.evening_id), round_number)
        if rnd is None:
            raise RuleError("That round does not exist: reload your page.")
        if request_id and (done := rnd.results.filter(table=table, request_id=request_id).first()) is not None:
            return done
        _phone_round_open(rnd)
        guest = Guest.objects.select_related("evening").get(pk=guest.pk)
        if guest.key_revoked or guest.status == Guest.Status.LEFT:
            raise RuleError("You are no longer playing this evening, so you cannot report a result.")
        state = foursome_state(guest.evening)
        where = state.table_of(guest.pk) if _seated(state, guest) else None
        if where != table:
            raise RuleError(
                f"You sit at table {where} now, not at table {table}: you can report only your own table's result."
                if where
                else "You have no seat now, so you cannot report a result."
            )
        live = (
            rnd.results.filter(table=table, superseded_at__isnull=True)
            .select_related("reported_by_guest", "reported_by_helper")
            .first()
        )
        if live is not None:
            by = live.sender_words()  # a player, a scorer (issue 23) or the host
            raise RuleError(
                f"Table {table}'s result is already in, sent by {by}. The first report stands: confirm "
                "it or dispute it on your page."
            )
        return foursome_report(
            round=rnd, table=table, report=report, reporter=guest, device=device, request_id=request_id, state=state
        )


def foursome_scorer_report(
    *,
    link: HelperLink,
    round_number: int,
    table: int,
    report: Mapping[str, Any],
    request_id: str = "",
    device: str = "",
) -> Result:
    """A scorer's report of ``table`` for round ``round_number`` (the round their form showed),
    recorded like the host's (``foursome_report``: an earlier report for the table is replaced,
    the head table's report may ring the bell) and logged as the helper's (``link``). Returns
    the live ``Result``. Raises ``HelperRefused`` for a link that is not a scorer's and
    ``RuleError`` for a round that does not exist or is closed (its bell has rung), a table
    that does not exist or a report the format makes impossible, in the rules' words; nothing
    is saved then. House rule (issue 11 deliver 7, as ``services.helpers.scorer_report``): a
    scorer enters the round in play only; earlier rounds are the host's to correct."""
    helper_require(link, HelperLink.Role.SCORER)
    with transaction.atomic():
        rnd = lock_round_number(lock_evening(link.evening_id), round_number)
        if rnd is None:
            raise RuleError("That round does not exist: go back to the tables and reload.")
        return foursome_report(round=rnd, table=table, report=report, helper=link, device=device, request_id=request_id)


def foursome_round_open(*, evening: Evening, round_number: int) -> None:
    """Check, without saving, that round ``round_number`` of ``evening`` still takes reports from
    phones (in play, or rung and waiting for every table's score); ``RuleError`` with the reason
    if not, as ``foursome_captain_report`` refuses. A report kept on a phone while the Wi-Fi was
    down is told this before its players are read against the tables, which the bell may have
    changed since (issue 24)."""
    rnd = Round.objects.filter(evening_id=evening.pk, number=round_number).first()
    if rnd is None:
        raise RuleError("That round does not exist: reload your page.")
    _phone_round_open(rnd)


def _phone_round_open(rnd: Round) -> None:
    """Raise ``RuleError`` when ``rnd`` no longer takes reports from phones (its bell has rung)."""
    if rnd.state not in OPEN_STATES:
        raise RuleError(
            f"Round {rnd.number} is closed: its bell has rung, so its result can no longer be sent "
            "from a phone. If it was wrong, tell the host."
        )


def _seated(state: FoursomeState, guest: Guest) -> bool:
    try:
        state.table_of(guest.pk)
    except RuleError:
        return False
    return True
