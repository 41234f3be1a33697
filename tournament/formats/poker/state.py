"""Progressive Poker's state now, as its bell rules see it, and its bell's house rules.

The state is ``tables.formats.poker.bell.EveningState`` (tables, counters, yellow counters,
stakes) after the last live bell, else the draw's seating with one stake each; a stored result
becomes the bell's ``TableResult``. Rules: ``docs/rules/progressive-poker.md``; the house rules
(``BellOptions``) are the host's, ``Evening.options["bell"]``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime

from django.db.models import TextField
from django.db.models.functions import Cast

from tables.errors import RuleError
from tables.formats.poker.bell import BellOptions, EveningState, TableResult
from tournament.kept import Kept
from tournament.models import Bell, DrawnCard, Evening, FinalCount, Result, Round
from tournament.services.draws import live_draw
from tournament.services.versions import evening_token


def bell_options(evening: Evening) -> BellOptions:
    """The evening's bell options (house rules) from ``evening.options["bell"]``. Raises
    ``RuleError`` for an option the rules do not know. No query."""
    return BellOptions.from_mapping(dict((evening.options or {}).get("bell", {})))


def ring_options(evening: Evening) -> BellOptions:
    """The options a bell is rung with: the evening's (``bell_options``), except that the last
    bell never waits for everyone's counters (``last_round_counts="optional"``). House rule
    (issue 11 deliver 4): the final count is taken after the last bell, table by table,
    pre-filled from the last count (``tournament.services.ending``); the evening's
    ``last_round_counts`` says whether the prize ceremony waits for every table's final count."""
    return replace(bell_options(evening), last_round_counts="optional")


def poker_state(evening: Evening, *, final: bool = True) -> EveningState:
    """The evening as the bell rules see it now: the last live bell's state after, or the
    draw's seating with one stake each. Once the evening has ended (and ``final``), the live
    final counts (``FinalCount``, one per table counted) replace those guests' counters, so
    the standings, prizes and documents read the final count. Raises ``RuleError`` before the
    draw. One or two queries (one more after the end)."""
    state = _bell_state(evening)
    if final and evening.stage == Evening.Stage.ENDED:
        counts = FinalCount.objects.filter(evening=evening, superseded_at__isnull=True).values_list(
            "counters", flat=True
        )
        final_counters = {int(g): int(c) for counters in counts for g, c in counters.items()}
        if final_counters:
            state = replace(state, counters={**dict(state.counters), **final_counters})
    return state


def _bell_state(evening: Evening) -> EveningState:
    """The last live step's state after, or the draw's seating (see ``poker_state``). One query
    (the state as stored text: ``stored_state``), one more before the first bell."""
    after = stored_state(evening)
    if after is not None:
        return after
    draw = live_draw(evening)
    if draw is None:
        raise RuleError("There is no draw yet: run the draw first.")
    tables: list[list[int]] = [[] for _ in draw.sizes]
    for guest, table in draw.cards.order_by(*DrawnCard.SEATING_ORDER).values_list("guest_id", "rank"):
        tables[table - 1].append(guest)
    return EveningState.start(tables, stake=evening.counters_per_stake)


StepKey = tuple[int, datetime]  # a step's id and the time it was rung
_STATES: Kept[dict[StepKey, EveningState]] = Kept(16)  # evening token -> its steps' states decoded


def stored_state(evening: Evening) -> EveningState | None:
    """The state after the evening's last live step (a bell, a guest's leaving or arrival, a seat
    change), as ``services.state.last_state_after`` reads it and ``EveningState.from_json``
    builds it, or None before the first step. A step's state after is written once and never
    changed (a correction or an undo marks steps undone and writes new ones), so each is built
    once per process, kept under the evening's token, the step's id and the time it was rung:
    the first draw after a change that took no step reads the stored text and builds nothing
    (issue 26 item 3). One query. Raises ``StateError`` (a ``RuleError``) for a state stored wrong
    (nothing kept)."""
    row = (
        Bell.objects.filter(round__evening=evening, undone_at__isnull=True)
        .order_by("-round__number", "-id")
        .values_list("pk", "rung_at", Cast("state_after", TextField()))
        .first()
    )
    if row is None:
        return None
    pk, at, text = row
    kept = _STATES.get(evening_token(evening.pk, evening.public_key), "states", dict)
    state = kept.get((pk, at))
    if state is None:
        after = json.loads(text) if text is not None else None
        if after is None:
            return None
        state = kept[(pk, at)] = EveningState.from_json(after)
    return state


def table_result(row: Result) -> TableResult:
    """A stored result as the bell rules take it: the pool winner, the callers, those who split
    the pool, and every counter given (guest id -> counters after the deal)."""
    return _table_result(row.table, row.pool_winner_id, row.in_call, row.tied, row.counters)


def live_results(rnd: Round) -> list[TableResult]:
    """The round's live results (not superseded), table by table, as the bell rules take them
    (``table_result``), read as values: no ``Result`` instance made. One query."""
    rows = rnd.results.filter(superseded_at__isnull=True).values_list(
        "table", "pool_winner_id", "in_call", "tied", "counters"
    )
    return [_table_result(*row) for row in rows]


def _table_result(table: int, pool_winner: int | None, in_call: list, tied: list, counters: dict) -> TableResult:
    """``TableResult`` from a stored result's values (JSON lists and a mapping with str keys)."""
    return TableResult(
        table=table,
        pool_winner=pool_winner,
        in_call=frozenset(int(g) for g in in_call),
        tied=frozenset(int(g) for g in tied),
        counters={int(g): int(c) for g, c in counters.items()},
    )
