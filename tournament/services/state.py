"""Reads the rules need: the evening's state now, the round in play, a stored result as the
bell takes it, and the evening's bell options (house rules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from django.db.models import JSONField, OuterRef, Subquery

from tables.errors import RuleError
from tables.formats.poker.bell import BellOptions, EveningState, TableResult
from tournament.models import Bell, DrawnCard, Evening, FinalCount, Guest, Result, Round
from tournament.registry import format_for
from tournament.services.draws import live_draw
from tournament.services.locks import lock_evening

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


def poker_only(evening: Evening, why: str) -> None:
    """Refuse Progressive Poker's result or correction for an evening played at tables of four
    (Progressive Euchre, Drive Whist, Bunco), whose tables report points, tricks or buncos:
    raises ``RuleError`` "This evening plays Bunco at tables of four, ``why``" (``why`` says how
    it is done there). Returns None for a Progressive Poker evening. No query."""
    if not format_for(evening).counters:
        raise RuleError(f"This evening plays {evening.get_format_display()} at tables of four, {why}")


def evening_state(evening: Evening, *, final: bool = True) -> EveningState:
    """The evening as the bell rules see it now: the last live bell's state after, or the
    draw's seating with one stake each. Once the evening has ended (and ``final``), the live
    final counts (``FinalCount``, one per table counted) replace those guests' counters, so
    the standings, prizes and documents read the final count. Raises ``RuleError`` before the
    draw, and for an evening at tables of four (its state is ``formats.partnership.state.foursome_state``).
    One or two queries (one more after the end)."""
    if not format_for(evening).counters:
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


def last_state_after(evening: Evening) -> dict | None:
    """The stored state after the evening's last live bell (a guest's leaving or arrival
    included), or None before the first bell: every format's state now, as JSON. One query."""
    bell = (
        Bell.objects.filter(round__evening=evening, undone_at__isnull=True)
        .order_by("-round__number", "-id")
        .only("state_after")
        .first()
    )
    return bell.state_after if bell is not None else None


def last_states_after(evenings: Sequence[Evening]) -> dict[int, dict]:
    """``last_state_after`` of each of ``evenings`` at once: evening id -> the stored state after
    its last live bell, for the evenings that have rung one (a club's season reads many
    evenings). One query whatever the number of evenings."""
    last = (
        Bell.objects.filter(round__evening=OuterRef("pk"), undone_at__isnull=True)
        .order_by("-round__number", "-id")
        .values("state_after")[:1]
    )
    rows = Evening.objects.filter(pk__in=[e.pk for e in evenings]).annotate(
        after=Subquery(last, output_field=JSONField())
    )
    return {pk: after for pk, after in rows.values_list("pk", "after") if after is not None}


def lock_between_rounds(evening: Evening, guest: Guest, doing: str) -> tuple[Evening, Round]:
    """Lock the evening (inside the caller's transaction) for a guest's leaving or arrival,
    which happen between rounds only (house rule: a guest leaving mid-deal finishes it or
    forfeits it, and the host marks them after the bell). Returns the evening, fresh, and its
    last round. Raises ``RuleError`` before round 1, once the evening has ended, or while a
    round is in play (``doing``: "left" or "arrived", for the message)."""
    evening = lock_evening(evening.pk)
    last = evening.rounds.order_by("-number").first()
    if last is None:
        raise RuleError("Round 1 has not started: change the seating on the draw page instead.")
    if evening.stage == Evening.Stage.ENDED:
        raise RuleError("The evening has ended.")
    if current_round(evening) is not None:
        raise RuleError(f"A round is in play: ring its bell first, then mark {guest.name} as {doing}.")
    return evening, last


def _bell_state(evening: Evening) -> EveningState:
    """The last live bell's state after, or the draw's seating (see ``evening_state``)."""
    after = last_state_after(evening)
    if after is not None:
        return EveningState.from_json(after)
    draw = live_draw(evening)
    if draw is None:
        raise RuleError("There is no draw yet: run the draw first.")
    tables: list[list[int]] = [[] for _ in draw.sizes]
    for guest, table in draw.cards.order_by(*DrawnCard.SEATING_ORDER).values_list("guest_id", "rank"):
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
