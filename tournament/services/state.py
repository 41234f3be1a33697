"""Reads the rules need: the evening's state now, the round in play, a stored result as the
bell takes it, and the evening's bell options (house rules)."""

from __future__ import annotations

from dataclasses import replace

from tables.bell import BellOptions, EveningState, TableResult
from tables.errors import RuleError
from tournament.models import Bell, Evening, FinalCount, Result, Round
from tournament.services.draws import live_draw

OPEN_STATES = (Round.State.RUNNING, Round.State.PAUSED, Round.State.RUNG)


def bell_options(evening: Evening) -> BellOptions:
    """The evening's bell options (house rules) from ``evening.options["bell"]``."""
    return BellOptions.from_mapping(dict((evening.options or {}).get("bell", {})))


def ring_options(evening: Evening) -> BellOptions:
    """The options a bell is rung with: the evening's (``bell_options``), except that the last
    bell never waits for everyone's counters (``last_round_counts="optional"``). House rule
    (issue 11 deliver 4): the final count is taken after the last bell, table by table,
    pre-filled from the last count (``tournament.services.ending``); the evening's
    ``last_round_counts`` says whether the prize ceremony waits for every table's final count."""
    return replace(bell_options(evening), last_round_counts="optional")


def evening_state(evening: Evening, *, final: bool = True) -> EveningState:
    """The evening as the bell rules see it now: the last live bell's state after, or the
    draw's seating with one stake each. Once the evening has ended (and ``final``), the live
    final counts (``FinalCount``, one per table counted) replace those guests' counters, so
    the standings, prizes and documents read the final count. Raises ``RuleError`` before the
    draw, and for an evening at tables of four (its state is ``services.foursomes.foursome_state``).
    One or two queries (one more after the end)."""
    if evening.format != Evening.Format.POKER:
        raise RuleError("This evening is played at tables of four: it has no counters to count.")
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
    """The last live bell's state after, or the draw's seating (see ``evening_state``)."""
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


def table_result(row: Result) -> TableResult:
    """A stored result as the bell rules take it."""
    return TableResult(
        table=row.table,
        pool_winner=row.pool_winner_id,
        in_call=frozenset(int(g) for g in row.in_call),
        tied=frozenset(int(g) for g in row.tied),
        counters={int(g): int(c) for g, c in row.counters.items()},
    )
