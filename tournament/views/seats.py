"""The host's "Change seats" page: swap two guests, or move a guest to a table with room or to a
ghost's seat (``services.seat_changes.seats_change``). The view reads the form
(``forms.actions.SeatChangeForm``) and calls the service; a ``RuleError`` becomes a message
naming the guests and changes nothing. A button from a page drawn before a later step (a
bell, an undo, an arrival, a departure, another seat change) or the draw is refused with what
changed since (``views.stale``, ``SEATS``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from tables.errors import RuleError
from tournament.forms.actions import SeatChangeForm, form_problems
from tournament.models import Evening
from tournament.registry import format_for
from tournament.selectors.seats import seats_view
from tournament.services.bell import bell_undo
from tournament.services.naming import error_message
from tournament.services.seat_changes import seats_change
from tournament.views.stale import SEATS, unchanged_since


@login_required
def seats_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """GET: every table with who sits where, the two forms (swap, move) and, when the evening's
    last step is a seat change, its undo. POST: the change (or the undo), then back to this page
    with what changed, or why nothing did. Another host's evening is a 404."""
    evening = get_object_or_404(Evening, pk=evening_id, host=request.user)
    if request.method == "POST":
        form = SeatChangeForm(request.POST)
        if not form.is_valid():
            for problem in form_problems(form):
                messages.error(request, problem)
            return redirect("host-seats", evening.pk)
        data = form.cleaned_data
        if data["action"] == "undo":
            try:
                with unchanged_since(evening, form, SEATS):
                    bell_undo(
                        evening=evening,
                        bell_id=data["step"],
                        user=request.user,
                        device=request.META.get("HTTP_USER_AGENT", "")[:200],
                    )
            except RuleError as error:
                messages.error(request, error_message(error, evening))
            else:
                messages.success(request, "The seat change is undone: everyone is back in the seats before it.")
            return redirect("host-seats", evening.pk)
        try:
            with unchanged_since(evening, form, SEATS):
                words = seats_change(
                    evening=evening,
                    guest_id=data["guest"],
                    other_id=data.get("other") if data["action"] == "swap" else None,
                    table=data.get("table") if data["action"] == "move" else None,
                    seat=data.get("seat") if data["action"] == "move" else None,
                    user=request.user,
                    device=request.META.get("HTTP_USER_AGENT", "")[:200],
                )
        except RuleError as error:
            messages.error(request, error_message(error, evening))
        else:
            messages.success(request, words)
        return redirect("host-seats", evening.pk)
    return render(
        request,
        "host/seats.html",
        {"evening": evening, "view": seats_view(evening), "seats_named": format_for(evening).seats_named},
    )
