"""The room display of an evening at tables of four: every table's four players, partners
together; the last bell's moves with those who stayed; the waiting bell's note; the final
standings of the format's tallies (``room/_foursome.html``; the display's common parts are
``tournament.views.room``). Rules: ``docs/rules/tables-of-four.md``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from tournament.evening_parts import evening_part
from tournament.formats.partnership.boards import BellMove, FoursomeBoard
from tournament.formats.partnership.room_slides import seating_slide, tables_slide
from tournament.kept import Kept
from tournament.models import Evening, Round
from tournament.name_keys import name_order
from tournament.registry import format_for
from tournament.selectors.board import EveningBoard, database_now
from tournament.selectors.guest_boards import BOARDS_KEPT, shared_board
from tournament.services.clock import next_round_due_at
from tournament.views.room import (
    LEADERS_SHOWN,
    POLL_SECONDS,
    MoveGroup,
    move_groups,
    room_size,
    seated_since_bell,
    table_digits,
    with_seated,
)


def room_context(evening: Evening, board: EveningBoard, *, mode: str, asked: str, etag: str) -> dict:
    """The display of an evening at tables of four (``room/_foursome.html``): every table's
    four players, partners together; the last bell's moves by destination table, each guest
    with what sent them ("won at table 3", "lost at the head table"); find your name (with the
    table and seat, or "sits out" for a schedule's sit-out: ``FormatPlugin.sitting_out``); the
    leaderboard with the format's tallies. Rules: ``docs/rules/tables-of-four.md``. The board is the one every phone shares, computed once per process and version
    (``selectors.guest_boards.shared_board``)."""
    parts = evening_part(_ROOMS, evening, _room_parts)
    four, groups, seats = parts.four, parts.groups, parts.seating
    rnd = board.round
    return {
        "evening": evening,
        "board": board,
        "foursome": four,
        "format_room": "partnership/room.html",
        "mode": mode,
        "asked": asked,
        "etag": etag,
        "move_groups": groups,
        "has_moves": bool(groups),
        "foursome_seating": seats,
        "room_tables_html": parts.tables_html,
        "room_seating_html": parts.seating_html,
        "bell_note": _waiting_note(four),
        "room_size": room_size(4 * len(four.tables)),
        "table_digits": table_digits([t.number for t in four.tables] + [g.table for g in groups]),
        "leaders": [ln for ln in four.standings.lines if not ln.is_ghost][:LEADERS_SHOWN],
        "tally_names": four.standings.tallies,
        "next_round": next_round_due_at(evening=evening),
        "server_now": database_now(),
        "poll_seconds": POLL_SECONDS,
        "last_round": bool(rnd and Round.is_last_number(rnd.number, evening=evening)),
        "paused_left": int(rnd.paused_seconds_left or 0) if rnd is not None and rnd.state == Round.State.PAUSED else 0,
        "bell_key": (rnd.number if rnd is not None and rnd.state == Round.State.RUNG else 0)
        or (board.last_bell.round.number if board.last_bell is not None else 0),
    }


@dataclass(frozen=True)
class RoomParts:
    """What the display of an evening at tables of four shows between two changes, kept per
    process and version (``evening_part``): the format's board (``four``, the shared one), the
    moves slide's groups, "find your name" (name, player, table or None, seat letter) and the
    tables' and find-your-name slides as HTML (``room_slides``). Read-only."""

    four: FoursomeBoard
    groups: list[MoveGroup]
    seating: Sequence[tuple[str, int, int | None, str]]
    tables_html: str
    seating_html: str


_ROOMS: Kept[RoomParts] = Kept(BOARDS_KEPT)  # evening token -> its display's parts at one version


def _room_parts(evening: Evening) -> RoomParts:
    """``RoomParts`` of ``evening``, computed from its shared board: up to three queries (who has
    been seated since the bell, when a step was taken since it; a schedule's sit-outs)."""
    shared = shared_board(evening)
    board, four = shared.board, cast(FoursomeBoard, shared.family)
    places = {s.player: (t.number, s.seat_word) for t in four.tables for s in t.seats if not s.is_ghost}
    kinds = {t.number: t.kind for t in four.tables}
    seated = seated_since_bell(board, places) if four.steps_since_bell else []  # no query when none was taken
    groups = with_seated(_with_stayers(move_groups(board), four), seated, kinds)
    out = format_for(evening).sitting_out(evening) if four.tables else frozenset()
    seats = sorted(
        [(s.name, s.player, t.number, s.seat_word[:1]) for t in four.tables for s in t.seats if not s.is_ghost]
        + [(g.name, g.pk, None, "") for g in evening.guests.filter(pk__in=out)],  # a schedule's sit-outs
        key=lambda row: (name_order(row[0]), row[1]),
    )
    return RoomParts(
        four=four,
        groups=groups,
        seating=seats,
        tables_html=tables_slide(four),
        seating_html=seating_slide(seats),
    )


def _with_stayers(groups: list[MoveGroup], four: FoursomeBoard) -> list[MoveGroup]:
    """The moves slide at tables of four lists everyone the last bell played, so a guest finds
    their name whether they move or stay: each destination table's box holds its newcomers
    ("won at table 3") and its stayers ("stays at table 2"), alphabetical. No query."""
    by_table = {g.table: g for g in groups}
    kinds = {t.number: t.kind for t in four.tables}
    for table in four.tables:
        for line in table.seats:
            move = four.moves.get(line.player)
            if line.guest is None or move is None or move.goes_to != move.played or move.played != table.number:
                continue
            group = by_table.setdefault(table.number, MoveGroup(table.number, kinds.get(table.number, "intermediate")))
            if all(g.pk != line.guest.pk for g in group.guests):
                group.guests.append(line.guest)
    for group in by_table.values():
        group.guests.sort(key=lambda g: (name_order(g.name), g.pk))
        group.notes = {g.pk: _move_note(four.moves.get(g.pk)) for g in group.guests}
    return [by_table[number] for number in sorted(by_table)]


def _waiting_note(four: FoursomeBoard) -> str:
    """While the round's bell has rung and waits for every table's score so far
    (``formats.partnership.bell``): "The head table has finished. Tables 2 and 3: send your
    table's score so far." ("Time is up." when the clock rang it); "" otherwise."""
    rnd = four.round
    if rnd is None or rnd.state != Round.State.RUNG or rnd.reopened or not rnd.waiting_for:
        return ""
    missing = [t.number for t in four.tables if t.result is None]
    if not missing:
        return ""
    head_in = four.tables[0].result is not None and four.evening.round_end == Evening.RoundEnd.HEAD_POOL
    listed = f"Table {missing[0]}" if len(missing) == 1 else "Tables " + ", ".join(map(str, missing[:-1]))
    listed += f" and {missing[-1]}" if len(missing) > 1 else ""
    why = "The head table has finished" if head_in else "Time is up"
    return f"{why}. {listed}: send your table's score so far."


def _move_note(move: BellMove | None) -> str:
    """What sent a guest to their table, for the moves slide: "won at table 3", "lost at the
    head table", "stays at table 2" ("" when the last bell did not play them)."""
    if move is None:
        return ""
    if move.played == 0:  # a schedule's sit-out (``BellMove.by_schedule``)
        return "sat the game out"
    if move.goes_to == move.played:
        return f"stays at table {move.played}"
    return f"{'won' if move.won else 'lost'} at {'the head table' if move.played == 1 else f'table {move.played}'}"


def finishers(four: FoursomeBoard) -> list:
    """The players in the final standings at tables of four (ghosts left out): as many as the
    seats of the last round give or take a ghost, which ``room_size`` reads alike. No query."""
    return [ln for ln in four.standings.lines if not ln.is_ghost]


def room_ceremony(evening: Evening, *, finished: bool) -> dict:
    """The ceremony's parts the family shows its own way: no final count, the final standings
    with the format's tallies (``room/_foursome_leaders.html``), as big as its players allow. The board is the one every phone shares (``shared_board``)."""
    four = cast(FoursomeBoard, shared_board(evening).family)
    return {
        "counting": False,
        "final_standings": [],
        "room_size": room_size(len(finishers(four))),
        "foursome_final": four if finished else None,
        "format_final": "partnership/room_final.html" if finished else "",
    }
