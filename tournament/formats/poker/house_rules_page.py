"""Progressive Poker's house-rules page (``PokerFormat.pages["house_rules"]``): the bell's and
the prizes' options, each choice with its explanation, saved by ``formats.poker.house_rules``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tables.errors import RuleError
from tables.formats.poker.bell import BellOptions
from tables.formats.poker.prizes import PrizeOptions
from tournament.formats.poker.house_rules import house_rules_set
from tournament.formats.poker.house_rules_form import HouseRulesForm
from tournament.formats.poker.standings import prize_options
from tournament.formats.poker.state import bell_options
from tournament.models import Evening
from tournament.services.naming import error_message
from tournament.views.host import _device
from tournament.views.stale import SETTINGS, seen_beside, unchanged_since


def house_rules_page(request: HttpRequest, evening: Evening) -> HttpResponse:
    """Choose how the bell settles the cases the rules leave open, and the prize rules; each
    choice with its explanation. A new choice applies from the next bell on. Stored options the
    rules no longer know are said, and the form starts from the defaults. The host's own
    evening only (``views.standings.house_rules_page`` found it)."""
    try:
        bell, prize = bell_options(evening), prize_options(evening)
    except RuleError as error:
        messages.error(request, error_message(error, evening))
        bell, prize = BellOptions(), PrizeOptions()
    form = HouseRulesForm(request.POST or None, bell=bell, prizes=prize)
    if request.method == "POST" and form.is_valid() and (seen := seen_beside(request, form)) is not None:
        try:
            with unchanged_since(evening, seen, SETTINGS):
                house_rules_set(
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
