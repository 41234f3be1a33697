"""Importing an evening played at tables of four (Progressive Euchre, Drive Whist, Bunco).

The file's format must agree with its live draw: a format at tables of four needs the draw's
``layout`` (the players at North, East, South and West, ghosts negative) and every card's
``seat`` matching it; Progressive Poker's draw has neither. Every table's ``report`` (live or
superseded, in a round rung or still in play) is read by the format's own rules against the seats
its round was played at (``tables.formats.records.report_score``: a euchre hand worth 3, 22 bunco
points in one roll, 14 tricks or a bunco for someone at another table are refused), a guest who
sent one must sit at that table, and every live bell is replayed through the rules
(``tables.formats.bell``) with the recorded cuts; the replay must give exactly the exported
record (tables before and after, winners, tallies added, moves), so a recorded evening imports
to the same standings. A bell a correction rang again with the seats played since
(``"as_played"``, ``tables.formats.bell.seats_as_played``) keeps the exported seats after it. A guest leaving or arriving is replayed with ``guest_leaves`` /
``guest_arrives``. Any problem raises ``EveningImportError`` naming the place in the file;
the caller's transaction then saves nothing. Rules: ``docs/rules/tables-of-four.md``; docs/export.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.errors import RuleError
from tables.formats import FoursomeFormat, FoursomeOptions
from tables.formats.bell import FoursomeState, guest_arrives, guest_leaves, seats_as_played
from tables.formats.foursome import Side, is_ghost
from tables.formats.records import bell_to_json, report_score, state_to_json
from tables.formats.scoring import TableScore
from tournament.exchange.helper_links import helper_link_ids, result_helper_id
from tournament.exchange.rows import EveningImportError, _all_saved, _checked, _saved, _time, _time_required, where
from tournament.exchange.undone import save_undone_bell
from tournament.formats.partnership.standings import foursome_standings
from tournament.formats.partnership.state import foursome_rules, foursome_seats_replace, foursome_state, player_name
from tournament.models import Bell, BellEntry, Draw, Evening, Result, ResultVote, Round
from tournament.registry import format_for
from tournament.selectors.board import table_kind
from tournament.services.audit import audit_log
from tournament.services.naming import error_message

RECORD_KEYS = ("before", "after", "winners", "cuts", "added", "moves", "as_played")
Ids = Callable[[int], int]


def player_ids(gid: Ids) -> Ids:
    """Old id -> new id for players: a guest's id through ``gid``, a ghost's kept."""
    return lambda old: old if is_ghost(old) else gid(old)


def remap_report(report: Mapping[str, Any], pid: Ids) -> dict[str, Any]:
    """A table's report with the players named in it (buncos, mini buncos, rolls) renamed by
    ``pid``; points, tricks, hands and the roll-off as they are."""
    out = dict(report)
    for key in ("buncos", "minis", "rolls"):
        if key in report:
            out[key] = {str(pid(int(p))): v for p, v in report[key].items()}
    return out


def remap_record(record: Mapping[str, Any], pid: Ids) -> dict[str, Any]:
    """A bell's record with every player renamed by ``pid`` (tables, tallies added, moves, the
    guest leaving or arriving); winners, words and cuts as they are."""
    out = dict(record)
    for key in ("before", "after"):
        out[key] = [[pid(p) for p in table] for table in record.get(key, ())]
    if "added" in record:
        out["added"] = {str(pid(int(p))): t for p, t in record["added"].items()}
    if "moves" in record:
        out["moves"] = [[pid(m[0]), m[1], m[2]] for m in record["moves"]]
    if "guest" in record:
        out["guest"] = pid(record["guest"])
    return out


def _record_players(record: Mapping[str, Any]) -> list[int]:
    """Every player id a stored record names (tables, tallies, moves, the guest)."""
    found = [p for key in ("before", "after") for table in record.get(key, ()) for p in table]
    found += [int(k) for k in record.get("added", {})] + [m[0] for m in record.get("moves", ())]
    return found + ([record["guest"]] if "guest" in record else [])


def foursome_references(data: dict[str, Any]) -> list[tuple[list[Any], int]]:
    """The guest ids (not ghosts) the draws' layouts, the reports and the bells' records name,
    with their places, for the import's reference check."""
    found: list[tuple[list[Any], int]] = []
    for d, draw in enumerate(data["draws"]):
        found += [(["draws", d, "layout"], p) for t in draw.get("layout") or () for p in t if p > 0]
    for r, rnd in enumerate(data["rounds"]):
        for x, res in enumerate(rnd["results"]):
            report = res.get("report") or {}
            found += [
                (["rounds", r, "results", x, "report", k], int(p))
                for k in ("buncos", "minis", "rolls")
                for p in report.get(k, {})
                if int(p) > 0
            ]
            found += [
                (["rounds", r, "results", x, "votes", v, "guest"], vote["guest"])
                for v, vote in enumerate(res.get("votes", ()))
            ]
        for b, bell in enumerate(rnd["bells"]):
            found += [
                (["rounds", r, "bells", b, "record"], p) for p in _record_players(bell.get("record") or {}) if p > 0
            ]
    return found


def check_draw(data: dict[str, Any], row: dict[str, Any], title: str) -> None:
    """The live draw ``row`` of a file whose evening plays ``title`` at tables of four seats
    every card at a table and a seat of its layout (module docstring). Raises
    ``EveningImportError`` naming the draw."""
    d = data["draws"].index(row)
    layout = row.get("layout") or []
    if not layout or row["sizes"] != [4] * len(layout):
        raise EveningImportError(
            f"{where(['evening', 'format'])}: {title} is played at tables of four with seats, but "
            f"{where(['draws', d]).lower()} has none: the format was changed after the draw."
        )
    for c, card in enumerate(row["cards"]):
        seat, rank = card.get("seat"), card["rank"]
        if seat is None or rank > len(layout) or layout[rank - 1][seat] != card["guest"]:
            raise EveningImportError(
                f"{where(['draws', d, 'cards', c])}: the card of guest number {card['guest']} does not match "
                "the draw's seats."
            )


def _rules(evening: Evening) -> tuple[FoursomeFormat, FoursomeOptions]:
    """The evening's format and the host's options for it, as the file gave them (raises
    ``RuleError`` for an option the rules do not know)."""
    return foursome_rules(evening)


def _read_reports(
    evening: Evening, rnd: dict[str, Any], r: int, state: FoursomeState, pid: Ids, names: Mapping[int, str]
) -> dict[int, TableScore]:
    """Read every report of a round (live and superseded, the round rung or still in play) with
    the format's rules against the seats the round was played at (``state``, before its bell),
    and check that a guest who sent one sits at that table. Returns the live reports' scores by
    table, for the bell. Raises ``EveningImportError`` naming the place in the file."""
    fmt, options = _rules(evening)
    live: dict[int, TableScore] = {}
    for x, res in enumerate(rnd["results"]):
        place, table = ["rounds", r, "results", x], res["table"]
        if not 1 <= table <= len(state.tables):
            raise EveningImportError(
                f"{where(place)}: there is no table {table} (the tables are 1 to {len(state.tables)})."
            )
        seats = state.tables[table - 1]
        reporter = res.get("reported_by_guest")
        if reporter is not None and pid(reporter) not in seats:
            raise EveningImportError(
                f"{where([*place, 'reported_by_guest'])}: {player_name(pid(reporter), names)} is not at table "
                f"{table} in round {rnd['number']}, so cannot have reported its result."
            )
        for v, vote in enumerate(res.get("votes", ())):
            if pid(vote["guest"]) not in seats:
                raise EveningImportError(
                    f"{where([*place, 'votes', v, 'guest'])}: {player_name(pid(vote['guest']), names)} is not at "
                    f"table {table} in round {rnd['number']}, so cannot have confirmed or disputed its result."
                )
        try:
            score = report_score(fmt, seats, remap_report(res.get("report") or {}, pid), ties=options.ties)
        except RuleError as error:
            raise EveningImportError(
                f"{where([*place, 'report'])}: table {table}'s report: {error_message(error, names=names)}"
            ) from None
        if res.get("superseded_at") is None:
            live[table] = score
    return live


def _reports(rnd: dict[str, Any], r: int, round_row: Round, pid: Ids, links: dict[int, int]) -> None:
    """Save a round's results (live and superseded) with their reports (read first by
    ``_read_reports``, against the seats at the round's bell), who sent each (a player, or a
    scorer's link: ``links`` maps its number to its new id) and the guests' votes on them
    (confirmed or disputed, with the reason): each checked in the file's order, then each kind
    in one insert."""
    rows: list[Result] = []
    votes: list[ResultVote] = []
    for x, res in enumerate(rnd["results"]):
        place = ["rounds", r, "results", x]
        report = remap_report(res.get("report") or {}, pid)
        reporter = res.get("reported_by_guest")
        row = _checked(
            Result(
                round=round_row,
                table=res["table"],
                report=report,
                counters={},
                in_call=[],
                tied=[],
                reported_by_guest_id=pid(reporter) if reporter is not None else None,
                reported_by_helper_id=result_helper_id(res, links),
                superseded_at=_time(res.get("superseded_at"), [*place, "superseded_at"]),
                status=res.get("status", Result.Status.REPORTED),
            ),
            place,
        )
        rows.append(row)
        for v, vote in enumerate(res.get("votes", ())):
            votes.append(
                _checked(
                    ResultVote(
                        result=row, guest_id=pid(vote["guest"]), verdict=vote["verdict"], note=vote.get("note", "")
                    ),
                    [*place, "votes", v],
                )
            )
    _all_saved(rows)
    _all_saved(votes)  # each vote's result has its id now


def _ring(
    evening: Evening,
    state: FoursomeState,
    bell: dict[str, Any],
    scores: Mapping[int, TableScore],
    pid: Ids,
    place: list[Any],
) -> tuple[dict[str, Any], FoursomeState]:
    """Replay one bell (or a guest leaving or arriving) with the round's live ``scores``: the
    record it gives and the state after. Raises ``EveningImportError`` when the file has no
    record."""
    exported = bell.get("record")
    if exported is None:
        raise EveningImportError(f"{where(place)}: a bell at tables of four needs its record.")
    exported = remap_record(exported, pid)
    kind = bell.get("kind", "bell")
    if kind in ("leave", "arrive"):
        step = guest_leaves if kind == "leave" else guest_arrives
        after = step(state, exported["guest"])
        record = {
            "format": "foursome",
            "kind": kind,
            "guest": exported["guest"],
            "before": [list(t) for t in state.tables],
            "after": [list(t) for t in after.tables],
        }
        return record, after
    if kind == "seat":  # the host's seat change: the same seats again, tallies kept
        after = FoursomeState(tuple(tuple(t) for t in exported["after"]), state.tallies, state.ghosts)
        if sorted(p for t in after.tables for p in t) != sorted(p for t in state.tables for p in t):
            raise EveningImportError(f"{where(place)}: a seat change seats other players than were seated.")
        record = {**exported, "before": [list(t) for t in state.tables]}
        return record, after
    _, options = _rules(evening)
    cuts = {int(t): Side(s) for t, s in exported.get("cuts", {}).items()}
    rung = format_for(evening).rules_of(evening).ring(state, scores, options=options, cuts=cuts)
    done, after = rung.record, rung.after
    if exported.get("as_played"):  # a corrected bell that kept the seats played since
        played = exported.get("after") or []
        if sorted(p for t in played for p in t) != sorted(p for t in done.after for p in t):
            raise EveningImportError(f"{where(place)}: the seats kept after this bell seat other players.")
        done, after = seats_as_played(done, after, played)
    return bell_to_json(done), after


def _save_bell(
    evening: Evening,
    round_row: Round,
    bell: dict[str, Any],
    record: dict[str, Any],
    after: FoursomeState,
    place: list[Any],
    names: Mapping[int, str],
) -> None:
    """Store a replayed bell and one "move" entry per guest who changed table ("seat" for the
    host's seat change, as ``bell.foursome_seats_step`` stores it)."""
    seat = bell.get("kind") == "seat"
    stored = _saved(
        Bell(
            round=round_row,
            kind=bell.get("kind", "bell"),
            cause=bell["cause"],
            record=record,
            state_after=state_to_json(after),
        ),
        place,
    )
    _all_saved(
        [
            BellEntry(
                bell=stored,
                kind="seat" if seat else "move",
                guest_id=p,
                from_table=a,
                to_table=b,
                text=(
                    f"{player_name(p, names)} changes seats: now at table {b}."
                    if seat
                    else f"{player_name(p, names)} moves from table {a} to table {b}."
                )[:300],
            )
            for p, a, b in record.get("moves", ())
            if not is_ghost(p)
        ]
    )


def foursome_import(data: dict[str, Any], evening: Evening, draw: Draw, row: dict[str, Any], gid: Ids, host) -> None:
    """Save the rounds of an evening at tables of four and replay its live bells (module
    docstring), inside the caller's transaction. Raises ``EveningImportError``."""
    pid = player_ids(gid)
    layout = [[pid(p) for p in table] for table in row["layout"]]
    Draw.objects.filter(pk=draw.pk).update(layout=layout)
    draw.layout = layout
    names = dict(evening.guests.values_list("id", "name"))
    links = helper_link_ids(data, evening)  # the scorers' links reports were sent from
    try:
        state = format_for(evening).state_at_draw(draw)  # type: ignore[attr-defined]
    except RuleError as error:
        raise EveningImportError(
            f"{where(['draws', data['draws'].index(row), 'layout'])}: {error_message(error, names=names)}"
        ) from None
    for r, rnd in sorted(enumerate(data["rounds"]), key=lambda pair: pair[1]["number"]):
        round_row = _saved(
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
        # The reports are read against the seats at the round's bell: a seat change made while
        # the round was in play (before its results) counts, one made after the bell does not.
        scores: dict[int, TableScore] | None = None
        _reports(rnd, r, round_row, pid, links)
        for b, bell in enumerate(rnd["bells"]):
            place = ["rounds", r, "bells", b]
            if bell.get("undone_at"):  # history only, as for Progressive Poker: saved, not replayed
                record = remap_record(bell["record"], pid) if bell.get("record") else None
                save_undone_bell(round_row=round_row, bell=bell, place=place, gid=gid, record=record)
                continue
            if scores is None and bell.get("kind", "bell") == "bell":
                scores = _read_reports(evening, rnd, r, state, pid, names)
            try:
                record, after = _ring(evening, state, bell, scores or {}, pid, place)
            except RuleError as error:
                if isinstance(error, EveningImportError):
                    raise
                raise EveningImportError(f"{where(place)}: {error_message(error, names=names)}") from None
            exported = remap_record(bell["record"], pid)
            if any(record.get(k) != exported.get(k) for k in RECORD_KEYS):
                raise EveningImportError(
                    f"{where(place)}: round {rnd['number']}'s bell does not replay to the "
                    "exported record: the export was edited or made under other rules."
                )
            _save_bell(evening, round_row, bell, record, after, place, names)
            state = after
        if scores is None:  # a round still in play: its reports against the seats now
            _read_reports(evening, rnd, r, state, pid, names)
    foursome_seats_replace(evening=evening, tables=state.tables)
    audit_log(evening=evening, action="evening.import", user=host, guests=len(names))


def foursome_standings_export(
    evening: Evening,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """At tables of four: the tables now (``seats`` at North, East, South, West, ghosts negative;
    ``guests`` the guests among them), the standings with each player's tallies (a ghost's line
    has ``guest`` null) and the format's prizes. All empty before the draw (an export never
    fails)."""
    try:
        state = foursome_state(evening)
    except RuleError:
        return [], [], []
    count = len(state.tables)
    tables = [
        {"number": n, "kind": table_kind(n, count), "guests": [p for p in ids if p > 0], "seats": list(ids)}
        for n, ids in enumerate(state.tables, 1)
    ]
    table = foursome_standings(evening)
    rows = [
        {
            "place": line.place,
            "player": line.player,
            "guest": line.guest.pk if line.guest else None,
            "pack": line.guest.pack if line.guest else None,
            "tallies": dict(line.tallies),
        }
        for line in table.lines
    ]
    prizes = [
        {"key": p.prize.key, "title": p.title, "winners": [g.pk for g in p.winners], "reason": p.reason}
        for p in table.prizes
    ]
    return tables, rows, prizes
