"""The JSON export of a whole evening (schema "head-table/evening/1", described in docs/export.md).

One document with guests, packs, draws, tables, rounds (with their results and bells), moves,
fresh stakes, standings and prizes. Private link keys are never exported.
"""

from __future__ import annotations

from typing import Any

from tables.bell import EveningState
from tables.packs import Pack
from tables.prizes import PrizeOptions, award_prizes, places, standings
from tournament.models import Bell, Evening, FinalCount, Result
from tournament.selectors import table_kind
from tournament.services.state import evening_state

SCHEMA = "head-table/evening/1"


def _time(value) -> str | None:
    return value.isoformat() if value else None


def evening_export(evening: Evening) -> dict[str, Any]:
    """The evening as a JSON-able dict; a constant number of queries whatever its size."""
    guests = list(evening.guests.order_by("id"))
    draws = list(evening.draws.order_by("id").prefetch_related("cards"))
    rounds = list(evening.rounds.order_by("number"))
    results = list(Result.objects.filter(round__evening=evening).order_by("round__number", "table", "id")
                   .prefetch_related("votes"))
    bells = list(Bell.objects.filter(round__evening=evening).order_by("round__number", "id").prefetch_related("entries"))
    try:
        state: EveningState | None = evening_state(evening)
    except Exception:
        state = None
    packs = {g.pk: Pack(g.pack) for g in guests}
    rows = standings(state, {g: packs[g] for g in state.counters if g in packs}, stake=evening.counters_per_stake) if state else ()
    prizes = award_prizes(rows, options=PrizeOptions.from_mapping(dict((evening.options or {}).get("prizes", {})))) if rows else ()
    live_bells = [b for b in bells if b.undone_at is None]
    return {
        "schema": SCHEMA,
        "evening": {
            "id": evening.pk, "name": evening.name, "date": evening.date.isoformat(), "game": evening.game,
            "options": evening.options, "counters_per_stake": evening.counters_per_stake,
            "minutes_per_round": evening.minutes_per_round, "rounds_planned": evening.rounds_planned,
            "round_end": evening.round_end, "stage": evening.stage, "ended_at": _time(evening.ended_at),
            "ceremony_step": evening.ceremony_step,
            "counter_value": str(evening.counter_value) if evening.counter_value is not None else None,
        },
        "packs": {"red": evening.red_label, "blue": evening.blue_label},
        "guests": [
            {"id": g.pk, "name": g.name, "pack": g.pack, "contact": g.contact, "status": g.status} for g in guests
        ],
        "draws": [
            {
                "id": d.pk, "kind": d.kind, "sizes": d.sizes, "relaxed": d.relaxed, "complete": d.complete,
                "created_at": _time(d.created_at), "superseded_at": _time(d.superseded_at),
                "cards": [{"guest": c.guest_id, "pack": c.pack, "rank": c.rank} for c in d.cards.all()],
            }
            for d in draws
        ],
        "tables": [
            {"number": n, "kind": table_kind(n, len(state.tables)), "guests": list(ids)}
            for n, ids in enumerate(state.tables, 1)
        ] if state else [],
        "rounds": [
            {
                "number": r.number, "state": r.state, "started_at": _time(r.started_at), "deadline": _time(r.deadline),
                "reopened": r.reopened,
                "results": [
                    {
                        "table": x.table, "pool_winner": x.pool_winner_id, "in_call": x.in_call, "tied": x.tied,
                        "counters": x.counters,
                        "reported_by_guest": x.reported_by_guest_id, "created_at": _time(x.created_at),
                        "superseded_at": _time(x.superseded_at), "count_off": x.count_off, "status": x.status,
                        "votes": [{"guest": v.guest_id, "verdict": v.verdict, "note": v.note} for v in x.votes.all()],
                    }
                    for x in results if x.round_id == r.pk
                ],
                "bells": [
                    {
                        "kind": b.kind, "cause": b.cause, "rung_at": _time(b.rung_at), "undone_at": _time(b.undone_at),
                        "warnings": b.record.get("warnings", []),
                        "entries": [
                            {"kind": e.kind, "guest": e.guest_id, "from_table": e.from_table, "to_table": e.to_table,
                             "amount": e.amount, "rule": e.rule, "text": e.text}
                            for e in b.entries.all()
                        ],
                    }
                    for b in bells if b.round_id == r.pk
                ],
            }
            for r in rounds
        ],
        "final_counts": [
            {"table": c.table, "counters": c.counters, "off_by": c.off_by, "created_at": _time(c.created_at),
             "superseded_at": _time(c.superseded_at)}
            for c in FinalCount.objects.filter(evening=evening).order_by("table", "id")
        ],
        "moves": [
            {"round": next(r.number for r in rounds if r.pk == b.round_id), "guest": e.guest_id,
             "from_table": e.from_table, "to_table": e.to_table, "kind": e.kind}
            for b in live_bells for e in b.entries.all()
            if e.from_table and e.to_table and e.from_table != e.to_table
        ],
        "stakes": [
            {"round": next(r.number for r in rounds if r.pk == b.round_id), "guest": e.guest_id, "counters": e.amount}
            for b in live_bells for e in b.entries.all() if e.kind == "stake"
        ],
        "standings": [
            {"place": place, "guest": row.guest, "pack": row.pack.value, "yellow": row.yellow, "counters": row.counters,
             "stakes": row.stakes, "fresh_stakes": row.fresh_stakes, "counters_won": row.counters_won}
            for place, row in zip(places(rows), rows)
        ],
        "prizes": [
            {"key": p.key, "title": p.title, "winners": list(p.winners), "reason": p.reason} for p in prizes
        ],
    }
