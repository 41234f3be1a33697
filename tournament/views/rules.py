"""The rules pages of each seed game, the evening's rules, and the host's game page.

* ``/rules/<game>/``: one game's rules (the fragment in ``templates/rules/<game>.html``) and
  every option it has, with the defaults, or with the evening's values when reached with
  ``?evening=<public key>``. A format with a rules page of its own (``FormatPlugin.rules_page``:
  ``/rules/euchre/``, ``/rules/whist/``, ``/rules/bunco/``; the host's board links there) shows
  it: the format's rules, the host's options in words, and the cases the sources leave open.
* ``/e/<public key>/rules/``: the whole rules page headed by what this evening plays: its game
  and every option in force.
* ``/host/e/<id>/game/``: the host picks the table game and its options (checked by the
  game's options class; an unknown option is refused by name).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from tables.errors import RuleError
from tables.formats.poker.showdown import Game
from tournament.forms.actions import EveningLinkQuery, GameChoiceForm, form_problems
from tournament.forms.game import option_rows, options_from_post, options_summary
from tournament.models import Evening
from tournament.registry import format_for, installed_formats
from tournament.services.games import evening_game, evening_game_set


def _game_or_404(value: str) -> Game:
    try:
        return Game.parse(value)
    except RuleError:
        raise Http404("No such game.") from None


def rules_game(request: HttpRequest, game: str) -> HttpResponse:
    """One game's rules and options (the evening's values with ``?evening=<public key>``); a
    format with a rules page of its own shows it (``FormatPlugin.rules_page``)."""
    fmt = installed_formats().get(game)
    evening = None
    options = None
    query = EveningLinkQuery(request.GET)
    if not query.is_valid():
        raise Http404("No such evening.")
    if query.cleaned_data["evening"]:
        evening = get_object_or_404(Evening, public_key=query.cleaned_data["evening"])
    own = fmt.rules_page(request, evening) if fmt is not None else None
    if own is not None:
        return own
    chosen = _game_or_404(game)
    if evening is not None:
        setting = evening_game(evening)
        if setting.game is chosen:
            options = setting.options
    return render(
        request,
        "rulebook/game.html",
        {
            "game": chosen,
            "games": list(Game),
            "fragment": f"rules/{chosen.value}.html",
            "evening": evening,
            "plays_it": options is not None,
            "rows": option_rows(chosen, options),
        },
    )


def rules_evening(request: HttpRequest, public_key: str) -> HttpResponse:
    """The rules page headed by this evening's game and every option in force; an evening at
    format with a rules page of its own shows it with the evening's options (``FormatPlugin.rules_page``)."""
    evening = get_object_or_404(Evening, public_key=public_key)
    own = format_for(evening).rules_page(request, evening)
    if own is not None:
        return own
    setting = evening_game(evening)
    return render(
        request,
        "rulebook/evening.html",
        {
            "evening": evening,
            "setting": setting,
            "rows": option_rows(setting.game, setting.options),
            "summary": options_summary(setting.game, setting.options),
            "games": list(Game),
        },
    )


@login_required
def host_game(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Pick the evening's table game and its options (Progressive Poker's; an evening at tables
    of four goes to its settings, where its format's options are, with a message saying so)."""
    evening = get_object_or_404(Evening, pk=evening_id, host=request.user)
    if not evening.plays_table_game:
        messages.info(
            request,
            f"The table game is Progressive Poker's choice; this evening plays {evening.get_format_display()}, "
            "whose options are here.",
        )
        return redirect("host-evening-edit", evening.pk)
    setting = evening_game(evening)
    chosen, error = setting.game, ""
    if request.method == "POST":
        form = GameChoiceForm(request.POST)
        try:
            if not form.is_valid():
                raise RuleError(" ".join(form_problems(form)))
            chosen = Game.parse(form.cleaned_data["game"])
            evening_game_set(
                evening=evening,
                game=chosen,
                options=options_from_post(chosen, request.POST),
                user=request.user,
                device=request.META.get("HTTP_USER_AGENT", "")[:200],
            )
        except RuleError as problem:
            error = str(problem)
        else:
            messages.success(request, f"The tables play {chosen.title} ({options_summary(*_now(evening))}).")
            return redirect("host-evening", evening.pk)
    games = [
        {"game": g, "rows": option_rows(g, setting.options if g is setting.game else None), "checked": g is chosen}
        for g in Game
    ]
    return render(
        request, "rulebook/host_game.html", {"evening": evening, "games": games, "error": error, "setting": setting}
    )


def _now(evening: Evening):
    setting = evening_game(evening)
    return setting.game, setting.options
