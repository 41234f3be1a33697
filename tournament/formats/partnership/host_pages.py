"""The host's pages of an evening at tables of four (Progressive Euchre, Drive Whist, Bunco):
the board, the draw, a table's result, the bell's confirmation and standings (corrections are
the product's pages, through ``FormatPlugin.correction_form``).

The product's pages hand these evenings here through the formats' plug-ins
(``tournament.formats.partnership``: ``FormatPlugin.pages``, ``views.format_pages``). Every input is read by a form (``formats.partnership.report_forms``, ``forms.actions``); every change
goes through a service (``formats.partnership.state``, ``foursome_reports``, ``bell``); a ``RuleError``
becomes a message naming the players and saves nothing. Rules: ``docs/rules/tables-of-four.md``.
"""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from tables.errors import RuleError
from tables.words import joined
from tournament.formats.partnership import state as foursomes
from tournament.formats.partnership.bell import foursome_movement
from tournament.formats.partnership.boards import (
    FoursomeBoard,
    FoursomeTable,
    bell_results,
    disputed_at_bell,
    foursome_board,
    moves_by_table,
)
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.rules_pages import MOVEMENT_WORDS
from tournament.forms.actions import DrawForm, form_problems
from tournament.forms.bell import RoundActionForm
from tournament.forms.door import RoundNumberForm
from tournament.forms.evening import TableJumpForm
from tournament.models import Bell, Evening, Guest, Result
from tournament.registry import format_for
from tournament.selectors.board import last_step
from tournament.selectors.guest_boards import shared_board, shared_guests
from tournament.services.draw_physical import draw_physical_start, open_physical_draw
from tournament.services.naming import error_message
from tournament.views.stale import ANY_CHANGE, acts_on_result, seen_beside, unchanged_since

BELL_CUTS_RULE = (
    "At tables of four the bell cuts for a table with no report, and for a tie left to a cut, itself "
    "(house rule): ring it from the board."
)
NO_REPORT_RULE = "A table with no report cuts for the win and scores nothing."


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def needs(board: FoursomeBoard) -> tuple[list[FoursomeTable], list[FoursomeTable]]:
    """The tables with no report and those whose report a player disputed, for the round in
    play (both empty between rounds)."""
    if board.round is None:
        return [], []
    missing = [t for t in board.tables if t.result is None]
    disputed = [t for t in board.tables if t.result is not None and t.result.status == Result.Status.DISPUTED]
    return missing, disputed


def report_words(report: dict, names: dict[int, str]) -> str:
    """A live report in words for the board: "North–South 7 points, East–West 5 (8 hands);
    play-off: North–South; buncos: Ann 1". ``names``: player id -> name at the table."""
    sides = {"NS": "North–South", "EW": "East–West"}
    words = []
    for key in ("points", "tricks"):
        if report.get(key):
            # North–South first whatever order the database keeps a JSON object's keys in
            given = report[key]
            words.append(", ".join(f"{sides[s]} {given[s]}" for s in ("NS", "EW") if s in given) + f" {key}")
    if report.get("hands"):
        words.append(f"{len(report['hands'])} hands")
    for key, what in (("playoff", "play-off"), ("rolloff", "roll-off")):
        if report.get(key):
            words.append(f"{what} won by {sides.get(report[key], report[key])}")
    for key, what in (("buncos", "buncos"), ("minis", "mini buncos")):
        if report.get(key):
            words.append(f"{what}: " + ", ".join(f"{names.get(int(p), 'a guest')} {n}" for p, n in report[key].items()))
    return "; ".join(words)


def _rows(board: FoursomeBoard) -> list[tuple[FoursomeTable, str]]:
    """Each table with its live report in words ("" before it is in)."""
    rows = []
    for table in board.tables:
        names = {line.player: line.name for line in table.seats}
        rows.append((table, report_words(table.result.report, names) if table.result is not None else ""))
    return rows


def last_bell(evening: Evening) -> Bell | None:
    """The last step not undone (a round's bell, or a guest leaving or arriving), the one undo
    can take back; None before the first. One query. The board offers it by name
    (``selectors.board.last_step``)."""
    return (
        Bell.objects.filter(round__evening=evening, undone_at__isnull=True)
        .select_related("round")
        .order_by("-round__number", "-id")
        .first()
    )


def board_page(request: HttpRequest, evening: Evening, *, live: bool) -> HttpResponse:
    """The host's board of an evening at tables of four: the round and its bell, what needs the
    host (tables missing a report, disputes), then each table's players by seat and partnership
    with its report (in, confirmed or disputed). ``live``: the htmx poll's part only. The board is
    the one every phone shares, computed once per process and version (``shared_board``), and
    who is here unseated or has left a seat is found among the guests read with it
    (``shared_guests``), not in two queries listing every seated guest's id."""
    board = cast(FoursomeBoard, shared_board(evening).family)
    missing, disputed = needs(board)
    seated = {line.player for t in board.tables for line in t.seats}
    fmt = format_for(evening)
    out = fmt.sitting_out(evening) if board.tables else frozenset()
    guests = shared_guests(evening).values()  # in name order, read once per version
    here_unseated = (
        [] if not board.tables else [g for g in guests if g.status == Guest.Status.HERE and g.pk not in seated]
    )
    unseated = [g for g in here_unseated if g.pk not in out]
    tables_of = {line.player: t.number for t in board.tables for line in t.seats}
    ended = evening.stage == Evening.Stage.ENDED
    left_seated = (
        [] if ended else [(g, tables_of[g.pk]) for g in guests if g.status == Guest.Status.LEFT and g.pk in seated]
    )
    context = {
        "evening": evening,
        "board": board,
        "missing": missing,
        "disputed": disputed,
        "disputed_at_bell": disputed_at_bell(evening, board.bell_round) if board.round is None else [],
        # house rule: no nag the host cannot act on (the evening over, or a schedule fixed at the draw)
        "unseated": [] if ended or (board.last_round and not fmt.joins_after_the_draw) else unseated,
        "left_seated": left_seated,
        "sitting_out": [g for g in here_unseated if g.pk in out],
        "joins": fmt.joins_after_the_draw,
        "ranked": fmt.ranked_tables,  # a format without a head table: the last report rings
        "rows": _rows(board),
        "bell_results": bell_results(board),
        "tables_in": len(board.tables) - len(missing),
        "tab": "board",
        "undo": last_step(evening),
        "etag": f'"board-{evening.pk}-{evening.version}"',
        "no_report": NO_REPORT_RULE,
        "here": sum(g.status == Guest.Status.HERE for g in guests),
        "jump": TableJumpForm(tables=len(board.tables)),
    }
    template = "partnership/host_board_live.html" if live else "partnership/host_board.html"
    return render(request, template, context)


def result_page(request: HttpRequest, evening: Evening, table: int) -> HttpResponse:
    """A table's report for the round in play, through the format's form (``formats.partnership.report_forms``)
    and ``foursome_report``. A refused report shows the rules' words with the players' names and
    saves nothing; a form shown before the seats changed saves nothing and says who moved."""
    board = foursome_board(evening)
    if board.round is None or not 1 <= table <= len(board.tables):
        messages.error(request, "No round is in play, or there is no such table.")
        return redirect("host-evening", evening.pk)
    shown = RoundNumberForm(request.POST) if request.method == "POST" and "round" in request.POST else None
    if shown is not None and (not shown.is_valid() or shown.cleaned_data["round"] != board.round.number):
        messages.error(
            request,
            f"That form was not for round {board.round.number}, which is in play now: "
            "nothing was saved. Enter this round's report below.",
        )
        return redirect("host-result", evening.pk, table)
    seat = board.tables[table - 1]
    players, names = [s.player for s in seat.seats], [s.name for s in seat.seats]
    form = foursomes.family_format(evening).host_report_form(
        request.POST or None, players=players, names=names, initial=report_initial(seat.result, players)
    )
    if request.method == "POST" and form.is_valid() and (seen := seen_beside(request, form)) is not None:
        if form.moved():
            form.add_error(None, moved_words(evening, board, table, form.moved()))
        else:
            try:
                with unchanged_since(evening, seen, acts_on_result(board.round.number, table)):
                    foursome_report(
                        round=board.round, table=table, report=form.report(), user=request.user, device=_device(request)
                    )
            except RuleError as error:
                form.add_error(None, error_message(error, evening, names=dict(zip(players, names, strict=True))))
            else:
                messages.success(request, f"Report saved for table {table}.")
                return redirect("host-evening", evening.pk)
    return render(
        request,
        "partnership/host_result.html",
        {
            "evening": evening,
            "board": board,
            "round": board.round,
            "table": seat,
            "form": form,
            "sides": [("NS", "North–South"), ("EW", "East–West")],
            "report_fields": format_for(evening).template("host_report"),
        },
    )


def moved_words(evening: Evening, board: FoursomeBoard, table: int, moved: list[int]) -> str:
    """Why a result form shown for other seats saves nothing: who no longer sits at ``table``
    (guests of the evening and ghosts seated now, by name), or, when the form names someone
    who is neither (a damaged or forged form), that it was damaged."""
    names = foursomes.player_names(evening)
    ghosts = {line.player for t in board.tables for line in t.seats if line.is_ghost}
    if any(p not in names and p not in ghosts for p in moved):
        return "The form was damaged: it names someone who is not at this evening. Nothing was saved; enter the report again."
    who = joined(foursomes.player_name(p, names) for p in moved)
    return (
        f"The seats at table {table} changed since this form was shown: {who} no longer sits here. "
        "Nothing was saved; enter the report again."
    )


def report_initial(result: Result | None, players: list[int]) -> dict:
    """The form's initial values from the table's live report (None: none yet); ``players``:
    the table's four, North first, so a Bunco report's buncos, mini buncos and rolls (kept by
    player) fill their seat's fields and changing one count keeps the others."""
    report = result.report if result is not None else {}
    initial: dict = {}
    for key in ("points", "tricks"):
        for side, value in (report.get(key) or {}).items():
            initial[f"{key}_{side}"] = value
    for seat, player in enumerate(players):
        for key in ("buncos", "minis"):
            if str(player) in (report.get(key) or {}):
                initial[f"{key}_{seat}"] = report[key][str(player)]
        if (report.get("rolls") or {}).get(str(player)):
            initial[f"rolls_{seat}"] = " ".join(str(r) for r in report["rolls"][str(player)])
    if report.get("hands"):
        initial["hands"] = " ".join(f"{side}{points}" for side, points in report["hands"])
    initial["winner"] = report.get("playoff") or report.get("rolloff") or ""
    return initial


def draw_preview(evening: Evening, here: int) -> tuple[int, int, int, str]:
    """What the draw of ``here`` guests will make by the evening's rules (``rules_of(...).plan``):
    (tables, ghosts in the seats left empty, guests sitting each round out, the rules' reason
    when they cannot seat ``here``, else ""). Rules: ``docs/rules/tables-of-four.md``, "The draw";
    a schedule's sit-outs, ``docs/rules/euchre-tournament.md``, "The schedule"."""
    try:
        sizes = format_for(evening).rules_of(evening).plan(here).sizes
    except RuleError as error:
        return 0, 0, 0, str(error)
    seats = sum(sizes)
    return len(sizes), max(seats - here, 0), max(here - seats, 0), ""


def drawn_tables(evening: Evening) -> int:
    """How many tables the seats in force make (0 before the draw): what the draw page shows of
    the board, read from the seats alone (``foursome_state``), never the whole board with its
    standings (issue 26 item 3: the draw page at 500 guests within 50 times a bare view)."""
    try:
        return len(foursomes.foursome_state(evening).tables)
    except RuleError:
        return 0


def draw_page(request: HttpRequest, evening: Evening) -> HttpResponse:
    """The partnership draw: how many tables and ghosts the guests here make, the button that
    deals it (``foursomes.foursome_draw``) or starts the physical draw with seat cards
    (``services.draw_physical``, docs/rules/tables-of-four.md "The physical draw"), and the
    seating once dealt. A deal from a page drawn before a later change is refused with what
    changed (``tournament.views.stale``)."""
    title = format_for(evening).title
    if request.method == "POST":
        form = DrawForm(request.POST)
        if not form.is_valid():
            for problem in form_problems(form):
                messages.error(request, problem)
        elif form.cleaned_data["action"] == "physical":
            try:
                draw_physical_start(evening=evening, user=request.user, device=_device(request))
            except RuleError as error:
                messages.error(request, error_message(error, evening))
            else:
                messages.success(request, "The physical draw is started: print the pull list, then record each card.")
                return redirect("host-draw-physical", evening.pk)
        else:
            try:
                with unchanged_since(evening, form, ANY_CHANGE):
                    foursomes.foursome_draw(
                        evening=evening,
                        representing=form.cleaned_data["representing"],
                        user=request.user,
                        device=_device(request),
                    )
            except RuleError as error:
                messages.error(request, error_message(error, evening))
            else:
                messages.success(request, "The draw is made: every guest here has a table and a seat.")
                return redirect("host-draw-seating", evening.pk)
        return redirect("host-draw", evening.pk)
    here = evening.guests.filter(status=Guest.Status.HERE).count()
    tables, ghosts, out, refused = draw_preview(evening, here)
    return render(
        request,
        "partnership/host_draw.html",
        {
            "evening": evening,
            "title": title,
            "here": here,
            "tables": tables,
            "ghosts": ghosts,
            "out": out,
            "refused": refused,
            "drawn_tables": drawn_tables(evening),
            "started": evening.rounds.exists(),
            "physical_open": open_physical_draw(evening) is not None,
        },
    )


def seating_page(request: HttpRequest, evening: Evening) -> HttpResponse:
    """Where everyone sits now: each table's four seats, partners together, ghosts named (the
    board every phone shares: ``shared_board``)."""
    board = cast(FoursomeBoard, shared_board(evening).family)
    ghosts = any(s.is_ghost for t in board.tables for s in t.seats)
    return render(request, "partnership/host_seating.html", {"evening": evening, "board": board, "ghosts": ghosts})


def bell_confirm_page(request: HttpRequest, evening: Evening, number: int) -> HttpResponse:
    """The second step of *Ring the bell now* when reports are missing or disputed: which tables
    (and who sits there), the rule for a table with no report, and the button to ring anyway."""
    board = foursome_board(evening)
    if board.round is None or board.round.number != number:
        messages.error(request, f"The bell of round {number} has rung already: there is nothing to confirm.")
        return redirect("host-evening", evening.pk)
    missing, disputed = needs(board)
    return render(
        request,
        "partnership/host_bell_confirm.html",
        {
            "evening": evening,
            "round": board.round,
            "board": board,
            "missing": missing,
            "disputed": disputed,
            "no_report": NO_REPORT_RULE,
            "tables_in": len(board.tables) - len(missing),
            "form": RoundActionForm(initial={"action": "ring", "round": number, "confirmed": True}),
        },
    )


def standings_page(request: HttpRequest, evening: Evening) -> HttpResponse:
    """The standings with the format's tallies, and the prizes with their reasons (the board every phone shares:
    ``shared_board``)."""
    board = cast(FoursomeBoard, shared_board(evening).family)
    return render(
        request,
        "partnership/host_standings.html",
        {
            "evening": evening,
            "board": board,
            "standings": board.standings,
            "tab": "standings",
            "jump": TableJumpForm(tables=len(board.tables)),
        },
    )


def house_rules_redirect(request: HttpRequest, evening: Evening) -> HttpResponse:
    """Progressive Poker's house rules page for an evening at tables of four: its options are on
    the settings page."""
    messages.info(
        request,
        f"{evening.get_format_display()}'s options (movement, partners, ties, prizes) are on the settings page.",
    )
    return redirect("host-evening-edit", evening.pk)


def bell_cuts_redirect(request: HttpRequest, evening: Evening) -> HttpResponse:
    """Progressive Poker's bell with cards cut by hand, for an evening at tables of four: the
    bell cuts itself (``BELL_CUTS_RULE``); back to the board, nothing rung."""
    messages.info(request, BELL_CUTS_RULE)
    return redirect("host-evening", evening.pk)


def redraw_advice(request: HttpRequest, evening: Evening) -> HttpResponse:
    """Progressive Poker's seat changes before round 1 for an evening at tables of four: the
    partnership draw is dealt again instead (house rule: every seat is a card's), or, after
    round 1, a guest takes or frees a ghost's seat between rounds."""
    messages.info(
        request,
        "At tables of four, check the guests in or out and deal the draw again before round 1; "
        "after it, a guest leaving or arriving between rounds frees or takes a ghost's seat.",
    )
    return redirect("host-draw", evening.pk)


def table_jump(request: HttpRequest, evening: Evening) -> HttpResponse:
    """The "Go to table" box at tables of four: to that table's page; a number that is not a
    table goes back to the board with a message saying which numbers are."""
    board = foursome_board(evening)
    form = TableJumpForm(request.GET, tables=len(board.tables))
    if form.is_valid():
        return redirect("host-table", evening.pk, form.cleaned_data["table"])
    for error in form.errors.get("table", []):
        messages.error(request, str(error))
    return redirect("host-evening", evening.pk)


def table_page(request: HttpRequest, evening: Evening, table: int) -> HttpResponse:
    """One table at tables of four: its four players by seat and partnership with their
    tallies so far and what the last bell said of each, the round's report in words (in,
    confirmed or disputed, with the disputing guests' reasons) and the link to enter or change
    it; the tables before and after. A number that is not a table goes back to the board."""
    board = foursome_board(evening)
    if not 1 <= table <= len(board.tables):
        messages.error(
            request,
            f"There is no table {table}: the tables are 1 to {len(board.tables)}."
            if board.tables
            else "There are no tables yet: run the draw first.",
        )
        return redirect("host-evening", evening.pk)
    seat = board.tables[table - 1]
    names = {line.player: line.name for line in seat.seats}
    said = {line.player: words for line, words in moves_by_table(board)[table - 1].lines if words}
    return render(
        request,
        "partnership/host_table.html",
        {
            "evening": evening,
            "board": board,
            "t": seat,
            "sides": list(zip(("North–South", "East–West"), seat.partnerships, strict=True)),
            "moves": said,
            "words": report_words(seat.result.report, names) if seat.result is not None else "",
            "names": list(names.values()),  # for the words' names, each isolated
            "tallies": board.standings.tallies,
            "tab": "board",
            "previous": table - 1 if table > 1 else None,
            "next": table + 1 if table < len(board.tables) else None,
            "jump": TableJumpForm(tables=len(board.tables)),
        },
    )


def moves_page(request: HttpRequest, evening: Evening) -> HttpResponse:
    """The last bell's moves at tables of four, in words: each table's result, then every
    table as it sits now with what the bell said of each player ("Ann won at table 3 and moves
    up to table 2."), so the host can send everyone to their seat."""
    board = foursome_board(evening)
    return render(
        request,
        "partnership/host_moves.html",
        {
            "evening": evening,
            "board": board,
            "results": bell_results(board),
            "tables": moves_by_table(board),
            "movement": movement_sentence(evening),
            "tab": "moves",
            "jump": TableJumpForm(tables=len(board.tables)),
            "room_url": reverse("room", args=[evening.public_key]),
        },
    )


def movement_sentence(evening: Evening) -> str:
    """The evening's movement in words, as its format says (``PartnershipFormat.movement_words``)."""
    return format_for(evening).movement_words(evening)  # type: ignore[attr-defined]


def movement_by_bell(evening: Evening) -> str:
    """A movement decided at the bell, in words (the host's options, else the format's): "Winners
    move up one table; ... Partners change at every bell." (``rules_pages.MOVEMENT_WORDS``)."""
    movement, change = foursome_movement(evening)
    partners = "Partners change at every bell." if change else "Partners stay together when they move."
    return f"{MOVEMENT_WORDS[str(movement)]} {partners}"
