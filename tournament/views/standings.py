"""The host's standings and prizes page (with the settlement sheet when a counter has a money
value) and the house-rules page.

Standings and prizes come from the evening's format (``FormatPlugin.standings``); the house
rules are the format's own page (Progressive Poker's ``formats.poker.house_rules_page``). Login required; a host sees only their own evenings.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tables.errors import RuleError
from tournament.selectors.guest_boards import shared_standings
from tournament.views.format_pages import own_page
from tournament.views.host import _evening


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
    """The house rules the evening's format lets the host choose (its own page,
    ``FormatPlugin.pages["house_rules"]``: Progressive Poker's bell and prize options); a
    format with none sends the host back to the evening's board, saying so."""
    evening = _evening(request, evening_id)
    if (own := own_page("house_rules", request, evening)) is not None:
        return own
    messages.info(request, f"{evening.get_format_display()} has no house rules to choose here.")
    return redirect("host-evening", evening.pk)
