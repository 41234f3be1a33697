"""Progressive Poker's part of a correction: its report form for an earlier round's table, and
its steps played again (``tournament.plugin.StepReplay``) through ``tables.formats.poker.bell``.

Rules: ``docs/rules/progressive-poker.md`` ("Correcting an earlier round"): the corrected result
is checked against the seats the round was played at (``tables.formats.poker.bell.check_one``); every later
bell is rung again with its round's live results, the stake and options it was rung with, and
the ties settled by the cards cut at that step (house rule: a tie once cut stays cut,
``formats.poker.bell.ties_settled``); a departure or an arrival is taken again as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.cuts import CardsCut
from tables.errors import RuleError
from tables.formats.poker.bell import (
    BellOptions,
    BellRecord,
    EveningState,
    TableResult,
    check_one,
    guest_arrives,
    guest_leaves,
)
from tournament.formats.poker.bell import bell_store, seats_follow, stored_record, ties_settled
from tournament.formats.poker.seat_changes import poker_seat_change_again
from tournament.formats.poker.state import table_result
from tournament.forms.evening import ResultForm
from tournament.models import Bell, Evening, Guest, Result, Round
from tournament.registry import format_for


class PokerCorrectionForm(ResultForm):
    """Progressive Poker's result form for one table of an earlier round: the pool's winner,
    who was in the call, who split the pool with the winner (a tie) and every guest's counters
    after the deal (required at the head table and in the last round, as at the bell), as the
    host's result form has them. ``correction()`` gives the ``TableResult``."""

    def __init__(self, *args: Any, table: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    def correction(self) -> TableResult:
        """The corrected result as ``tables.formats.poker.bell`` takes it (read once the form is valid)."""
        winner, in_call, counters = self.result()
        return TableResult(
            table=self.table,
            pool_winner=winner,
            in_call=frozenset(in_call),
            tied=frozenset(self.tied()),
            counters=dict(counters),
        )


def poker_correction_form(
    *, rnd: Round, bell: Bell, table: int, players: Sequence[Guest | int], result: Result | None, data
) -> PokerCorrectionForm:
    """The form for ``table`` in round ``rnd`` (its live ``bell``), listing ``players`` (the
    guests who sat there then), pre-filled with ``result``."""
    initial, counters = None, {}
    if result is not None:
        initial = {
            "pool_winner": str(result.pool_winner_id or ""),
            "in_call": [str(g) for g in result.in_call],
            "tied": [str(g) for g in result.tied],
        }
        counters = {int(k): v for k, v in result.counters.items()}
    return PokerCorrectionForm(
        data,
        table=table,
        guests=[p for p in players if isinstance(p, Guest)],
        counters_required=table == 1 or bool(bell.record.get("last_round")),
        initial=initial,
        counters_initial=counters,
    )


class PokerReplay:
    """Progressive Poker's ``StepReplay`` for ``evening``: states are ``EveningState``, records
    ``BellRecord``, results ``TableResult``."""

    def __init__(self, evening: Evening) -> None:
        self.evening = evening
        self._ties: dict | None = None

    def before(self, first: Bell) -> EveningState:
        """The state in ``first``'s record before it (tallies included)."""
        return stored_record(first).before

    def after(self, step: Bell) -> EveningState:
        """The state in ``step``'s record after it."""
        return stored_record(step).after

    def check(self, state: EveningState, table: int, result: object) -> None:
        """``tables.formats.poker.bell.check_one``: winner, callers and counters at that table, none negative."""
        check_one(state, _result(result))

    def same(self, row: Result, result: object) -> bool:
        """Whether ``row`` is ``result`` (winner, callers, counters)."""
        return table_result(row) == _result(result)

    def store_result(self, *, rnd: Round, table: int, result: object, user) -> Result:
        """Create the confirmed ``Result`` row of the host ``user``."""
        given = _result(result)
        return Result.objects.create(
            round=rnd,
            table=table,
            pool_winner_id=given.pool_winner,
            in_call=sorted(given.in_call),
            tied=sorted(given.tied),
            counters={str(g): c for g, c in given.counters.items()},
            reported_by_user=user if user is not None and user.is_authenticated else None,
            status=Result.Status.CONFIRMED,
        )

    def _cuts(self, step: Bell, record: BellRecord) -> CardsCut:
        if self._ties is None:  # one query for every step of the correction
            self._ties = ties_settled(self.evening.rounds.values_list("id", flat=True))
        return CardsCut(ties=self._ties.get((step.round_id, step.kind, record.guest), {}))

    def bell(self, state: EveningState, step: Bell, results: Sequence[Result]) -> tuple[BellRecord, EveningState]:
        """The format engine's ring (``FormatRules.ring``) with the stake and options it was rung with."""
        record = stored_record(step)
        new = (
            format_for(self.evening)
            .rules_of(self.evening)
            .ring(
                state,
                [table_result(row) for row in results],
                stake=record.stake or self.evening.counters_per_stake,
                options=BellOptions.from_mapping(record.options),
                cuts=self._cuts(step, record),
                last_round=record.last_round,
            )
            .record
        )
        return new, new.after

    def as_played(self, record: BellRecord, state: EveningState, step: Bell) -> tuple[BellRecord, EveningState]:
        """Unchanged: at Progressive Poker the corrected bell seats the guests where it sends
        them, and a later round that no longer fits is refused (``docs/rules/progressive-poker.md``,
        "Corrections")."""
        return record, state

    def leave(self, state: EveningState, step: Bell) -> tuple[BellRecord, EveningState]:
        """``tables.formats.poker.bell.guest_leaves`` with the options and cards of the departure."""
        record = stored_record(step)
        options = BellOptions.from_mapping(record.options)
        new = guest_leaves(state, record.mover(), options=options, cuts=self._cuts(step, record))
        return new, new.after

    def arrive(self, state: EveningState, step: Bell) -> tuple[BellRecord, EveningState]:
        """``tables.formats.poker.bell.guest_arrives`` at the table and with the stake of the arrival."""
        record = stored_record(step)
        new = guest_arrives(
            state,
            record.mover(),
            stake=record.stake or self.evening.counters_per_stake,
            table=record.table,
            options=BellOptions.from_mapping(record.options),
        )
        return new, new.after

    def seat(self, state: EveningState, step: Bell) -> tuple[BellRecord, EveningState]:
        """``formats.poker.seat_changes.poker_seat_change_again``: the same swap or move on ``state``."""
        record = stored_record(step)
        new = poker_seat_change_again(state, record, format_for(self.evening).table_limits())
        return new, new.after

    def store(self, step: Bell, record: object, after: object, names: Mapping[int, str]) -> Bell:
        """``formats.poker.bell.bell_store``: the record and its entries, texts with names."""
        assert isinstance(record, BellRecord)
        return bell_store(rnd=step.round, cause=step.cause, record=record, names=names)

    def seats(self, before: object, after: object) -> int:
        """``formats.poker.bell.seats_follow``."""
        assert isinstance(before, EveningState) and isinstance(after, EveningState)
        return seats_follow(evening=self.evening, before=before, after=after)

    def fits(self, state: object, row: Result) -> bool:
        """``check_one`` of the round in play's ``row`` against the new seats."""
        assert isinstance(state, EveningState)
        try:
            check_one(state, table_result(row))
        except RuleError:
            return False
        return True

    def warnings(self, record: object) -> tuple[str, ...]:
        """The record's warnings (counts that do not add up)."""
        return tuple(getattr(record, "warnings", ()))


def _result(result: object) -> TableResult:
    if not isinstance(result, TableResult):
        raise RuleError("That correction is not a Progressive Poker result: open the correction form again.")
    return result


def poker_example_correction(evening: Evening, *, rnd: Round, bell: Bell, table: int) -> TableResult:
    """Another guest than the recorded winner wins the pool at ``table``; at the head table
    (counters required) the counters are as recorded, the pool being a share of them."""
    row = Result.objects.filter(round=rnd, table=table, superseded_at__isnull=True).first()
    seats = stored_record(bell).before.tables[table - 1]
    winner = next(g for g in seats if row is None or g != row.pool_winner_id)
    counters = {int(g): int(c) for g, c in row.counters.items()} if row is not None else {}
    return TableResult(table=table, pool_winner=winner, in_call=frozenset(), counters=counters)
