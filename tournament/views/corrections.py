"""The host's pages for putting things right: correct an earlier result, ring the bell with the
cards cut by hand, and the audit log (who did what, when, from which device or link).

Login required; a host sees only their own evenings. Every change goes through a service; a
``RuleError`` becomes a message or a form error and saves nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from tables.errors import RuleError
from tables.words import numbered, once, plural
from tournament.forms.actions import PageQuery
from tournament.forms.bell import CutsForm
from tournament.forms.door import RoundNumberForm
from tournament.forms.evening import CorrectionConfirmForm as ConfirmForm
from tournament.models import Bell, Evening, Guest
from tournament.registry import format_for
from tournament.selectors.audit_sentences import audit_sentence, seat_moves
from tournament.selectors.board import missing_tables, undo_offer
from tournament.selectors.correction_history import kept_correction_rounds
from tournament.services import bell, corrections, state
from tournament.services.naming import error_message, guest_names, name_guests
from tournament.views.correction_rounds import rounds_html
from tournament.views.format_pages import own_page
from tournament.views.host import _device, _evening
from tournament.views.stale import ANY_CHANGE, acts_on_result, seen_beside, unchanged_since

AUDIT_PAGE = 100


@login_required
def corrections_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Every round whose bell has rung, newest first and each once, with each table's result and
    a link to correct it; and the undo of the last step, named ("Undo Yara Young's arrival")."""
    evening = _evening(request, evening_id)
    if (own := own_page("corrections", request, evening)) is not None:
        return own
    undo = undo_offer(evening)
    return render(
        request, "host/corrections.html", {"evening": evening, "rounds_html": _rounds_html(evening), "undo": undo}
    )


def _rounds_html(evening: Evening) -> str:
    """The corrections page's rounds (``views.correction_rounds``) as safe HTML: written
    once per evening version and time zone (``selectors.correction_history``), the page drawn
    again unchanged writing only its undo button."""
    kept = kept_correction_rounds(evening)
    zone = timezone.get_current_timezone_name()
    html = kept.html.get(zone)
    if html is None:
        html = kept.html[zone] = rounds_html(evening, kept.rounds)
    return html


@login_required
def correction_entry(request: HttpRequest, evening_id: int, number: int, table: int) -> HttpResponse:
    """Correct one table's result in an earlier round, in every format: the format's report form
    (``FormatPlugin.correction_form``) for the players who sat at that table in that round,
    pre-filled; saving plays every later step again (``services.corrections.correction_save``).
    After the ceremony began, a change of prizes or places is saved only with ``confirm``."""
    evening = _evening(request, evening_id)
    if (own := own_page("correction", request, evening)) is not None:
        return own
    history = next((h for h in corrections.correction_rounds(evening) if h.round.number == number), None)
    if history is None or not 1 <= table <= len(history.tables):
        return _no_such_table(request, evening, number, table)
    fmt = format_for(evening)
    _, guests, result = history.tables[table - 1]
    posted = request.POST if request.method == "POST" else None
    try:
        form = fmt.correction_form(
            evening, rnd=history.round, table=table, players=history.seated[table - 1], result=result, data=posted
        )
    except RuleError as error:  # the round's bell was undone since this request read the evening
        messages.error(request, error_message(error, evening))
        return redirect("host-corrections", evening.pk)
    confirm = ConfirmForm(posted)
    asked: corrections.ConfirmCorrection | None = None
    if posted is not None and form.is_valid() and (seen := seen_beside(request, form)) is not None:
        try:
            with unchanged_since(evening, seen, acts_on_result(number, table)):
                done = corrections.correction_save(
                    evening=evening,
                    round_number=number,
                    table=table,
                    result=form.correction(),
                    user=request.user,
                    device=_device(request),
                    confirm=confirm.cleaned_data["confirm"] if confirm.is_valid() else None,
                )
        except corrections.ConfirmCorrection as changes:
            asked = changes
        except RuleError as error:
            form.add_error(None, error_message(error, evening))
        else:
            _correction_messages(request, evening, number, table, done)
            return redirect("host-corrections", evening.pk)
    return render(
        request,
        "host/correction.html",
        {
            "evening": evening,
            "history": history,
            "number": number,
            "table": table,
            "guests": guests,
            "form": form,
            "result": result,
            "asked": asked,
            **fmt.correction_context(evening, rnd=history.round, form=form),
        },
    )


def _no_such_table(request: HttpRequest, evening, number: int, table: int) -> HttpResponse:
    """Back to the corrections page, saying why round ``number``'s table ``table`` has nothing
    to correct: the round is still in play, or it has no bell with that table."""
    rnd = evening.rounds.filter(number=number).first()
    if rnd is not None and rnd.state in state.OPEN_STATES:
        messages.error(request, f"Round {number} is still in play: enter or change its results on the evening page.")
    else:
        messages.error(request, f"Round {number} has no bell on record with a table {table}.")
    return redirect("host-corrections", evening.pk)


def _correction_messages(request: HttpRequest, evening, number: int, table: int, done: corrections.Correction) -> None:
    """Tell the host what the correction of round ``number``, table ``table`` did: the bells
    played again and who sits elsewhere (by name), or why nobody moves (the seats played since
    kept), the tables that must report again, and the bells' warnings."""
    names = guest_names(evening)
    bells = len(set(done.rounds))
    played = f"the {plural(bells, 'bell')} of {numbered('round', done.rounds)} {plural(bells, 'was')}"
    where = seat_moves((names.get(g, "A guest"), t) for g, t in done.moves) or "Nobody sits elsewhere."
    kept = f" {done.seats_words}" if done.seats_words else ""
    messages.success(request, f"Round {number}, table {table} corrected; {played} played again. {where}{kept}")
    if done.reopened:
        messages.warning(
            request,
            "The ceremony is open again for what changed: "
            + "; ".join(done.reopened)
            + ". Reveal it again on the finish page.",
        )
    if done.report_again:
        messages.warning(request, f"{numbered('Table', done.report_again)} of the round in play must report again.")
    for warning in done.warnings:
        messages.warning(request, warning)


@login_required
def bell_cuts_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Ring the bell with the cards cut by hand: a dry run shows who may have to cut (ties at
    the head table, a split pool, a lot, a seat change); the host enters the cards cut
    (blank: the app cuts) and rings. The page names the tables still missing a result (it is a
    second step already, so it rings without another question), and a page left open from an
    earlier round rings nothing (its hidden round number)."""
    evening = _evening(request, evening_id)
    if (own := own_page("bell_cuts", request, evening)) is not None:
        return own
    current = state.current_round(evening)
    posted = request.POST if request.method == "POST" else None
    round_form = RoundNumberForm(posted, initial={"round": current.number if current else None})
    shown = round_form.cleaned_data["round"] if posted is not None and round_form.is_valid() else None
    if posted is not None and (current is None or shown != current.number):
        now = f" Round {current.number} is in play now: look at it again." if current is not None else ""
        messages.error(
            request,
            f"That page was for round {shown or 'an earlier round'}, whose bell has rung "
            f"already: nothing was rung.{now}",
        )
        return redirect("host-bell-cuts" if current is not None else "host-evening", evening.pk)
    if current is None:
        messages.error(request, "No round is in play.")
        return redirect("host-evening", evening.pk)
    preview = bell.bell_preview(rnd=current)
    ids = [g for _, group in preview.cutters for g in group]
    guests = {g.pk: g for g in Guest.objects.filter(pk__in=ids)}
    form = CutsForm(request.POST or None, guests=[guests[g] for g in dict.fromkeys(ids) if g in guests])
    if request.method == "POST" and form.is_valid():
        try:
            with unchanged_since(evening, form, ANY_CHANGE):
                rung = bell.bell_ring(
                    round_id=current.pk,
                    cause=Bell.Cause.HOST,
                    user=request.user,
                    device=_device(request),
                    cuts=form.cuts(),
                )
        except RuleError as error:
            form.add_error(None, error_message(error, evening))
        else:
            _rung_messages(request, evening, current, rung)
            return redirect("host-evening", evening.pk)
    names = guest_names(evening)
    contests = [(why, [names.get(g, g) for g in group]) for why, group in preview.cutters]
    return render(
        request,
        "host/bell_cuts.html",
        {
            "evening": evening,
            "round": current,
            "preview": preview,
            "contests": contests,
            "form": form,
            "round_form": round_form,
            "missing": missing_tables(evening, current),
        },
    )


def _rung_messages(request: HttpRequest, evening, current, rung: Bell | None) -> None:
    """Tell the host what ringing round ``current``'s bell did: rung (``rung``, with its
    warnings, guests by name), or waiting for results, or rung already."""
    if rung is not None:
        messages.success(request, f"The bell of round {current.number} has rung.")
        names = guest_names(evening)
        for warning in once(name_guests(w, names) for w in rung.record.get("warnings", ())):
            messages.warning(request, warning)
    else:
        current.refresh_from_db()
        messages.info(request, current.waiting_for or "The bell had already rung.")


@login_required
def audit_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The audit log, newest first, 100 a page: when, what happened in a sentence with guests'
    names (``tournament.selectors.audit_sentences``: "Ann disputed table 3's result in round 2: “wrong
    pool winner”"), and from which device or link."""
    evening = _evening(request, evening_id)
    names = guest_names(evening)
    query = PageQuery(request.GET)
    page = Paginator(
        evening.audit.select_related("user", "guest", "helper").order_by("-at", "-id"), AUDIT_PAGE
    ).get_page(query.cleaned_data["page"] if query.is_valid() else 1)
    rows = [{"entry": e, "sentence": audit_sentence(e, names), "device": device_name(e.device)} for e in page]
    context = {"evening": evening, "page": page, "rows": rows, "names": tuple(names.values())}
    return render(request, "host/audit.html", context)


def device_name(agent: str) -> str:
    """A short name for a user agent: "iPhone · Safari", "Android · Chrome", "Mac · Firefox",
    "terminal" for an empty one (management commands and the clock)."""
    if not agent:
        return "terminal or the clock"
    system = next(
        (
            name
            for key, name in (
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Android", "Android"),
                ("Windows", "Windows"),
                ("Mac OS", "Mac"),
                ("Linux", "Linux"),
            )
            if key in agent
        ),
        "",
    )
    browser = next(
        (
            name
            for key, name in (("Firefox", "Firefox"), ("Edg/", "Edge"), ("Chrome", "Chrome"), ("Safari", "Safari"))
            if key in agent
        ),
        "",
    )
    return " · ".join(part for part in (system, browser) if part) or agent[:40]
