"""The host's board at any size (issue 11, deliver 6): the pages the board links to so that it
stays short at 84 tables, and the board's own reading of what needs the host.

* ``needs_host``: tables still missing a result, disputed results and the last bell's count
  warnings, first on the board;
* ``table_jump`` (``/host/e/<id>/tables/?table=N``): the "Go to table" box, to any table by number;
* ``table_page`` (``/host/e/<id>/tables/<n>/``): one table in full (guests, packs, counters,
  yellow counters, the result, the links to enter it and to the showdown helper);
* ``moves_page`` (``/host/e/<id>/moves/``): the last bell's moves grouped by the table each
  guest goes to, with the count warnings.

An evening at tables of four has its own table and moves pages (``formats.partnership.host_pages``).
Login required; another host's evening is a 404. Read-only: every change is a form elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from tournament.forms.evening import TableJumpForm
from tournament.models import Evening, Guest, Result, Round
from tournament.name_keys import name_order
from tournament.selectors.board import EveningBoard, TableBoard, evening_board
from tournament.views.format_pages import format_page

RESULT_STATES = (Round.State.RUNNING, Round.State.PAUSED, Round.State.RUNG)


@dataclass
class NeedsHost:
    """What the host must see first: ``missing`` (tables of the round in play with no result,
    only while results are collected), ``disputed`` (tables whose result a guest disputed),
    ``warnings`` (the last bell's count warnings, in words with names), ``tables_in`` (how
    many tables of the round in play have a result: "5 of 6 tables in" by the bell button),
    ``unseated`` (guests checked in without a seat) and ``left_seated`` ((guest, table) for
    guests marked as left who still hold a seat), in every state of the evening after the draw
    (issue 22), and ``before_round_1`` (then the draw page fixes them, else the guests page)."""

    missing: list[TableBoard] = field(default_factory=list)
    disputed: list[TableBoard] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tables_in: int = 0
    unseated: list[Guest] = field(default_factory=list)
    left_seated: list[tuple[Guest, int]] = field(default_factory=list)
    before_round_1: bool = False

    def __bool__(self) -> bool:
        return bool(self.missing or self.disputed or self.warnings or self.unseated or self.left_seated)


def needs_host(board: EveningBoard) -> NeedsHost:
    """Read the board for what needs the host (see ``NeedsHost``); no query."""
    found = NeedsHost(warnings=list(board.last_warnings), before_round_1=board.last_round is None)
    if board.state is not None and board.evening.stage != Evening.Stage.ENDED:
        seats = {line.guest.pk: table.number for table in board.tables for line in table.lines}
        guests = sorted(board.guests.values(), key=lambda g: (name_order(g.name), g.pk))
        found.unseated = [g for g in guests if g.status == Guest.Status.HERE and g.pk not in seats]
        found.left_seated = [(g, seats[g.pk]) for g in guests if g.status == Guest.Status.LEFT and g.pk in seats]
    if board.round is not None and board.round.state in RESULT_STATES:
        found.missing = [t for t in board.tables if t.result is None]
        found.disputed = [t for t in board.tables if t.result is not None and t.result.status == Result.Status.DISPUTED]
        found.tables_in = len(board.tables) - len(found.missing)
    return found


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening, pk=evening_id, host=request.user)


@login_required
@require_safe
@format_page("table_jump")
def table_jump(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The "Go to table" box: redirects to that table's page; a number that is not a table of
    the evening goes back to the board with a message saying which numbers are."""
    evening = _evening(request, evening_id)
    board = evening_board(evening)
    form = TableJumpForm(request.GET, tables=len(board.tables))
    if form.is_valid():
        return redirect("host-table", evening.pk, form.cleaned_data["table"])
    for error in form.errors.get("table", []):
        messages.error(request, str(error))
    return redirect("host-evening", evening.pk)


@login_required
@require_safe
@format_page("table")
def table_page(request: HttpRequest, evening_id: int, table: int) -> HttpResponse:
    """One table in full: its guests (pack, counters, yellow counters), this round's result and
    the links to enter it or open the showdown helper; the tables before and after. A number
    that is not a table goes back to the board with a message."""
    evening = _evening(request, evening_id)
    board = evening_board(evening)
    if not 1 <= table <= len(board.tables):
        messages.error(
            request,
            f"There is no table {table}: the tables are 1 to {len(board.tables)}."
            if board.tables
            else "There are no tables yet: run the draw first.",
        )
        return redirect("host-evening", evening.pk)
    seat = board.tables[table - 1]
    if seat.result is not None and seat.result.reported_by_guest_id:
        seat.result.reported_by_guest = board.guests.get(seat.result.reported_by_guest_id)
    return render(
        request,
        "host/table.html",
        {
            "evening": evening,
            "board": board,
            "t": seat,
            "tab": "board",
            "previous": table - 1 if table > 1 else None,
            "next": table + 1 if table < len(board.tables) else None,
            "jump": TableJumpForm(tables=len(board.tables)),
        },
    )


@login_required
@require_safe
@format_page("moves")
def moves_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The last bell's moves grouped by the table each guest goes to, who won a yellow counter
    or took a fresh stake, every entry in words, and the bell's count warnings."""
    from tournament.views.room import move_groups

    evening = _evening(request, evening_id)
    board = evening_board(evening)
    return render(
        request,
        "host/moves.html",
        {
            "evening": evening,
            "board": board,
            "groups": move_groups(board),
            "tab": "moves",
            "jump": TableJumpForm(tables=len(board.tables)),
            "room_url": reverse("room", args=[evening.public_key]),
        },
    )
