"""A scorer's pages at tables of four (Progressive Euchre, Drive Whist, Bunco, the Euchre
tournament): the round in play table by table, and a table's report through the format's own
form, the host's (``PartnershipFormat.result_form``, its fields ``FormatPlugin.template("host_report")``).

The helper's link, its role, the private links' headers and the CSRF check are the product's
(``tournament.views.helpers.helper_view``), which hands these evenings here through the format's
plug-in (``FormatPlugin.pages``: "scorer", "scorer_result"). As Progressive Poker's scorer: a
report is recorded once per the phone's one-time id (``services.sends``), a form shown for another
round or for other seats saves nothing and says so, a report the rules refuse saves nothing and
says why in their words, and the audit log names the helper (``reports.foursome_scorer_report``).
Rules: ``docs/rules/tables-of-four.md`` and the format's page; house rule (issue 11 deliver 7): a
scorer enters the round in play only.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tournament.formats.partnership import state as foursomes
from tournament.formats.partnership.boards import FoursomeBoard, FoursomeTable, foursome_board
from tournament.formats.partnership.host_pages import moved_words, report_initial, report_words
from tournament.formats.partnership.report_forms import FoursomeResultForm
from tournament.formats.partnership.reports import foursome_scorer_report
from tournament.forms.door import RoundNumberForm
from tournament.forms.seen import SeenVersionForm
from tournament.models import HelperLink
from tournament.registry import format_for
from tournament.views.helpers import NOTHING_SAVED, no_round_words, scorer_send
from tournament.views.kept import REFUSED, form_words, kept_answer, request_id
from tournament.views.stale import report_unchanged_since, seen_beside


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def scorer_page(request: HttpRequest, link: HelperLink) -> HttpResponse:
    """The scorer's page at tables of four: the round in play, and each table with its four
    players by partnership and its report in words (or "Missing"; rows of (table, words, the
    four's names, each isolated on the page)), each a link to its form;
    between rounds, a line saying so. Answers 200."""
    board = foursome_board(link.evening)
    rows = []
    for table in board.tables if board.round is not None else ():
        names = {line.player: line.name for line in table.seats}
        words = report_words(table.result.report, names) if table.result is not None else ""
        rows.append((table, words, list(names.values())))
    return render(
        request,
        "partnership/scorer.html",
        {
            "link": link,
            "evening": link.evening,
            "round": board.round,
            "rows": rows,
            "tables_in": sum(1 for table, _, _ in rows if table.result is not None),
        },
    )


def scorer_result_page(request: HttpRequest, link: HelperLink, table: int) -> HttpResponse:
    """One table's report for the round in play, entered by the scorer with the format's form.
    Saved: back to the scorer's tables with "Report saved for table N." (a resend of the same
    one-time id: "recorded already"). Refused (a form for another round, seats changed since it
    was shown, a report of that table that came in since it was shown, or a report the rules
    refuse): the form again with the reason and "Nothing was
    saved.". No round in play, or no such table: back to the tables with that said (the
    evening's end said as such: ``views.helpers.no_round_words``)."""
    board = foursome_board(link.evening)
    if board.round is None or not 1 <= table <= len(board.tables):
        words = no_round_words(link.evening)
        messages.error(request, words)
        return kept_answer(request, redirect("helper-page", link.key), REFUSED, words)
    seat = board.tables[table - 1]
    posted = request.POST if request.method == "POST" else None
    form = _report_form(link, seat, posted)
    round_form = RoundNumberForm(posted, initial={"round": board.round.number})
    if (
        posted is not None
        and form.is_valid()
        and round_form.is_valid()
        and (seen := seen_beside(request, form)) is not None
    ):
        sent = _scorer_sent(request, link, board, seat, form, round_form.cleaned_data["round"], seen)
        if sent is not None:
            return sent
    page = render(
        request,
        "partnership/scorer_result.html",
        {
            "link": link,
            "evening": link.evening,
            "round": board.round,
            "table": seat,
            "form": form,
            "round_form": round_form,
            "sides": [("NS", "North–South"), ("EW", "East–West")],
            "report_fields": format_for(link.evening).template("host_report"),
        },
    )
    return kept_answer(request, page, REFUSED, form_words(form) or form_words(round_form)) if posted else page


def _report_form(link: HelperLink, seat: FoursomeTable, data) -> FoursomeResultForm:
    """The format's report form for the table's four (North first), from its live report."""
    players, names = [s.player for s in seat.seats], [s.name for s in seat.seats]
    return foursomes.family_format(link.evening).host_report_form(
        data, players=players, names=names, initial=report_initial(seat.result, players)
    )


def _refused(form: FoursomeResultForm, words: str) -> None:
    """Put ``words`` above the form, saying that nothing was saved (once)."""
    form.add_error(None, words if NOTHING_SAVED.lower() in words.lower() else f"{words} {NOTHING_SAVED}")


def _scorer_sent(
    request: HttpRequest,
    link: HelperLink,
    board: FoursomeBoard,
    seat: FoursomeTable,
    form: FoursomeResultForm,
    round_number: int,
    seen: SeenVersionForm,
) -> HttpResponse | None:
    """Record the scorer's valid report ``form`` for ``seat`` in round ``round_number`` once per
    the phone's one-time id (``services.sends``), unless a report of that table came in since
    the form was drawn (``seen``; house rule: a helper's stale form never replaces a report it
    did not show): the redirect to the scorer's tables (with
    "saved", or "recorded already" for a resend), or None with the reason added to the form."""
    assert board.round is not None
    table, now = seat.number, board.round.number
    if round_number != now:
        _refused(
            form,
            f"That form was for round {round_number}, but round {now} is in play now: nothing was saved. "
            "Enter this round's report below.",
        )
        return None
    if form.moved():
        _refused(form, moved_words(link.evening, board, table, form.moved()))
        return None
    names = {line.player: line.name for line in seat.seats}

    def record():
        with report_unchanged_since(link.evening, seen, round_number, table):
            return foursome_scorer_report(
                link=link,
                round_number=round_number,
                table=table,
                report=form.report(),
                request_id=request_id(request),
                device=_device(request),
            )

    return scorer_send(
        request, link, form, table=table, round_number=round_number, record=record, what="report", names=names
    )
