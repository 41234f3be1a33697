"""The host's standings and prizes page (with the settlement sheet when a counter has a money
value) and the house-rules page.

Standings and prizes come from ``tournament.services.prizes``; the house rules are set by
``tournament.services.house_rules``. Login required; a host sees only their own evenings.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tables.errors import RuleError
from tournament.forms.bell import HouseRulesForm
from tournament.selectors.guest_boards import shared_standings
from tournament.services import house_rules, prizes, state
from tournament.services.naming import error_message
from tournament.views.format_pages import own_page
from tournament.views.host import _device, _evening
from tournament.views.stale import SETTINGS, seen_beside, unchanged_since


@login_required
def standings_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Standings (place, yellow counters, counters, stakes, counters won), the prizes with
    their reasons, and the settlement sheet when ``Evening.counter_value`` is set."""
    evening = _evening(request, evening_id)
    if (own := own_page("standings", request, evening)) is not None:
        return own
    try:
        table = shared_standings(evening)  # once per process and version, as the board
    except RuleError as error:
        messages.error(request, f"{error} Set the house rules again.")
        return redirect("host-house-rules", evening.pk)
    return render(request, "host/standings.html", {"evening": evening, "s": table})


@login_required
def house_rules_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Choose how the bell settles the cases the rules leave open, and the prize rules; each
    choice with its explanation. A new choice applies from the next bell on."""
    evening = _evening(request, evening_id)
    if (own := own_page("house_rules", request, evening)) is not None:
        return own
    try:
        bell, prize = state.bell_options(evening), prizes.prize_options(evening)
    except RuleError as error:
        messages.error(request, error_message(error, evening))
        from tables.formats.poker.bell import BellOptions
        from tables.formats.poker.prizes import PrizeOptions

        bell, prize = BellOptions(), PrizeOptions()
    form = HouseRulesForm(request.POST or None, bell=bell, prizes=prize)
    if request.method == "POST" and form.is_valid() and (seen := seen_beside(request, form)) is not None:
        try:
            with unchanged_since(evening, seen, SETTINGS):
                house_rules.house_rules_set(
                    evening=evening,
                    bell=form.bell_options(),
                    prizes=form.prize_options(),
                    user=request.user,
                    device=_device(request),
                )
        except RuleError as error:
            form.add_error(None, error_message(error, evening))
        else:
            messages.success(request, "House rules saved; they apply from the next bell.")
            return redirect("host-evening", evening.pk)
    return render(request, "host/options.html", {"evening": evening, "form": form})
