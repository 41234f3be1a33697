"""The host's end of the evening (issue 11 deliver 4): *End the evening* with its confirmation,
the end page (the final count table by table, the prize ceremony, the results to print), one
table's final count, and the ceremony's "Reveal next prize".

Login required; another host's evening is a 404. Every change goes through
``tournament.services.ending``; a ``RuleError`` becomes a message and changes nothing. Bad
input (a table that does not exist, a guest not at the table, a stale tab, a second tap) is
refused with a message, never a server error.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tables.errors import RuleError
from tables.words import joined
from tournament.forms.evening import CeremonyForm, EndEveningForm, FinalCountForm
from tournament.models import Evening, Round
from tournament.registry import format_for
from tournament.selectors.finish_page import finish_reading
from tournament.services import ending
from tournament.services.naming import error_message
from tournament.services.state import OPEN_STATES
from tournament.views.stale import CEREMONY_STEP, CLOCK_BUTTONS, unchanged_since


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening, pk=evening_id, host=request.user)


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def _form_errors(form) -> str:
    """A form's errors as one sentence for a message."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


@login_required
def end_evening(request: HttpRequest, evening_id: int) -> HttpResponse:
    """*End the evening*: GET explains what happens and asks to confirm; POST (``EndEveningForm``)
    ends it. With a round in play it becomes the last round and the host goes back to the
    board; between rounds play ends and the host goes to the end page. An evening that has
    ended already goes to the end page."""
    evening = _evening(request, evening_id)
    if evening.stage == Evening.Stage.ENDED and request.method != "POST":
        return redirect("host-finish", evening.pk)
    last: Round | None = evening.rounds.order_by("-number").first()
    form = EndEveningForm(request.POST or None, initial={"round": last.number if last else 0})
    if request.method == "POST" and form.is_valid():
        try:
            with unchanged_since(evening, form, CLOCK_BUTTONS):
                done = ending.evening_end(
                    evening=evening, seen_round=form.cleaned_data["round"], user=request.user, device=_device(request)
                )
        except RuleError as error:
            messages.error(request, error_message(error, evening))
            return redirect("host-finish" if evening.stage == Evening.Stage.ENDED else "host-end", evening.pk)
        counting = format_for(evening).final_count  # a final count of counters, where the format has one
        if done == "last round" and last is not None:  # (the round that became the last one)
            messages.success(
                request,
                f"Round {last.number} is now the last round. Ring its bell when the "
                + ("deal is done; then take the final count." if counting else "game is over; then give the prizes."),
            )
            return redirect("host-evening", evening.pk)
        messages.success(
            request,
            "The evening has ended. "
            + ("Take the final count table by table, then give the prizes." if counting else "Give the prizes."),
        )
        return redirect("host-finish", evening.pk)
    in_play = last is not None and last.state in OPEN_STATES
    is_last = bool(in_play and last is not None and Round.is_last_number(last.number, evening=evening))
    return render(
        request,
        "host/end_confirm.html",
        {
            "evening": evening,
            "form": form,
            "last": last,
            "in_play": in_play,
            "is_last": is_last,
            "counting": format_for(evening).final_count,
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
def finish_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The end page: the final count (each table's state and its form), the prize ceremony
    (reveal the next prize, what the room shows now), the results and certificates to print."""
    evening = _evening(request, evening_id)
    if evening.stage != Evening.Stage.ENDED:
        messages.info(
            request, "The evening has not ended yet. Use “End the evening” on the board when the last round is played."
        )
        return redirect("host-evening", evening.pk)
    reading = finish_reading(evening)  # kept per evening version: drawn again, nothing is computed
    tables, now = list(reading.tables), reading.ceremony
    counted = sum(1 for t in tables if t.count is not None)
    return render(
        request,
        "host/finish.html",
        {
            "evening": evening,
            "counting": format_for(evening).final_count,
            "tables": tables,
            "counted": counted,
            "ceremony": now,
            "reveal": CeremonyForm(initial={"step": now.step or 0}),
            "must_count": bool(
                now.step is None
                and now.uncounted
                and format_for(evening).house_rule(evening, "last_round_counts") == "require"
            ),
        },
    )


@login_required
def final_count(request: HttpRequest, evening_id: int, table: int) -> HttpResponse:
    """One table's final count: every guest's counters, pre-filled from the last count (or the
    count saved already). Saved: back to the end page. A count that does not add up shows the
    difference and offers "the table agrees the count is off by N"."""
    evening = _evening(request, evening_id)
    if evening.stage != Evening.Stage.ENDED:
        messages.error(request, "The evening has not ended yet: the final count comes after the last bell.")
        return redirect("host-evening", evening.pk)
    tables = ending.final_count_tables(evening)
    if not 1 <= table <= len(tables):
        messages.error(request, f"There is no table {table}: the tables are 1 to {len(tables)}.")
        return redirect("host-finish", evening.pk)
    here = tables[table - 1]
    names = {g.pk: g.name for g in evening.guests.filter(pk__in=here.guests)}
    guests = [(g, names.get(g, "")) for g in here.guests]
    form = FinalCountForm(request.POST or None, guests=guests, initial_counters=here.prefill)
    off = None
    if request.method == "POST" and form.is_valid():
        # A field for a guest not at this table (a stale or forged form): the service refuses it by name.
        counters = {**form.counters(), **{g: 0 for g in form.strangers()}}
        try:
            ending.final_count_record(
                evening=evening,
                table=table,
                counters=counters,
                agreed_off=form.agreed(),
                user=request.user,
                device=_device(request),
            )
        except ending.CountOff as error:
            form.add_error(None, error_message(error, evening))
            off = error.difference
        except RuleError as error:
            form.add_error(None, error_message(error, evening))
        else:
            messages.success(request, f"Final count saved for table {table}.")
            return redirect("host-finish", evening.pk)
    return render(
        request,
        "host/final_count.html",
        {
            "evening": evening,
            "table": here,
            "form": form,
            "off": off,
            "off_size": abs(off) if off else 0,
            "rows": [(field, here.last[pk]) for field, (pk, _) in zip(form.counter_fields(), guests, strict=True)],
            "last_total": sum(here.last.values()),
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def ceremony_reveal(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The ceremony's tap: reveal the next prize (then the final standings) on the room display
    and the phones. Back to the end page with what is shown now."""
    evening = _evening(request, evening_id)
    form = CeremonyForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect("host-finish", evening.pk)
    try:
        with unchanged_since(evening, form, CEREMONY_STEP):
            now = ending.ceremony_next(
                evening=evening, seen_step=form.cleaned_data["step"], user=request.user, device=_device(request)
            )
    except RuleError as error:
        messages.error(request, error_message(error, evening))
        return redirect("host-finish" if evening.stage == Evening.Stage.ENDED else "host-evening", evening.pk)
    if now.finished:
        messages.success(
            request, "The final standings are on the room display. The results and certificates are ready to print."
        )
    else:
        shown = now.revealed[-1]
        won = joined(g.name for g in shown.winners) or "won by no one"
        said = f"The room display shows: {shown.title}, {won}"
        messages.success(request, said if said.endswith(".") else f"{said}.")
    return redirect("host-finish", evening.pk)
