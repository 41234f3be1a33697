"""The rules pages and the host's game page, each handed to the format that has it.

* ``/rules/<game>/``: a format's rules page (``FormatPlugin.rules_page``: ``/rules/euchre/``,
  ``/rules/whist/``, ``/rules/bunco/``; the host's board links there), or the rules of a table
  game a format's tables play (``FormatPlugin.game_rules_page``: Progressive Poker's seed
  games), with the evening's options when reached with ``?evening=<public key>``; else a 404.
* ``/e/<public key>/rules/``: the rules page headed by what this evening plays
  (``FormatPlugin.evening_rules_page``); a format with none leads to the whole rules page.
* ``/host/e/<id>/game/``: the host picks the table game, where the format has one (its own
  page "game", ``FormatPlugin.pages``); an evening of another format goes to its settings,
  where its format's options are, with a message saying so.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect

from tournament.forms.actions import EveningLinkQuery
from tournament.models import Evening
from tournament.registry import format_for, installed_formats
from tournament.views.format_pages import own_page


def rules_game(request: HttpRequest, game: str) -> HttpResponse:
    """The rules page at ``/rules/<game>/``: the format named ``game``'s own page, else the
    table game ``game``'s page from the format that plays it (the evening's values with
    ``?evening=<public key>``). Raises ``Http404`` for a bad evening query or when no format
    knows ``game``."""
    fmt = installed_formats().get(game)
    evening = None
    query = EveningLinkQuery(request.GET)
    if not query.is_valid():
        raise Http404("No such evening.")
    if query.cleaned_data["evening"]:
        evening = get_object_or_404(Evening, public_key=query.cleaned_data["evening"])
    own = fmt.rules_page(request, evening) if fmt is not None else None
    if own is not None:
        return own
    for plugin in installed_formats().values():
        page = plugin.game_rules_page(request, game, evening)
        if page is not None:
            return page
    raise Http404("No such game.")


def rules_evening(request: HttpRequest, public_key: str) -> HttpResponse:
    """The rules page headed by what this evening plays, drawn by its format
    (``FormatPlugin.evening_rules_page``); the whole rules page when the format has none. An
    unknown key is a 404."""
    evening = get_object_or_404(Evening, public_key=public_key)
    own = format_for(evening).evening_rules_page(request, evening)
    return own if own is not None else redirect("rules")


@login_required
def host_game(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The host's page of the game at the tables, drawn by the format (``own_page("game")``);
    an evening whose format has no table game goes to its settings, with a message saying so.
    Another host's evening is a 404."""
    evening = get_object_or_404(Evening, pk=evening_id, host=request.user)
    own = own_page("game", request, evening)
    if own is not None:
        return own
    messages.info(
        request,
        f"There is no table game to choose: this evening plays {evening.get_format_display()}, whose options are here.",
    )
    return redirect("host-evening-edit", evening.pk)
