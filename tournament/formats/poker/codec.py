"""Progressive Poker's part of the evening export and import (schema "head-table/evening/1",
docs/export.md), behind the format plug-in (``PokerFormat.export_standings`` and
``import_play``), as ``tournament/formats/partnership/codec.py`` is for tables of four.

The export's tables, standings and prizes are the evening's as its pages show them. The import
does not trust the stored moves: it rebuilds the evening from the live draw and replays every
live bell through the rules (``tables.formats.poker.bell.ring_bell``) with the recorded results
and the recorded cards cut, then checks that the replay gives exactly the exported entries. A
recorded evening is thus a known-answer test of the rules. Undone bells and superseded results
are kept as history. Guests leaving or arriving between bells (bells of kind "leave"/"arrive")
are replayed with ``tables.formats.poker.bell.guest_leaves`` / ``guest_arrives``, a host's seat
change with ``services.seat_changes.seat_change_again``. Each kind of row goes in one insert
(``tournament.exchange.rows._all_saved``), so 500 guests cost the statements of 30. Any problem
raises ``EveningImportError`` naming the place in the file; the caller's transaction then saves
nothing. Rules: ``docs/rules/progressive-poker.md``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tables.errors import RuleError
from tables.formats.poker.bell import BellRecord, EveningState, TableResult, guest_arrives, guest_leaves
from tables.formats.poker.prizes import places, standings
from tables.packs import Pack
from tournament.exchange.helper_links import helper_link_ids, result_helper_id
from tournament.exchange.rows import (
    EveningImportError,
    _all_saved,
    _checked,
    _time,
    _time_required,
    where,
)
from tournament.exchange.undone import undone_bell_rows
from tournament.formats.poker.bell import entry_rows
from tournament.models import Bell, BellEntry, Draw, Evening, FinalCount, Result, ResultVote, Round
from tournament.registry import format_for
from tournament.selectors.board import table_kind
from tournament.services.audit import audit_log
from tournament.services.clock import schedule_advance
from tournament.services.draws import seats_replace
from tournament.services.naming import error_message, guest_names
from tournament.services.prizes import evening_standings
from tournament.services.seat_changes import seat_change_again
from tournament.services.state import evening_state, ring_options


def poker_standings_export(
    evening: Evening, guests: list
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The tables, standings rows and prizes as the evening stands now.

    Returns (tables, standing rows, prizes) as export lists; all empty when the evening's
    state cannot be worked out yet (no draw), as before: house rule, an export never fails.
    The prizes are the evening's pages' (``services.prizes.evening_standings``: ties cut by the
    evening's prize seed, reasons with the guests' names), so a copy's export says the same.
    """
    try:
        state: EveningState | None = evening_state(evening)
    except Exception:
        state = None
    packs = {g.pk: Pack(g.pack) for g in guests}
    rows = (
        standings(state, {g: packs[g] for g in state.counters if g in packs}, stake=evening.counters_per_stake)
        if state
        else ()
    )
    prizes = evening_standings(evening).prizes if rows and state else ()
    tables = (
        [
            {"number": n, "kind": table_kind(n, len(state.tables)), "guests": list(ids)}
            for n, ids in enumerate(state.tables, 1)
        ]
        if state
        else []
    )
    standing_rows = [
        {
            "place": place,
            "guest": row.guest,
            "pack": row.pack.value,
            "yellow": row.yellow,
            "counters": row.counters,
            "stakes": row.stakes,
            "fresh_stakes": row.fresh_stakes,
            "counters_won": row.counters_won,
        }
        for place, row in zip(places(rows), rows, strict=True)
    ]
    prize_rows = [
        {"key": p.prize.key, "title": p.prize.title, "winners": list(p.prize.winners), "reason": p.reason}
        for p in prizes
    ]
    return tables, standing_rows, prize_rows


def _results(
    rnd: dict[str, Any],
    r: int,
    round_row: Round,
    gid,
    rows: list[Result],
    votes: list[ResultVote],
    links: dict[int, int],
) -> list[TableResult]:
    """Check a round's results (live and superseded) and their votes and add them to ``rows``
    and ``votes`` (written later, each kind in one insert for the whole evening); ``links`` maps
    a scorer's link number to its new id (the result's sender). Returns the live ones for the
    bell."""
    live_results = []
    for x, res in enumerate(rnd["results"]):
        counters = {str(gid(int(g))): n for g, n in res["counters"].items()}
        winner = gid(res["pool_winner"]) if res["pool_winner"] is not None else None
        in_call, tied = [gid(g) for g in res["in_call"]], [gid(g) for g in res.get("tied", ())]
        reporter = res.get("reported_by_guest")
        place = ["rounds", r, "results", x]
        row = _checked(
            Result(
                round=round_row,
                table=res["table"],
                pool_winner_id=winner,
                in_call=in_call,
                tied=tied,
                counters=counters,
                reported_by_guest_id=gid(reporter) if reporter is not None else None,
                reported_by_helper_id=result_helper_id(res, links),
                superseded_at=_time(res.get("superseded_at"), [*place, "superseded_at"]),
                count_off=res.get("count_off", 0),
                status=res.get("status", Result.Status.REPORTED),
            ),
            place,
            {"pool_winner": [*place, "pool_winner"], "reported_by_guest": [*place, "reported_by_guest"]},
        )
        rows.append(row)
        for v, vote in enumerate(res.get("votes", ())):
            votes.append(
                _checked(
                    ResultVote(
                        result=row, guest_id=gid(vote["guest"]), verdict=vote["verdict"], note=vote.get("note", "")
                    ),
                    [*place, "votes", v],
                )
            )
        if res.get("superseded_at") is None:
            live_results.append(
                TableResult(
                    table=res["table"],
                    pool_winner=winner,
                    in_call=frozenset(in_call),
                    tied=frozenset(tied),
                    counters={int(g): n for g, n in counters.items()},
                )
            )
    return live_results


def poker_import(*, data: dict[str, Any], evening: Evening, draw: Draw, row: dict[str, Any], gid, host) -> None:
    """Progressive Poker's play from the file: the draw's seats, every round with its results
    and its bells replayed by the rules (a bell that does not replay is refused), the seats
    after the last bell and the final counts. ``gid`` maps the file's guest ids to the new ones.
    Raises ``EveningImportError`` naming the place in the file."""
    names = guest_names(evening)  # read once: every bell's words name the guests with it
    tables: list[list[int]] = [[] for _ in draw.sizes]
    for card in sorted(row["cards"], key=lambda c: (c["rank"],)):
        tables[card["rank"] - 1].append(gid(card["guest"]))
    try:
        state = EveningState.start(tables, stake=evening.counters_per_stake)
    except RuleError as error:
        raise EveningImportError(
            f"{where(['draws', data['draws'].index(row)])}: {error_message(error, names=names)}"
        ) from None

    options = ring_options(evening)  # as the bells were rung: the last bell never waits for counts
    rounds = sorted(enumerate(data["rounds"]), key=lambda pair: pair[1]["number"])
    round_rows = _rounds_saved(evening, rounds)
    results: list[Result] = []
    votes: list[ResultVote] = []
    links = helper_link_ids(data, evening)  # the scorers' links results were sent from
    bells: list[Bell] = []
    entries: list[BellEntry] = []
    for (r, rnd), round_row in zip(rounds, round_rows, strict=True):
        live_results = _results(rnd, r, round_row, gid, results, votes, links)
        for b, bell in enumerate(rnd["bells"]):
            if bell.get("undone_at"):  # history only: saved as exported, not replayed
                stored, its_entries = undone_bell_rows(
                    round_row=round_row, bell=bell, place=["rounds", r, "bells", b], gid=gid
                )
            else:
                try:
                    state, stored, its_entries = _replay_bell(
                        evening, round_row, bell, state, live_results, options, gid, names, ["rounds", r, "bells", b]
                    )
                except EveningImportError:
                    raise
                except RuleError as error:
                    raise EveningImportError(
                        f"{where(['rounds', r, 'bells', b])}: {error_message(error, names=names)}"
                    ) from None
            bells.append(stored)
            entries.extend(its_entries)
    _all_saved(results)
    _all_saved(votes)  # each vote's result has its id now
    _all_saved(bells)  # in the file's order, as they were rung and undone
    if bells:  # as tournament.signals does after each bell saved: the evening may advance by itself
        transaction.on_commit(lambda: schedule_advance(evening.pk))
    _all_saved(entries)  # each entry's bell has its id now
    seats_replace(evening=evening, tables=state.tables)
    _final_counts(data, evening, state, gid)
    audit_log(evening=evening, action="evening.import", user=host, guests=len(names))


def _rounds_saved(evening: Evening, rounds: list[tuple[int, dict[str, Any]]]) -> list[Round]:
    """Every round of the file ((place in the file, the round), by number), each checked, in one
    insert: the results and bells point at them. Raises ``EveningImportError``."""
    return _all_saved(
        [
            _checked(
                Round(
                    evening=evening,
                    number=rnd["number"],
                    state=rnd["state"],
                    started_at=_time_required(rnd["started_at"], ["rounds", r, "started_at"]),
                    deadline=_time(rnd.get("deadline"), ["rounds", r, "deadline"]),
                    reopened=rnd.get("reopened", ""),
                ),
                ["rounds", r],
            )
            for r, rnd in rounds
        ]
    )


def _final_counts(data: dict[str, Any], evening: Evening, state: EveningState, gid) -> None:
    """Save the final counts (issue 11 deliver 4): each table's guests as after the last bell,
    at most one live count per table. Raises ``EveningImportError`` naming the place for a
    table that does not exist or a guest not at it."""
    counts = []
    for c, row in enumerate(data.get("final_counts", ())):
        place = ["final_counts", c]
        if row["table"] > len(state.tables):
            raise EveningImportError(
                f"{where([*place, 'table'])}: there is no table {row['table']} "
                f"(the tables are 1 to {len(state.tables)})."
            )
        counters = {str(gid(int(g))): n for g, n in row["counters"].items()}
        seated = {str(g) for g in state.tables[row["table"] - 1]}
        if set(counters) != seated:
            raise EveningImportError(
                f"{where([*place, 'counters'])}: the guests counted are not the guests at table {row['table']}."
            )
        when = {"created_at": _time(row.get("created_at"), [*place, "created_at"])} if row.get("created_at") else {}
        counts.append(
            _checked(
                FinalCount(
                    evening=evening,
                    table=row["table"],
                    counters=counters,
                    off_by=row.get("off_by", 0),
                    superseded_at=_time(row.get("superseded_at"), [*place, "superseded_at"]),
                    **when,
                ),
                place,
            )
        )
    _all_saved(counts)


def _replayed_record(evening, number: int, bell, state, live_results, options, gid) -> BellRecord:
    """What the rules make of one exported bell (a guest leaving or arriving, or the round's
    bell) on ``state``, with the cards the file says were cut."""
    cuts: dict[int, list[int]] = {}
    for entry in bell["entries"]:
        if entry["kind"] == "cut":
            cuts.setdefault(gid(entry["guest"]), []).append(entry["amount"])
    kind = bell.get("kind", "bell")
    if kind == "leave":
        leaver = next(gid(e["guest"]) for e in bell["entries"] if e["kind"] == "leave")
        return guest_leaves(state, leaver, options=options, cuts=cuts)
    if kind == "arrive":
        entry = next(e for e in bell["entries"] if e["kind"] == "arrive")
        return guest_arrives(
            state, gid(entry["guest"]), stake=evening.counters_per_stake, table=entry["to_table"], options=options
        )
    if kind == "seat":  # the host's seat change: two movers swapped, or one moved to a table
        movers = [e for e in bell["entries"] if e["kind"] == "seat"]
        return seat_change_again(state, [(gid(e["guest"]), e["to_table"]) for e in movers], format_for(evening))
    last = Round.is_last_number(number, evening=evening)
    rung = (
        format_for(evening)
        .rules_of(evening)
        .ring(state, live_results, stake=evening.counters_per_stake, options=options, cuts=cuts, last_round=last)
    )
    return rung.record


def _replay_bell(
    evening, round_row, bell, state, live_results, options, gid, names, place
) -> tuple[EveningState, Bell, list[BellEntry]]:
    """Replay one live bell (or a guest leaving or arriving) through the rules and check it
    gives the exported entries; returns the state after it, and the bell (checked) and its
    entries (their words naming the guests by ``names``, new id -> name) to write."""
    number = round_row.number
    record = _replayed_record(evening, number, bell, state, live_results, options, gid)
    replayed = [(e.kind, e.guest, e.from_table, e.to_table, e.amount) for e in record.entries]
    exported = [(e["kind"], gid(e["guest"]), e["from_table"], e["to_table"], e["amount"]) for e in bell["entries"]]
    if replayed != exported:
        raise EveningImportError(
            f"{where(place)}: round {number}'s bell does not replay to the exported moves: the export was "
            "edited or made under other rules."
        )
    stored = _checked(
        Bell(
            round=round_row,
            kind=record.kind,
            cause=bell["cause"],
            record=record.to_json(after=False),  # the state after is kept once (``bell.bell_store``)
            state_after=record.after.to_json(),
        ),
        place,
    )
    return record.after, stored, entry_rows(stored, record, names)
