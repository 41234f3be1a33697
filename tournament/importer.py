"""Importing an evening exported as JSON (schema "head-table/evening/1", docs/export.md).

The import does not trust the stored moves: it rebuilds the evening from the live draw and
replays every live bell through the rules (``tables.bell.ring_bell``) with the recorded results
and the recorded cards cut, then checks that the replay gives exactly the exported entries. A
recorded evening is thus a known-answer test of the rules. The new evening gets new ids and new
private links (keys are never exported). Undone bells and superseded results are kept as
history. Guests leaving or arriving between bells (bells of kind "leave"/"arrive") are replayed
with ``tables.bell.guest_leaves`` / ``guest_arrives``.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils.dateparse import parse_datetime

from tables.bell import BellOptions, EveningState, TableResult, guest_arrives, guest_leaves, ring_bell
from tables.errors import RuleError
from tournament.export import SCHEMA
from tournament.models import Bell, BellEntry, Draw, DrawnCard, Evening, Guest, Result, Round
from tournament.services.audit import audit_log
from tournament.services.draws import seats_replace


class EveningImportError(RuleError):
    """The JSON is not an evening this version can import, or its bells do not replay."""


def _time(value: str | None) -> datetime.datetime | None:
    return parse_datetime(value) if value else None


def evening_import(*, data: dict[str, Any], host) -> Evening:
    """Create a new evening for ``host`` from an export; returns it. One transaction: on any
    error nothing is saved. Raises ``EveningImportError`` naming what is wrong (another
    schema, a guest id that is not in the guest list, a bell whose replay differs)."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise EveningImportError(f"This is not a Head Table evening export (schema {SCHEMA}).")
    try:
        with transaction.atomic():
            return _import(data, host)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, RuleError):
            raise
        raise EveningImportError(f"The export is incomplete or malformed ({error!r}).") from None


def _import(data: dict[str, Any], host) -> Evening:
    info = data["evening"]
    evening = Evening.objects.create(
        host=host, name=info["name"], date=datetime.date.fromisoformat(info["date"]), game=info["game"],
        options=info.get("options") or {}, counters_per_stake=info["counters_per_stake"],
        minutes_per_round=info["minutes_per_round"], rounds_planned=info.get("rounds_planned"),
        round_end=info.get("round_end", Evening.RoundEnd.CLOCK), stage=info["stage"],
        red_label=data["packs"]["red"], blue_label=data["packs"]["blue"],
        counter_value=info.get("counter_value"),
    )
    guests = {}
    for row in data["guests"]:
        guests[row["id"]] = Guest.objects.create(
            evening=evening, name=row["name"], pack=row["pack"], contact=row.get("contact", ""), status=row["status"]
        )

    def gid(old: Any) -> int:
        if old not in guests:
            raise EveningImportError(f"Guest id {old} is used but not in the guest list.")
        return guests[old].pk

    live = None
    for row in data["draws"]:
        draw = Draw.objects.create(
            evening=evening, kind=row["kind"], sizes=row["sizes"], relaxed=row.get("relaxed", ""),
            complete=row.get("complete", True), superseded_at=_time(row.get("superseded_at")),
        )
        DrawnCard.objects.bulk_create(
            [DrawnCard(draw=draw, guest_id=gid(c["guest"]), pack=c["pack"], rank=c["rank"]) for c in row["cards"]]
        )
        if row.get("superseded_at") is None:
            live = (draw, row)
    if live is None:
        return evening
    draw, row = live
    tables: list[list[int]] = [[] for _ in draw.sizes]
    for card in sorted(row["cards"], key=lambda c: (c["rank"],)):
        tables[card["rank"] - 1].append(gid(card["guest"]))
    state = EveningState.start(tables, stake=evening.counters_per_stake)
    options = BellOptions.from_mapping(dict((evening.options or {}).get("bell", {})))

    for rnd in sorted(data["rounds"], key=lambda r: r["number"]):
        round_row = Round.objects.create(
            evening=evening, number=rnd["number"], state=rnd["state"],
            started_at=_time(rnd["started_at"]), deadline=_time(rnd.get("deadline")),
        )
        live_results = []
        for res in rnd["results"]:
            counters = {str(gid(int(g))): int(n) for g, n in res["counters"].items()}
            Result.objects.create(
                round=round_row, table=res["table"], pool_winner_id=gid(res["pool_winner"]) if res["pool_winner"] else None,
                in_call=[gid(g) for g in res["in_call"]], counters=counters,
                reported_by_guest_id=gid(res["reported_by_guest"]) if res.get("reported_by_guest") else None,
                superseded_at=_time(res.get("superseded_at")),
            )
            if res.get("superseded_at") is None:
                live_results.append(TableResult(
                    table=res["table"], pool_winner=gid(res["pool_winner"]) if res["pool_winner"] else None,
                    in_call=frozenset(gid(g) for g in res["in_call"]),
                    counters={int(g): n for g, n in counters.items()},
                ))
        for bell in rnd["bells"]:
            if bell.get("undone_at"):
                continue  # history only: its record is not in schema 1
            cuts: dict[int, list[int]] = {}
            for entry in bell["entries"]:
                if entry["kind"] == "cut":
                    cuts.setdefault(gid(entry["guest"]), []).append(entry["amount"])
            last = bool(evening.rounds_planned and rnd["number"] >= evening.rounds_planned)
            kind = bell.get("kind", "bell")
            if kind == "leave":
                leaver = next(gid(e["guest"]) for e in bell["entries"] if e["kind"] == "leave")
                record = guest_leaves(state, leaver, options=options, cuts=cuts)
            elif kind == "arrive":
                entry = next(e for e in bell["entries"] if e["kind"] == "arrive")
                record = guest_arrives(state, gid(entry["guest"]), stake=evening.counters_per_stake,
                                       table=entry["to_table"], options=options)
            else:
                record = ring_bell(state, live_results, stake=evening.counters_per_stake, options=options,
                                   cuts=cuts, last_round=last)
            replayed = [(e.kind, e.guest, e.from_table, e.to_table, e.amount) for e in record.entries]
            exported = [(e["kind"], gid(e["guest"]), e["from_table"], e["to_table"], e["amount"])
                        for e in bell["entries"]]
            if replayed != exported:
                raise EveningImportError(
                    f"Round {rnd['number']}'s bell does not replay to the exported moves: the export was edited "
                    "or made under other rules."
                )
            stored = Bell.objects.create(round=round_row, kind=record.kind, cause=bell["cause"], record=record.to_json(),
                                         state_after=record.after.to_json())
            BellEntry.objects.bulk_create([
                BellEntry(bell=stored, kind=e.kind, guest_id=e.guest, from_table=e.from_table, to_table=e.to_table,
                          amount=e.amount, rule=e.rule[:200], text=e.text[:300])
                for e in record.entries
            ])
            state = record.after
    seats_replace(evening=evening, tables=state.tables)
    audit_log(evening=evening, action="evening.import", user=host, guests=len(guests))
    return evening
