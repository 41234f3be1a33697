"""Reads: what the host's, the guests' and the room's pages show, in a constant number of queries.

``evening_board`` is the one picture of an evening every page draws from: tables with their
guests, counters and yellow counters, the round in play and its results, the last bell's
entries and the standings (the format's rows and places: ``FormatPlugin.standing_rows``). It
costs the same handful of queries for 8 guests or 500.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import TYPE_CHECKING

from django.db import connection
from django.db.models import F
from django.utils import timezone

from tables.errors import RuleError
from tables.words import once
from tournament.models import Bell, BellEntry, DrawnCard, Evening, Guest, Result, ResultVote, Round
from tournament.name_keys import name_order
from tournament.registry import format_for
from tournament.selectors.saved_rows import saved_rows
from tournament.services.bell import step_movers, step_words
from tournament.services.naming import guest_names
from tournament.services.state import OPEN_STATES, evening_state

if TYPE_CHECKING:  # the counters' state, for the type checker only: the plug-in gives it
    from tables.formats.poker.bell import EveningState

#: How long (seconds) a process trusts its measure of the database clock's offset from its own.
CLOCK_OFFSET_SECONDS = 60.0
_clock_offset: tuple[float, timedelta] | None = None  # (monotonic time measured, database - this clock)


def database_now() -> datetime:
    """The database's clock now (an aware UTC datetime): what deadlines and bells are stored
    by, so a page's seconds left and the ``server_now`` that phones correct their clocks by
    agree with them whatever this web server's own clock says.

    On PostgreSQL: this process's clock plus the database clock's offset from it, measured with
    one query (``STATEMENT_TIMESTAMP()``) at most every ``CLOCK_OFFSET_SECONDS``, so a page
    costs no query for it (within a few milliseconds, the query's own time). On SQLite the
    database's clock is this process's clock: no query."""
    global _clock_offset
    if connection.vendor != "postgresql":
        return timezone.now()
    measured = _clock_offset
    if measured is None or time.monotonic() - measured[0] > CLOCK_OFFSET_SECONDS:
        with connection.cursor() as cursor:
            before = timezone.now()
            cursor.execute("SELECT STATEMENT_TIMESTAMP()")
            database = cursor.fetchone()[0]
        measured = _clock_offset = (time.monotonic(), database - before)
    return timezone.now() + measured[1]


def table_kind(number: int, tables: int) -> str:
    """ "head" for table 1, "booby" for the last table, "intermediate" between."""
    if number == 1:
        return "head"
    if number == tables:
        return "booby"
    return "intermediate"


def table_label(number: int, kind: str) -> str:
    """A table as pages name it: "Table 1 · Head table", "Table 5 · Booby table", "Table 3";
    ``kind`` is ``table_kind``'s "head", "booby" or "between"."""
    extra = {"head": " · Head table", "booby": " · Booby table"}.get(kind, "")
    return f"Table {number}{extra}"


@dataclass
class TableLine:
    """One guest at a table, as shown on a page."""

    guest: Guest
    counters: int
    yellow: int
    stakes: int


@dataclass
class TableBoard:
    """One table: its number, kind, guests and this round's live result (or None)."""

    number: int
    kind: str
    lines: list[TableLine]
    result: Result | None = None

    @property
    def label(self) -> str:
        """ "Table 1 · Head table", "Table 5 · Booby table", "Table 3" (``table_label``)."""
        return table_label(self.number, self.kind)


@dataclass(frozen=True)
class StepOffer:
    """The step of the evening's history that undo takes back now (the newest live one): ``id``
    (its ``Bell`` row, which the undo button sends back so a second tap undoes nothing more),
    ``kind`` ("bell", "leave", "arrive", ...), ``round`` (the number of the round it belongs
    to) and ``words`` ("round 2's bell", "Yara Young's arrival": ``services.bell.step_words``)."""

    id: int
    kind: str
    round: int
    words: str

    @property
    def button(self) -> str:
        """The undo button's words: "Undo round 2's bell", "Undo Yara Young's arrival"."""
        return f"Undo {self.words}"


def last_step(evening: Evening, names: Mapping[int, str] | None = None) -> StepOffer | None:
    """The evening's newest live step, whatever its kind (``StepQuerySet.newest_first``), as the
    board's undo button offers it, or None before the first bell. ``names``: guest id -> name
    (every guest of the evening; looked up when not given). One query, one more for a seat
    change's guests, one more without ``names`` for a guest's step. House rule (issue 22): undo names what it undoes, newest first."""
    row = (
        Bell.objects.of_evening(evening.pk)
        .live()
        .newest_first()
        .values_list("pk", "kind", "round__number", "record__guest")
        .first()
    )
    if row is None:
        return None
    pk, kind, number, guest = row
    if kind != Bell.Kind.BELL and names is None:
        names = guest_names(evening)
    movers = step_movers(step_id=pk, kind=kind, guest=guest, names=names or {})
    return StepOffer(pk, kind, number, step_words(kind=kind, round_number=number, movers=movers))


def undo_offer(evening: Evening, names: Mapping[int, str] | None = None) -> StepOffer | None:
    """``last_step`` when undo can take it back now (``services.bell.bell_undo``'s own rule: no
    later round has started and the prize ceremony has not begun), else None: a page offers no
    button that can only be refused. One or two queries more than ``last_step``."""
    offer = last_step(evening, names)
    if offer is None or evening.ceremony_step is not None:
        return None
    return None if evening.rounds.filter(number__gt=offer.round).exists() else offer


@dataclass
class EveningBoard:
    """Everything a page of the evening shows (see the module docstring)."""

    evening: Evening
    guests: dict[int, Guest]
    state: EveningState | None
    tables: list[TableBoard] = field(default_factory=list)
    round: Round | None = None
    last_round: Round | None = None
    last_bell: Bell | None = None
    last_entries: list[BellEntry] = field(default_factory=list)
    last_warnings: list[str] = field(default_factory=list)
    placed: tuple[tuple[int, int, object], ...] = ()
    """(place, guest id, the format's standing row) in standings order (``FormatPlugin.standing_rows``)."""

    @cached_property
    def guest_names(self) -> tuple[str, ...]:
        """Every guest's name, for the page to isolate each where words built elsewhere name
        them (the bell's warnings and moves: ``names_isolated``), made once per board (a board is
        kept per evening version). No query."""
        return tuple(guest.name for guest in self.guests.values())

    def table_of(self, guest_id: int) -> TableBoard | None:
        """The table a guest sits at now, or None before the draw."""
        for table in self.tables:
            if any(line.guest.pk == guest_id for line in table.lines):
                return table
        return None

    def entries_for(self, guest_id: int) -> list[BellEntry]:
        """What the last bell did to one guest."""
        return [e for e in self.last_entries if e.guest_id == guest_id]

    def standing_lines(self) -> list[tuple[int, Guest, object]]:
        """(place, guest, row) in standings order; guests level share a place ("1, 1, 3"), as
        the prizes' order has it (the format's ``standing_rows``: Progressive Poker's yellow
        counters, then counters won)."""
        return [(place, self.guests[guest], row) for place, guest, row in self.placed if guest in self.guests]


def board_basics(evening: Evening, guests: Mapping[int, Guest] | None = None) -> EveningBoard:
    """The part of an evening's board every family of formats shows: the guests, the round in
    play and the last round, the last bell with its entries and count warnings; no state, no
    tables, no standings (those are the family's: Progressive Poker's ``evening_board``, a
    format's own ``FormatPlugin.family_board``). ``guests``: guest id -> guest, every guest of
    the evening, when the caller has them (else one query). Two queries (the rounds; the last
    bell with its count warnings), one more after the first bell (its entries), whatever the
    evening's size."""
    guests = dict(guests) if guests is not None else {g.pk: g for g in evening.guests.all()}
    board = EveningBoard(evening=evening, guests=guests, state=None)
    rounds = list(evening.rounds.order_by("-number")[:2])
    board.round = next((r for r in rounds if r.state in OPEN_STATES), None)
    board.last_round = rounds[0] if rounds else None
    # The last *bell* (the room, the phones' news, where to go, the board's last-bell panel),
    # never a guest's arrival or departure after it; the last *step*, which undo offers, is
    # ``last_step`` (the host's board only).
    board.last_bell = (
        Bell.objects.of_evening(evening.pk)
        .live()
        .bells()
        .select_related("round")
        .newest_first()
        .defer("record", "state_after")
        .annotate(record_warnings=F("record__warnings"))  # only its count warnings of the record
        .first()
    )
    if board.last_bell is not None:
        board.last_entries = _entries(board.last_bell, guests)
        # The bell's count warnings (counters that do not add up at a table), with names.
        from tournament.services.naming import name_guests

        warnings = board.last_bell.record_warnings
        names = {pk: g.name for pk, g in guests.items()}
        board.last_warnings = list(once(name_guests(w, names) for w in (warnings or [])))
    return board


def _entries(bell: Bell, guests: Mapping[int, Guest]) -> list[BellEntry]:
    """``bell``'s entries in their order, each with its bell and its guest (from ``guests``, read
    already: no query per entry) set as the entry's own, not through the related manager's and
    the field's descriptors, each made from its row's values (``selectors.saved_rows``; a bell
    at 500 guests has 250 to 500 entries). One query."""
    bell_field, guest_field = BellEntry._meta.get_field("bell"), BellEntry._meta.get_field("guest")
    entries = list(saved_rows(BellEntry.objects.filter(bell_id=bell.pk)))
    for entry in entries:
        bell_field.set_cached_value(entry, bell)
        guest_field.set_cached_value(entry, guests[entry.guest_id])
    return entries


def evening_board(evening: Evening, guests: Mapping[int, Guest] | None = None) -> EveningBoard:
    """Load the whole picture of a Progressive Poker evening in seven queries, whatever its size
    (``board_basics`` and the state, its tables with each live result, which carries
    ``disputes``, the guests' dispute votes with their reasons, and the standings); at tables of
    four (no counters) ``board_basics`` alone. ``guests`` as ``board_basics`` takes them."""
    board = board_basics(evening, guests)
    try:
        state = evening_state(evening)
    except RuleError:
        return board
    board.state = state
    guests = board.guests
    results = _live_results(board.round, guests) if board.round is not None else {}
    count = len(state.tables)
    for number, ids in enumerate(state.tables, 1):
        lines = [
            TableLine(
                guest=guests[g],
                counters=state.counters.get(g, 0),
                yellow=state.yellow.get(g, 0),
                stakes=state.stakes.get(g, 1),
            )
            for g in ids
            if g in guests
        ]
        board.tables.append(
            TableBoard(number=number, kind=table_kind(number, count), lines=lines, result=results.get(number))
        )
    board.placed = format_for(evening).standing_rows(evening, state, guests)
    return board


def _live_results(rnd: Round, guests: dict[int, Guest]) -> dict[int, Result]:
    """The live results of ``rnd`` by table number, with their pool winner, reporter (a guest
    from ``guests``, pk -> guest, or the scorer's link: ``Result.sender``) and ``disputes`` (the
    guests' dispute votes) filled in. Two queries."""
    results = {
        r.table: r
        for r in Result.objects.filter(round=rnd, superseded_at__isnull=True).select_related("reported_by_helper")
    }
    for result in results.values():
        if result.pool_winner_id is not None:
            result.pool_winner = guests[result.pool_winner_id]
        if result.reported_by_guest_id in guests:
            result.reported_by_guest = guests[result.reported_by_guest_id]
        result.disputes = []
    # Who disputed each result and why (issue 11 deliver 8): one query for every table.
    by_pk = {r.pk: r for r in results.values()}
    for vote in ResultVote.objects.filter(result_id__in=list(by_pk), verdict=ResultVote.Verdict.DISPUTE):
        if vote.guest_id in guests:
            vote.guest = guests[vote.guest_id]
            by_pk[vote.result_id].disputes.append(vote)
    return results


def disputed_tables(rnd: Round) -> list[int]:
    """The numbers of the tables whose live result for ``rnd`` a guest disputed (the host has not
    decided it yet), in order. One query."""
    return list(
        Result.objects.filter(round=rnd, superseded_at__isnull=True, status=Result.Status.DISPUTED)
        .order_by("table")
        .values_list("table", flat=True)
    )


def missing_tables(evening: Evening, rnd: Round) -> list[int]:
    """The numbers of the tables with no live result for ``rnd`` (the round in play), in order;
    [] before the draw. Two queries."""
    try:
        count = len(format_for(evening).state(evening).tables)
    except RuleError:
        return []
    have = set(Result.objects.filter(round=rnd, superseded_at__isnull=True).values_list("table", flat=True))
    return [n for n in range(1, count + 1) if n not in have]


TOO_LATE_WORDS = (
    "You were checked in after the draw, and tonight's seats are a schedule fixed at the draw: "
    "there is no seat for you, so you play no game and have no place in the standings. "
    "The host has been told."
)
"""A late guest's phone at a format that takes no one after round 1 (house rule: the host is told
the same on checking them in, ``services.guests.late_guest_words``)."""


def too_late_to_play(guest: Guest, *, seated: bool) -> str:
    """What the phone of ``guest`` says when they came too late to play at all: checked in, not
    ``seated`` (nor sitting a round out by the schedule: the caller says), holding no card of
    the draw in force, at an evening whose format takes no one after the draw
    (``FormatPlugin.joins_after_the_draw`` False) once round 1 has started; "" otherwise (no
    query then for the formats that seat late guests). Two queries at most. House rule:
    docs/rules/euchre-tournament.md, "On this site" (nobody joins after the draw), told on the
    phone as to the host, never "your table shows as soon as you have one"."""
    evening = guest.evening
    if seated or guest.status != Guest.Status.HERE or format_for(evening).joins_after_the_draw:
        return ""
    if evening.stage == Evening.Stage.REGISTRATION or not evening.rounds.exists():
        return ""
    drawn = DrawnCard.objects.filter(draw__evening=evening, draw__superseded_at__isnull=True, guest=guest)
    return "" if drawn.exists() else TOO_LATE_WORDS


def unseated_guests(evening: Evening) -> list[Guest]:
    """The guests checked in who hold no seat and whom the format could seat now (not sitting
    the round out by its rules, ``FormatPlugin.sitting_out``; none for a format seated by a
    schedule fixed before play, which takes no one after the draw), by name; [] before the
    draw. Two or three queries. House rule: *Start round N* asks the host first when there are
    any, since they would sit that round out (``views.host.round_action``)."""
    fmt = format_for(evening)
    if not fmt.joins_after_the_draw or not evening.draws.filter(superseded_at__isnull=True, complete=True).exists():
        return []
    out = fmt.sitting_out(evening)
    here = Guest.objects.filter(evening=evening, status=Guest.Status.HERE, seat__isnull=True).exclude(pk__in=out)
    return sorted(here, key=lambda g: (name_order(g.name), g.pk))
