"""Correcting an earlier result, without losing anything.

Issue 4 ("corrections without loss"): the host corrects any table's result of any round whose
bell has rung. The new ``Result`` row supersedes the old one (kept, ``superseded_at`` set);
then every bell from that round on is played again with ``tables.bell.ring_bell``, each with
its round's live results, the options and stake it was rung with, and the ties settled by
cutting at that round's bells, live or undone (``services.bell.ties_settled``; house rule, a tie
once cut stays cut: the same tie is settled by the same cards, so a correction corrected back
gives back exactly the evening it changed; a tie that is new after the correction is cut at
random and recorded). The old bells are kept, marked undone; the new bells, their entries and
the seats are saved in the same transaction. A correction that does not fit
(a later round's result no longer matches who sits where, or someone would be seated twice)
is refused with the reason, and nothing is saved. Rules: ``docs/rules/progressive-poker.md`` via
``tables.bell``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models.functions import Now

from tables.bell import (
    BellOptions,
    BellRecord,
    CardsCut,
    EveningState,
    TableResult,
    check_one,
    guest_arrives,
    guest_leaves,
)
from tables.errors import RuleError
from tournament.models import Bell, Evening, Guest, Result, Round
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.bell import bell_store, seats_follow, ties_settled
from tournament.services.locks import lock_evening
from tournament.services.naming import error_message, guest_names, name_guests
from tournament.services.seat_changes import poker_seat_change_again
from tournament.services.state import OPEN_STATES, current_round, poker_only, table_result
from tournament.services.versions import evening_touch


@dataclass(frozen=True)
class Correction:
    """What a correction did: the new ``Result``, the rounds whose bells were played again
    (numbers), how many guests sit elsewhere now than before it and, in ``moves``, who and
    where ((guest id, table now), by table then guest), the tables of the round in play whose
    results no longer fit and must be reported again, and the bells' warnings."""

    result: Result
    rounds: tuple[int, ...]
    moved: int
    report_again: tuple[int, ...] = ()
    warnings: tuple[str, ...] = field(default_factory=tuple)
    moves: tuple[tuple[int, int], ...] = ()


def _rung_bells(evening: Evening, round_number: int) -> tuple[Round, list[Bell]]:
    """Round ``round_number`` and the bells not undone from it on (its own first), in order.
    Raises ``RuleError`` for an evening at tables of four (corrected by undoing the bell), an
    unknown round, a round whose bell has not rung, or a round with no bell on record. House rule: only a rung round is corrected (issue 11)."""
    poker_only(
        evening,
        "where a closed round is corrected by undoing its bell: undo the last bell, enter the right report on "
        "the table's result page, then ring the bell again.",
    )
    rnd = evening.rounds.filter(number=round_number).first()
    if rnd is None:
        raise RuleError("There is no round {round} this evening.", rounds=(round_number,))
    if rnd.state in OPEN_STATES:
        raise RuleError(
            "Round {round}'s bell has not rung: enter its result on the evening page.", rounds=(round_number,)
        )
    bells = list(
        Bell.objects.filter(round__evening=evening, undone_at__isnull=True, round__number__gte=round_number)
        .select_related("round")
        .order_by("round__number", "id")
    )
    if not bells or bells[0].round_id != rnd.pk:
        raise RuleError("Round {round} has no bell on record to correct.", rounds=(round_number,))
    return rnd, bells


def _result_to_correct(rnd: Round, before: EveningState, result: TableResult, names) -> Result | None:
    """The table's live result that ``result`` corrects (None when there was none), once
    ``result`` is checked against ``before`` (the seating before that round's bell). Raises
    ``RuleError`` (its guests in ``subjects``; ``names`` is not used) for a result the rules
    refuse, or one already on record. Source: the rules' result checks
    (``tables.bell.check_one``)."""
    check_one(before, result)
    old = Result.objects.filter(round=rnd, table=result.table, superseded_at__isnull=True).first()
    if old is not None and table_result(old) == result:
        raise RuleError(
            "That is table {table}'s result in round {round} already: nothing to correct.",
            tables=(result.table,),
            rounds=(rnd.number,),
        )
    return old


def result_correct(
    *,
    evening: Evening,
    round_number: int,
    table: int,
    pool_winner: int | None,
    in_call: Iterable[int] = (),
    counters: Mapping[int, int] | None = None,
    user=None,
    device: str = "",
) -> Correction:
    """Correct table ``table``'s result in round ``round_number`` (a round whose bell has rung)
    and play every bell from that round on again. Returns a ``Correction``.

    ``pool_winner``, ``in_call`` (guest ids) and ``counters`` (guest id -> counters after the
    deal) are as for ``result_record``. Results of the round in play that no longer fit the new
    seating are marked superseded (kept) and listed in ``Correction.report_again``.
    Raises ``RuleError`` (guests named, nothing saved) for a round not yet rung or unknown, a
    result that is bad at that table (winner or caller not there, caller who is the winner,
    negative counters, counters for someone absent), the result already on record, a later
    round's result that no longer fits, or a correction that would seat someone twice.
    """
    counters = dict(counters or {})
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        names = guest_names(evening)
        rnd, bells = _rung_bells(evening, round_number)
        records = [BellRecord.from_json(bell.record) for bell in bells]
        result = TableResult(table=table, pool_winner=pool_winner, in_call=frozenset(in_call), counters=counters)
        old = _result_to_correct(rnd, records[0].before, result, names)
        now = Now()  # the database's clock, at each UPDATE
        row = _result_replace(rnd=rnd, old=old, result=result, user=user, now=now)
        new_records = _replay(evening, bells, records, names)
        seating_check(before=records[-1].after, after=new_records[-1].after, names=names)
        _bells_replace(bells, new_records, names, now)
        moved = seats_follow(evening=evening, before=records[-1].after, after=new_records[-1].after)
        moves = seats_changed(records[-1].after, new_records[-1].after)
        report_again = _supersede_unfit(evening, new_records[-1].after, now)
        warnings = tuple(name_guests(w, names) for record in new_records for w in record.warnings)
        _correction_log(evening, row, old, bells, moved, report_again, moves, user=user, device=device)
        evening_touch(evening=evening)
    return Correction(
        result=row,
        rounds=tuple(bell.round.number for bell in bells),
        moved=moved,
        report_again=report_again,
        warnings=warnings,
        moves=moves,
    )


def _result_replace(*, rnd: Round, old: Result | None, result: TableResult, user, now: Now) -> Result:
    """Mark ``old`` (the live result being corrected, if any) superseded at ``now`` and store
    ``result`` for round ``rnd`` as confirmed, reported by the host ``user``. Two queries."""
    if old is not None:
        Result.objects.filter(pk=old.pk).update(superseded_at=now)
    return Result.objects.create(
        round=rnd,
        table=result.table,
        pool_winner_id=result.pool_winner,
        in_call=sorted(result.in_call),
        counters={str(g): c for g, c in result.counters.items()},
        reported_by_user=user if user is not None and user.is_authenticated else None,
        status=Result.Status.CONFIRMED,
    )


def _bells_replace(bells: list[Bell], new_records: list[BellRecord], names: Mapping[int, str], now: Now) -> None:
    """Mark ``bells`` undone at ``now`` and store the replayed ``new_records`` in their place
    (same rounds and causes; texts with guests' ``names``)."""
    Bell.objects.filter(pk__in=[bell.pk for bell in bells]).update(undone_at=now)
    for bell, record in zip(bells, new_records, strict=True):
        bell_store(rnd=bell.round, cause=bell.cause, record=record, names=names)


def _correction_log(
    evening: Evening,
    row: Result,
    old: Result | None,
    bells: list[Bell],
    moved: int,
    report_again: tuple[int, ...],
    moves: tuple[tuple[int, int], ...],
    *,
    user,
    device: str,
) -> None:
    """Write the "result.correct" audit entry: the corrected result ``row`` (and the ``old``
    winner), the rounds whose ``bells`` were played again, how many guests ``moved``, the
    tables to report again and the ``moves`` (guest id, table now)."""
    audit_log(
        evening=evening,
        action="result.correct",
        user=user,
        device=device,
        round=row.round.number,
        table=row.table,
        old_winner=old.pool_winner_id if old else None,
        pool_winner=row.pool_winner_id,
        in_call=row.in_call,
        counters=row.counters,
        replayed=[bell.round.number for bell in bells],
        moved=moved,
        report_again=list(report_again),
        moves=[list(m) for m in moves],
    )


def seats_changed(before: EveningState, after: EveningState) -> tuple[tuple[int, int], ...]:
    """Who sits at another table in ``after`` than in ``before``: (guest id, table now),
    ordered by table now, then by seat there."""
    old = {g: n for n, ids in enumerate(before.tables, 1) for g in ids}
    return tuple((g, n) for n, ids in enumerate(after.tables, 1) for g in ids if old.get(g) != n)


def _replay(evening: Evening, bells: list[Bell], records: list[BellRecord], names) -> list[BellRecord]:
    """Ring every bell again from the first record's ``before``, with each round's live results
    (one query), each record's own stake and options, and the ties settled at that step's
    bells, live or undone (``ties_settled``, one query)."""
    rounds = [bell.round_id for bell in bells]
    live: dict[int, list[TableResult]] = {}
    for row in Result.objects.filter(round_id__in=rounds, superseded_at__isnull=True):
        live.setdefault(row.round_id, []).append(table_result(row))
    ties = ties_settled(rounds)
    state = records[0].before
    out: list[BellRecord] = []
    for bell, record in zip(bells, records, strict=True):
        options = BellOptions.from_mapping(record.options)
        cuts = CardsCut(ties=ties.get((bell.round_id, bell.kind, record.guest), {}))
        try:
            if record.kind == "leave":
                new = guest_leaves(state, record.mover(), options=options, cuts=cuts)
            elif record.kind == Bell.Kind.SEAT:  # the host's seat change, made again (issue 22 item 5)
                new = poker_seat_change_again(state, record, format_for(evening).table_limits())
            elif record.kind == "arrive":
                new = guest_arrives(
                    state,
                    record.mover(),
                    stake=record.stake or evening.counters_per_stake,
                    table=record.table,
                    options=options,
                )
            else:
                new = (
                    format_for(evening)
                    .rules_of(evening)
                    .ring(
                        state,
                        live.get(bell.round_id, []),
                        stake=record.stake or evening.counters_per_stake,
                        options=options,
                        cuts=cuts,
                        last_round=record.last_round,
                    )
                    .record
                )
        except RuleError as error:
            raise RuleError(
                f"After this correction, round {bell.round.number} no longer fits:"
                f" {error_message(error, names=names)} Nothing was changed. {_way_out(evening, bells, bell)}"
            ) from error
        out.append(new)
        state = new.after
    return out


def _way_out(evening: Evening, bells: list[Bell], unfit: Bell) -> str:
    """What the host can do when a correction of ``bells[0]``'s round no longer fits the later
    bell ``unfit`` (its results were recorded for seats the correction changes). Only the last
    bell can be undone, and only before the next round starts (``bell_undo``), so the advice
    names that way only when it is open; otherwise the earlier result has to stay."""
    first, later = bells[0].round.number, unfit.round.number
    if unfit is bells[-1] and not evening.rounds.filter(number__gt=later).exists():
        return (
            f"To make it anyway: undo the bell of round {later} on the evening page, correct round {first} "
            f"here, then enter round {later}'s results again and ring its bell."
        )
    return (
        f"Round {later}'s results were recorded for the seats this correction changes, and later bells "
        f"have rung since, so the two cannot both stand: round {first}'s result stays as it is."
    )


def seating_check(*, before: EveningState, after: EveningState, names: Mapping[int, str]) -> None:
    """Refuse (``RuleError``, guests named) a new seating that seats someone twice, loses or
    adds a guest, or changes the number of tables, compared with ``before``."""
    seen: dict[int, int] = {}
    for number, ids in enumerate(after.tables, 1):
        for guest in ids:
            if guest in seen:
                raise RuleError(
                    f"This correction would seat {names.get(guest, guest)} twice (at tables {seen[guest]}"
                    f" and {number}): nothing was changed."
                )
            seen[guest] = number
    lost = set(before.seated()) - set(seen)
    gained = set(seen) - set(before.seated())
    if lost or gained or len(after.tables) != len(before.tables):
        who = ", ".join(str(names.get(g, g)) for g in sorted(lost | gained))
        raise RuleError(f"This correction would change who has a seat ({who or 'the tables'}): nothing was changed.")


def _supersede_unfit(evening: Evening, state: EveningState, now) -> tuple[int, ...]:
    """Mark superseded the round in play's results that no longer fit ``state``; their tables."""
    rnd = current_round(evening)
    if rnd is None:
        return ()
    unfit = []
    for row in rnd.results.filter(superseded_at__isnull=True):
        try:
            check_one(state, table_result(row))
        except RuleError:
            unfit.append(row)
    Result.objects.filter(pk__in=[row.pk for row in unfit]).update(superseded_at=now)
    return tuple(sorted(row.table for row in unfit))


@dataclass
class RoundHistory:
    """One rung round as the corrections page shows it: the round, its live bell, and each
    table's live result (``None`` for a table that reported nothing) with the guests who sat
    there when it was dealt; and the bell's warnings (counts that do not add up), guests named."""

    round: Round
    bell: Bell
    tables: list[tuple[int, list[Guest], Result | None]]
    warnings: list[str] = field(default_factory=list)


def correction_rounds(evening: Evening) -> list[RoundHistory]:
    """Every round with a live bell, newest first, with its tables and results. Three queries."""
    guests = {g.pk: g for g in evening.guests.all()}
    bells = list(
        Bell.objects.filter(round__evening=evening, undone_at__isnull=True)
        .select_related("round")
        .order_by("-round__number", "-id")
    )
    results: dict[int, dict[int, Result]] = {}
    for row in Result.objects.filter(round__evening=evening, superseded_at__isnull=True):
        results.setdefault(row.round_id, {})[row.table] = row
    out = []
    for bell in bells:
        before = EveningState.from_json(bell.record["before"])
        tables: list[tuple[int, list[Guest], Result | None]] = []
        for number, ids in enumerate(before.tables, 1):
            result = results.get(bell.round_id, {}).get(number)
            if result is not None and result.pool_winner_id is not None:
                result.pool_winner = guests.get(result.pool_winner_id)
            tables.append((number, [guests[g] for g in ids if g in guests], result))
        names = {pk: g.name for pk, g in guests.items()}
        warnings = [name_guests(w, names) for w in bell.record.get("warnings", ())]
        out.append(RoundHistory(round=bell.round, bell=bell, tables=tables, warnings=warnings))
    return out
