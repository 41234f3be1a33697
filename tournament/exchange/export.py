"""The JSON export of a whole evening (schema "head-table/evening/1", described in docs/export.md).

One document with guests, packs, draws, tables, rounds (with their results and bells), the
helpers' links, moves, fresh stakes, standings and prizes. Private link keys are never exported.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from tournament.exchange.helper_links import helper_links_export
from tournament.models import Bell, DrawnCard, Evening, FinalCount, Result
from tournament.registry import format_for
from tournament.services.prizes import prize_seed

SCHEMA = "head-table/evening/1"


def _time(value) -> str | None:
    return value.isoformat() if value else None


def _evening_fields(evening: Evening) -> dict[str, Any]:
    """The evening's own settings: counters per stake in counters, minutes per round in minutes."""
    return {
        "id": evening.pk,
        "name": evening.name,
        "date": evening.date.isoformat(),
        "format": evening.format,
        "game": evening.game,
        "options": evening.options,
        "prize_seed": prize_seed(evening),
        "counters_per_stake": evening.counters_per_stake,
        "minutes_per_round": evening.minutes_per_round,
        "rounds_planned": evening.rounds_planned,
        "round_end": evening.round_end,
        "stage": evening.stage,
        "ended_at": _time(evening.ended_at),
        "ceremony_step": evening.ceremony_step,
        "counter_value": str(evening.counter_value) if evening.counter_value is not None else None,
    }


def _draw_fields(draw) -> dict[str, Any]:
    """One draw with its cards (guest id, pack, rank), cards already prefetched in the order the
    draw seats its tables (``DrawnCard.SEATING_ORDER``), the order the import seats them in."""
    return {
        "id": draw.pk,
        "kind": draw.kind,
        "sizes": draw.sizes,
        "relaxed": draw.relaxed,
        "complete": draw.complete,
        "created_at": _time(draw.created_at),
        "superseded_at": _time(draw.superseded_at),
        "cards": [{"guest": c.guest_id, "pack": c.pack, "rank": c.rank, "seat": c.seat} for c in draw.cards.all()],
        "layout": draw.layout,
    }


def _result_fields(result: Result) -> dict[str, Any]:
    """One reported result with its votes (votes and the scorer's link already fetched);
    counters in counters; ``reported_by_helper`` is the number of the scorer's link it was sent
    from (``helper_links``), null for a guest's or the host's."""
    return {
        "table": result.table,
        "pool_winner": result.pool_winner_id,
        "in_call": result.in_call,
        "tied": result.tied,
        "counters": result.counters,
        "report": result.report,
        "reported_by_guest": result.reported_by_guest_id,
        "reported_by_helper": result.reported_by_helper.number if result.reported_by_helper is not None else None,
        "created_at": _time(result.created_at),
        "superseded_at": _time(result.superseded_at),
        "count_off": result.count_off,
        "status": result.status,
        "votes": [{"guest": v.guest_id, "verdict": v.verdict, "note": v.note} for v in result.votes.all()],
    }


def _bell_fields(bell: Bell) -> dict[str, Any]:
    """One bell (rung or undone) with its entries (already prefetched); amounts in counters. A
    bell at tables of four carries its ``record`` (``tables.formats.records``: the tables before
    and after, winners, cuts, tallies added, moves; or a guest leaving or arriving)."""
    record = {"record": bell.record} if bell.record.get("format") == "foursome" else {}
    return {
        **record,
        "kind": bell.kind,
        "cause": bell.cause,
        "rung_at": _time(bell.rung_at),
        "undone_at": _time(bell.undone_at),
        "warnings": bell.record.get("warnings", []),
        "entries": [
            {
                "kind": e.kind,
                "guest": e.guest_id,
                "from_table": e.from_table,
                "to_table": e.to_table,
                "amount": e.amount,
                "rule": e.rule,
                "text": e.text,
            }
            for e in bell.entries.all()
        ],
    }


def _round_fields(rnd, results: list[Result], bells: list[Bell]) -> dict[str, Any]:
    """One round with the results and bells (of the whole evening) that belong to it."""
    return {
        "number": rnd.number,
        "state": rnd.state,
        "started_at": _time(rnd.started_at),
        "deadline": _time(rnd.deadline),
        "reopened": rnd.reopened,
        "results": [_result_fields(x) for x in results if x.round_id == rnd.pk],
        "bells": [_bell_fields(b) for b in bells if b.round_id == rnd.pk],
    }


def _moves_and_stakes(rounds: list, bells: list[Bell]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The moves between tables and the fresh stakes (in counters) of the bells not undone."""
    number = {r.pk: r.number for r in rounds}
    live_bells = [b for b in bells if b.undone_at is None]
    moves = [
        {
            "round": number[b.round_id],
            "guest": e.guest_id,
            "from_table": e.from_table,
            "to_table": e.to_table,
            "kind": e.kind,
        }
        for b in live_bells
        for e in b.entries.all()
        if e.from_table and e.to_table and e.from_table != e.to_table
    ]
    stakes = [
        {"round": number[b.round_id], "guest": e.guest_id, "counters": e.amount}
        for b in live_bells
        for e in b.entries.all()
        if e.kind == "stake"
    ]
    return moves, stakes


def evening_export(evening: Evening) -> dict[str, Any]:
    """The evening as a JSON-able dict (schema SCHEMA, docs/export.md); a constant number of
    queries whatever its size. Takes the evening; raises nothing for an evening without a draw
    (tables, standings and prizes are then empty)."""
    guests = list(evening.guests.order_by("id"))
    draws = list(
        evening.draws.order_by("id").prefetch_related(
            Prefetch("cards", queryset=DrawnCard.objects.order_by(*DrawnCard.SEATING_ORDER))
        )
    )
    rounds = list(evening.rounds.order_by("number"))
    results = list(
        Result.objects.filter(round__evening=evening)
        .order_by("round__number", "table", "id")
        .select_related("reported_by_helper")
        .prefetch_related("votes")
    )
    bells = list(
        Bell.objects.filter(round__evening=evening).order_by("round__number", "id").prefetch_related("entries")
    )
    tables, standing_rows, prize_rows = format_for(evening).export_standings(evening, guests)
    moves, stakes = _moves_and_stakes(rounds, bells)
    return {
        "schema": SCHEMA,
        "evening": _evening_fields(evening),
        "packs": {"red": evening.red_label, "blue": evening.blue_label},
        "guests": [
            {"id": g.pk, "name": g.name, "pack": g.pack, "contact": g.contact, "status": g.status} for g in guests
        ],
        "draws": [_draw_fields(d) for d in draws],
        "tables": tables,
        "rounds": [_round_fields(r, results, bells) for r in rounds],
        "helper_links": helper_links_export(evening),
        "final_counts": [
            {
                "table": c.table,
                "counters": c.counters,
                "off_by": c.off_by,
                "created_at": _time(c.created_at),
                "superseded_at": _time(c.superseded_at),
            }
            for c in FinalCount.objects.filter(evening=evening).order_by("table", "id")
        ],
        "moves": moves,
        "stakes": stakes,
        "standings": standing_rows,
        "prizes": prize_rows,
    }
