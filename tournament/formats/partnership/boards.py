"""Reads for the pages of an evening at tables of four (Progressive Euchre, Drive Whist, Bunco):
each table's four players by seat, the round's reports, the last bell's moves in words, and
the standings with the format's tallies, in a constant number of queries whatever the size.

Rules: ``docs/rules/tables-of-four.md`` through ``tables.formats`` (seats North, East, South, West;
North–South and East–West partners; ghosts for empty seats, named "Ghost 1"; winners move up,
the head table's losers go to the foot table, or the host's movement). Progressive Poker's
board is ``tournament.selectors.board.evening_board``; a page gets this one from the evening's
format (``FormatPlugin.family_board``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from weakref import WeakKeyDictionary

from tables.errors import RuleError
from tables.formats import FoursomeFormat
from tables.formats.bell import FoursomeBell
from tables.formats.foursome import Seat, Side, is_ghost, side_of
from tournament.formats.partnership.rung_steps import RungBell, rung_steps
from tournament.formats.partnership.standings import (
    FoursomeLine,
    FoursomeStandings,
    foursome_standings,
    kept_standings,
)
from tournament.formats.partnership.state import draw_state, foursome_rules, player_name
from tournament.models import Evening, Guest, HelperLink, Result, ResultVote, Round
from tournament.registry import format_for
from tournament.selectors.board import table_kind, table_label
from tournament.selectors.saved_rows import saved_rows
from tournament.services.state import OPEN_STATES


@dataclass(frozen=True)
class SeatLine:
    """One player at a table: id (ghosts negative), name ("Ghost 1"), guest (None for a ghost),
    seat (``tables.formats.foursome.Seat``) and their tallies so far (name -> total)."""

    player: int
    name: str
    guest: Guest | None
    seat: Seat
    tallies: Mapping[str, int]

    @property
    def seat_word(self) -> str:
        """ "North", "East", "South" or "West"."""
        return self.seat.word

    @property
    def side(self) -> Side:
        """The partnership: North–South or East–West."""
        return Side.of(self.seat)

    @property
    def is_ghost(self) -> bool:
        """Whether a ghost holds this seat."""
        return is_ghost(self.player)


def kind_of(evening: Evening, number: int, count: int) -> str:
    """Table ``number``'s kind of ``count`` ("head", "intermediate", "booby"), as the evening's
    format ranks its tables (``FormatPlugin.ranked_tables``: else every table "intermediate",
    named by its number only). No query."""
    return table_kind(number, count) if format_for(evening).ranked_tables else "intermediate"


def foursome_label(number: int, kind: str) -> str:
    """A table at tables of four as pages name it: "Table 1 · Head table", "Table 3", "Table 5 ·
    Foot table" (the formats' word for the last table, as the printed cards and the bell's
    words say it; ``selectors.board.table_label`` for the rest)."""
    return table_label(number, kind).replace("Booby table", "Foot table")


@dataclass(frozen=True)
class FoursomeTable:
    """One table: number, kind ("head", "booby", "intermediate"), its four seats (North first)
    and the round's live report (None before it is in)."""

    number: int
    kind: str
    seats: tuple[SeatLine, ...]
    result: Result | None = None

    @property
    def label(self) -> str:
        """ "Table 1 · Head table", "Table 3", "Table 5 · Foot table" (``foursome_label``)."""
        return foursome_label(self.number, self.kind)

    def side(self, side: Side) -> tuple[SeatLine, SeatLine]:
        """The two partners of ``side``, North (or East) first."""
        return self.seats[side.seats[0]], self.seats[side.seats[1]]

    @property
    def partnerships(self) -> tuple[tuple[SeatLine, SeatLine], tuple[SeatLine, SeatLine]]:
        """North–South then East–West, each pair together (the room display lists them so)."""
        return self.side(Side.NORTH_SOUTH), self.side(Side.EAST_WEST)


#: After a bell a correction rang again keeping the seats played since (``docs/rules/tables-of-four.md``,
#: "Corrections"): why a winner may have stayed, or a loser moved.
AS_PLAYED = "(The result was corrected after the next round was played: the seats stay as they were played.)"


@dataclass(frozen=True)
class BellMove:
    """What the last bell told one player: the table they played at, whether they won, the
    table they go to, and the sentence ("You won at table 3: move up to table 2.")."""

    player: int
    played: int
    won: bool
    goes_to: int
    words: str
    tables: int = 0
    by_schedule: bool = False
    as_played: bool = False

    def about(self, name: str) -> str:
        """The same said of the player by ``name``, for the host: "Ann won at table 3 and moves
        up to table 2." (``move_words``), with ``AS_PLAYED`` after it when the bell kept the
        seats played since (a correction: ``tables.formats.bell.seats_as_played``)."""
        words = move_words(
            self.played, self.goes_to, won=self.won, tables=self.tables, who=name, by_schedule=self.by_schedule
        )
        return f"{words} {AS_PLAYED}" if self.as_played else words

    @property
    def said(self) -> str:
        """``about`` without the name, to follow it on a page: "won at table 3 and moves up to
        table 2."."""
        return self.about("").strip()


@dataclass(frozen=True)
class FoursomeBoard:
    """Everything a page of an evening at tables of four shows: the format, the tables now,
    the round in play (or None) and the last round, the last bell (its round number, each
    table's result in words, each player's move) and the standings with prizes."""

    evening: Evening
    fmt: FoursomeFormat
    tables: tuple[FoursomeTable, ...]
    round: Round | None
    last_round: Round | None
    bell_round: int | None
    bell_words: tuple[str, ...]
    moves: Mapping[int, BellMove]
    standings: FoursomeStandings
    steps_since_bell: bool = True
    """Whether a live step that is not a bell (a guest's arrival, departure or seat change) was
    taken after the last bell (``rung_steps``): else nobody has been seated since it."""

    def table_of(self, player: int) -> tuple[FoursomeTable, SeatLine] | None:
        """The table and seat ``player`` holds now, or None (not seated)."""
        return self._seat_of.get(player)

    def line_of(self, player: int) -> FoursomeLine | None:
        """``player``'s line of the standings (place, tallies), or None."""
        return self._line_of.get(player)

    @cached_property
    def _seat_of(self) -> dict[int, tuple[FoursomeTable, SeatLine]]:
        """Player -> (table, seat), made once per board: a board is kept per evening version
        and every phone's page looks its guest up in it (issue 26 item 2)."""
        seats: dict[int, tuple[FoursomeTable, SeatLine]] = {}
        for table in self.tables:
            for line in table.seats:
                seats.setdefault(line.player, (table, line))
        return seats

    @cached_property
    def _line_of(self) -> dict[int, FoursomeLine]:
        """Player -> their line of the standings, made once per board (see ``_seat_of``)."""
        lines: dict[int, FoursomeLine] = {}
        for line in self.standings.lines:
            lines.setdefault(line.player, line)
        return lines

    @cached_property
    def guest_names(self) -> tuple[str, ...]:
        """Every name in the standings, for a page to isolate each where words built elsewhere
        name them (``names_isolated``), made once per board."""
        return tuple(line.name for line in self.standings.lines)

    @cached_property
    def players_shown(self) -> tuple[FoursomeLine, ...]:
        """The standings' lines of players (no ghost), in order, made once per board."""
        return tuple(line for line in self.standings.lines if not line.is_ghost)


SEATS = tuple(Seat)  # North, East, South, West: a table's seats in order, made once


def foursome_board(evening: Evening, guests: Mapping[int, Guest] | None = None) -> FoursomeBoard:
    """The board of an evening at tables of four in about ten queries whatever its size; before
    the draw it has no tables. ``guests``: guest id -> guest, every guest of the evening, when
    the caller has them (else one query). Raises ``RuleError`` for a Progressive Poker evening."""
    fmt, _options = foursome_rules(evening)
    steps = rung_steps(evening)
    try:
        state = steps.state_after()
        if state is None:
            state = draw_state(evening)
    except RuleError:
        state = None
    if guests is not None and state is not None:  # kept while what they read is unchanged
        standings = kept_standings(evening, guests=guests, state=state, steps=steps)
    else:
        standings = foursome_standings(evening, guests=guests, state=state, steps=steps)
    rounds = list(evening.rounds.order_by("-number")[:2])
    rnd = next((r for r in rounds if r.state in OPEN_STATES), None)
    tables: tuple[FoursomeTable, ...] = ()
    if state is not None:
        results = _results(rnd, guests)  # every guest: a reporter may be one the standings leave out
        guests = {line.player: line.guest for line in standings.lines if line.guest is not None}
        names = {p: g.name for p, g in guests.items()}
        count = len(state.tables)
        tables = tuple(
            FoursomeTable(
                number,
                kind_of(evening, number, count),
                tuple(
                    SeatLine(p, player_name(p, names), guests.get(p), seat, state.tallies.get(p, {}))
                    for seat, p in zip(SEATS, ids, strict=True)
                ),
                results.get(number),
            )
            for number, ids in enumerate(state.tables, start=1)
        )
    bell_round, words, moves = _last_bell(evening, steps.last_bell)
    last = steps.last_bell
    bells = {bell.pk for bell in steps.bells}
    since = last is not None and any(pk > last.pk and pk not in bells for pk, _ in steps.keys)
    return FoursomeBoard(
        evening, fmt, tables, rnd, rounds[0] if rounds else None, bell_round, words, moves, standings, since
    )


def _results(rnd: Round | None, guests: Mapping[int, Guest] | None = None) -> dict[int, Result]:
    """The round's live reports by table, each with its sender loaded (a player or a scorer's
    link: ``Result.sender``) and ``disputes``, the
    guests' dispute votes with their reasons (``ResultVote.note``), as Progressive Poker's board
    has them. ``guests``: guest id -> guest, every guest of the evening, when the caller has
    them: each report is then made from its row's values (``selectors.saved_rows``) with its
    player from them, and the scorers' links are read only when a scorer sent one. Two or three
    queries."""
    if rnd is None:
        return {}
    live = Result.objects.filter(round=rnd, superseded_at__isnull=True)
    if guests is None:
        reports = list(live.select_related("reported_by_guest", "reported_by_helper"))
    else:
        reports = list(saved_rows(live))
        sent = {r.reported_by_helper_id for r in reports if r.reported_by_helper_id is not None}
        helpers = {h.pk: h for h in HelperLink.objects.filter(pk__in=sent)} if sent else {}
        by_guest, by_helper = Result._meta.get_field("reported_by_guest"), Result._meta.get_field("reported_by_helper")
        for report in reports:
            guest, helper = report.reported_by_guest_id, report.reported_by_helper_id
            by_guest.set_cached_value(report, guests.get(guest) if guest is not None else None)
            by_helper.set_cached_value(report, helpers.get(helper) if helper is not None else None)
    results = {r.table: r for r in reports}
    by_pk = {r.pk: r for r in results.values()}
    for result in by_pk.values():
        result.disputes = []
    votes = ResultVote.objects.filter(result_id__in=list(by_pk), verdict=ResultVote.Verdict.DISPUTE)
    for vote in votes.select_related("guest"):
        by_pk[vote.result_id].disputes.append(vote)
    return results


def _last_bell(evening: Evening, bell: RungBell | None) -> tuple[int | None, tuple[str, ...], Mapping[int, BellMove]]:
    """The last live bell of play (not a guest leaving or arriving; ``RungSteps.last_bell``): its
    round number, each table's result in words, and what it told every player who played
    (``move_words``), worked out once per process and bell (a bell's record never changes:
    ``rung_steps``); (None, (), {}) before the first bell. No query."""
    if bell is None:
        return None, (), {}
    moves = _MOVES.get(bell)
    if moves is None:
        moves = _MOVES[bell] = _bell_moves(evening, bell.record)
    return bell.round_number, bell.record.words, moves


_MOVES: WeakKeyDictionary[RungBell, Mapping[int, BellMove]] = WeakKeyDictionary()
"""A bell's moves (``_bell_moves``), kept with the decoded bell (``rung_steps``) for as long as
the process keeps that."""


def _bell_moves(evening: Evening, record: FoursomeBell) -> Mapping[int, BellMove]:
    """What the bell of ``record`` told every player who played, and at a schedule's format who
    sat the game out (``move_words``). No query."""
    count = len(record.after)
    after = {p: n for n, t in enumerate(record.after, start=1) for p in t}
    schedule = getattr(format_for(evening), "seats_by_schedule", False)
    moves: dict[int, BellMove] = {}
    for number, (table, winner) in enumerate(zip(record.before, record.winners, strict=True), start=1):
        for player in table:
            won = side_of(table, player) is winner
            goes = after.get(player, 0 if schedule else number)
            words = move_words(number, goes, won=won, tables=count, by_schedule=schedule)
            words = f"{words} {AS_PLAYED}" if record.as_played else words
            moves[player] = BellMove(player, number, won, goes, words, count, schedule, record.as_played)
    if schedule:  # who sat the game out and plays the next
        played = {p for t in record.before for p in t}
        for player, goes in after.items():
            if player not in played:
                words = move_words(0, goes, won=False, tables=count, by_schedule=True)
                moves[player] = BellMove(player, 0, False, goes, words, count, True)
    return moves


def move_words(
    played: int, goes_to: int, *, won: bool, tables: int, who: str = "You", by_schedule: bool = False
) -> str:
    """What the bell tells a player, in plain words: "You won at table 3: move up to table 2.",
    "You lost at the head table: go to the foot table, table 5.", "You lost at table 4: stay at
    table 4."; said of someone else (``who``, a name) for the host: "Ann won at table 3 and
    moves up to table 2." (``docs/rules/tables-of-four.md``, 'The movements': winners move up, the head table's winners
    stay, other losers stay, the head table's losers go to the foot table; Drive Whist's head
    winners go round to the last table; the host's option moves losers down one).

    ``by_schedule``: the next seats are a schedule's, whoever won (``docs/rules/euchre-tournament.md``,
    "The schedule"): "Ann won at table 3 and plays at table 1 next, by the schedule.", "You sat
    the game out: play at table 2 next, by the schedule.", "Ann lost at table 2 and sits the next
    game out, by the schedule."; ``played`` 0: sat out, ``goes_to`` 0: sits out."""
    where = "the head table" if played == 1 else f"table {played}"
    s = "" if who == "You" else "s"
    if by_schedule:
        was = "sat the game out" if played == 0 else f"{'won' if won else 'lost'} at table {played}"
        then = f"sit{s} the next game out" if goes_to == 0 else f"play{s} at table {goes_to} next"
        return f"{who} {was}{' and' if s else ':'} {then}, by the schedule."
    if goes_to == played:
        action = f"stay{s} at table {played}"
    elif goes_to < played:
        action = f"move{s} up to table {goes_to}" + (", the head table" if goes_to == 1 else "")
    elif goes_to == tables and goes_to - played > 1:
        action = f"go{'es' if s else ''} to the foot table, table {goes_to}"
    else:
        action = f"move{s} down to table {goes_to}" + (", the foot table" if goes_to == tables else "")
    return f"{who} {'won' if won else 'lost'} at {where}{' and' if s else ':'} {action}."


@dataclass(frozen=True)
class MovesTable:
    """A table after the last bell, for the host's moves page: the table (its four now, by
    seat) and, for each seat, what the bell said of its player, to follow their name ("won at
    table 3 and moves up to table 2."; "" for a ghost, or a guest seated since the bell)."""

    table: FoursomeTable
    lines: tuple[tuple[SeatLine, str], ...]


def bell_results(board: FoursomeBoard) -> tuple[tuple[str, str], ...]:
    """The last bell's result at each table as (label, words): ("Table 1 · Head table",
    "North–South won, 7 points to 5"), in table order; () before the first bell. No query."""
    count = len(board.bell_words)
    return tuple(
        (foursome_label(n, kind_of(board.evening, n, count)), words)
        for n, words in enumerate(board.bell_words, start=1)
    )


def moves_by_table(board: FoursomeBoard) -> tuple[MovesTable, ...]:
    """Every table as it sits now, each seat with what the last bell said of its player
    (``BellMove.said``): who stayed, who came from where and why. No query."""
    tables = []
    for table in board.tables:
        lines = []
        for line in table.seats:
            move = board.moves.get(line.player)
            lines.append((line, move.said if move is not None and not line.is_ghost else ""))
        tables.append(MovesTable(table, tuple(lines)))
    return tuple(tables)


def disputed_at_bell(evening: Evening, round_number: int | None) -> list[int]:
    """The tables whose report was still disputed when round ``round_number``'s bell rang (its
    live reports marked disputed), in order; [] for no round. One query. The bell does not wait
    for a dispute (house rule: the host decides), so the board says so after it."""
    if round_number is None:
        return []
    return list(
        Result.objects.filter(
            round__evening=evening,
            round__number=round_number,
            superseded_at__isnull=True,
            status=Result.Status.DISPUTED,
        )
        .order_by("table")
        .values_list("table", flat=True)
    )
