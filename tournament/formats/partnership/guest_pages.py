"""A guest's phone at tables of four (Progressive Euchre, Drive Whist, Bunco): what their page
shows (``partnership/guest_page.html``) and the captain's report with the score helper
(``partnership/captain_report.html``, ``static/score.js``).

Rules: ``docs/rules/tables-of-four.md`` (seats North, East, South, West; North–South and East–West
partners; what each format counts). ``tournament.views.guest`` sends these evenings here through
their format's plug-in (``tournament.formats.partnership``); the private link, the ETag polling and the one 404
are that module's.
"""

from __future__ import annotations

import uuid
from typing import Any, cast

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tables.errors import RuleError
from tables.formats.records import report_score
from tournament.formats.partnership.boards import FoursomeBoard, FoursomeTable
from tournament.formats.partnership.captain_form import FoursomeReportForm
from tournament.formats.partnership.reports import foursome_captain_report, foursome_round_open
from tournament.formats.partnership.state import family_format, foursome_state, player_name, player_names
from tournament.forms.actions import CaptainFormHeader
from tournament.models import Evening, Guest, Result, Round
from tournament.private_doors import private
from tournament.registry import format_named
from tournament.selectors.guest_boards import Shared, shared_board
from tournament.services.naming import error_message
from tournament.services.sends import send_once, send_seen
from tournament.templatetags.name_tags import name_isolated, names_joined
from tournament.views.kept import ALREADY, RECORDED, REFUSED, already_words, form_words, kept_answer

STANDINGS_SHOWN = 10


def foursome_page_context(guest: Guest, shared: Shared) -> dict[str, Any]:
    """What a guest's page shows at tables of four: their table and seat, partner and opponents
    by name, their tallies (the format's, in its order) and place, what the last bell told them
    ("You won at table 3: move up to table 2."), the table's report with the confirm / dispute
    buttons, the top of the standings, and at the end their prizes and final place."""
    board = cast(FoursomeBoard, shared.family)
    assert board is not None
    found = board.table_of(guest.pk)
    table, me = found if found is not None else (None, None)
    line = board.line_of(guest.pk)
    tallies = [(words, (line.tallies if line else {}).get(name, 0)) for name, words in board.fmt.tallies]
    lines = board.standings.lines
    context: dict[str, Any] = {
        "foursome": board,
        "format_page": "partnership/guest_page.html",
        "format_styles": "foursome.css",
        "fmt": board.fmt,
        "report_fields": format_named(board.fmt.key).template("phone_report"),
        "table": table,
        "me": me,
        "my_line": line,
        "my_tallies": tallies,
        "place": line.place if line and any(line.tallies.values()) else None,
        "players": len(lines),
        "partner": table.seats[me.seat.partner] if table and me else None,
        "opponents": [s for s in table.seats if s.side is not me.side] if table and me else [],
        "move": board.moves.get(guest.pk),
        "bell_round": board.bell_round,
        "standing": board.players_shown[:STANDINGS_SHOWN],
        "tally_names": board.standings.tallies,
        "names": board.guest_names,  # isolated where words name them (templatetags.name_tags)
    }
    context |= _result_context(guest, board, table)
    context["score_so_far"] = score_so_far(board, table)
    context |= _ended(guest, shared, board)
    return context


def _result_context(guest: Guest, board: FoursomeBoard, table: FoursomeTable | None) -> dict[str, Any]:
    """The table's report this round as the phone shows it: the result in words, who sent it,
    the votes, this guest's vote, and whether they may report (no report yet, a round in play)."""
    result = table.result if table else None
    if result is None:
        return {
            "result": None,
            "votes": [],
            "my_vote": None,
            "told": {},
            "can_report": board.round is not None and table is not None and guest.status != Guest.Status.LEFT,
        }
    names = {s.player: s.name for s in table.seats} if table else {}
    votes = list(result.votes.all())
    for vote in votes:
        vote.name = names.get(vote.guest_id, "")
    told = {  # who sent it: guest/_votes.html (``Result.sender``)
        "words": report_words(board, table, result),
        "counts": _bunco_counts(result.report, table),
    }
    return {
        "result": result,
        "votes": votes,
        "my_vote": next((v.verdict for v in votes if v.guest_id == guest.pk), None),
        "told": told,
        "can_report": False,
    }


def score_so_far(board: FoursomeBoard, table: FoursomeTable | None) -> str:
    """What a table that has not reported is told while the round's bell has rung and waits for
    every table's score so far (``formats.partnership.bell``; ``docs/rules/tables-of-four.md``: "a table
    whose game is unfinished is decided by the score so far"): "The head table has finished:
    the bell has rung. Send your table's score so far." ("Time is up: ..." when the clock rang
    it). "" otherwise: no round waiting, a reopened round, or the table's report is in."""
    rnd = board.round
    if rnd is None or table is None or table.result is not None:
        return ""
    if rnd.state != Round.State.RUNG or rnd.reopened or not rnd.waiting_for:
        return ""
    head_in = bool(board.tables) and board.tables[0].result is not None
    why = (
        "The head table has finished"
        if head_in and board.evening.round_end == Evening.RoundEnd.HEAD_POOL
        else "Time is up"
    )
    return f"{why}: the bell has rung. Send your table's score so far."


def report_words(board: FoursomeBoard, table: FoursomeTable | None, result: Result) -> str:
    """A stored report in words ("North–South won, 7 points to 5"), as the format reads it."""
    if table is None:
        return ""
    try:
        score = report_score(board.fmt, tuple(s.player for s in table.seats), result.report, ties="cut")  # type: ignore[arg-type]
    except RuleError:
        return "A result the rules cannot read: the host will correct it."
    return score.words[:1].upper() + score.words[1:]


def _bunco_counts(report: dict[str, Any], table: FoursomeTable | None) -> list[SafeString]:
    """Bunco's buncos and mini buncos in words ("Ann: 1 bunco", "Ghost 1: 2 mini buncos"), as
    HTML with each name in its ``<bdi>`` (``templatetags.name_tags``: a right-to-left name keeps
    its own count)."""
    if table is None:
        return []
    out = []
    for line in table.seats:
        for key, word in (("buncos", "bunco"), ("minis", "mini bunco")):
            count = int((report.get(key) or {}).get(str(line.player), 0))
            if count:
                out.append(format_html("{}: {} {}{}", name_isolated(line.name), count, word, "s" if count != 1 else ""))
    return out


def _ended(guest: Guest, shared: Shared, board: FoursomeBoard) -> dict[str, Any]:
    """Once the evening has ended: the ceremony, the prizes revealed so far that this guest
    won (title, reason as printed, the others sharing it), and once the final standings are
    shown, their final place out of how many players (ghosts left out). {} before the end."""
    ceremony = shared.ceremony
    if ceremony is None or board.evening.stage != Evening.Stage.ENDED:
        return {}
    from tournament.documents.contents import printed_reason

    names = {line.player: line.name for line in board.standings.lines}
    prizes = [
        (p.title, printed_reason(p.prize, names), [g.name for g in p.winners if g.pk != guest.pk])
        for p in ceremony.revealed
        if any(g.pk == guest.pk for g in p.winners)
    ]
    players = [ln for ln in board.standings.lines if not ln.is_ghost]
    mine = next((ln for ln in players if ln.player == guest.pk), None)
    place = mine.place if mine and ceremony.finished else None
    return {
        "ceremony": ceremony,
        "finished": ceremony.finished,
        "my_prizes": prizes,
        "final_place": place,
        "final_of": len(players),
        "final_shared": sum(1 for ln in players if ln.place == place and ln.player != guest.pk) if place else 0,
        "standing": players[:STANDINGS_SHOWN] if ceremony.finished else [],
    }


def foursome_captain(request: HttpRequest, guest: Guest) -> HttpResponse:
    """The captain's report at tables of four: GET shows the format's form with the score
    helper for the round in play; POST reads ``CaptainFormHeader`` and ``FoursomeReportForm``
    and calls ``formats.partnership.reports.foursome_captain_report``. A refusal is shown on the
    form with names (nothing saved); a form for a round or table that no longer holds goes
    back to the guest's page with the reason."""
    if request.method != "POST":
        return _captain_blank(request, guest, _family_board(guest))
    # The phone's input is checked before any board is built (issue 23 item 3): the header, a
    # resend, the round, then the form against the table's seats read from the evening's state.
    header = CaptainFormHeader(request.POST)
    if not header.is_valid():
        return _back(request, guest, REFUSED, "The form was damaged: open it again.")
    data = header.cleaned_data
    seen = send_seen(evening=guest.evening, request_id=data["request_id"])
    if seen is not None:  # a resend of a report that reached the server (issue 24)
        return _back(request, guest, ALREADY, already_words(seen))
    try:
        foursome_round_open(evening=guest.evening, round_number=data["round"])
    except RuleError as error:
        return _back(request, guest, REFUSED, error_message(error, guest.evening))
    tables = foursome_state(guest.evening).tables
    if not 1 <= data["table"] <= len(tables):
        return _back(request, guest, REFUSED, f"There is no table {data['table']} now: open the form again.")
    names = player_names(guest.evening)
    seats = [(p, player_name(p, names)) for p in tables[data["table"] - 1]]
    form = family_format(guest.evening).phone_report_form(request.POST, seats=seats)
    if form.is_valid() and _captain_sent(request, guest, form, data):
        return _back(
            request,
            guest,
            RECORDED,
            f"Table {data['table']}'s result is sent. The others at the table can confirm or dispute it.",
        )
    board = _family_board(guest)
    if data["table"] > len(board.tables):  # the seating changed since the state was read
        return _back(request, guest, REFUSED, f"There is no table {data['table']} now: open the form again.")
    table = board.tables[data["table"] - 1]
    page = _captain_page(request, guest, board, table, form, data["round"], data["request_id"])
    return kept_answer(request, page, REFUSED, form_words(form))


def _family_board(guest: Guest) -> FoursomeBoard:
    """The evening's board at tables of four, as every guest's page shows it (kept per version)."""
    board = cast(FoursomeBoard, shared_board(guest.evening).family)
    assert board is not None
    return board


def _back(request: HttpRequest, guest: Guest, outcome: str, words: str) -> HttpResponse:
    """Back to the guest's page with ``words`` as its message (an error for a refusal) and,
    to a phone's kept form, the ``outcome`` (``views.kept``)."""
    (messages.error if outcome == REFUSED else messages.success)(request, words)
    return kept_answer(request, private(redirect("guest-page", guest.key)), outcome, words)


def _captain_sent(request: HttpRequest, guest: Guest, form: FoursomeReportForm, data: dict[str, Any]) -> bool:
    """Record the valid report ``form`` for the form's round and table (``data``, the cleaned
    ``CaptainFormHeader``) once per one-time id (``services.sends``); True when recorded, False
    with the reason added to the form (nothing recorded)."""
    try:
        form.check_players()
        send_once(
            evening=guest.evening,
            request_id=data["request_id"],
            action="result.report",
            record=lambda: foursome_captain_report(
                guest=guest,
                round_number=data["round"],
                table=data["table"],
                report=form.report(),
                request_id=data["request_id"],
                device=request.META.get("HTTP_USER_AGENT", "")[:200],
            ),
            words=lambda result: f"table {result.table}'s result for round {data['round']}",
        )
    except RuleError as error:
        form.add_error(None, error_message(error, guest.evening))
        return False
    return True


def _captain_blank(request: HttpRequest, guest: Guest, board: FoursomeBoard) -> HttpResponse:
    """The empty form for the round in play, with a fresh one-time request id; back to the
    guest's page with a note when no round is in play or the result is already in."""
    found = board.table_of(guest.pk)
    if board.round is None or found is None:
        messages.info(request, "No round is in play, so there is no result to report now.")
        return private(redirect("guest-page", guest.key))
    table = found[0]
    if table.result is not None:
        messages.info(request, f"Table {table.number}'s result is already in: confirm or dispute it below.")
        return private(redirect("guest-page", guest.key))
    form = family_format(board.evening).phone_report_form(seats=[(s.player, s.name) for s in table.seats])
    return _captain_page(request, guest, board, table, form, board.round.number, uuid.uuid4().hex)


def _captain_page(
    request: HttpRequest,
    guest: Guest,
    board: FoursomeBoard,
    table: FoursomeTable,
    form: FoursomeReportForm,
    round_number: int,
    request_id: str,
) -> HttpResponse:
    """The report page (private, never cached)."""
    ns, ew = table.partnerships
    return private(
        render(
            request,
            "partnership/captain_report.html",
            {
                "guest": guest,
                "evening": board.evening,
                "fmt": board.fmt,
                "report_fields": format_named(board.fmt.key).template("phone_report"),
                "table": table,
                "form": form,
                "round_number": round_number,
                "table_number": table.number,
                "request_id": request_id,
                "ns": names_joined([s.name for s in ns], " and "),
                "ew": names_joined([s.name for s in ew], " and "),
            },
        )
    )
